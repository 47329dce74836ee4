"""``tankmap suggest``: legal terrain edits that bring the board's balance toward even."""

from __future__ import annotations

import argparse
from typing import Any

from tankmap.commands.common import add_option_flag


def register(sub: Any) -> None:
    p = sub.add_parser(
        "suggest",
        help="suggest legal terrain edits that even the balance",
        description=(
            "Search single-piece terrain edits (shift a berm, swamp, minefield or obstacle by "
            "up to two cells, turn it, move a minefield's lane; Tank Chess also removes or "
            "adds obstacles) that the rules allow and that keep the board legal and "
            "complete; steer by terrain-only turns to goal, confirm with playouts of the "
            "agent, and re-measure the best few on fresh seeds with 95 % intervals. "
            "docs/design-assistant.md explains the search."
        ),
    )
    p.add_argument("file", metavar="FILE", help="scenario file or built-in map name")
    p.add_argument(
        "--agent",
        default="heuristic",
        help="agent playing both sides (default "
        "heuristic: fast; 'tankmap ladder' says how strong each is)",
    )
    p.add_argument(
        "--games", type=int, default=400, metavar="N", help="games per measured board (default 400)"
    )
    p.add_argument(
        "--budget",
        type=float,
        default=240.0,
        metavar="SECONDS",
        help="stop confirming candidates after about this long (default 240)",
    )
    p.add_argument(
        "--keep-symmetry",
        action="store_true",
        help="apply every edit to the other side's mirrored piece too",
    )
    p.add_argument(
        "--units",
        action="store_true",
        help="also move units' set-up positions (one unit one cell per edit)",
    )
    p.add_argument("--top", type=int, default=3, metavar="K", help="suggestions (default 3)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="K",
        help="worker processes (default: one per available CPU)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument(
        "--out", metavar="DIR", help="also write each suggested board as DIR/suggestion-K.json"
    )
    add_option_flag(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from tankmap.analysis.suggest import suggest
    from tankmap.commands.common import (
        MAX_GAMES,
        MAX_SEED,
        check_range,
        load,
        prepare_out_dir,
        print_json,
        require_playable,
        terminal_bar,
        worker_count,
    )
    from tankmap.rules.errors import TankmapError
    from tankmap.rules.fileformat import write_scenario
    from tankmap.rules.registry import get_ruleset

    scenario = load(args.file, args.option)
    check_range(args.games, 10, MAX_GAMES, "--games")
    check_range(args.seed, 0, MAX_SEED, "--seed")
    check_range(args.top, 1, 20, "--top")
    if not 1 <= args.budget <= 24 * 3600:
        raise TankmapError(f"--budget must be between 1 and 86400 seconds, not {args.budget}")
    workers = worker_count(args.workers, None, "suggest")
    if args.out:
        prepare_out_dir(args.out)
    require_playable(scenario, args.file)
    bar, finish = terminal_bar("suggest")
    result = suggest(
        scenario,
        args.agent,
        args.games,
        args.budget,
        args.seed,
        args.keep_symmetry,
        workers,
        args.top,
        bar,
        units=args.units,
    )
    finish()
    doc = result.to_json()
    doc["file"] = args.file
    if args.out:
        for k, (edit, _m) in enumerate(result.suggestions, 1):
            path = Path(args.out) / f"suggestion-{k}.json"
            write_scenario(edit.scenario, path)
            doc["suggestions"][k - 1]["file"] = str(path)
    if args.json:
        print_json(doc)
        return 0
    b = doc["before"]
    names = {side.value: name for side, name in get_ruleset(scenario.ruleset).side_names().items()}

    def race(turns: dict[str, Any]) -> str:
        return f"turns to goal {names['south']} {turns['south']}, {names['north']} {turns['north']}"

    print(
        f"{args.file}: balance {b['balance']:.3f} [{b['ci95'][0]:.3f}, {b['ci95'][1]:.3f}] "
        f"with {result.agent} ({b['games']} games); {race(b['turns_to_goal'])}"
    )
    print(f"  {result.candidates} legal edits, {result.played} played, {result.seconds:.0f} s")
    if not doc["suggestions"]:
        print("  no edit found that the rules allow")
    for k, s in enumerate(doc["suggestions"], 1):
        print(f"  {k}. {'; '.join(s['edits'])}")
        print(
            f"     balance {b['balance']:.3f} -> {s['balance']:.3f} "
            f"[{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}] on fresh seeds; "
            f"{race(s['turns_to_goal'])}" + (f"; {s['file']}" if "file" in s else "")
        )
    for note in doc["notes"]:
        print(f"  note: {note}")
    return 0
