"""The search's playout players in numba, draw for draw their plain-Python twins in
``agents/regret_ref.py`` (``light_orders``, ``heuristic_orders``):

- ``light_orders``: each vehicle (card order) a uniform pick among its ``command_options``
  (within the tokens left of each kind, when ``tokens_per_kind`` caps them); each gunfire
  token on a field a uniformly drawn live enemy vehicle reaches with a uniformly drawn
  option of its own. Independent of the heuristic.
- ``heuristic_orders``: ``agents/heuristic.py``'s decisions (support tokens, craters,
  gunfire where the enemy most likely ends), its noise drawn from the search's stream.

Both write the side's commands into ``cmds``, its token fields into ``gun[side]`` and their
number into ``placed[side]``. ``used`` (4) and ``mark`` (72 floats) are work arrays.
"""

from __future__ import annotations

import numpy as np

from tankmap.analysis.simulation.tank_wars.kernel.base import (
    CELLS,
    R_PER_KIND,
    R_STAY,
    Tables,
    leaf,
    unliteral,
    unliteral_flag,
)
from tankmap.analysis.simulation.tank_wars.kernel.rng import below, unit
from tankmap.analysis.simulation.tank_wars.kernel.round import gunfire_available


@leaf
def fits(t: Tables, used: np.ndarray, c: int) -> bool:
    """Whether command ``c`` is within the tokens left (``used`` per token kind)."""
    limit = t.rules[R_PER_KIND]
    return c < 0 or limit <= 0 or used[t.cmd_kind[c]] < limit


@leaf
def first_fitting(t: Tables, i: int, cell: int, low: int, used: np.ndarray, idle: bool) -> int:
    """The first option of vehicle ``i`` (only the not-executed ones with ``idle``) within
    the tokens left, or -1."""
    opt, opt_end, cmd_kind = t.opt, t.opt_end, t.cmd_kind
    limit = t.rules[R_PER_KIND]
    for j in range(t.opt_len[i, cell, low]):
        if idle and opt_end[i, cell, low, j] != cell:
            continue
        c = opt[i, cell, low, j]
        if c < 0 or limit <= 0 or used[cmd_kind[c]] < limit:
            return j
    return -1


@leaf
def take(
    t: Tables, cmds: np.ndarray, used: np.ndarray, i: int, cell: int, low: int, j: int
) -> None:
    """Give vehicle ``i`` its option ``j`` (-1: no token) and count the token."""
    c = -1 if j < 0 else t.opt[i, cell, low, j]
    cmds[i] = c
    if c >= 0:
        used[t.cmd_kind[c]] += 1


@leaf
def take_idle(t: Tables, cmds: np.ndarray, used: np.ndarray, i: int, cell: int, low: int) -> None:
    """Give vehicle ``i`` (one that may not act this round) its first not-executed option
    within the tokens left (``first_fitting`` with ``idle``), or no token."""
    take(t, cmds, used, i, cell, low, first_fitting(t, i, cell, low, used, unliteral_flag(True)))


@leaf
def light_gunfire(
    t: Tables, pos: np.ndarray, side: int, gun: np.ndarray, placed: np.ndarray, rng: np.ndarray
) -> None:
    vside, opt_len, opt_end = t.vside, t.opt_len, t.opt_end
    v = len(vside)
    n = gunfire_available(t, pos, side)
    enemies = 0
    for i in range(v):
        if pos[i] >= 0 and vside[i] != side:
            enemies += 1
    placed[side] = n if enemies > 0 else 0
    if enemies == 0:
        return
    for k in range(n):
        e = below(rng, unliteral(enemies))
        for i in range(v):
            if pos[i] >= 0 and vside[i] != side:
                if e == 0:
                    cell = pos[i]
                    low = 1 if pos[v + i] <= 1 else 0
                    o = below(rng, opt_len[i, cell, low])
                    gun[side, k] = opt_end[i, cell, low, o]
                    break
                e -= 1


