"""Agent strength on every playable built-in map, and the time of a default ladder.

Issue 12's bar: ``search`` beats ``heuristic`` in side-swapped matches on every built-in map
of each game (win rate >= 0.60 with the lower end of its 95 % Wilson interval above 0.5,
a draw counting half), and ``heuristic`` beats ``random``; a default 200-game ladder
(``random``, ``heuristic``, ``search``) of one built-in map finishes in under 2 minutes on
2 cores. Issue 29's bar (``benchmarks/strength_per_cpu.py``): a family's agent at the
largest budget whose CPU per self-play game is no more than the reference's scores >= 0.60
against it (lower bound > 0.5). Each match is 100 games with the stronger agent as south
and 100 as north (seeded; 2 local workers; ``strength_per_cpu.match``). Boards with
nothing to play (``blank-*``) are skipped.
``ladder_seconds`` is wall-clock time on 2 local workers (other load on the machine counts).
Rows ``… at equal CPU``: strength per CPU second of the issue-29 agents
(``benchmarks/strength_per_cpu.py``).

    python -m benchmarks agents
"""

from __future__ import annotations

import time
from typing import Any

from benchmarks import strength_per_cpu
from tankmap import maps
from tankmap.analysis.ladder import run_ladder
from tankmap.analysis.simulation.runner import require_legal
from tankmap.rules.errors import TankmapError
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario

LADDER_GAMES = 200
LADDER_MAPS = ("final-act/mirror", "tank-chess/basic-16", "tank-wars/default")
PAIRS = (("search", "heuristic"), ("heuristic", "random"))


def playable() -> list[tuple[str, Scenario]]:
    out = []
    for ruleset in ("final-act", "tank-chess", "tank-wars"):
        for path in maps.builtin_maps(ruleset):
            scenario = read_scenario(path)
            try:
                require_legal(scenario)
            except TankmapError:
                continue
            if {u.side for u in scenario.units} != {Side.SOUTH, Side.NORTH}:
                continue  # a blank board: nothing to play
            out.append((f"{ruleset}/{path.stem}", scenario))
    return out


def match(scenario: Scenario, strong: str, weak: str, seed: int) -> dict[str, Any]:
    """``strong`` against ``weak`` with sides swapped: the strong agent's score share (a
    draw, the winner column's ``"draw"``, counting half: ``strength_per_cpu.match``)."""
    row = strength_per_cpu.match(scenario, strong, weak, seed=seed)
    row["win_rate"] = row.pop("score")
    return row


def run() -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for name, scenario in playable():
        for strong, weak in PAIRS:
            figures[f"{name} {strong} vs {weak}"] = match(scenario, strong, weak, seed=12)
    for name in LADDER_MAPS:
        path = maps.map_path(name)
        assert path is not None
        scenario = read_scenario(path)
        start = time.perf_counter()
        run_ladder(scenario, ["random", "heuristic", "search"], LADDER_GAMES, seed=1, workers=2)
        figures[f"{name} ladder_seconds"] = round(time.perf_counter() - start, 1)
    figures.update(strength_per_cpu.run())
    figures["targets"] = {
        "search beats heuristic everywhere": all(
            v["passes"] for k, v in figures.items() if k.endswith("search vs heuristic")
        ),
        "heuristic beats random everywhere": all(
            v["passes"] for k, v in figures.items() if k.endswith("heuristic vs random")
        ),
        "stronger per CPU second than the reference": all(
            v["passes"] for k, v in figures.items() if k.endswith("at equal CPU")
        ),
        "ladder under 120 s": all(
            v < 120 for k, v in figures.items() if k.endswith("ladder_seconds")
        ),
        "new agents match the reference at equal CPU": all(
            v["passes"] for k, v in figures.items() if k.endswith("at equal CPU")
        ),
    }
    return figures
