"""``tankmap sheets``: the per-side setup sheets (PDF), the same as the editor's export."""

from __future__ import annotations

import argparse
from typing import Any

from tankmap.commands.common import add_option_flag


def register(sub: Any) -> None:
    p = sub.add_parser(
        "sheets",
        help="write the per-side setup sheets as a PDF",
        description=(
            "Write a PDF with one A4 page per side: that side's setup only (the other "
            "side's pieces hidden, north (Tank Chess: Black) drawn from its own seat) and a "
            "list of its pieces "
            "— what File > Export setup sheets writes in the editor. Needs the editor's "
            "Qt libraries (tankmap[gui]); no display is needed."
        ),
    )
    p.add_argument("file", metavar="FILE", help="scenario file or built-in map name")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="PDF to write")
    p.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    add_option_flag(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Write the setup sheets to ``-o OUT`` atomically; ``TankmapError`` (one line) for a
    name that is no PDF, an existing OUT without ``--force``, or a folder that cannot be
    written."""
    import os
    from pathlib import Path

    from tankmap.commands.common import claim_output, load
    from tankmap.rules.errors import TankmapError, import_extra

    if Path(args.output).suffix.lower() != ".pdf":
        raise TankmapError(f"{args.output}: setup sheets are a PDF (a name ending in .pdf)")
    out = claim_output(args.output, args.force)
    scenario = load(args.file, args.option)
    import_extra("PySide6", "gui", "Setup sheets (drawn with the editor's Qt libraries)")
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from tankmap.editor.export import export_setup_sheets

    app = QApplication.instance() or QApplication([])
    # written atomically through the output gate's temp file, as render writes: a missing
    # or read-only folder is "OUT: cannot write: <why>", and a failure keeps the old file
    pages = export_setup_sheets(scenario, out)
    del app
    print(f"wrote {out} ({pages} pages, one per side)")
    return 0
