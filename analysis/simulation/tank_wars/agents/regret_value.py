"""The ``regret`` search's own evaluation of a Tank Wars position (between rounds), and how
its weights were fitted. ``kernel/value.py`` computes the same numbers in numba.

South's value is ``2 σ(w · x) − 1`` — its chance to win minus north's, as a logistic model
reads them — where ``x`` is south's minus north's (``features``):

- per vehicle kind (the ruleset's kinds, in order): the AP of its live vehicles, and how many
  are alive;
- vehicles at 1 AP;
- gunfire tokens available; artillery shots of the next artillery phase;
- exposure: Σ 1 / (fields the vehicle can end on next round without crossing a crater,
  staying included) — how easily gunfire finds it;
- support tokens and craters on the own board.

A won game is worth ±1, a draw 0. The weights (``WEIGHTS``) are a logistic regression of
game outcomes on these features over positions of ``regret`` self-play games (``fit``),
never the heuristic's: see ``regret_fit``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from tankmap.analysis.simulation.tank_wars.agents.options import vehicle_options
from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.engine import TankWarsState
from tankmap.rules.tank_wars.ruleset import board_cells
from tankmap.rules.tank_wars.state import Vehicle, outcome


def safe_ends(state: TankWarsState, v: Vehicle) -> int:
    """Fields ``v`` can end on next round without crossing a crater (``kernel.value``)."""
    stays = False
    count = 0
    for _cmd, end, path in vehicle_options(state, v):
        if end == v.cell:
            stays = True
        elif not any(c in state.craters for c in path):
            count += 1
    return max(count + (1 if stays else 0), 1)


def features(state: TankWarsState) -> list[float]:
    """South's minus north's features (see the module docstring)."""
    kinds = [k.kind for k in state.rules.kinds]
    k = len(kinds)
    x = [0.0] * (2 * k + 6)
    for v in state.vehicles:
        sign = 1.0 if v.side is Side.SOUTH else -1.0
        kind = kinds.index(v.kind)
        x[kind] += sign * v.armour
        x[k + kind] += sign
        if v.armour == 1:
            x[2 * k] += sign
        x[2 * k + 3] += sign / safe_ends(state, v)
    south, north = Side.SOUTH, Side.NORTH
    x[2 * k + 1] = state.gunfire_available(south) - state.gunfire_available(north)
    x[2 * k + 2] = state.artillery_shots(south) - state.artillery_shots(north)
    own = board_cells(state.board, south)
    for f in sorted(state.supports | state.craters):
        sign = 1.0 if f in own else -1.0
        if f in state.supports:
            x[2 * k + 4] += sign
        if f in state.craters:
            x[2 * k + 5] += sign
    return x


def value(state: TankWarsState, weights: Sequence[float]) -> float:
    """South's value of ``state``: ±1 for a won game, 0 for a draw, else
    ``2 σ(weights · features) − 1``."""
    o = outcome(state)
    if o is not None:
        if o.winner is None:
            return 0.0
        return 1.0 if o.winner is Side.SOUTH else -1.0
    z = 0.0
    for w, x in zip(weights, features(state), strict=False):
        z += w * x
    return 2.0 / (1.0 + math.exp(-z)) - 1.0


def logistic_fit(x: np.ndarray, y: np.ndarray, ridge: float = 1.0) -> np.ndarray:
    """Weights (no intercept: the model is antisymmetric) of a logistic regression of the
    0/1 outcomes ``y`` on the rows of ``x`` by Newton's method with an L2 penalty
    ``ridge``; a draw is best given as two rows, one won and one lost."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w
