"""Agent strength on every playable built-in map, and the time of a default ladder.

Issue 12's bar: ``search`` beats ``heuristic`` in side-swapped matches on every built-in map
of each game (win rate >= 0.60 with the lower end of its 95 % Wilson interval above 0.5,
a draw counting half), and ``heuristic`` beats ``random``; a default 200-game ladder
(``random``, ``heuristic``, ``search``) of one built-in map finishes in under 2 minutes on
2 cores. Each match is ``GAMES`` games with the stronger agent as south and ``GAMES`` as
north (seeded; 2 local workers). Boards with nothing to play (``blank-*``) are skipped.
``ladder_seconds`` is wall-clock time on 2 local workers (other load on the machine counts).

**Strength per CPU second** (issue 29): each new agent in ``PER_CPU`` at the largest budget
(its family's base, 2 base, …, then ``REFINE`` bisection steps) whose CPU per self-play
game (``time.process_time``, one process, ``CPU_GAMES`` games) is no more than the game's
reference agent's, against that reference in a side-swapped match (``match``). ``passes``
= score >= 0.60 with the lower end of the Wilson interval above 0.5.

    python -m benchmarks agents
"""

from __future__ import annotations

import time
from typing import Any

from tankmap import maps
from tankmap.analysis.ladder import run_ladder
from tankmap.analysis.simulation.families import family
from tankmap.analysis.simulation.runner import require_legal, simulate
from tankmap.analysis.simulation.stats import wilson
from tankmap.rules.errors import TankmapError
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario

GAMES = 100
"""Games per side of each match (200 per match)."""
LADDER_GAMES = 200
LADDER_MAPS = ("final-act/mirror", "tank-chess/basic-16", "tank-wars/default")
PAIRS = (("search", "heuristic"), ("heuristic", "random"))
PER_CPU = {
    "tank-chess": ("alphabeta", "search:180", ("tank-chess/basic-16", "tank-chess/sample-20")),
}
"""Per game: the new agent family, the reference agent it must beat at no more CPU per
game, and the maps it plays on."""
CPU_GAMES = 10
REFINE = 2
"""Bisection steps between the last budget within the reference's CPU and the next."""


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
    """``strong`` against ``weak`` with sides swapped: the strong agent's score share."""
    start = time.perf_counter()
    south = simulate(scenario, GAMES, (strong, weak), seed=seed, workers=2)
    north = simulate(scenario, GAMES, (weak, strong), seed=seed + 1, workers=2)
    won = int((south["winner"] == "south").sum() + (north["winner"] == "north").sum())
    drawn = int(south["winner"].isna().sum() + north["winner"].isna().sum())
    n = 2 * GAMES
    points = won + drawn / 2
    lo, hi = wilson(round(points), n)
    return {
        "win_rate": round(points / n, 3),
        "ci95": [round(lo, 3), round(hi, 3)],
        "won": won,
        "drawn": drawn,
        "games": n,
        "passes": points / n >= 0.60 and lo > 0.5,
        "seconds": round(time.perf_counter() - start, 1),
    }


def cpu_per_game(scenario: Scenario, agent: str) -> float:
    """CPU seconds per self-play game of ``agent`` (one process, after a warm-up game)."""
    simulate(scenario, 1, (agent, agent), seed=99, workers=1)
    start = time.process_time()
    simulate(scenario, CPU_GAMES, (agent, agent), seed=3, workers=1)
    return (time.process_time() - start) / CPU_GAMES


def per_cpu_match(name: str, family_name: str, reference: str) -> dict[str, Any]:
    """The family's largest budget within the reference's CPU per game, against it."""
    path = maps.map_path(name)
    assert path is not None
    scenario = read_scenario(path)
    fam = family(scenario.ruleset, family_name)
    ref_cpu = cpu_per_game(scenario, reference)
    fits, fits_cpu, over = 0, 0.0, 0
    for budget in fam.budgets():
        cpu = cpu_per_game(scenario, fam.agent(budget))
        if cpu > ref_cpu:
            over = budget
            break
        fits, fits_cpu = budget, cpu
    for _ in range(REFINE if fits and over else 0):  # bisect between the last two budgets
        mid = (fits + over) // 2
        cpu = cpu_per_game(scenario, fam.agent(mid))
        if cpu > ref_cpu:
            over = mid
        else:
            fits, fits_cpu = mid, cpu
    if not fits:
        return {"reference": reference, "reference_cpu_per_game": round(ref_cpu, 3)}
    chosen, chosen_cpu = fam.agent(fits), fits_cpu
    out = match(scenario, chosen, reference, seed=12)
    return {
        "agent": chosen,
        "cpu_per_game": round(chosen_cpu, 3),
        "reference": reference,
        "reference_cpu_per_game": round(ref_cpu, 3),
        **out,
    }


def run() -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for family_name, reference, names in PER_CPU.values():
        for name in names:
            figures[f"{name} {family_name} vs {reference} per CPU"] = per_cpu_match(
                name, family_name, reference
            )
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
    figures["targets"] = {
        "search beats heuristic everywhere": all(
            v["passes"] for k, v in figures.items() if k.endswith("search vs heuristic")
        ),
        "heuristic beats random everywhere": all(
            v["passes"] for k, v in figures.items() if k.endswith("heuristic vs random")
        ),
        "new agents beat the reference per CPU second": all(
            v.get("passes", False) for k, v in figures.items() if k.endswith("per CPU")
        ),
        "ladder under 120 s": all(
            v < 120 for k, v in figures.items() if k.endswith("ladder_seconds")
        ),
    }
    return figures
