"""``tankmap perft``: count Tank Chess turn sequences (move-generator proof, docs/cli-json.md)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "perft",
        help="Tank Chess: count the turn sequences of a given length",
        description=(
            "Count the distinct Tank Chess turn sequences of length N from the position in "
            "FILE (side to move: the file's to_move). Every legal shot target counts, whether "
            "or not it destroys; a game-ending turn is a leaf; max_turns is ignored."
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

    if args.depth < 0:
        raise TankmapError(f"--depth must be 0 or more, not {args.depth}")
    if args.depth > 8:
        raise TankmapError(f"--depth {args.depth} would take forever; use at most 8")
    scenario = load(args.file)
    if scenario.ruleset != "tank-chess":
        raise TankmapError(
            f"{args.file}: perft counts Tank Chess turns; this is a {scenario.ruleset!r} scenario"
        )
    state = initial_state(scenario)
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
