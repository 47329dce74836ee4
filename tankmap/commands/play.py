"""``tankmap play``: play a board on the terminal against an agent, or both sides
(``analysis.play``: the session; ``analysis.play.terminal``: this view of it)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tankmap.commands.common import add_option_flag


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a board: you against an agent, or both sides",
        description=(
            "Play FILE (a scenario, a built-in map, or a game record to go on with) on the "
            "terminal. Each decision is one line in the notation of docs/notation.md: a Tank "
            "Chess turn like h3h5N, or one side's part of a Final Act or Tank Wars round. An "
            "unreadable or illegal line is refused with the reason and asked again. Commands: "
            "help, moves, hint, undo, board, quit. At the end of the game, of the input or at "
            "quit, --record writes the game record (as 'simulate --record' does). With --as "
            "both and lines piped in ('tankmap replay GAME --lines'), it plays exactly those."
        ),
    )
    p.add_argument("file", metavar="FILE", help="scenario, built-in map or game record")
    p.add_argument(
        "--as",
        dest="side",
        default="south",
        metavar="SIDE",
        help="the side you play: south, north or both (Tank Chess also White, Black); "
        "default south",
    )
    p.add_argument(
        "--agent",
        default="heuristic",
        metavar="NAME",
        help="the agent playing the other side: random, heuristic, search[:N]; Tank Chess "
        "also alphabeta[:N] and uct[:N], Final Act ksearch[:N] and duct[:N], Tank Wars "
        "plan[:N] and regret[:N] (alphabeta, ksearch and plan are the strongest per CPU "
        "second; at its default budget Tank Wars regret plays about as well as plan); "
        "default heuristic. 'tankmap ladder FILE --help-agents' describes each",
    )
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the agents' seed (default 0)")
    p.add_argument("--record", metavar="OUT.json", help="write the game record there at the end")
    p.add_argument("--force", action="store_true", help="overwrite OUT.json if it exists")
    p.add_argument("--ascii", action="store_true", help="facings as ^ > v < / \\ instead of arrows")
    add_option_flag(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from tankmap.analysis.play import PlaySession, open_session
    from tankmap.analysis.play.names import parse_as
    from tankmap.analysis.play.records import session_of_record
    from tankmap.analysis.play.terminal import Terminal
    from tankmap.commands.common import check_range, claim_output, load, require_playable
    from tankmap.rules.errors import TankmapError

    check_range(args.seed, 0, 2**63 - 1, "--seed")
    target = claim_output(args.record, args.force) if args.record else None
    record = _record_document(args.file)
    if record is not None:
        if args.option:
            raise TankmapError(f"{args.file}: a game record keeps its own rules (no --option)")
        session, _ = session_of_record(record, seed=args.seed, source=args.file)
        people = parse_as(session.game, args.side)
        session.set_players(_players(people, args.agent))
    else:
        scenario = load(args.file, args.option)
        require_playable(scenario, args.file, "play")  # the file named, as simulate does
        people = parse_as(scenario.ruleset, args.side)
        session = open_session(scenario, _players(people, args.agent), args.seed)

    def save(s: PlaySession) -> str | None:
        if target is None:
            return None
        s.record().save(target)
        return str(args.record)

    interactive = sys.stdin.isatty()
    recorded = len(session.steps) if record is not None else 0  # played by whoever then
    Terminal(
        session, sys.stdin, sys.stdout, interactive, ascii_only=args.ascii, recorded=recorded
    ).run(save)
    return 0


def _players(people: Any, agent: str) -> tuple[str, str]:
    """Who plays south and north: a person on the sides in ``people``, else ``agent``."""
    from tankmap.analysis.play import HUMAN
    from tankmap.rules.geometry import Side

    south, north = (HUMAN if side in people else agent for side in Side)
    return south, north


def _record_document(file: str) -> Any:
    """The JSON document of ``file`` when it is a game record, else ``None`` (a scenario,
    or something ``load`` will explain)."""
    import os

    from tankmap.analysis.replay import FORMATS, read_record
    from tankmap.maps import resolve
    from tankmap.rules.errors import TankmapError

    path = resolve(file)
    if not os.path.isfile(path):
        return None
    try:
        data = read_record(path)
    except (TankmapError, OSError):
        return None
    if not isinstance(data, dict):
        return None
    kind = data.get("format")
    # a record (its format one of FORMATS), or one whose format was damaged: a document
    # holding a "scenario" is no scenario, and the record reader says what is wrong
    return data if (isinstance(kind, str) and kind in FORMATS) or "scenario" in data else None
