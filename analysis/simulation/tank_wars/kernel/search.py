"""The ``regret`` search in numba: decoupled regret matching over one Tank Wars round, with
the dice as sampled chance nodes. ``agents/regret_ref.py`` is the same algorithm on the
Python engine (same draws, same arithmetic, same tie-breaking); ``agents/regret.py``
explains the algorithm and why it is compiled.

``search(t, root, me, iterations, depth, mode, weights, seed, picks, gun_picks, avg_cmd,
avg_gun)`` plans from ``root`` (a position whose artillery has fired) for side ``me``:
``picks[i]`` = the command index for each of ``me``'s live vehicles, ``gun_picks[k]`` the
fields of its gunfire tokens (returns how many); ``avg_cmd``/``avg_gun`` receive both
sides' average strategies (per vehicle over its options; per side over its ``fields``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tankmap.analysis.simulation.tank_wars.kernel.base import (
    CELLS,
    R_DROPS,
    R_PER_KIND,
    Tables,
    jit,
    leaf,
    unliteral,
    unliteral_flag,
)
from tankmap.analysis.simulation.tank_wars.kernel.playout import (
    first_fitting,
    fits,
    heuristic_orders,
    light_orders,
    take,
    take_idle,
)
from tankmap.analysis.simulation.tank_wars.kernel.rng import below, next_u64, unit
from tankmap.analysis.simulation.tank_wars.kernel.round import (
    ONGOING,
    artillery,
    artillery_shots,
    gunfire,
    gunfire_available,
    movement,
    outcome,
    supply,
    usable_tokens,
)
from tankmap.analysis.simulation.tank_wars.kernel.value import value

LIGHT, HEURISTIC = 0, 1


@leaf
def draw(rng: np.ndarray, rolls: np.ndarray, n: int) -> None:
    for k in range(n):
        rolls[k] = below(rng, unliteral(36))


@leaf
def playout(
    t: Tables, pos: np.ndarray, depth: int, mode: int, rng: np.ndarray, w: tuple[Any, ...]
) -> None:
    """``depth`` more rounds from ``pos`` (between rounds), both sides ``mode`` players."""
    at, moved, cmds, gun, placed, ngun, rolls, used, mark, _x = w[:10]
    keys, fields = w[10], w[11]
    for _ in range(depth):
        if outcome(t, pos) != ONGOING:
            return
        shots = artillery_shots(t, pos, unliteral(0)) + artillery_shots(t, pos, unliteral(1))
        draw(rng, rolls, shots)
        if not artillery(t, pos, rolls, at):
            return
        for side in range(2):
            if mode == HEURISTIC:
                heuristic_orders(t, pos, side, cmds, gun, placed, rng, used, mark, keys, fields)
            else:
                light_orders(t, pos, side, cmds, gun, placed, rng, used)
        usable_tokens(t, pos, ngun, placed)
        if movement(t, pos, cmds, at, moved) and gunfire(t, pos, gun, ngun, at, moved):
            draw(rng, rolls, 2 * t.rules[R_DROPS])
            supply(t, pos, rolls, at)


@leaf
def after_movement(
    t: Tables, pos: np.ndarray, gun: np.ndarray, ngun: np.ndarray, eseed: np.uint64,
    depth: int, mode: int, weights: np.ndarray, w: tuple[Any, ...],
) -> float:  # fmt: skip
    """Gunfire, supply and the playout from a moved position; south's value."""
    at, moved, rolls, rng = w[0], w[1], w[6], w[12]
    rng[0] = eseed
    if gunfire(t, pos, gun, ngun, at, moved):
        draw(rng, rolls, 2 * t.rules[R_DROPS])
        supply(t, pos, rolls, at)
    playout(t, pos, depth, mode, rng, w)
    return value(t, pos, weights, w[9])


@leaf
def strategy(regret: np.ndarray, n: int, out: np.ndarray) -> None:
    """Regret matching: positive regrets normalised, uniform when there are none."""
    total = 0.0
    for j in range(n):
        total += regret[j]
    for j in range(n):
        out[j] = regret[j] / total if total > 0.0 else 1.0 / n


