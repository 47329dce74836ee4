"""``tankmap perft``: count Tank Chess turn sequences (move-generator proof, docs/cli-json.md)."""

from __future__ import annotations

import argparse
from typing import Any

MAX_SEQUENCES = 2_000_000_000
"""The most turn sequences perft counts: about an hour at the half a million a second it
counts on one core (measured on basic-16 at depth 3: 163,908,305 sequences in 332 s on a
loaded machine). On the built-in 16x16 setups that is depth 3 (depth 4 would be some 9e10,
two days)."""

MAX_DEPTH = 20
"""An absolute cap, for positions with very few turns."""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "perft",
        help="Tank Chess: count the turn sequences of a given length",
        description=(
            "Count the distinct Tank Chess turn sequences of length N from the position in "
            "FILE (side to move: the file's to_move). Every legal shot target counts, whether "
            "or not it destroys; a game-ending turn is a leaf; max_turns is ignored. A depth "
            "whose count is estimated (from depths 1 and 2) above 2,000,000,000 — about an "
            "hour — is refused; a terminal sees a progress bar by first turn."
        ),
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--depth", type=int, required=True, metavar="N", help="sequence length")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument(
        "--divide", action="store_true", help="also give the count under each first turn"
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import time

    from tankmap.commands.common import load, print_json, progress
    from tankmap.rules.errors import TankmapError
    from tankmap.rules.tank_chess.notation import format_turn
    from tankmap.rules.tank_chess.state import initial_state, perft

    if not 0 <= args.depth <= MAX_DEPTH:
        raise TankmapError(f"--depth must be between 0 and {MAX_DEPTH}, not {args.depth}")
    scenario = load(args.file)
    if scenario.ruleset != "tank-chess":
        raise TankmapError(
            f"{args.file}: perft counts Tank Chess turns; this is a {scenario.ruleset!r} scenario"
        )
    try:
        state = initial_state(scenario)
    except TankmapError as exc:  # a position the engine cannot play (pieces sharing a cell)
        raise TankmapError(f"{args.file}: {exc}") from None
    if args.depth >= 3:
        _refuse_too_deep(state, args.depth, args.file)
    start = time.perf_counter()
    divide: list[dict[str, Any]] = []
    if args.divide or args.depth >= 3:  # split by first turn (also drives the progress bar)
        total = 0
        turns = state.legal_turns() if args.depth > 0 else []
        for turn in progress(turns, len(turns), "perft", enabled=not args.json):
            text = format_turn(state, turn)
            state.push(turn)
            n = 1 if state.winner >= 0 else perft(state, args.depth - 1)
            state.pop()
            total += n
            divide.append({"turn": text, "nodes": n})
        nodes = total if args.depth > 0 else 1
    else:
        nodes = perft(state, args.depth)
    seconds = time.perf_counter() - start
    if args.json:
        doc: dict[str, Any] = {
            "depth": args.depth,
            "nodes": nodes,
            "seconds": round(seconds, 3),
            "nodes_per_second": round(nodes / seconds) if seconds > 0 else None,
        }
        if args.divide:
            doc["divide"] = divide
        print_json(doc)
        return 0
    if args.divide:
        for d in divide:
            print(f"{d['turn']}: {d['nodes']}")
        print()
    print(f"nodes: {nodes}")
    print(f"time: {seconds:.3f} s ({nodes / seconds:,.0f} nodes/s)" if seconds > 0 else "")
    return 0


def _refuse_too_deep(state: Any, depth: int, path: str) -> None:
    """``TankmapError`` if ``depth`` would count more than ``MAX_SEQUENCES``, estimated
    from the counts at depths 1 and 2 (their ratio as the branching factor; half a
    second on a 16x16 setup); the message names the deepest depth allowed here."""
    from tankmap.rules.errors import TankmapError
    from tankmap.rules.tank_chess.state import perft

    one, two = perft(state, 1), perft(state, 2)
    branching = two / one if one else 0.0

    def estimate(d: int) -> float:
        return float(two) * branching ** (d - 2)

    if estimate(depth) <= MAX_SEQUENCES:
        return
    deepest = max((d for d in range(2, depth) if estimate(d) <= MAX_SEQUENCES), default=2)
    raise TankmapError(
        f"{path}: --depth {depth} would count about {estimate(depth):.1e} turn sequences "
        f"from this position ({branching:.0f} turns per turn), more than the "
        f"{MAX_SEQUENCES:,} (about an hour) perft counts; at most --depth {deepest} here"
    )
