"""``tankmap new``: write an empty scenario for a ruleset."""

from __future__ import annotations

import argparse
import re
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "new",
        help="create an empty scenario file",
        description="Create an empty scenario (no pieces) for RULESET and write it to FILE.",
    )
    p.add_argument("ruleset", help="ruleset name (see 'tankmap rulesets')")
    p.add_argument("--board", metavar="CxR", help="board size, e.g. 16x16 (default: the ruleset's)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a ruleset option (repeatable), e.g. extra_forces=true",
    )
    p.add_argument("--title", default="", help="scenario title")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="file to write")
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from tankmap.commands.common import claim_output, parse_option_args
    from tankmap.rules.board import Board
    from tankmap.rules.errors import TankmapError
    from tankmap.rules.fileformat import write_scenario
    from tankmap.rules.registry import get_ruleset

    rs = get_ruleset(args.ruleset)
    board = None
    if args.board:
        m = re.fullmatch(r"\s*(\d{1,4})\s*[xX×]\s*(\d{1,4})\s*", args.board)
        if not m:
            raise TankmapError(f"--board must look like 16x16, not {args.board!r}")
        columns, rows = int(m.group(1)), int(m.group(2))
        problem = rs.board_problem(columns, rows)
        if problem:
            raise TankmapError(f"--board {args.board}: {problem}")
        try:
            board = Board.of(columns, rows)
        except ValueError as exc:
            raise TankmapError(f"--board {args.board}: {exc}") from None
    options = parse_option_args(rs, args.option)
    scenario = replace(rs.new_scenario(board, options), title=args.title)
    write_scenario(scenario, claim_output(args.output, args.force))
    print(f"wrote {args.output} ({rs.name}, {scenario.board.columns}x{scenario.board.rows})")
    return 0
