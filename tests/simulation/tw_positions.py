"""Seeded Tank Wars planning positions for the search tests (``regret``, ``plan``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario
from tankmap.rules.tank_wars.engine import (
    TankWarsState,
    artillery_phase_with,
    draw_rolls,
    initial_state,
    outcome,
    random_orders,
    resolve_orders_with,
)

ROOT = Path(__file__).resolve().parents[2]


def board(name: str, **reading: object) -> Scenario:
    """Built-in board ``tank-wars/name`` with rule options ``reading``."""
    sc = read_scenario(ROOT / "maps" / "tank-wars" / f"{name}.json")
    return sc.with_options(**reading)  # type: ignore[arg-type]


def roster(state: TankWarsState) -> tuple[tuple[str, ...], tuple[Side, ...]]:
    """Kinds and sides of ``state``'s vehicles by ident (all alive)."""
    ordered = sorted(state.vehicles, key=lambda v: v.ident)
    return tuple(v.kind for v in ordered), tuple(v.side for v in ordered)


def positions(sc: Scenario, count: int, seed: int) -> list[TankWarsState]:
    """Planning states (artillery fired) of seeded random games, several per game."""
    gen = np.random.default_rng(seed)
    state = initial_state(sc)
    out: list[TankWarsState] = []
    while len(out) < count:
        if outcome(state) is not None:
            state = initial_state(sc)
        mid = artillery_phase_with(state, lambda k: draw_rolls(gen, k))
        if not mid.in_round:
            state = mid
            continue
        out.append(mid)
        orders = (random_orders(mid, Side.SOUTH, gen), random_orders(mid, Side.NORTH, gen))
        state = resolve_orders_with(mid, orders[0], orders[1], lambda k: draw_rolls(gen, k))
    return out
