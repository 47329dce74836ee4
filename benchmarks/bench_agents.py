"""Agent strength on every playable built-in map, and the time of a default ladder.

Issue 12's bar: ``search`` beats ``heuristic`` in side-swapped matches on every built-in map
of each game (win rate >= 0.60 with the lower end of its 95 % Wilson interval above 0.5,
a draw counting half), and ``heuristic`` beats ``random``; a default 200-game ladder
(``random``, ``heuristic``, ``search``) of one built-in map finishes in under 2 minutes on
2 cores. Issue 29's bar (``PER_CPU``): a family's agent at the largest budget whose CPU per
self-play game is no more than the reference's scores >= 0.60 against it (lower bound > 0.5).
Each match is ``GAMES`` games with the stronger agent as south and ``GAMES`` as north
(seeded; 2 local workers). Boards with nothing to play (``blank-*``) are skipped.
``ladder_seconds`` is wall-clock time on 2 local workers (other load on the machine counts).

    python -m benchmarks agents
"""

from __future__ import annotations

import time
from typing import Any

from tankmap import maps
from tankmap.analysis.ladder import run_ladder
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


PER_CPU = {"tank-wars": ("regret", "search:9", ("tank-wars/default",))}
"""Strength per CPU second (issue 29): per game, the family whose agent is measured, the
reference agent, and the maps."""
CPU_GAMES = 10
"""Self-play games per CPU-per-game measurement (one worker, ``time.process_time``)."""


def cpu_per_game(scenario: Scenario, agent: str, seed: int = 40) -> float:
    """CPU seconds per self-play game of ``agent`` (one worker)."""
    start = time.process_time()
    simulate(scenario, CPU_GAMES, (agent, agent), seed=seed, workers=1)
    return (time.process_time() - start) / CPU_GAMES


def per_cpu_match(scenario: Scenario, ruleset: str, name: str, reference: str) -> dict[str, Any]:
    """The family ``name``'s agent at the largest budget (base, 2 base, …) whose CPU per
    self-play game is no more than ``reference``'s, against ``reference`` side-swapped."""
    from tankmap.analysis.simulation.families import family

    fam = family(ruleset, name)
    ref_cpu = cpu_per_game(scenario, reference)
    chosen, chosen_cpu = fam.agent(fam.base), 0.0
    for budget in fam.budgets():
        cpu = cpu_per_game(scenario, fam.agent(budget))
        if cpu > ref_cpu:
            break
        chosen, chosen_cpu = fam.agent(budget), cpu
    row = match(scenario, chosen, reference, seed=29)
    row.update(agent=chosen, cpu_per_game=round(chosen_cpu, 3), ref_cpu_per_game=round(ref_cpu, 3))
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
    for ruleset, (name, reference, names) in PER_CPU.items():
        for board in names:
            path = maps.map_path(board)
            assert path is not None
            row = per_cpu_match(read_scenario(path), ruleset, name, reference)
            figures[f"{board} {name} vs {reference} at equal CPU"] = row
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
    }
    return figures
