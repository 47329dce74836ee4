"""``tankmap check``: is each scenario legal and complete, and if not, why."""

from __future__ import annotations

import argparse
from typing import Any

from tankmap.commands.common import add_option_flag


def register(sub: Any) -> None:
    p = sub.add_parser(
        "check",
        help="check scenarios against their rules",
        description=(
            "Check each FILE against its ruleset's setup rules. Exit code 0 = all legal, "
            "1 = some setup breaks a rule, 2 = some file could not be read (one line on "
            "standard error says why; the other files are still checked)."
        ),
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print one JSON document (docs/cli-json.md)")
    add_option_flag(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from tankmap.commands.common import file_error, load, print_json
    from tankmap.rules.errors import TankmapError, printable
    from tankmap.rules.registry import get_ruleset
    from tankmap.rules.sides import result_text
    from tankmap.rules.violations import is_complete, is_legal

    results: list[dict[str, Any]] = []
    worst = 0
    for path in args.files:
        try:
            scenario = load(path, args.option)
        except TankmapError as exc:  # one line on stderr, --json or not; the others go on
            results.append(file_error("check", path, exc))
            worst = 2
            continue
        rs = get_ruleset(scenario.ruleset)
        violations = rs.check(scenario)
        legal, complete = is_legal(violations), is_complete(violations)
        finished = rs.finished(scenario)
        if not legal:
            worst = max(worst, 1)
        results.append(
            {
                "file": path,
                "ruleset": rs.name,
                "provisional": rs.provisional,
                "legal": legal,
                "complete": complete,
                "violations": [v.to_json(scenario.board) for v in violations],
                "finished": None if finished is None else finished.to_json(),
            }
        )
        if not args.json:
            state = "legal" if legal else "ILLEGAL"
            state += "" if complete else ", incomplete"
            if finished is not None:
                who = "a draw" if finished.winner is None else result_text(rs.name, finished.winner)
                state += f", finished: {who} ({finished.reason})"
            note = " [provisional ruleset]" if rs.provisional else ""
            # names and kinds from the file reach the terminal escaped and cut to a line
            print(f"{printable(path, 300)}: {state} ({rs.name}){note}")
            for v in violations:
                cells = " ".join(scenario.board.cell_name(c) for c in v.cells)
                where = f" [{cells}]" if cells else ""
                print(f"  {v.severity.value}: {v.code}: {printable(v.message, 300)}{where}")
    if args.json:
        print_json({"files": results})
    return worst
