"""``tankmap replay``: play a game record back through the checked engine, round by round
(the stepping is ``analysis.replay``, which the editor's replay view shows too)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="play a game record back and say what happened",
        description=(
            "Play a game record (as 'tankmap simulate --record' writes it, for any of the "
            "three games; docs/formats.md) through the checked engine and print what "
            "happened in each round or turn: moves, shells and hits, units out, Tank Chess "
            "announcements, and the result. An illegal order, or a stored result the replay "
            "does not reproduce, is an error naming the round (exit 2). -o writes the final "
            "position as a scenario file that opens in the editor (not after a Tank Chess "
            "escape: the escaped tank is off the board, and the position would read as a "
            "game going on)."
        ),
    )
    p.add_argument("record", metavar="RECORD", help="game record (.json)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument("-o", "--output", metavar="FINAL.json", help="write the final position")
    p.add_argument("--force", action="store_true", help="overwrite FINAL.json if it exists")
    p.add_argument(
        "--lines",
        action="store_true",
        help="print the record's decisions one per line, as 'tankmap play --as both' reads "
        "them (docs/notation.md), and nothing else",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:

    from tankmap.analysis.replay import read_record, record_game_kind, replay_record
    from tankmap.commands.common import claim_output, print_json
    from tankmap.rules.fileformat import scenario_to_json, write_scenario

    data = read_record(args.record)
    record_game_kind(data, args.record)  # "not a game record" before anything is written
    if args.lines:
        from tankmap.analysis.play.records import record_lines

        for line in record_lines(data, args.record):
            print(line)
        return 0
    target = claim_output(args.output, args.force) if args.output else None
    replay = replay_record(data, args.record)
    doc: dict[str, Any] = {
        "result": replay.result.to_json(),
        "final": scenario_to_json(replay.final),
        "rounds": [step.to_json() for step in replay.steps],
    }
    if target is not None:
        _require_showable(replay, args.output)
        write_scenario(replay.final, target)
        doc["written"] = args.output
    if args.json:
        print_json(doc)
        return 0
    for step in replay.steps:
        print(step.line)
    print(replay.result_line())
    if args.output:
        print(f"wrote {args.output}")
    return 0


def _require_showable(replay: Any, output: str) -> None:
    """``TankmapError`` for a final position a scenario file cannot hold: a Tank Chess game
    won by the command tank's escape (off the board, the position would read as a game
    going on, which 'play' would continue)."""
    from tankmap.rules.errors import TankmapError
    from tankmap.rules.sides import result_text

    if replay.result.end == "escape":
        who = result_text(replay.game, replay.result.winner).removesuffix(" wins")
        raise TankmapError(
            f"{output}: not written: the game ended with {who}'s command tank escaping off "
            "the board, which a position cannot show (it would read as a game going on)"
        )
