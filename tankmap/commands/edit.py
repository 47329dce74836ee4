"""``tankmap edit [FILE]``: open the Qt editor (a new Final Act board without FILE)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "edit",
        help="open the board editor",
        description=(
            "Open the Qt editor on FILE, or on a new Final Act board. Every placement is "
            "checked against the rules; the Problems dock lists what is still wrong."
        ),
    )
    p.add_argument(
        "file", nargs="?", help="scenario file or built-in map name (final-act/mirror) to open"
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from tankmap.qtcheck import display_problem
    from tankmap.rules.errors import import_extra

    import_extra("PySide6", "gui", "the editor")
    problem = display_problem()
    if problem is not None:
        print(f"tankmap edit: error: {problem}", file=sys.stderr)
        return 2
    from tankmap.editor.app import run as run_editor
    from tankmap.maps import resolve

    return run_editor(resolve(args.file) if args.file else None)
