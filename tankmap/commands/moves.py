"""``tankmap moves``: each unit's legal moves and fire zone in the current position."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tankmap.commands.common import add_option_flag


def register(sub: Any) -> None:
    p = sub.add_parser(
        "moves",
        help="list each unit's legal moves and fire zone",
        description=(
            "List every distinct (cell, facing) each unit can end a legal move in, and the "
            "cells it may fire at now (docs/cli-json.md 'moves')."
        ),
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "--unit", metavar="NAME", help="only units with this name (or this cell, e.g. f1)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON document")
    add_option_flag(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from tankmap.commands.common import load, print_json
    from tankmap.rules.errors import TankmapError, printable
    from tankmap.rules.geometry import Side
    from tankmap.rules.registry import get_ruleset

    scenario = load(args.file, args.option)
    rs = get_ruleset(scenario.ruleset)
    board = scenario.board
    units = list(scenario.units)
    if args.unit:
        units = [
            u for u in units if u.name == args.unit or board.cell_name(u.cell) == args.unit.lower()
        ]
        if not units:
            raise TankmapError(f"{args.file}: no unit named {args.unit!r}")
    out = []
    for u in units:
        moves = [] if u.wreck else rs.moves(scenario, u)
        zone = [] if u.wreck else rs.fire_zone(scenario, u)
        out.append(
            {
                "name": u.name,
                "kind": u.kind,
                "side": u.side.value,
                "cell": board.cell_name(u.cell),
                "facing": None if u.facing is None else u.facing.name,
                "wreck": u.wreck,
                "moves": [m.to_json(board) for m in moves],
                "fire_zone": [board.cell_name(c) for c in zone],
            }
        )
    if rs.provisional:
        # The JSON document is exactly the contract's; the marking goes to stderr there.
        print(
            f"{printable(args.file, 300)}: {rs.name} [provisional ruleset: reconstructed from "
            "a partial manual, every number is an option]",
            file=sys.stderr if args.json else sys.stdout,
        )
    if args.json:
        print_json({"units": out})
        return 0
    if not out:  # (an empty board; --unit finding none is an error above)
        print(f"{printable(args.file, 300)}: no units on the board: nothing moves")
    for row in out:
        side = rs.side_names()[Side(row["side"])]
        # names from the file shown escaped: no control character reaches the terminal
        name = f" {printable(row['name'], 60)}" if row["name"] else ""
        label = f"{side} {row['kind']}{name}"
        print(
            f"{label} at {row['cell']}"
            + (f" facing {row['facing']}" if row["facing"] else "")
            + (" (wreck)" if row["wreck"] else "")
        )
        listed = ", ".join(f"{m['to']}{m['facing'] or ''}" for m in row["moves"]) or "none"
        print(f"  moves ({len(row['moves'])}): {listed}")
        print(f"  fire zone ({len(row['fire_zone'])}): {' '.join(row['fire_zone']) or 'none'}")
    return 0
