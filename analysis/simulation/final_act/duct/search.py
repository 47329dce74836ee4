"""The ``duct`` search, compiled: decoupled UCT over every unit's orders and shells, both
sides searching, the round's outcome judged by playouts several rounds deep.

**Arms.** Every unit in play, of *both* sides, is a bandit over its legal orders (an AT:
its turns in place and its steps that keep its facing; a damaged tank sharing a cell with
an own R/M that has repairs left: also "repair", Extra Forces §1.3); every unit that can
fire is a second bandit over the cells of its fire zone an enemy unit could end the round
on. Orders are tried shortest route first, shells on the cells the most enemy orders end
on first (``params`` noise breaks ties), so a small budget tries the likeliest arms.

**Iteration** ``i``: each bandit picks an arm by UCB1 (an arm not tried yet first, then
``mean + EXPLORE * sqrt(ln N / n)``); a tank picking "repair" holds its R/M in place (that
R/M's bandit is not updated); an AT that moves places no shell. The round is played by the
kernel's rules, then up to ``DEPTH`` more rounds by the playout policy — ``duct``'s own
light policy (``playout``) or, for ``duct-h``, the heuristic on both sides — and
the position is valued (``playout._value``, for south); every bandit of south adds
the value to its arm, every bandit of north its negation (zero-sum, decoupled).

**Choice**: the side's units take their most-tried arms (a tie: the higher mean, then the
first); so the enemy is a searching player, not a model of the heuristic.

Noise: counters of the search's key (``_search_key``) and of each iteration's key
(``_iter_key``), so a search is a pure function of the position, the key and the budget.
The plain-Python reference is ``agents/duct_ref.py``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tankmap.analysis.simulation.final_act.duct.params import (
    ARM_STRIDE,
    EXPLORE,
    LIGHT,
    REPAIR_ARM,
    SHELL_NOISE,
)
from tankmap.analysis.simulation.final_act.duct.playout import (
    _blockers,
    _can_hit,
    _iter_key,
    _light_round,
    _usable,
    _value,
)
from tankmap.analysis.simulation.final_act.kernel.base import (
    _inline,
    _jit,
    _noise,
    unowned,
)
from tankmap.analysis.simulation.final_act.kernel.round import _heuristic_round
from tankmap.analysis.simulation.final_act.kernel.rules import _apply, _check_end, rule_tables
from tankmap.analysis.simulation.final_act.kernel.tables import AT, RM, TANK


@_inline
def _ucb(n: Any, w: Any, count: int, total: int) -> int:
    """The arm a bandit plays: the first not tried yet, else the highest UCB1 score (the
    first of equal scores)."""
    best = 0
    best_s = -np.inf
    for a in range(count):
        if n[a] == 0:
            return a
        s = w[a] / n[a] + EXPLORE * math.sqrt(math.log(total) / n[a])
        if s > best_s:
            best, best_s = a, s
    return best


@_inline
def _most_tried(n: Any, w: Any, count: int) -> int:
    """The most-tried arm (a tie: the higher mean, then the first)."""
    best = 0
    for a in range(1, count):
        if n[a] > n[best] or (n[a] == n[best] and n[a] > 0 and w[a] / n[a] > w[best] / n[best]):
            best = a
    return best


@_inline
def _sort_arms(keys: Any, ties: Any, cols: Any, count: int) -> None:
    """Sort the first ``count`` arms by ``(keys, ties)`` (insertion sort, stable), carrying
    the rows of ``cols`` (arrays of the arms' data) along."""
    for a in range(1, count):
        k, t = keys[a], ties[a]
        c0, c1, c2 = cols[0][a], cols[1][a], cols[2][a]
        b = a
        while b > 0 and (keys[b - 1] > k or (keys[b - 1] == k and ties[b - 1] > t)):
            keys[b], ties[b] = keys[b - 1], ties[b - 1]
            cols[0][b], cols[1][b], cols[2][b] = cols[0][b - 1], cols[1][b - 1], cols[2][b - 1]
            b -= 1
        keys[b], ties[b] = k, t
        cols[0][b], cols[1][b], cols[2][b] = c0, c1, c2


@_inline
def _partner(T: Any, u: int, cell: Any, alive: Any, rm_left: Any) -> int:
    """The own R/M with repairs left sharing tank ``u``'s cell, or -1."""
    for v in range(cell.shape[0]):
        if (
            alive[v]
            and T.kind[v] == RM
            and T.side[v] == T.side[u]
            and cell[v] == cell[u]
            and rm_left[v] > 0
        ):
            return v
    return -1


@_jit
def _arms(
    T: Any,
    X: Any,
    skey: np.uint64,
    nobs: Any,
    cell: Any,
    facing: Any,
    damage: Any,
    alive: Any,
    wreck: Any,
    wreck_cells: Any,
    rm_left: Any,
    A: Any,
) -> None:
    """Fill the bandits' arms ``A`` (see ``search``) for the position given."""
    a_dest, a_fac, a_rep, a_key, a_tie, n_arms, s_cell, s_key, s_tie, n_sh, partner, reach, blk = A
    units = cell.shape[0]
    n = T.n
    _blockers(T, cell, alive, wreck, blk)
    reach[:, :] = 0.0
    for v in range(units):
        if not alive[v]:
            continue
        ks = T.ks[v]
        here = cell[v]
        idx = here * 8 + facing[v]
        count = 0
        first = -1
        for j in range(T.k):
            d = _usable(T, ks, idx, j, here, wreck_cells, False)
            if d >= 0:
                count += 1
                if first < 0:
                    first = d
        side = T.side[v]
        for j in range(T.k):
            d = _usable(T, ks, idx, j, here, wreck_cells, False)
            if d >= 0:
                reach[side, d] += 1.0 / count
        reach[side, first] += 1.0
    for u in range(units):
        n_arms[u] = 0
        n_sh[u] = 0
        partner[u] = -1
        if not alive[u]:
            continue
        ks = T.ks[u]
        here = cell[u]
        side = T.side[u]
        idx = here * 8 + facing[u]
        m = 0
        for j in range(T.k):
            d = _usable(T, ks, idx, j, here, wreck_cells, nobs[side])
            if d < 0:
                continue
            f = T.ord_fac[ks, idx, j]
            if T.kind[u] == AT and d != here and f != facing[u]:
                continue
            a_dest[u, m] = d
            a_fac[u, m] = f
            a_rep[u, m] = 0
            a_key[u, m] = float(T.ord_d[ks, idx, j])
            a_tie[u, m] = _noise(skey, u * ARM_STRIDE + j)
            m += 1
        if T.repair_on and T.kind[u] == TANK and damage[u] > 0:
            v = _partner(T, u, cell, alive, rm_left)
            if v >= 0:
                partner[u] = v
                a_dest[u, m] = here
                a_fac[u, m] = facing[u]
                a_rep[u, m] = 1
                a_key[u, m] = float(T.dist[ks, idx])
                a_tie[u, m] = _noise(skey, u * ARM_STRIDE + REPAIR_ARM)
                m += 1
        n_arms[u] = m
        _sort_arms(a_key[u], a_tie[u], (a_dest[u], a_fac[u], a_rep[u]), m)
        if not T.fires[u]:
            continue
        enemy = 1 - side
        m = 0
        for c in range(n):
            if reach[enemy, c] > 0.0 and _can_hit(T, X, u, here, facing[u], c, blk):
                s_cell[u, m] = c
                s_key[u, m] = -reach[enemy, c]
                s_tie[u, m] = _noise(skey, u * ARM_STRIDE + SHELL_NOISE + c)
                m += 1
        n_sh[u] = m
        _sort_arms(s_key[u], s_tie[u], (s_cell[u], s_cell[u], s_cell[u]), m)


@_jit
def _pick(
    T: Any,
    a_dest: Any,
    a_fac: Any,
    a_rep: Any,
    n_arms: Any,
    s_cell: Any,
    n_sh: Any,
    a_n: Any,
    a_w: Any,
    s_n: Any,
    s_w: Any,
    tot_a: Any,
    tot_s: Any,
    ch_a: Any,
    ch_s: Any,
    partner: Any,
    cell0: Any,
    facing0: Any,
    alive0: Any,
    dest: Any,
    dest_fac: Any,
    shells: Any,
    repair: Any,
    held: Any,
) -> None:
    """Every bandit's arm for this iteration (``ch_a``, ``ch_s``: -1 for none) and the
    round's decisions they make (``dest``, ``dest_fac``, ``shells``, ``repair``; ``held``:
    the R/Ms kept in place by a repair)."""
    units = cell0.shape[0]
    for u in range(units):
        dest[u] = cell0[u]
        dest_fac[u] = facing0[u]
        repair[u] = False
        shells[u] = -1
        held[u] = False
        ch_s[u] = -1
        if alive0[u]:
            a = _ucb(a_n[u], a_w[u], n_arms[u], tot_a[u])
            ch_a[u] = a
            dest[u] = a_dest[u, a]
            dest_fac[u] = a_fac[u, a]
            repair[u] = a_rep[u, a] != 0
    for u in range(units):
        if repair[u]:
            v = partner[u]
            dest[v] = cell0[v]
            dest_fac[v] = facing0[v]
            held[v] = True
    for u in range(units):
        if n_sh[u] == 0 or repair[u] or (T.kind[u] == AT and dest[u] != cell0[u]):
            continue
        s = _ucb(s_n[u], s_w[u], n_sh[u], tot_s[u])
        ch_s[u] = s
        shells[u] = s_cell[u, s]


@_jit
def duct_search(
    T: Any,
    X: Any,
    me: int,
    skey: np.uint64,
    iters: int,
    depth: int | np.int64,
    playout: int,
    nobs: Any,
    rnd0: int | np.int64,
    state0: Any,
    out: Any,
    S: Any,
) -> None:
    """Side ``me``'s orders, shells and repairs for round ``rnd0 + 1`` by ``iters``
    iterations (module docstring) from ``state0`` = (cell, facing, damage, alive, wreck,
    wreck_cells, tie_base, rm_left), which is not changed. ``out`` = (dest, dest_fac,
    shells, repair): filled for ``me``'s units in play (the others untouched; -1: no
    shell). ``nobs[side]``: that side never enters a berm (``+no-berms``). ``S``:
    work space, ``round._scratch(T, units)`` (not the arrays of a game being played)."""
    T, X, nobs, state0, out, S = unowned((T, X, nobs, state0, out, S))
    cell0, facing0, damage0, alive0, wreck0, wreck_cells0, tie0, rm_left0 = state0
    out_dest, out_fac, out_shells, out_repair = out
    g0 = np.int64(0)  # game row 0, not the literal 0: one compiled _apply for every caller
    units = cell0.shape[0]
    n = T.n
    ka = T.k + 1
    sa = T.tgt.shape[2] + 1
    a_dest = np.empty((units, ka), dtype=np.int64)
    a_fac = np.empty((units, ka), dtype=np.int64)
    a_rep = np.empty((units, ka), dtype=np.int64)
    a_key = np.empty((units, ka), dtype=np.float64)
    a_tie = np.empty((units, ka), dtype=np.float64)
    s_cell = np.empty((units, sa), dtype=np.int64)
    s_key = np.empty((units, sa), dtype=np.float64)
    s_tie = np.empty((units, sa), dtype=np.float64)
    n_arms = np.zeros(units, dtype=np.int64)
    n_sh = np.zeros(units, dtype=np.int64)
    partner = np.full(units, -1, dtype=np.int64)
    reach = np.zeros((2, n + 1), dtype=np.float64)
    blk = np.empty(T.bet_words.shape[3], dtype=np.uint64)
    arms = (a_dest, a_fac, a_rep, a_key, a_tie, n_arms, s_cell, s_key, s_tie, n_sh, partner)
    _arms(T, X, skey, nobs, cell0, facing0, damage0, alive0, wreck0, wreck_cells0, rm_left0,
          (*arms, reach, blk))  # fmt: skip
    a_n = np.zeros((units, ka), dtype=np.int64)
    a_w = np.zeros((units, ka), dtype=np.float64)
    s_n = np.zeros((units, sa), dtype=np.int64)
    s_w = np.zeros((units, sa), dtype=np.float64)
    tot_a = np.zeros(units, dtype=np.int64)
    tot_s = np.zeros(units, dtype=np.int64)
    ch_a = np.zeros(units, dtype=np.int64)
    ch_s = np.full(units, -1, dtype=np.int64)
    held = np.zeros(units, dtype=np.bool_)
    cell = np.empty(units, dtype=np.int64)
    facing = np.empty(units, dtype=np.int64)
    damage = np.empty(units, dtype=np.int64)
    alive = np.empty(units, dtype=np.bool_)
    wreck = np.empty(units, dtype=np.bool_)
    tie = np.empty(units, dtype=np.bool_)
    wreck_cells = np.empty(n, dtype=np.bool_)
    rm_left = np.empty(units, dtype=np.int64)
    claim = np.zeros(n + 1, dtype=np.uint8)
    guess = np.empty(units, dtype=np.int64)
    still, best_d, dest, dest_fac, shells = S[0], S[1], S[2], S[3], S[4]
    moving, bounce, repair, rwreck = S[5], S[6], S[19], S[20]
    grid, links = S[21], S[22]
    kills = np.zeros((1, 2), dtype=np.int64)
    d_count = np.zeros(1, dtype=np.int64)
    d_unit = np.zeros((1, units), dtype=np.int64)
    d_cell = np.zeros((1, units), dtype=np.int64)
    d_round = np.zeros((1, units), dtype=np.int64)
    d_by = np.zeros((1, units), dtype=np.int64)
    rt = rule_tables(T)
    state = (cell, facing, damage, alive, wreck, wreck_cells, tie, rm_left)
    for i in range(iters):
        ikey = _iter_key(skey, i)
        cell[:] = cell0
        facing[:] = facing0
        damage[:] = damage0
        alive[:] = alive0
        wreck[:] = wreck0
        wreck_cells[:] = wreck_cells0
        tie[:] = tie0
        rm_left[:] = rm_left0
        d_count[0] = 0
        still[:] = 0
        best_d[:] = np.inf
        _pick(T, a_dest, a_fac, a_rep, n_arms, s_cell, n_sh, a_n, a_w, s_n, s_w, tot_a, tot_s,
              ch_a, ch_s, partner, cell0, facing0, alive0, dest, dest_fac, shells, repair,
              held)  # fmt: skip
        rnd = int(rnd0)
        end = 0
        winner = -1
        for r in range(depth + 1):
            if r > 0:  # a playout round (r = 0: the round the bandits decided)
                if playout == LIGHT:
                    _light_round(
                        T, X, ikey, r - 1, nobs, cell, facing, alive, wreck, wreck_cells, blk,
                        claim, guess, dest, dest_fac, shells,
                    )  # fmt: skip
                    repair[:] = False
                else:
                    _heuristic_round(T, S, ikey, (r - 1) * T.width, nobs, state)
            rnd += 1
            _apply(rt, g0, rnd, cell, facing, damage, alive, wreck, wreck_cells, kills, dest,
                   dest_fac, shells, moving, bounce, d_count, d_unit, d_cell, d_round, d_by,
                   rm_left, repair, rwreck, grid, links)  # fmt: skip
            end, winner = _check_end(
                T.goal, T.had_tanks, T.kind, T.max_rounds, T.side, rnd, cell, alive, tie
            )
            if end != 0:
                break
        v0 = _value(T, cell, facing, damage, alive, end, winner)
        for u in range(units):
            if not alive0[u]:
                continue
            v = v0 if T.side[u] == 0 else -v0
            if not held[u]:
                a = ch_a[u]
                a_n[u, a] += 1
                a_w[u, a] += v
                tot_a[u] += 1
            s = ch_s[u]
            if s >= 0:
                s_n[u, s] += 1
                s_w[u, s] += v
                tot_s[u] += 1
    for u in range(units):
        if not alive0[u] or T.side[u] != me:
            continue
        a = _most_tried(a_n[u], a_w[u], n_arms[u])
        out_dest[u] = a_dest[u, a]
        out_fac[u] = a_fac[u, a]
        out_repair[u] = a_rep[u, a] != 0
    for u in range(units):
        if alive0[u] and T.side[u] == me and out_repair[u]:
            v = partner[u]
            out_dest[v] = cell0[v]
            out_fac[v] = facing0[v]
    for u in range(units):
        if not alive0[u] or T.side[u] != me:
            continue
        out_shells[u] = -1
        if n_sh[u] == 0 or out_repair[u] or (T.kind[u] == AT and out_dest[u] != cell0[u]):
            continue
        out_shells[u] = s_cell[u, _most_tried(s_n[u], s_w[u], n_sh[u])]
