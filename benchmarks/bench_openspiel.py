"""OpenSpiel-driven random playouts against tankmap's own engine on the same maps.

Figures per game (one core, seeded): ``openspiel_random_playouts_per_second`` — uniform
random actions through the ``tankmap_*`` OpenSpiel games (``pyspiel.load_game``, chance
outcomes sampled by their probabilities); ``tankmap_random_playouts_per_second`` — the
simulation driver's ``random`` policy on the same scenario (Final Act in batches of 200
games, as ``simulate`` plays it); ``ratio`` = tankmap / OpenSpiel.
Skipped (``{"skipped": reason}``) when open_spiel is not installed.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from tankmap.analysis.simulation.games import get_driver

MAPS = {
    "tank-chess/basic-16": "tankmap_tank_chess",
    "final-act/mirror": "tankmap_final_act",
    "tank-wars/default": "tankmap_tank_wars",
}


def _openspiel(name: str, game: str, seconds: float) -> float:
    import pyspiel

    import tankmap.analysis.openspiel  # noqa: F401  (registers the games)

    g = pyspiel.load_game(game, {"scenario": name})
    rng = np.random.default_rng(1)
    done, begin = 0, time.perf_counter()
    while time.perf_counter() - begin < seconds or done == 0:
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(int(rng.integers(36)))
            elif s.is_simultaneous_node():
                s.apply_actions([int(rng.choice(s.legal_actions(p))) for p in (0, 1)])
            else:
                s.apply_action(int(rng.choice(s.legal_actions())))
        done += 1
    return done / (time.perf_counter() - begin)


def _tankmap(path: str, seconds: float) -> float:
    from tankmap.analysis.openspiel.common import load_scenario_param

    scenario = load_scenario_param(path, path)
    driver = get_driver(scenario.ruleset)
    prepared = driver.prepare(scenario)
    policies = ("random", "random")
    batched = hasattr(driver, "batched") and driver.batched(policies, prepared)
    seeds = np.random.SeedSequence(1)
    done, begin = 0, time.perf_counter()
    while time.perf_counter() - begin < seconds or done == 0:
        rngs = [np.random.default_rng(s) for s in seeds.spawn(200 if batched else 1)]
        if batched:  # the way `simulate` plays Final Act: many games per kernel call
            driver.play_many(prepared, policies, rngs)
        else:
            driver.play(prepared, policies, rngs[0])
        done += len(rngs)
    return done / (time.perf_counter() - begin)


def run() -> dict[str, Any]:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return {"skipped": "open_spiel is not installed (pip install 'tankmap[openspiel]')"}
    out: dict[str, Any] = {}
    for name, game in MAPS.items():
        os_rate = _openspiel(name, game, 3.0)
        tm_rate = _tankmap(name, 2.0)
        out[name] = {
            "openspiel_random_playouts_per_second": round(os_rate, 2),
            "tankmap_random_playouts_per_second": round(tm_rate, 1),
            "ratio": round(tm_rate / os_rate, 1),
        }
    return out
