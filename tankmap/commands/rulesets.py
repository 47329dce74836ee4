"""``tankmap rulesets``: list the rulesets, their boards, kinds and options."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "rulesets",
        help="list rulesets and their options",
        description="List every ruleset with its board, piece kinds and options (with defaults).",
    )
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from tankmap.commands.common import print_json
    from tankmap.rules.registry import get_ruleset, ruleset_names

    rows: list[dict[str, Any]] = []
    for name in ruleset_names():
        rs = get_ruleset(name)
        rows.append(
            {
                "name": rs.name,
                "title": rs.title,
                "provisional": rs.provisional,
                "board": f"{rs.default_board[0]}x{rs.default_board[1]}",
                "terrain_kinds": list(rs.terrain_kinds),
                "unit_kinds": list(rs.unit_kinds),
                "options": [
                    {"name": s.name, "default": s.default, "help": s.help} for s in rs.option_specs
                ],
            }
        )
    if args.json:
        print_json({"rulesets": rows})
        return 0
    for row in rows:
        flag = "  [PROVISIONAL: reconstructed from a partial manual]" if row["provisional"] else ""
        print(f"{row['name']}  {row['title']}  (board {row['board']}){flag}")
        print(f"  terrain: {', '.join(row['terrain_kinds']) or '-'}")
        print(f"  units:   {', '.join(row['unit_kinds'])}")
        for opt in row["options"]:
            default = opt["default"]
            shown = str(default).lower() if isinstance(default, bool) else default
            print(f"  option {opt['name']} = {shown}  {opt['help']}")
        print()
    return 0
