"""The ``regret`` search's evaluation in numba (``agents/regret_value.py`` is its Python
twin and says what the features mean and where the weights come from).

``features(t, pos, x)`` writes south's minus north's features of a position into ``x``;
``value(t, pos, weights)`` is south's value ``2 σ(weights · x) − 1`` in (−1, 1), ±1 for a
won game and 0 for a draw (north's value is its negative).
"""

from __future__ import annotations

import math

import numpy as np

from tankmap.analysis.simulation.tank_wars.kernel.base import CELLS, Tables, leaf, unliteral
from tankmap.analysis.simulation.tank_wars.kernel.round import (
    NORTH_WINS,
    ONGOING,
    SOUTH_WINS,
    artillery_shots,
    gunfire_available,
    outcome,
)


@leaf
def safe_ends(t: Tables, pos: np.ndarray, i: int) -> int:
    """The fields vehicle ``i`` can end on next round without crossing a crater (staying
    included when one of its options stays); at least 1."""
    opt, opt_end, cmd_dist, cmd_dx, cmd_dy = t.opt, t.opt_end, t.cmd_dist, t.cmd_dx, t.cmd_dy
    v = len(t.vside)
    crater = 3 * v
    cell = pos[i]
    low = 1 if pos[v + i] <= 1 else 0
    stays = False
    count = 0
    for j in range(t.opt_len[i, cell, low]):
        end = opt_end[i, cell, low, j]
        if end == cell:
            stays = True
            continue
        c = opt[i, cell, low, j]
        first = cell + cmd_dx[c] + 6 * cmd_dy[c]
        if pos[crater + first] == 0 and (cmd_dist[c] == 1 or pos[crater + end] == 0):
            count += 1
    if stays:
        count += 1
    return max(count, 1)


@leaf
def features(t: Tables, pos: np.ndarray, x: np.ndarray) -> None:
    """South's minus north's: per kind the AP and the live vehicles, vehicles at 1 AP,
    gunfire tokens, artillery shots, exposure (Σ 1 / ``safe_ends``), support tokens and
    craters on the own board."""
    vside, vkind = t.vside, t.vkind
    v = len(vside)
    k = len(t.k_armour)
    x[:] = 0.0
    for i in range(v):
        if pos[i] < 0:
            continue
        sign = 1.0 if vside[i] == 0 else -1.0
        armour = pos[v + i]
        x[vkind[i]] += sign * armour
        x[k + vkind[i]] += sign
        if armour == 1:
            x[2 * k] += sign
        x[2 * k + 3] += sign / safe_ends(t, pos, i)
    x[2 * k + 1] = gunfire_available(t, pos, unliteral(0)) - gunfire_available(t, pos, unliteral(1))
    x[2 * k + 2] = artillery_shots(t, pos, unliteral(0)) - artillery_shots(t, pos, unliteral(1))
    crater = 3 * v
    support = crater + CELLS
    half = CELLS // 2
    for f in range(CELLS):
        sign = 1.0 if f < half else -1.0
        if pos[support + f] != 0:
            x[2 * k + 4] += sign
        if pos[crater + f] != 0:
            x[2 * k + 5] += sign


@leaf
def value(t: Tables, pos: np.ndarray, weights: np.ndarray, x: np.ndarray) -> float:
    """South's value of ``pos`` (``x``: room for the features)."""
    o = outcome(t, pos)
    if o == SOUTH_WINS:
        return 1.0
    if o == NORTH_WINS:
        return -1.0
    if o != ONGOING:
        return 0.0
    features(t, pos, x)
    z = 0.0
    for j in range(len(x)):
        z += weights[j] * x[j]
    return 2.0 / (1.0 + math.exp(-z)) - 1.0
