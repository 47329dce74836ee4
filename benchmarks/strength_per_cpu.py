"""Strength per CPU second (issue 29): a new agent at the largest budget whose CPU per game
is no more than the reference agent's, against that reference in a side-swapped match.

CPU per game is one core's ``time.process_time`` over ``CPU_GAMES`` self-play games on one
worker (the agent's own cost, both sides); budgets tried are ``base`` times 1, 1.5, 2, 3,
4, 6, … (half-octave steps) until one costs more than the reference. The match is
``GAMES`` games with the agent as south and ``GAMES`` as north (seeded, 2 local workers);
a draw counts half; ``passes`` = score >= 0.60 with the lower end of its Wilson 95 %
interval above 0.5.

    python -m benchmarks.strength_per_cpu [RULESET ...]
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from tankmap import maps
from tankmap.analysis.simulation.runner import simulate
from tankmap.analysis.simulation.stats import wilson
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.scenario import Scenario

GAMES = 100
"""Games per side of each match (200 per match)."""
CPU_GAMES = 20
"""Self-play games timed per agent and budget."""
ROWS: dict[str, tuple[tuple[str, int, int], str, tuple[str, ...]]] = {
    "final-act": (("ksearch", 4, 500), "search:9", ("extra-forces", "mirror")),
    "tank-chess": (("alphabeta", 100, 12800), "search:180", ("basic-16", "sample-20")),
    "tank-wars": (("plan", 64, 16384), "search:9", ("default",)),
}
"""Per game: (agent name, first budget, largest budget), the reference agent, the maps."""


def cpu_per_game(scenario: Scenario, agent: str, games: int = CPU_GAMES) -> float:
    """One core's CPU seconds per self-play game of ``agent`` (after one warm-up game)."""
    simulate(scenario, 1, (agent, agent), seed=99, workers=1)
    start = time.process_time()
    simulate(scenario, games, (agent, agent), seed=5, workers=1)
    return (time.process_time() - start) / games


def equal_cpu_budget(scenario: Scenario, name: str, base: int, limit: int, cpu: float) -> int:
    """The largest budget of ``name`` (half-octave steps from ``base``) whose CPU per game
    is at most ``cpu`` (``base`` when even that costs more)."""
    best = base
    budget, step = base, 0
    while budget <= limit and cpu_per_game(scenario, f"{name}:{budget}") <= cpu:
        best = budget
        step += 1
        budget = base * 2 ** (step // 2) * (3 if step % 2 else 2) // 2
    return best


def match(scenario: Scenario, agent: str, reference: str, seed: int = 12) -> dict[str, Any]:
    """``agent`` against ``reference`` with sides swapped: the agent's score share."""
    start = time.perf_counter()
    south = simulate(scenario, GAMES, (agent, reference), seed=seed, workers=2)
    north = simulate(scenario, GAMES, (reference, agent), seed=seed + 1, workers=2)
    won = int((south["winner"] == "south").sum() + (north["winner"] == "north").sum())
    drawn = int((south["winner"] == "draw").sum() + (north["winner"] == "draw").sum())
    n = 2 * GAMES
    points = won + drawn / 2
    lo, hi = wilson(round(points), n)
    counts = south["end"].value_counts().add(north["end"].value_counts(), fill_value=0)
    ends = {str(k): int(v) for k, v in counts.items()}
    return {
        "score": round(points / n, 3),
        "ci95": [round(lo, 3), round(hi, 3)],
        "won": won,
        "drawn": drawn,
        "games": n,
        "ends": ends,
        "passes": points / n >= 0.60 and lo > 0.5,
        "seconds": round(time.perf_counter() - start, 1),
    }


def run(rulesets: tuple[str, ...] = tuple(ROWS)) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for ruleset in rulesets:
        (name, base, limit), reference, names = ROWS[ruleset]
        for board in names:
            path = maps.map_path(f"{ruleset}/{board}")
            assert path is not None
            scenario = read_scenario(path)
            ref_cpu = cpu_per_game(scenario, reference)
            budget = equal_cpu_budget(scenario, name, base, limit, ref_cpu)
            agent = f"{name}:{budget}"
            row = {
                "agent": agent,
                "cpu_per_game": round(cpu_per_game(scenario, agent), 4),
                "reference_cpu_per_game": round(ref_cpu, 4),
                **match(scenario, agent, reference),
            }
            figures[f"{ruleset}/{board} {agent} vs {reference} at equal CPU"] = row
    return figures


if __name__ == "__main__":
    print(json.dumps(run(tuple(sys.argv[1:]) or tuple(ROWS)), indent=2))
