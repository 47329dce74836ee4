"""Playouts per second per core for each ruleset and policy, and 1 → 2 worker scaling.

Targets (issue 6, one core): Final Act heuristic ≥ 1,000 playouts/s; Tank Chess heuristic
on basic-16 ≥ 200 playouts/s. Each figure is the best of a few timed runs of whole games
(after a warm-up), in the calling process; ``scaling`` times ``simulate`` with 1 and 2
worker processes on the same seeded games.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from analysis.simulation.games import get_driver
from analysis.simulation.runner import game_rng, simulate
from rules.fileformat import read_scenario

ROOT = Path(__file__).resolve().parent.parent

CASES = (
    ("final-act/mirror.json", "heuristic", 120),
    ("final-act/mirror.json", "random", 30),
    ("final-act/flanks-vs-centre.json", "heuristic", 120),
    ("final-act/extra-forces.json", "heuristic", 120),
    ("tank-chess/basic-16.json", "heuristic", 40),
    ("tank-chess/basic-16.json", "random", 4),
    ("tank-chess/basic-16.json", "uct:16", 2),
    ("tank-wars/default.json", "heuristic", 80),
    ("tank-wars/default.json", "random", 80),
)


def playouts_per_second(path: str, policy: str, games: int, repeat: int = 3) -> dict[str, Any]:
    """Whole games per second in this process, with the mean game length."""
    scenario = read_scenario(ROOT / "maps" / path)
    driver = get_driver(scenario.ruleset)
    prepared = driver.prepare(scenario)
    for g in range(min(5, games)):
        driver.play(prepared, (policy, policy), game_rng(99, g))
    best = 0.0
    length = 0.0
    for r in range(repeat):
        start = time.perf_counter()
        total = 0
        for g in range(games):
            total += driver.play(prepared, (policy, policy), game_rng(r, g)).length
        rate = games / (time.perf_counter() - start)
        if rate > best:
            best, length = rate, total / games
    return {"playouts_per_second": round(best, 1), "mean_length": round(length, 2)}


def scaling(path: str = "final-act/mirror.json", games: int = 600) -> dict[str, Any]:
    """``simulate`` wall-clock playouts/s with 1 and 2 local worker processes."""
    scenario = read_scenario(ROOT / "maps" / path)
    out: dict[str, Any] = {"map": path, "games": games}
    for workers in (1, 2):
        df = simulate(scenario, games, "heuristic", seed=1, workers=workers)
        out[f"workers_{workers}"] = round(float(df.attrs["playouts_per_second"]), 1)
    out["speedup"] = round(out["workers_2"] / out["workers_1"], 2)
    return out


def run() -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for path, policy, games in CASES:
        figures[f"{path.removesuffix('.json')} {policy}"] = playouts_per_second(path, policy, games)
    figures["scaling"] = scaling()
    figures["targets"] = {
        "final-act heuristic >= 1000/s": figures["final-act/mirror heuristic"][
            "playouts_per_second"
        ]
        >= 1000,
        "tank-chess basic-16 heuristic >= 200/s": figures["tank-chess/basic-16 heuristic"][
            "playouts_per_second"
        ]
        >= 200,
    }
    return figures
