"""The ``plan`` search in numba: Monte Carlo planning of one side's orders over sampled
futures. ``agents/plan_ref.py`` is the same algorithm on the Python engine (same draws, same
arithmetic, same tie-breaking); ``agents/plan.py`` explains it and why it is compiled.

``plan(t, root, me, samples, lookahead, candidates, seed, weights, picks, gun_picks)`` plans
from ``root`` (a position whose artillery has fired) for side ``me``, scoring positions by
``kernel.value.value`` with ``weights`` (one per feature): ``picks[i]`` = the command index
of each of ``me``'s live vehicles, ``gun_picks[k]`` the fields of its gunfire tokens
(returns how many).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tankmap.analysis.simulation.tank_wars.kernel.base import (
    CELLS,
    R_DROPS,
    R_LONG_RANGE,
    R_PER_KIND,
    R_TOKENS,
    Tables,
    jit,
    leaf,
    unliteral,
)
from tankmap.analysis.simulation.tank_wars.kernel.playout import fits, heuristic_orders
from tankmap.analysis.simulation.tank_wars.kernel.rng import next_u64
from tankmap.analysis.simulation.tank_wars.kernel.round import (
    gunfire,
    movement,
    supply,
    usable_tokens,
)
from tankmap.analysis.simulation.tank_wars.kernel.search import HEURISTIC, draw, playout
from tankmap.analysis.simulation.tank_wars.kernel.value import value


@leaf
def score(
    t: Tables, root: np.ndarray, me: int, cmds: np.ndarray, gun: np.ndarray, placed: int,
    futures: tuple[Any, ...], lookahead: int, weights: np.ndarray, scratch: tuple[Any, ...],
    w: tuple[Any, ...],
) -> float:  # fmt: skip
    """The sum over the sampled futures of ``me``'s ``value`` (``weights``) after the round
    played with ``me``'s ``cmds`` and ``gun[:placed]`` against the future's enemy plan and
    dice, and ``lookahead`` more rounds of heuristic play. ``futures``: per future the
    enemy's commands, its gunfire fields, how many and the dice seed; ``scratch`` and ``w``:
    work arrays."""
    fut_cmds, fut_gun, fut_placed, seeds = futures
    pos, joint, both, ngun, nplaced, rng = scratch
    vside = t.vside
    v = len(vside)
    at, moved, rolls = w[0], w[1], w[6]
    sign = 1.0 if me == 0 else -1.0
    total = 0.0
    for s in range(len(seeds)):
        for i in range(v):
            joint[i] = cmds[i] if vside[i] == me else fut_cmds[s, i]
        for k in range(placed):
            both[me, k] = gun[k]
        for k in range(fut_placed[s]):
            both[1 - me, k] = fut_gun[s, k]
        nplaced[me] = placed
        nplaced[1 - me] = fut_placed[s]
        for k in range(root.shape[0]):
            pos[k] = root[k]
        usable_tokens(t, pos, ngun, nplaced)
        rng[0] = seeds[s]
        if movement(t, pos, joint, at, moved) and gunfire(t, pos, both, ngun, at, moved):
            draw(rng, rolls, 2 * t.rules[R_DROPS])
            supply(t, pos, rolls, at)
        playout(t, pos, lookahead, unliteral(HEURISTIC), rng, w)
        total += sign * value(t, pos, weights, w[9])
    return total


@leaf
def likely_fields(t: Tables, root: np.ndarray, me: int, out: np.ndarray, weight: np.ndarray) -> int:
    """The enemy's end fields by how many of its vehicles' options end there (each
    vehicle's options weighted 1 / their number; most first, then the lower field) into
    ``out``; returns how many."""
    vside, opt_len, opt_end = t.vside, t.opt_len, t.opt_end
    v = len(vside)
    weight[:] = 0.0
    for i in range(v):
        if vside[i] == me or root[i] < 0:
            continue
        cell = root[i]
        low = 1 if root[v + i] <= 1 else 0
        n = opt_len[i, cell, low]
        for j in range(n):
            weight[opt_end[i, cell, low, j]] += 1.0 / n
    count = 0
    for f in range(CELLS):
        if weight[f] > 0.0:
            out[count] = f
            count += 1
    for a in range(1, count):  # insertion sort: stable, so equal weights keep field order
        f = out[a]
        b = a - 1
        while b >= 0 and weight[out[b]] < weight[f]:
            out[b + 1] = out[b]
            b -= 1
        out[b + 1] = f
    return count


@jit
def plan(
    t: Tables, root: np.ndarray, me: int, samples: int, lookahead: int, candidates: int,
    seed: np.uint64, weights: np.ndarray, picks: np.ndarray, gun_picks: np.ndarray,
) -> int:  # fmt: skip
    """``me``'s orders into ``picks``/``gun_picks`` (see the module docstring); ``samples``
    futures, ``candidates`` enemy fields tried per gunfire token; returns the tokens placed."""
    vside, vkind, banned, opt, opt_len, cmd_kind = (
        t.vside,
        t.vkind,
        t.banned,
        t.opt,
        t.opt_len,
        t.cmd_kind,
    )
    v = len(vside)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    most = max(t.rules[R_TOKENS], 1)
    used = np.zeros(4, dtype=np.int64)
    mark = np.zeros(CELLS, dtype=np.float64)
    keys = np.empty(CELLS, dtype=np.float64)
    fields = np.empty(CELLS, dtype=np.int64)
    cmds = np.full(v, -1, dtype=np.int64)
    gun2 = np.zeros((2, most), dtype=np.int64)
    placed2 = np.zeros(2, dtype=np.int64)
    # the heuristic's plan, then the futures: the enemy's heuristic plan and the dice seed
    heuristic_orders(t, root, me, cmds, gun2, placed2, rng, used, mark, keys, fields)
    gun = gun2[me].copy()
    placed = placed2[me]
    fut_cmds = np.full((samples, v), -1, dtype=np.int64)
    fut_gun = np.zeros((samples, most), dtype=np.int64)
    fut_placed = np.zeros(samples, dtype=np.int64)
    seeds = np.zeros(samples, dtype=np.uint64)
    for s in range(samples):
        heuristic_orders(t, root, 1 - me, fut_cmds[s], gun2, placed2, rng, used, mark, keys, fields)
        fut_gun[s] = gun2[1 - me]
        fut_placed[s] = placed2[1 - me]
        seeds[s] = next_u64(rng)
    shells = 0
    for i in range(v):
        shells += t.k_shells[vkind[i]]
    work = (
        np.zeros(CELLS, dtype=np.int64),
        np.zeros(v, dtype=np.int64),
        np.full(v, -1, dtype=np.int64),
        np.zeros((2, most), dtype=np.int64),
        np.zeros(2, dtype=np.int64),
        np.zeros(2, dtype=np.int64),
        np.zeros(shells + 2 * t.rules[R_LONG_RANGE] + 2 * t.rules[R_DROPS] + 1, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.zeros(CELLS, dtype=np.float64),
        np.zeros(len(weights), dtype=np.float64),
        keys,
        fields,
        np.empty(1, dtype=np.uint64),
    )
    futures = (fut_cmds, fut_gun, fut_placed, seeds)
    scratch = (
        np.empty_like(root),
        np.full(v, -1, dtype=np.int64),
        np.zeros((2, most), dtype=np.int64),
        np.zeros(2, dtype=np.int64),
        np.zeros(2, dtype=np.int64),
        np.empty(1, dtype=np.uint64),
    )
    best = score(t, root, me, cmds, gun, placed, futures, lookahead, weights, scratch, work)
    limited = t.rules[R_PER_KIND] > 0
    fields = np.zeros(CELLS, dtype=np.int64)
    nf = min(likely_fields(t, root, me, fields, mark), candidates)
    # vehicle by vehicle (card order), every option in place of its command
    for i in range(v):
        if vside[i] != me or root[i] < 0 or banned[i] != 0:
            continue
        cell = root[i]
        low = 1 if root[v + i] <= 1 else 0
        for j in range(opt_len[i, cell, low]):
            c = opt[i, cell, low, j]
            if c == cmds[i]:
                continue
            if limited:
                used[:] = 0
                for k in range(v):
                    if k != i and vside[k] == me and cmds[k] >= 0:
                        used[cmd_kind[cmds[k]]] += 1
                if not fits(t, used, c):
                    continue
            old = cmds[i]
            cmds[i] = c
            got = score(t, root, me, cmds, gun, placed, futures, lookahead, weights, scratch, work)
            if got > best:
                best = got
            else:
                cmds[i] = old
    # token by token, each of the likeliest enemy fields no other token holds
    for k in range(placed):
        for f in range(nf):
            field = fields[f]
            held = False
            for kk in range(placed):
                if gun[kk] == field:
                    held = True
            if held:
                continue
            old = gun[k]
            gun[k] = field
            got = score(t, root, me, cmds, gun, placed, futures, lookahead, weights, scratch, work)
            if got > best:
                best = got
            else:
                gun[k] = old
    for i in range(v):
        if vside[i] == me:
            picks[i] = cmds[i]
    for k in range(placed):
        gun_picks[k] = gun[k]
    return int(placed)