@leaf
def pick(sig: np.ndarray, n: int, total: float, rng: np.ndarray) -> int:
    """An index drawn with weights ``sig[:n]`` (summing to ``total``)."""
    u = unit(rng) * total
    acc = 0.0
    for j in range(n):
        acc += sig[j]
        if u < acc:
            return j
    for j in range(n - 1, -1, -1):
        if sig[j] > 0.0:
            return j
    return n - 1


@leaf
def sample_commands(
    t: Tables, root: np.ndarray, side: int, sig: np.ndarray, cmds: np.ndarray,
    used: np.ndarray, rng: np.ndarray,
) -> None:  # fmt: skip
    """Each of ``side``'s vehicles (card order) its option drawn from ``sig[i]``; a banned
    vehicle its first idle option; a token over the limit replaced by the first option
    within it."""
    vside, banned, opt_len, opt = t.vside, t.banned, t.opt_len, t.opt
    v = len(vside)
    used[:] = 0
    for i in range(v):
        if vside[i] != side or root[i] < 0:
            continue
        cell = root[i]
        low = 1 if root[v + i] <= 1 else 0
        if banned[i] != 0:
            take_idle(t, cmds, used, i, cell, low)
            continue
        n = opt_len[i, cell, low]
        if n == 0:
            take(t, cmds, used, i, cell, low, unliteral(-1))
            continue
        total = 0.0
        for j in range(n):
            total += sig[i, j]
        j = pick(sig[i], n, total, rng)
        if not fits(t, used, opt[i, cell, low, j]):
            j = first_fitting(t, i, cell, low, used, unliteral_flag(False))
        take(t, cmds, used, i, cell, low, j)


@leaf
def sample_gunfire(
    sig: np.ndarray, nf: int, fields: np.ndarray, tokens: int, out: np.ndarray,
    chosen: np.ndarray, taken: np.ndarray, rng: np.ndarray,
) -> None:  # fmt: skip
    """``tokens`` fields drawn from ``sig[:nf]`` without replacement while fields are left
    (uniformly among those left when their weights are all 0), then with replacement;
    ``out[k]`` the field, ``chosen[k]`` its index."""
    taken[:nf] = 0
    count = 0
    for k in range(tokens):
        if count < nf:
            total = 0.0
            for f in range(nf):
                if taken[f] == 0:
                    total += sig[f]
            f_pick = -1
            if total > 0.0:
                u = unit(rng) * total
                acc = 0.0
                last = -1
                for f in range(nf):
                    if taken[f] == 0 and sig[f] > 0.0:
                        acc += sig[f]
                        last = f
                        if u < acc:
                            f_pick = f
                            break
                if f_pick < 0:
                    f_pick = last
            else:
                r = below(rng, nf - count)
                for f in range(nf):
                    if taken[f] == 0:
                        if r == 0:
                            f_pick = f
                            break
                        r -= 1
            taken[f_pick] = 1
            count += 1
        else:
            total = 0.0
            for f in range(nf):
                total += sig[f]
            f_pick = pick(sig, nf, total, rng)
        chosen[k] = f_pick
        out[k] = fields[f_pick]


@leaf
def purified(avg: np.ndarray, n: int, fraction: float, out: np.ndarray) -> float:
    """``avg[:n]`` normalised into ``out`` with the weights under ``fraction`` × the
    largest dropped; returns their sum (0 when ``avg`` is all 0)."""
    total = 0.0
    for j in range(n):
        total += avg[j]
    top = 0.0
    for j in range(n):
        out[j] = avg[j] / total if total > 0.0 else 0.0
        top = max(top, out[j])
    kept = 0.0
    for j in range(n):
        if out[j] < fraction * top:
            out[j] = 0.0
        kept += out[j]
    return kept