@leaf
def light_orders(
    t: Tables,
    pos: np.ndarray,
    side: int,
    cmds: np.ndarray,
    gun: np.ndarray,
    placed: np.ndarray,
    rng: np.ndarray,
    used: np.ndarray,
) -> None:
    vside, banned, opt, opt_len, cmd_kind = t.vside, t.banned, t.opt, t.opt_len, t.cmd_kind
    v = len(vside)
    used[:] = 0
    limit = t.rules[R_PER_KIND]
    for i in range(v):
        if vside[i] != side or pos[i] < 0:
            continue
        cell = pos[i]
        low = 1 if pos[v + i] <= 1 else 0
        n = opt_len[i, cell, low]
        if banned[i] != 0:
            take_idle(t, cmds, used, i, cell, low)
        elif limit > 0:
            m = 0
            for j in range(n):
                c = opt[i, cell, low, j]
                if c < 0 or used[cmd_kind[c]] < limit:
                    m += 1
            if m == 0:
                take(t, cmds, used, i, cell, low, unliteral(-1))
                continue
            r = below(rng, unliteral(m))
            for j in range(n):
                c = opt[i, cell, low, j]
                if c < 0 or used[cmd_kind[c]] < limit:
                    if r == 0:
                        take(t, cmds, used, i, cell, low, j)
                        break
                    r -= 1
        else:
            take(t, cmds, used, i, cell, low, below(rng, n))
    light_gunfire(t, pos, side, gun, placed, rng)


@leaf
def heuristic_orders(
    t: Tables,
    pos: np.ndarray,
    side: int,
    cmds: np.ndarray,
    gun: np.ndarray,
    placed: np.ndarray,
    rng: np.ndarray,
    used: np.ndarray,
    mark: np.ndarray,
    keys: np.ndarray,
    fields: np.ndarray,
) -> None:
    """The heuristic's orders for ``side`` into ``cmds``, ``gun[side]`` and
    ``placed[side]``; ``used``, ``mark``, ``keys`` and ``fields`` (``CELLS`` long): work
    arrays."""
    vside, banned, opt, opt_len, opt_end = t.vside, t.banned, t.opt, t.opt_len, t.opt_end
    cmd_kind, cmd_dist, cmd_dx, cmd_dy = t.cmd_kind, t.cmd_dist, t.cmd_dx, t.cmd_dy
    v = len(vside)
    crater = 3 * v
    support = crater + CELLS
    used[:] = 0
    mark[:] = 0.0  # claimed fields
    limit = t.rules[R_PER_KIND]
    for i in range(v):
        if vside[i] != side or pos[i] < 0:
            continue
        cell = pos[i]
        armour = pos[v + i]
        low = 1 if armour <= 1 else 0
        if banned[i] != 0:
            mark[cell] = 1.0
            take_idle(t, cmds, used, i, cell, low)
            continue
        best = -1
        best_end = cell
        best_score = -1e9
        for j in range(opt_len[i, cell, low]):
            z = unit(rng)
            end = opt_end[i, cell, low, j]
            c = opt[i, cell, low, j]
            if mark[end] != 0.0:
                continue
            if limit > 0 and c >= 0 and used[cmd_kind[c]] >= limit:
                continue
            craters = 0
            if end != cell:
                dist = cmd_dist[c]
                first = cell + cmd_dx[c] + 6 * cmd_dy[c]
                craters = pos[crater + first]
                if dist == 2:
                    craters += pos[crater + end]
            score = (2.0 if pos[support + end] != 0 else 0.0) - craters * (
                3.0 if armour <= craters else 1.2
            )
            score += 0.8 * z + (0.3 if c >= 0 else 0.0)
            if score > best_score:
                best = j
                best_end = end
                best_score = score
        if best < 0 and t.rules[R_STAY] == 0:
            best = first_fitting(t, i, cell, low, used, unliteral_flag(True))
            if best < 0:
                best = first_fitting(t, i, cell, low, used, unliteral_flag(False))
            best_end = cell
        mark[best_end] = 1.0
        take(t, cmds, used, i, cell, low, best)
    # gunfire: where the enemy most likely ends
    mark[:] = 0.0  # likelihood per field
    for i in range(v):
        if vside[i] == side or pos[i] < 0:
            continue
        cell = pos[i]
        armour = pos[v + i]
        low = 1 if armour <= 1 else 0
        n = opt_len[i, cell, low]
        w = (1.0 + 1.0 / armour) / n
        for j in range(n):
            mark[opt_end[i, cell, low, j]] += w
    count = 0
    for f in range(CELLS):
        if mark[f] != 0.0:
            count += 1
    k = 0
    for f in range(CELLS):
        if mark[f] != 0.0:
            fields[k] = f
            keys[k] = mark[f] + 0.05 * unit(rng)
            k += 1
    n = min(gunfire_available(t, pos, side), count)
    for k in range(n):
        top = -1
        for j in range(count):
            if fields[j] >= 0 and (top < 0 or keys[j] > keys[top]):
                top = j
        gun[side, k] = fields[top]
        fields[top] = -1
    placed[side] = n
