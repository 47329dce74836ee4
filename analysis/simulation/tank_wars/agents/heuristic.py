"""Tank Wars ``heuristic`` (provisional ruleset): an ``(state, side) -> Orders`` callable for
``rules.tank_wars.engine.play_round``, built with a seeded Generator (the other agents:
``agents/random.py``, ``agents/search.py``; ``agents/factory.py`` builds one by name).

- ``heuristic``: each vehicle picks the command (or staying) that collects support tokens
  and avoids craters on its path (each costs 1 AP; a 1-AP vehicle avoids them harder),
  with seeded noise so it stays hard to predict; gunfire tokens go on the enemy fields
  where enemy vehicles are most likely to end (each enemy vehicle's options weighted
  equally, weaker vehicles count more), at most one token per field.
- restriction ``+no-KIND``: vehicles of that kind never get a command (when every
  vehicle must get a token — ``stay_without_token`` off — one that is not executed).
- options ``stay_without_token`` and ``tokens_per_kind`` (docs/rules.md §3.1): the choices
  come from ``command_options`` (a token that is not executed stands for staying) and stay
  within the side's tokens of each kind, vehicle after vehicle.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tankmap.analysis.simulation.tank_wars.agents.options import (
    Policy,
    idle_command,
    vehicle_options,
)
from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.engine import Command, Orders, TankWarsState
from tankmap.rules.tank_wars.ruleset import board_cells
from tankmap.rules.tank_wars.state import tokens_ok


def heuristic_policy(rng: np.random.Generator, banned: frozenset[str] = frozenset()) -> Policy:
    """The ``heuristic`` policy (see the module docstring), its noise drawn from ``rng``."""

    def noise(n: int) -> list[float]:
        return rng.random(n).tolist()  # type: ignore[no-any-return]

    def policy(state: TankWarsState, side: Side) -> Orders:
        return heuristic_orders(state, side, noise, banned)

    return policy


def heuristic_orders(
    state: TankWarsState,
    side: Side,
    draw_noise: Callable[[int], list[float]],
    banned: frozenset[str] = frozenset(),
) -> Orders:
    """The heuristic's orders for ``side``; ``draw_noise(n)`` gives ``n`` floats in [0, 1)
    (once per vehicle for its options, once for the gunfire fields). The search's
    heuristic playouts (``kernel/playout.py``) make the same decisions from the same
    noise."""
    commands: dict[int, Command] = {}
    claimed: set[int] = set()
    for v in state.vehicles_of(side):
        if v.kind in banned:
            claimed.add(v.cell)
            idle = idle_command(state, v, commands)
            if idle is not None:
                commands[v.ident] = idle
            continue
        options = vehicle_options(state, v)
        noise = draw_noise(len(options))
        best: Command | None = None
        best_end = v.cell
        best_score = -1e9
        craters_at = state.craters
        supports = state.supports
        limited = state.rules.tokens_per_kind > 0
        for (cmd, end, path), z in zip(options, noise, strict=True):
            if end in claimed:
                continue
            if limited and cmd is not None and not tokens_ok(state.rules, {**commands, -1: cmd}):
                continue
            craters = sum(1 for c in path if c in craters_at)
            score = (2.0 if end in supports else 0.0) - craters * (
                3.0 if v.armour <= craters else 1.2
            )
            score += 0.8 * z + (0.3 if cmd is not None else 0.0)
            if score > best_score:
                best, best_end, best_score = cmd, end, score
        if best is None and not state.rules.stay_without_token:
            # every vehicle needs a token: one not executed, else any left in hand
            best = idle_command(state, v, commands) or next(
                (
                    c
                    for c, _e, _p in options
                    if c is not None and tokens_ok(state.rules, {**commands, -1: c})
                ),
                None,
            )
            best_end = v.cell  # at worst it is cancelled
        claimed.add(best_end)
        if best is not None:
            commands[v.ident] = best
    # gunfire: where the enemy most likely ends
    likely: dict[int, float] = {}
    for e in state.vehicles_of(side.other):
        options = vehicle_options(state, e)
        w = (1.0 + 1.0 / e.armour) / len(options)
        for _cmd, end, _path_cells in options:
            likely[end] = likely.get(end, 0.0) + w
    n = state.gunfire_available(side)
    # gunfire_targets' fields: the enemy board, and craters on the own board
    enemy_board, own_board = (
        board_cells(state.board, side.other),
        board_cells(state.board, side),
    )
    crater_fields = state.craters
    cells = sorted(c for c in likely if c in enemy_board or (c in own_board and c in crater_fields))
    noise = draw_noise(len(cells))
    order = sorted(range(len(cells)), key=lambda i: -(likely[cells[i]] + 0.05 * noise[i]))
    targets = tuple(cells[i] for i in order[:n])
    return Orders(commands, targets)