@jit
def search(
    t: Tables, root: np.ndarray, me: int, iterations: int, depth: int, mode: int,
    weights: np.ndarray, seed: np.uint64, picks: np.ndarray, gun_picks: np.ndarray,
    avg_cmd: np.ndarray, avg_gun: np.ndarray, fields: np.ndarray, nfields: np.ndarray,
) -> int:  # fmt: skip
    vside, vkind, banned, opt, opt_len, opt_end = (
        t.vside,
        t.vkind,
        t.banned,
        t.opt,
        t.opt_len,
        t.opt_end,
    )
    cmd_kind = t.cmd_kind
    v = len(vside)
    maxo = opt.shape[3]
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    limited = t.rules[R_PER_KIND] > 0
    nact = np.zeros(v, dtype=np.int64)
    for i in range(v):
        if root[i] >= 0:
            nact[i] = opt_len[i, root[i], 1 if root[v + i] <= 1 else 0]
    # each side's gunfire fields: where an enemy vehicle may end this round
    mark = np.zeros(CELLS, dtype=np.float64)
    ntok = np.zeros(2, dtype=np.int64)
    for s in range(2):
        mark[:] = 0.0
        for i in range(v):
            if root[i] >= 0 and vside[i] != s:
                low = 1 if root[v + i] <= 1 else 0
                for j in range(nact[i]):
                    mark[opt_end[i, root[i], low, j]] = 1.0
        nfields[s] = 0
        for f in range(CELLS):
            if mark[f] != 0.0:
                fields[s, nfields[s]] = f
                nfields[s] += 1
        ntok[s] = gunfire_available(t, root, s) if nfields[s] > 0 else 0
    regret_cmd = np.zeros((v, maxo), dtype=np.float64)
    sig_cmd = np.zeros((v, maxo), dtype=np.float64)
    regret_gun = np.zeros((2, CELLS), dtype=np.float64)
    sig_gun = np.zeros((2, CELLS), dtype=np.float64)
    avg_cmd[:, :] = 0.0
    avg_gun[:, :] = 0.0
    most = max(ntok[0], ntok[1], 1)
    gun = np.zeros((2, most), dtype=np.int64)
    gun_alt = np.zeros((2, most), dtype=np.int64)
    chosen = np.zeros((2, most), dtype=np.int64)
    taken = np.zeros(CELLS, dtype=np.int64)
    cmds = np.full(v, -1, dtype=np.int64)
    cmds_alt = np.full(v, -1, dtype=np.int64)
    used = np.zeros(4, dtype=np.int64)
    u = np.zeros(max(maxo, CELLS), dtype=np.float64)
    gain = np.zeros(CELLS, dtype=np.float64)
    pos = np.empty_like(root)
    pos_m = np.empty_like(root)
    at = np.zeros(CELLS, dtype=np.int64)
    at_m = np.zeros(CELLS, dtype=np.int64)
    moved = np.zeros(v, dtype=np.int64)
    moved_m = np.zeros(v, dtype=np.int64)
    shells = 0
    for i in range(v):
        shells += t.k_shells[vkind[i]]
    work = (
        at,
        moved,
        np.full(v, -1, dtype=np.int64),
        np.zeros((2, max(t.rules[0], 1)), dtype=np.int64),
        np.zeros(2, dtype=np.int64),
        np.zeros(2, dtype=np.int64),
        np.zeros(shells + 2 * t.rules[1] + 2 * t.rules[R_DROPS] + 1, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.zeros(CELLS, dtype=np.float64),
        np.zeros(len(weights) - 1, dtype=np.float64),
        np.empty(CELLS, dtype=np.float64),  # the heuristic's gunfire keys
        np.empty(CELLS, dtype=np.int64),  # and fields
        np.empty(1, dtype=np.uint64),  # after_movement's dice stream
    )
    x = work[9]
    purify = weights[len(weights) - 1]
    for it in range(iterations):
        weight = it + 1.0
        for i in range(v):
            if nact[i] > 0 and banned[i] == 0:
                strategy(regret_cmd[i], nact[i], sig_cmd[i])
                for j in range(nact[i]):
                    avg_cmd[i, j] += weight * sig_cmd[i, j]
        for s in range(2):
            if ntok[s] > 0:
                strategy(regret_gun[s], nfields[s], sig_gun[s])
                for f in range(nfields[s]):
                    avg_gun[s, f] += weight * sig_gun[s, f]
        for s in range(2):
            sample_commands(t, root, s, sig_cmd, cmds, used, rng)
        for s in range(2):
            if ntok[s] > 0:
                sample_gunfire(sig_gun[s], nfields[s], fields[s], ntok[s], gun[s], chosen[s],
                               taken, rng)  # fmt: skip
        eseed = next_u64(rng)
        pos[:] = root
        moving = movement(t, pos, cmds, at, moved)
        pos_m[:] = pos
        at_m[:] = at
        moved_m[:] = moved
        if moving:
            u0 = after_movement(t, pos, gun, ntok, eseed, depth, mode, weights, work)
        else:
            u0 = value(t, pos, weights, x)
        # each vehicle's options, the others as sampled
        for i in range(v):
            if nact[i] <= 1 or banned[i] != 0:
                continue
            s = vside[i]
            cell = root[i]
            low = 1 if root[v + i] <= 1 else 0
            for j in range(nact[i]):
                c = opt[i, cell, low, j]
                if c == cmds[i]:
                    u[j] = u0
                    continue
                if limited:
                    used[:] = 0
                    for k in range(v):
                        if k != i and vside[k] == s and cmds[k] >= 0:
                            used[cmd_kind[cmds[k]]] += 1
                    if not fits(t, used, c):
                        u[j] = u0
                        continue
                cmds_alt[:] = cmds
                cmds_alt[i] = c
                pos[:] = root
                if movement(t, pos, cmds_alt, at, moved):
                    u[j] = after_movement(t, pos, gun, ntok, eseed, depth, mode, weights, work)
                else:
                    u[j] = value(t, pos, weights, x)
            sign = 1.0 if s == 0 else -1.0
            expected = 0.0
            for j in range(nact[i]):
                expected += sig_cmd[i, j] * u[j]
            for j in range(nact[i]):
                r = regret_cmd[i, j] + sign * (u[j] - expected)
                regret_cmd[i, j] = r if r > 0.0 else 0.0
        # each gunfire token's fields, the others as sampled (a field another token holds:
        # the same set of fields)
        for s in range(2):
            nf = nfields[s]
            if ntok[s] == 0 or nf <= 1:
                continue
            gain[:nf] = 0.0
            sign = 1.0 if s == 0 else -1.0
            for k in range(ntok[s]):
                for f in range(nf):
                    field = fields[s, f]
                    held = False
                    for kk in range(ntok[s]):
                        if gun[s, kk] == field:
                            held = True
                    if held or not moving:
                        u[f] = u0
                        continue
                    gun_alt[:, :] = gun
                    gun_alt[s, k] = field
                    pos[:] = pos_m
                    at[:] = at_m
                    moved[:] = moved_m
                    u[f] = after_movement(t, pos, gun_alt, ntok, eseed, depth, mode, weights, work)
                expected = 0.0
                for f in range(nf):
                    expected += sig_gun[s, f] * u[f]
                for f in range(nf):
                    gain[f] += sign * (u[f] - expected)
            for f in range(nf):
                r = regret_gun[s, f] + gain[f]
                regret_gun[s, f] = r if r > 0.0 else 0.0
    # the plan: drawn from the average strategies
    for i in range(v):
        if nact[i] > 0 and banned[i] == 0:
            purified(avg_cmd[i].copy(), nact[i], purify, sig_cmd[i])
    sample_commands(t, root, me, sig_cmd, cmds, used, rng)
    for i in range(v):
        if vside[i] == me:
            picks[i] = cmds[i]
    n = ntok[me]
    if n > 0:
        purified(avg_gun[me].copy(), nfields[me], purify, sig_gun[me])
        sample_gunfire(sig_gun[me], nfields[me], fields[me], n, gun_picks, chosen[me], taken, rng)
    for i in range(v):
        total = 0.0
        for j in range(nact[i]):
            total += avg_cmd[i, j]
        for j in range(nact[i]):
            avg_cmd[i, j] = avg_cmd[i, j] / total if total > 0.0 else 0.0
    for s in range(2):
        total = 0.0
        for f in range(nfields[s]):
            total += avg_gun[s, f]
        for f in range(nfields[s]):
            avg_gun[s, f] = avg_gun[s, f] / total if total > 0.0 else 0.0
    return int(n)
