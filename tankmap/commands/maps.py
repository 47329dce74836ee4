"""``tankmap maps``: the built-in maps, by the names every command accepts."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "maps",
        help="list the built-in maps",
        description=(
            "List the built-in maps: name (use it wherever a scenario FILE is asked for, "
            "e.g. 'tankmap check final-act/mirror'), game, board, legality and title."
        ),
    )
    p.add_argument("--json", action="store_true", help='print {"maps": [...]} as JSON')
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from tankmap.commands.common import print_json
    from tankmap.maps import catalogue

    entries = catalogue()
    if args.json:
        print_json({"maps": [e.to_json() for e in entries]})
        return 0
    width = max(len(e.name) for e in entries)
    for e in entries:
        legal = "legal" if e.legal else "ILLEGAL"
        board = f"{e.columns}x{e.rows}"
        print(f"{e.name:<{width}}  {e.ruleset:<10}  {board:>5}  {legal:<7}  {e.title}")
    return 0
