"""Final Act ``random``/``heuristic`` playouts compiled with numba (whole games per call).

The same rules and the same decisions as the numpy reference
(``drivers/final_act_batch.py`` with ``rules.final_act.engine_batch`` and
``policies/final_act_batch.py``, itself checked against the readable one-game engine),
written as scalar loops over one game at a time and compiled: the games are bit for bit
those of the numpy version for the same keys (``tests/simulation/test_final_act_kernel.py``
plays both on every built-in map, policy pair and restriction). Floating-point sums follow
numpy's order (``_pairwise`` is numpy's pairwise summation), so scores tie and break
exactly as there.

Random numbers come from ``analysis.simulation.noise`` (counter-based): the kernel computes
only the ones a decision reads. Records (``record=True``) are made by the numpy version.

When numba is not installed, or ``TANKMAP_KERNEL=numpy`` is set, ``available()`` is false
and the driver uses the numpy version (same games, about ten times slower).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.games import Death, GameResult, parse_policy
from tankmap.analysis.simulation.noise import GOLDEN, MUL1, MUL2, STEP, UNIT
from tankmap.analysis.simulation.policies.final_act import Prepared
from tankmap.analysis.simulation.policies.final_act_batch import (
    NOISE_PER_UNIT,
    BatchTables,
    pack_bits,
)
from tankmap.rules.final_act.engine import SIDES
from tankmap.rules.final_act.engine_batch import END_CODES

_numba: Any
try:  # numba is a dependency; without it (an unsupported platform) numpy plays the games
    import numba as _numba
except ImportError:  # pragma: no cover - exercised only where numba cannot be installed
    _numba = None

F = TypeVar("F", bound=Callable[..., Any])

TANK, AT, RM = 0, 1, 2
HEURISTIC, RANDOM = 0, 1


def _jit(fn: F) -> F:
    if _numba is None:
        return fn
    return cast(F, _numba.njit(cache=True, nogil=True, error_model="numpy")(fn))


def _inline(fn: F) -> F:
    """A small helper compiled into its callers (numba-level inlining)."""
    if _numba is None:
        return fn
    return cast(F, _numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")(fn))


def available() -> bool:
    """Whether the compiled kernel plays the vectorised games (numba importable and
    ``TANKMAP_KERNEL`` is not ``numpy``)."""
    return _numba is not None and os.environ.get("TANKMAP_KERNEL", "") != "numpy"


MIN_GAMES = 400
"""Fewer games than this in one call play on the numpy engine unless the kernel is loaded
already: loading it from numba's cache takes about half a second, the numpy engine plays
a few hundred games in less. The games are the same either way."""


def worth_it(games: int) -> bool:
    """Whether ``games`` games in one call should play on the kernel (``MIN_GAMES``)."""
    if not available():
        return False
    return games >= MIN_GAMES or bool(getattr(_play, "signatures", ()))


class Tables(NamedTuple):
    """The per-scenario arrays the kernel reads (from ``BatchTables``; see there)."""

    n: int
    k: int
    k_move: int
    width: int
    ord_dest: npt.NDArray[np.int64]
    ord_fac: npt.NDArray[np.int64]
    ord_d: npt.NDArray[np.float64]
    dist: npt.NDArray[np.float64]
    lik_cell: npt.NDArray[np.int64]
    lik_p: npt.NDArray[np.float64]
    tgt: npt.NDArray[np.int64]
    bet_words: npt.NDArray[np.uint64]
    zone_words: npt.NDArray[np.uint64]
    n_tgt: npt.NDArray[np.int64]
    n_elev: npt.NDArray[np.int64]
    elev: npt.NDArray[np.int64]
    berm_words: npt.NDArray[np.uint64]
    elevating: npt.NDArray[np.bool_]
    ks: npt.NDArray[np.int64]
    value: npt.NDArray[np.float64]
    fires: npt.NDArray[np.bool_]
    elevates: npt.NDArray[np.bool_]
    kind: npt.NDArray[np.int64]
    side: npt.NDArray[np.int64]
    hits: npt.NDArray[np.int64]
    blocks: npt.NDArray[np.bool_]
    no_swap: npt.NDArray[np.bool_]
    goal: npt.NDArray[np.bool_]
    had_tanks: npt.NDArray[np.bool_]
    wrecks: bool
    max_rounds: int
    max_units: int
    max_kind: npt.NDArray[np.int64]
    forbid_tank_rm: bool


_PACKED: dict[int, tuple[BatchTables, Tables]] = {}


def small(a: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
    """``a`` as int16 when its values fit (cells, facings): the tables a game reads per
    round then span a quarter of the cache lines; the values are the same."""
    fits = a.size == 0 or (int(a.min()) >= -32768 and int(a.max()) <= 32767)
    return np.ascontiguousarray(a, dtype=np.int16 if fits else np.int64)


def compact(a: npt.NDArray[np.float64]) -> npt.NDArray[Any]:
    """``a`` as float32 when that is exact for every value (rounds to goal are whole
    numbers), else unchanged: arithmetic reads them back as the same float64."""
    b = a.astype(np.float32)
    exact = bool(np.array_equal(b.astype(np.float64), a))
    return np.ascontiguousarray(b if exact else a)


def tables(tb: BatchTables) -> Tables:
    """The kernel's view of ``tb`` (built once per tables object)."""
    found = _PACKED.get(id(tb))
    if found is not None and found[0] is tb:
        return found[1]
    b = tb.batch
    c = np.ascontiguousarray
    bet_words = np.stack(tb.bet_words, axis=-1)  # [kc, idx, target, word]
    packed = Tables(
        n=int(tb.size),
        k=int(tb.k),
        k_move=int(tb.k_move),
        width=int(b.n_units * NOISE_PER_UNIT + tb.size + 1),
        ord_dest=small(tb.ord_dest),
        ord_fac=small(tb.ord_fac),
        ord_d=compact(tb.ord_d),
        dist=compact(tb.dist),
        lik_cell=small(tb.lik_cell),
        lik_p=c(tb.lik_p),
        tgt=small(tb.tgt),
        bet_words=c(bet_words),
        zone_words=c(np.bitwise_or.reduce(bet_words, axis=2)),
        n_tgt=c((tb.tgt < tb.size).sum(axis=2).astype(np.int64)),
        n_elev=c((tb.elev < tb.size).sum(axis=2).astype(np.int64)),
        elev=small(tb.elev),
        berm_words=c(pack_bits(tb.berm[None, : tb.size], bet_words.shape[-1])[0]),
        elevating=c(tb.elevating),
        ks=c(tb.ks.astype(np.int64)),
        value=c(tb.value),
        fires=c(tb.fires),
        elevates=c(tb.elevates),
        kind=c(b.kind),
        side=c(b.side),
        hits=c(b.hits),
        blocks=c(b.blocks),
        no_swap=c(b.no_swap),
        goal=c(b.goal),
        had_tanks=c(b.had_tanks),
        wrecks=bool(b.wrecks),
        max_rounds=int(b.max_rounds),
        max_units=int(b.max_units),
        max_kind=c(b.max_kind),
        forbid_tank_rm=bool(b.forbid_tank_rm),
    )
    if len(_PACKED) > 8:
        _PACKED.clear()
    _PACKED[id(tb)] = (tb, packed)
    return packed


# --- random numbers (analysis.simulation.noise, as uint64 arithmetic) -----------------------
_GOLDEN = np.uint64(GOLDEN)
_STEP = np.uint64(STEP)
_MUL1 = np.uint64(MUL1)
_MUL2 = np.uint64(MUL2)
_S11 = np.uint64(11)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)


@_inline
def _noise(key: np.uint64, counter: int) -> float:
    z = key + np.uint64(counter) * _STEP + _GOLDEN
    z = (z ^ (z >> _S30)) * _MUL1
    z = (z ^ (z >> _S27)) * _MUL2
    z = z ^ (z >> _S31)
    out: float = float(np.int64(z >> _S11)) * UNIT  # (< 2**53: a signed conversion is exact)
    return out


@_jit
def _pairwise(a: Any, n: int) -> float:
    """numpy's pairwise summation of ``a[:n]`` (so sums round exactly as numpy's)."""
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[i]
        return res
    if n <= 128:
        r0, r1, r2, r3 = a[0], a[1], a[2], a[3]
        r4, r5, r6, r7 = a[4], a[5], a[6], a[7]
        i = 8
        stop = n - (n % 8)
        while i < stop:
            r0 += a[i]
            r1 += a[i + 1]
            r2 += a[i + 2]
            r3 += a[i + 3]
            r4 += a[i + 4]
            r5 += a[i + 5]
            r6 += a[i + 6]
            r7 += a[i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < n:
            res += a[i]
            i += 1
        return float(res)
    n2 = n // 2
    n2 -= n2 % 8
    return _pairwise(a, n2) + _pairwise(a[n2:], n - n2)


# --- the position at the start of a round (policies.final_act_batch.View) ------------------
@_inline
def _blocked(T_bet_words: Any, kc: int, idx: int, t: int, blk: Any) -> bool:
    """Whether a blocker stands between the shooter and target ``t`` of ``(kc, idx)``."""
    for w in range(blk.shape[0]):
        if T_bet_words[kc, idx, t, w] & blk[w]:
            return True
    return False


@_jit
def _view(
    T_berm_words: Any,
    T_bet_words: Any,
    T_zone_words: Any,
    T_n_tgt: Any,
    T_n_elev: Any,
    T_blocks: Any,
    T_elev: Any,
    T_elevates: Any,
    T_elevating: Any,
    T_fires: Any,
    T_kind: Any,
    T_ks: Any,
    T_lik_cell: Any,
    T_lik_p: Any,
    T_n: Any,
    T_side: Any,
    T_tgt: Any,
    T_value: Any,
    cell: Any,
    facing: Any,
    damage: Any,
    alive: Any,
    wreck: Any,
    blk: Any,
    vtgt: Any,
    vvalid: Any,
    danger: Any,
    likely: Any,
) -> None:
    """Fire zones (``vtgt``/``vvalid``: targets of units that can fire, out of line of
    fire blocked), ``danger[side, cell]`` and ``likely[side, cell]`` (View). ``blk``: the
    cells that block fire (wrecks, berms, blocking units) as 64-bit words."""
    units = cell.shape[0]
    blk[:] = T_berm_words  # berms, then wrecks (knocked-out tanks) and blocking units
    for u in range(units):
        if wreck[u] or (alive[u] and T_blocks[u]):
            c = cell[u]
            blk[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
    danger[:, :] = 0.0
    likely[:, :] = 0.0
    vvalid[:, :] = False  # (only the targets of units that can fire are read)
    for u in range(units):
        idx = cell[u] * 8 + facing[u]
        if alive[u] and T_fires[u]:
            kc = min(T_kind[u], AT)
            side = T_side[u]
            if T_elevates[u] and T_elevating[cell[u]]:  # on a berm: the elevated zone
                for t in range(T_n_elev[kc, idx]):
                    tg = T_elev[kc, idx, t]
                    vtgt[u, t] = tg
                    vvalid[u, t] = True
                    danger[side, tg] += 1.0
            else:
                # (targets come first in the tables, padding after them)
                clear = True
                for w in range(blk.shape[0]):
                    if T_zone_words[kc, idx, w] & blk[w]:
                        clear = False
                for t in range(T_n_tgt[kc, idx]):
                    tg = T_tgt[kc, idx, t]
                    ok = clear or not _blocked(T_bet_words, kc, idx, t, blk)
                    vtgt[u, t] = tg
                    vvalid[u, t] = ok
                    if ok:
                        danger[side, tg] += 1.0
        if alive[u]:
            ks = T_ks[u]
            scale = 1.0 + damage[u]
            for j in range(T_lik_cell.shape[2]):
                likely[T_side[u], T_lik_cell[ks, idx, j]] += (
                    T_lik_p[ks, idx, j] * T_value[u]
                ) * scale


@_jit
def _pick_nth(flags: Any, count: int, r: float) -> int:
    """The position of the ``min(int(r * count), count - 1)``-th true flag (0 if none):
    ``argmax(cumsum(flags) > k)`` of the numpy version."""
    k = min(int(r * count), max(count - 1, 0)) if count > 0 else -1
    seen = 0
    for i in range(flags.shape[0]):
        if flags[i]:
            seen += 1
        if seen > k:
            return i
    return 0


@_jit
def _options(
    T_elevating: Any,
    T_ks: Any,
    T_ord_dest: Any,
    u: int,
    side_nob: bool,
    cell: Any,
    facing: Any,
    wreck_cells: Any,
    width: int,
    ok: Any,
) -> None:
    """``ok[j]``: order ``j`` of unit ``u`` is usable (final_act_batch._options)."""
    ks = T_ks[u]
    idx = cell[u] * 8 + facing[u]
    here = cell[u]
    for j in range(width):
        d = T_ord_dest[ks, idx, j]
        good = d >= 0
        safe = d if good else 0
        moving = d != here
        if moving and wreck_cells[safe]:
            good = False
        if side_nob and moving and T_elevating[safe]:
            good = False
        ok[j] = good


@_jit
def _random_side(
    T_elevating: Any,
    T_k: Any,
    T_kind: Any,
    T_ks: Any,
    T_ord_dest: Any,
    T_ord_fac: Any,
    T_side: Any,
    side: int,
    nob: bool,
    key: np.uint64,
    base: int,
    cell: Any,
    facing: Any,
    alive: Any,
    wreck_cells: Any,
    vtgt: Any,
    vvalid: Any,
    dest: Any,
    dest_fac: Any,
    shells: Any,
    ok: Any,
) -> None:
    units = cell.shape[0]
    for u in range(units):
        if T_side[u] != side:
            continue
        nb = base + u * NOISE_PER_UNIT
        _options(T_elevating, T_ks, T_ord_dest, u, nob, cell, facing, wreck_cells, T_k, ok)
        count = 0
        for j in range(T_k):
            if ok[j]:
                count += 1
        pos = _pick_nth(ok[:T_k], count, _noise(key, nb))
        if alive[u]:
            idx = cell[u] * 8 + facing[u]
            dest[u] = T_ord_dest[T_ks[u], idx, pos]
            dest_fac[u] = T_ord_fac[T_ks[u], idx, pos]
        # _shell_random
        count = 0
        for t in range(vvalid.shape[1]):
            if vvalid[u, t]:
                count += 1
        can = count > 0
        if T_kind[u] == AT:
            can = can and dest[u] == cell[u]
        if can:
            shells[u] = vtgt[u, _pick_nth(vvalid[u], count, _noise(key, nb + 1))]
        else:
            shells[u] = -1


@_jit
def _heuristic_side(
    T_bet_words: Any,
    T_zone_words: Any,
    T_n_tgt: Any,
    T_dist: Any,
    T_elevating: Any,
    T_k: Any,
    T_k_move: Any,
    T_kind: Any,
    T_ks: Any,
    T_n: Any,
    T_ord_d: Any,
    T_ord_dest: Any,
    T_ord_fac: Any,
    T_side: Any,
    T_tgt: Any,
    T_width: Any,
    side: int,
    nob: bool,
    key: np.uint64,
    base: int,
    cell: Any,
    facing: Any,
    damage: Any,
    alive: Any,
    still: Any,
    wreck_cells: Any,
    blk: Any,
    vtgt: Any,
    vvalid: Any,
    danger_all: Any,
    likely_all: Any,
    dest: Any,
    dest_fac: Any,
    shells: Any,
    claimed: Any,
    likely: Any,
    vals: Any,
    ok: Any,
    mine: Any,
    keyd: Any,
    order: Any,
) -> None:
    n = T_n
    units = cell.shape[0]
    enemy = 1 - side
    danger = danger_all[enemy]
    tail = base + T_width - (n + 1)
    for c in range(n + 1):  # 0 stays 0 whatever the noise: only the others draw theirs
        x = likely_all[enemy, c]
        likely[c] = x * (1.0 + 1e-9 * _noise(key, tail + c)) if x != 0.0 else x
    # the side's units, closest to goal first (a stable sort of distance + tie noise)
    m = 0
    for u in range(units):
        if T_side[u] == side:
            mine[m] = u
            keyd[m] = (
                T_dist[T_ks[u], cell[u] * 8 + facing[u]]
                + _noise(key, base + u * NOISE_PER_UNIT + 2) * 1e-3
            )
            m += 1
    for i in range(m):  # insertion sort: stable, like numpy's kind="stable"
        j = i
        while j > 0 and keyd[order[j - 1]] > keyd[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    claimed[:] = False
    for i in range(m):
        u = mine[i]
        if T_kind[u] != AT and alive[u]:
            claimed[cell[u]] = True
    # tanks and R/M, one at a time in ``order`` (_move_orders)
    km = T_k_move
    for i in range(m):
        u = mine[order[i]]
        if T_kind[u] == AT:
            continue
        here = cell[u]
        ks = T_ks[u]
        idx = here * 8 + facing[u]
        caution = 0.35 if (T_kind[u] == TANK and damage[u] == 0) else 0.8
        s_ = still[u]
        amplitude = 0.3 if s_ < 2 else 0.3 + min(s_, 8)
        nb = base + u * NOISE_PER_UNIT + 8
        best = 0
        best_sc = np.inf
        for j in range(km):
            d = T_ord_dest[ks, idx, j]
            safe = d if d >= 0 else n
            moving = d != here
            good = d >= 0 and not (moving and wreck_cells[min(safe, n - 1)])
            if nob and moving and T_elevating[safe]:
                good = False
            if good and moving and claimed[safe]:
                good = False
            if good:
                # noise >= 0 cannot bring a score below its base: an option whose base is
                # not below the best so far never wins, and its number is not computed
                sc = T_ord_d[ks, idx, j] + caution * danger[safe]
                if sc >= best_sc:
                    continue
                sc = sc + amplitude * _noise(key, nb + j)
                if sc < best_sc:
                    best_sc = sc
                    best = j
        if alive[u] and best_sc < np.inf:
            to = T_ord_dest[ks, idx, best]
            dest[u] = to
            dest_fac[u] = T_ord_fac[ks, idx, best]
            if to != here:
                claimed[here] = False
                claimed[to] = True
        else:
            dest[u] = here
    # ATs (_at_order)
    t_max = T_tgt.shape[2]
    for i in range(m):
        u = mine[i]
        if T_kind[u] != AT or not alive[u]:
            continue
        here = cell[u]
        fac = facing[u]
        for t in range(t_max):
            vals[t] = likely[vtgt[u, t]] if vvalid[u, t] else 0.0
        if _pairwise(vals, t_max) > 0.25:
            continue  # worth staying: the default order (stay, same facing)
        top = -1
        top_v = 0.0
        for r in range(3):
            f = (fac + 2 * (r + 1)) % 8
            tidx = here * 8 + f
            clear = True
            for w in range(blk.shape[0]):
                if T_zone_words[AT, tidx, w] & blk[w]:
                    clear = False
            filled = T_n_tgt[AT, tidx]  # (targets first, padding after them)
            for t in range(filled):
                good = clear or not _blocked(T_bet_words, AT, tidx, t, blk)
                vals[t] = likely[T_tgt[AT, tidx, t]] if good else 0.0
            for t in range(filled, t_max):
                vals[t] = 0.0
            v = _pairwise(vals, t_max)
            if top < 0 or v > top_v:
                top, top_v = r, v
        if top_v > 0.25:
            best_f = (fac + 2 * (top + 1)) % 8
            if best_f != fac:
                dest_fac[u] = best_f
                continue
        # advance, or stay
        ks = T_ks[u]
        idx = here * 8 + fac
        _options(T_elevating, T_ks, T_ord_dest, u, nob, cell, facing, wreck_cells, T_k, ok)
        nb = base + u * NOISE_PER_UNIT + 8
        best = 0
        best_sc = np.inf
        for j in range(T_k):
            d = T_ord_dest[ks, idx, j]
            if not ok[j] or d == here:
                continue
            safe = d if d >= 0 else n
            sc = T_ord_d[ks, idx, j] + 0.5 * danger[safe]
            if sc >= best_sc:
                continue  # (as for the movers above)
            sc = sc + 0.2 * _noise(key, nb + j)
            if sc < best_sc:
                best_sc = sc
                best = j
        stay_score = T_dist[ks, idx] + 0.5 * danger[here]
        if best_sc < stay_score:
            dest[u] = T_ord_dest[ks, idx, best]
            dest_fac[u] = T_ord_fac[ks, idx, best]
    # shells: tanks first, then ATs that stay
    for phase in range(2):
        for i in range(m):
            u = mine[i]
            if (phase == 0 and T_kind[u] != TANK) or (phase == 1 and T_kind[u] != AT):
                continue
            count = 0
            for t in range(t_max):
                if vvalid[u, t]:
                    count += 1
            can = count > 0 and alive[u]
            if T_kind[u] == AT:
                can = can and dest[u] == cell[u]
            if not can:
                shells[u] = -1
                continue
            best = 0
            best_v = -1.0
            for t in range(t_max):
                v = likely[vtgt[u, t]] if vvalid[u, t] else 0.0
                if v > best_v:
                    best_v = v
                    best = t
            if best_v > 0:
                chosen = vtgt[u, best]
                shells[u] = chosen
                likely[chosen] *= 0.45
            else:
                nb = base + u * NOISE_PER_UNIT + 1
                shells[u] = vtgt[u, _pick_nth(vvalid[u], count, _noise(key, nb))]


# --- the rules of a round (rules.final_act.engine_batch.BatchGame.apply) --------------------
@_jit
def _resolve(
    T_forbid_tank_rm: Any,
    T_kind: Any,
    T_max_kind: Any,
    T_max_units: Any,
    T_no_swap: Any,
    T_side: Any,
    alive: Any,
    origin: Any,
    dest: Any,
    moving: Any,
    bounce: Any,
) -> None:
    """Bounce movers until every cell holds an allowed group (BatchGame._resolve)."""
    units = origin.shape[0]
    while True:
        trigger = False
        for u in range(units):
            if not alive[u]:
                continue
            pu = dest[u] if moving[u] else origin[u]
            for v in range(u + 1, units):
                if alive[v] and (dest[v] if moving[v] else origin[v]) == pu:
                    trigger = True
                    break
                if moving[u] and moving[v] and dest[u] == origin[v] and dest[v] == origin[u]:
                    trigger = True
                    break
            if trigger:
                break
        if not trigger:
            return
        # BatchGame._bounces: every mover in a swap or in a bad group stays
        any_bounce = False
        for u in range(units):
            bounce[u] = False
            if not moving[u]:
                continue
            swap = False
            for v in range(units):
                if moving[v] and dest[u] == origin[v] and dest[v] == origin[u] and T_no_swap[u, v]:
                    swap = True
                    break
            pu = dest[u]
            t0 = a0 = r0 = t1 = a1 = r1 = 0
            tank_in0 = tank_in1 = False
            for v in range(units):
                if not alive[v] or (dest[v] if moving[v] else origin[v]) != pu:
                    continue
                kv = T_kind[v]
                if T_side[v] == 0:
                    if kv == TANK:
                        t0 += 1
                    elif kv == AT:
                        a0 += 1
                    else:
                        r0 += 1
                else:
                    if kv == TANK:
                        t1 += 1
                    elif kv == AT:
                        a1 += 1
                    else:
                        r1 += 1
                if moving[v] and kv == TANK:
                    if T_side[v] == 0:
                        tank_in0 = True
                    else:
                        tank_in1 = True
            if tank_in1:
                a0 = 0  # ATs run over by a moving enemy tank
            if tank_in0:
                a1 = 0
            n0 = t0 + a0 + r0
            n1 = t1 + a1 + r1
            bad = n0 > 0 and n1 > 0
            if (
                n0 > T_max_units
                or t0 > T_max_kind[TANK]
                or a0 > T_max_kind[AT]
                or r0 > T_max_kind[RM]
                or n1 > T_max_units
                or t1 > T_max_kind[TANK]
                or a1 > T_max_kind[AT]
                or r1 > T_max_kind[RM]
            ):
                bad = True
            if T_forbid_tank_rm and ((t0 > 0 and r0 > 0) or (t1 > 0 and r1 > 0)):
                bad = True
            if bad or swap:
                bounce[u] = True
                any_bounce = True
        if not any_bounce:
            return
        for u in range(units):
            if bounce[u]:
                moving[u] = False


@_jit
def _knock_out(
    T_kind: Any,
    T_side: Any,
    T_wrecks: Any,
    g: int,
    u: int,
    by: int,
    rnd: int,
    cell: Any,
    alive: Any,
    wreck: Any,
    wreck_cells: Any,
    kills: Any,
    d_count: Any,
    d_unit: Any,
    d_cell: Any,
    d_round: Any,
    d_by: Any,
) -> None:
    if not alive[u]:
        return
    alive[u] = False
    kills[g, T_side[by]] += 1
    if T_wrecks and T_kind[u] == TANK:
        wreck[u] = True
        wreck_cells[cell[u]] = True
    i = d_count[g]
    d_unit[g, i] = u
    d_cell[g, i] = cell[u]
    d_round[g, i] = rnd
    d_by[g, i] = by
    d_count[g] = i + 1


@_jit
def _apply(
    T_forbid_tank_rm: Any,
    T_hits: Any,
    T_kind: Any,
    T_max_kind: Any,
    T_max_units: Any,
    T_no_swap: Any,
    T_side: Any,
    T_wrecks: Any,
    g: int,
    rnd: int,
    cell: Any,
    facing: Any,
    damage: Any,
    alive: Any,
    wreck: Any,
    wreck_cells: Any,
    kills: Any,
    dest: Any,
    dest_fac: Any,
    shells: Any,
    moving: Any,
    bounce: Any,
    d_count: Any,
    d_unit: Any,
    d_cell: Any,
    d_round: Any,
    d_by: Any,
) -> None:
    units = cell.shape[0]
    for u in range(units):
        stay = dest[u] == cell[u]
        moving[u] = alive[u] and not stay
        if alive[u] and stay:
            facing[u] = dest_fac[u]  # an order that keeps the cell may turn
    _resolve(
        T_forbid_tank_rm,
        T_kind,
        T_max_kind,
        T_max_units,
        T_no_swap,
        T_side,
        alive,
        cell,
        dest,
        moving,
        bounce,
    )
    for u in range(units):
        if moving[u]:
            cell[u] = dest[u]
            facing[u] = dest_fac[u]
    # enemy tanks that moved onto enemy ATs eliminate them
    for v in range(units):
        if not (alive[v] and T_kind[v] == AT):
            continue
        for u in range(units):
            if moving[u] and T_kind[u] == TANK and cell[u] == cell[v] and T_side[u] != T_side[v]:
                _knock_out(
                    T_kind,
                    T_side,
                    T_wrecks,
                    g,
                    v,
                    u,
                    rnd,
                    cell,
                    alive,
                    wreck,
                    wreck_cells,
                    kills,
                    d_count,
                    d_unit,
                    d_cell,
                    d_round,
                    d_by,
                )
                break
    # hits, shell by shell in unit order
    for s in range(units):
        target = shells[s]
        if target < 0:
            continue
        first_tank = -1
        first_at = -1
        first_any = -1
        for u in range(units):
            if alive[u] and cell[u] == target and T_side[u] != T_side[s]:
                if first_any < 0:
                    first_any = u
                if T_kind[u] == TANK and first_tank < 0:
                    first_tank = u
                if T_kind[u] == AT and first_at < 0:
                    first_at = u
        if first_any < 0:
            continue
        if first_tank >= 0:
            damage[first_tank] += 1
            if damage[first_tank] >= T_hits[first_tank]:
                # everything of that side on the cell goes with the tank (``bounce`` is
                # free scratch space after the moves)
                for u in range(units):
                    bounce[u] = alive[u] and cell[u] == target and T_side[u] != T_side[s]
                for u in range(units):
                    if bounce[u]:
                        _knock_out(
                            T_kind,
                            T_side,
                            T_wrecks,
                            g,
                            u,
                            s,
                            rnd,
                            cell,
                            alive,
                            wreck,
                            wreck_cells,
                            kills,
                            d_count,
                            d_unit,
                            d_cell,
                            d_round,
                            d_by,
                        )
        else:
            pick = first_at if first_at >= 0 else first_any
            damage[pick] += 1
            if damage[pick] >= T_hits[pick]:
                _knock_out(
                    T_kind,
                    T_side,
                    T_wrecks,
                    g,
                    pick,
                    s,
                    rnd,
                    cell,
                    alive,
                    wreck,
                    wreck_cells,
                    kills,
                    d_count,
                    d_unit,
                    d_cell,
                    d_round,
                    d_by,
                )


@_jit
def _check_end(
    T_goal: Any,
    T_had_tanks: Any,
    T_kind: Any,
    T_max_rounds: Any,
    T_side: Any,
    rnd: int,
    cell: Any,
    alive: Any,
    tie_base: Any,
) -> tuple[int, int]:
    """``(end, winner)`` after round ``rnd`` (end 0 = the game goes on; BatchGame._check_end)."""
    units = cell.shape[0]
    tanks0 = tanks1 = 0
    landed0 = landed1 = False
    for u in range(units):
        if alive[u] and T_kind[u] == TANK:
            if T_side[u] == 0:
                tanks0 += 1
            else:
                tanks1 += 1
            if T_goal[T_side[u], cell[u]] and not tie_base[u]:
                if T_side[u] == 0:
                    landed0 = True
                else:
                    landed1 = True
    if landed0 and landed1:  # a tie on the last line: only a further tank will count
        for u in range(units):
            tie_base[u] = alive[u] and T_kind[u] == TANK and T_goal[T_side[u], cell[u]]
    if landed0 != landed1:
        return 1, 0 if landed0 else 1
    lost0 = tanks0 == 0 and T_had_tanks[0]
    lost1 = tanks1 == 0 and T_had_tanks[1]
    if lost0 or lost1:
        winner = -1
        if lost0 != lost1:
            winner = 1 if lost0 else 0
        return 2, winner
    if rnd >= T_max_rounds:
        return 3, -1
    return 0, -1


# --- whole games --------------------------------------------------------------------------
@_jit
def _play(
    T: Tables,
    bases: Any,
    nobs: Any,
    keys: Any,
    init_cell: Any,
    init_facing: Any,
    init_damage: Any,
    init_alive: Any,
    init_wreck: Any,
    init_wreck_cells: Any,
    out: Any,
    kills: Any,
    d_count: Any,
    d_unit: Any,
    d_cell: Any,
    d_round: Any,
    d_by: Any,
    route_start: Any,
    route_flat: Any,
) -> int:
    """Play one game per key from the initial arrays. ``out[g]`` = (winner, rounds, end,
    winning unit or -1); deaths in order in ``d_*[g, :d_count[g]]``; the winning unit's
    cells in ``route_flat[route_start[g]:route_start[g + 1]]``. Returns the route cells
    needed in all (the caller retries with a larger ``route_flat`` when it did not fit)."""
    T_berm_words = T.berm_words
    T_bet_words = T.bet_words
    T_zone_words = T.zone_words
    T_n_tgt = T.n_tgt
    T_n_elev = T.n_elev
    T_blocks = T.blocks
    T_dist = T.dist
    T_elev = T.elev
    T_elevates = T.elevates
    T_elevating = T.elevating
    T_fires = T.fires
    T_forbid_tank_rm = T.forbid_tank_rm
    T_goal = T.goal
    T_had_tanks = T.had_tanks
    T_hits = T.hits
    T_k = T.k
    T_k_move = T.k_move
    T_kind = T.kind
    T_ks = T.ks
    T_lik_cell = T.lik_cell
    T_lik_p = T.lik_p
    T_max_kind = T.max_kind
    T_max_rounds = T.max_rounds
    T_max_units = T.max_units
    T_n = T.n
    T_no_swap = T.no_swap
    T_ord_d = T.ord_d
    T_ord_dest = T.ord_dest
    T_ord_fac = T.ord_fac
    T_side = T.side
    T_tgt = T.tgt
    T_value = T.value
    T_width = T.width
    T_wrecks = T.wrecks
    n = T_n
    units = init_cell.shape[0]
    t_max = T_tgt.shape[2]
    cell = np.empty(units, dtype=np.int64)
    facing = np.empty(units, dtype=np.int64)
    damage = np.empty(units, dtype=np.int64)
    alive = np.empty(units, dtype=np.bool_)
    wreck = np.empty(units, dtype=np.bool_)
    tie_base = np.empty(units, dtype=np.bool_)
    wreck_cells = np.empty(n, dtype=np.bool_)
    still = np.empty(units, dtype=np.int64)
    best_d = np.empty(units, dtype=np.float64)
    dest = np.empty(units, dtype=np.int64)
    dest_fac = np.empty(units, dtype=np.int64)
    shells = np.empty(units, dtype=np.int64)
    moving = np.empty(units, dtype=np.bool_)
    bounce = np.empty(units, dtype=np.bool_)
    blk = np.empty(T_bet_words.shape[3], dtype=np.uint64)
    vtgt = np.empty((units, t_max), dtype=np.int64)
    vvalid = np.empty((units, t_max), dtype=np.bool_)
    danger = np.empty((2, n + 1), dtype=np.float64)
    likely_all = np.empty((2, n + 1), dtype=np.float64)
    claimed = np.empty(n + 1, dtype=np.bool_)
    likely = np.empty(n + 1, dtype=np.float64)
    vals = np.empty(t_max, dtype=np.float64)
    ok = np.empty(max(T_k, 1), dtype=np.bool_)
    hist = np.empty((T_max_rounds + 1, units), dtype=np.int64)
    mine = np.empty(units, dtype=np.int64)  # the heuristic's scratch space
    keyd = np.empty(units, dtype=np.float64)
    order = np.empty(units, dtype=np.int64)
    needed = 0
    cap = route_flat.shape[0]
    for g in range(keys.shape[0]):
        key = keys[g]
        cell[:] = init_cell
        facing[:] = init_facing
        damage[:] = init_damage
        alive[:] = init_alive
        wreck[:] = init_wreck
        wreck_cells[:] = init_wreck_cells
        tie_base[:] = False
        still[:] = 0
        best_d[:] = np.inf
        hist[0, :] = cell
        d_count[g] = 0
        end = out[g, 2]  # the initial position's end (0: the game goes on)
        winner = out[g, 0]
        rnd = 0
        while end == 0:
            base = rnd * T_width
            for u in range(units):
                d_here = T_dist[T_ks[u], cell[u] * 8 + facing[u]]
                if d_here < best_d[u]:
                    best_d[u] = d_here
                    still[u] = 0
                else:
                    still[u] += 1
            dest[:] = cell
            dest_fac[:] = facing
            shells[:] = -1
            _view(
                T_berm_words,
                T_bet_words,
                T_zone_words,
                T_n_tgt,
                T_n_elev,
                T_blocks,
                T_elev,
                T_elevates,
                T_elevating,
                T_fires,
                T_kind,
                T_ks,
                T_lik_cell,
                T_lik_p,
                T_n,
                T_side,
                T_tgt,
                T_value,
                cell,
                facing,
                damage,
                alive,
                wreck,
                blk,
                vtgt,
                vvalid,
                danger,
                likely_all,
            )
            for side in range(2):
                if bases[side] == RANDOM:
                    _random_side(
                        T_elevating,
                        T_k,
                        T_kind,
                        T_ks,
                        T_ord_dest,
                        T_ord_fac,
                        T_side,
                        side,
                        nobs[side],
                        key,
                        base,
                        cell,
                        facing,
                        alive,
                        wreck_cells,
                        vtgt,
                        vvalid,
                        dest,
                        dest_fac,
                        shells,
                        ok,
                    )
                else:
                    _heuristic_side(
                        T_bet_words,
                        T_zone_words,
                        T_n_tgt,
                        T_dist,
                        T_elevating,
                        T_k,
                        T_k_move,
                        T_kind,
                        T_ks,
                        T_n,
                        T_ord_d,
                        T_ord_dest,
                        T_ord_fac,
                        T_side,
                        T_tgt,
                        T_width,
                        side,
                        nobs[side],
                        key,
                        base,
                        cell,
                        facing,
                        damage,
                        alive,
                        still,
                        wreck_cells,
                        blk,
                        vtgt,
                        vvalid,
                        danger,
                        likely_all,
                        dest,
                        dest_fac,
                        shells,
                        claimed,
                        likely,
                        vals,
                        ok,
                        mine,
                        keyd,
                        order,
                    )
            _apply(
                T_forbid_tank_rm,
                T_hits,
                T_kind,
                T_max_kind,
                T_max_units,
                T_no_swap,
                T_side,
                T_wrecks,
                g,
                rnd + 1,
                cell,
                facing,
                damage,
                alive,
                wreck,
                wreck_cells,
                kills,
                dest,
                dest_fac,
                shells,
                moving,
                bounce,
                d_count,
                d_unit,
                d_cell,
                d_round,
                d_by,
            )
            rnd += 1
            hist[rnd, :] = cell
            end, winner = _check_end(
                T_goal, T_had_tanks, T_kind, T_max_rounds, T_side, rnd, cell, alive, tie_base
            )
        out[g, 0] = winner
        out[g, 1] = rnd
        out[g, 2] = end
        out[g, 3] = -1
        route_start[g] = needed
        if end == 1 and winner >= 0:
            for u in range(units):
                if (
                    alive[u]
                    and T_side[u] == winner
                    and T_kind[u] == TANK
                    and T_goal[winner, cell[u]]
                ):
                    out[g, 3] = u
                    for r in range(rnd + 1):
                        c = hist[r, u]
                        if r == 0 or c != hist[r - 1, u]:
                            if needed < cap:
                                route_flat[needed] = c
                            needed += 1
                    break
        route_start[g + 1] = needed
    return needed


# --- the search agent's look-ahead -------------------------------------------------------
@_jit
def _lookahead(
    T: Tables,
    me: int,
    done: int,
    ahead: int,
    keys: Any,
    cell0: Any,
    facing0: Any,
    damage0: Any,
    alive0: Any,
    wreck0: Any,
    wreck_cells0: Any,
    tie0: Any,
    forced_dest: Any,
    forced_fac: Any,
    forced_shells: Any,
    values: Any,
) -> None:
    """For each row ``g``: from the position given (``done`` rounds played), play the
    forced round ``forced_*[g]`` (every unit's order and shell, -1 for none), then up to
    ``ahead`` rounds of the heuristic on both sides (noise keyed ``keys[g]``); set
    ``values[g]`` to ``final_act_search.value`` of the position reached for side ``me``."""
    n = T.n
    units = cell0.shape[0]
    t_max = T.tgt.shape[2]
    cell = np.empty(units, dtype=np.int64)
    facing = np.empty(units, dtype=np.int64)
    damage = np.empty(units, dtype=np.int64)
    alive = np.empty(units, dtype=np.bool_)
    wreck = np.empty(units, dtype=np.bool_)
    tie_base = np.empty(units, dtype=np.bool_)
    wreck_cells = np.empty(n, dtype=np.bool_)
    still = np.empty(units, dtype=np.int64)
    best_d = np.empty(units, dtype=np.float64)
    dest = np.empty(units, dtype=np.int64)
    dest_fac = np.empty(units, dtype=np.int64)
    shells = np.empty(units, dtype=np.int64)
    moving = np.empty(units, dtype=np.bool_)
    bounce = np.empty(units, dtype=np.bool_)
    blk = np.empty(T.bet_words.shape[3], dtype=np.uint64)
    vtgt = np.empty((units, t_max), dtype=np.int64)
    vvalid = np.empty((units, t_max), dtype=np.bool_)
    danger = np.empty((2, n + 1), dtype=np.float64)
    likely_all = np.empty((2, n + 1), dtype=np.float64)
    claimed = np.empty(n + 1, dtype=np.bool_)
    likely = np.empty(n + 1, dtype=np.float64)
    vals = np.empty(t_max, dtype=np.float64)
    ok = np.empty(max(T.k, 1), dtype=np.bool_)
    mine = np.empty(units, dtype=np.int64)
    keyd = np.empty(units, dtype=np.float64)
    order = np.empty(units, dtype=np.int64)
    kills = np.zeros((1, 2), dtype=np.int64)
    d_count = np.zeros(1, dtype=np.int64)
    d_unit = np.zeros((1, units), dtype=np.int64)
    d_cell = np.zeros((1, units), dtype=np.int64)
    d_round = np.zeros((1, units), dtype=np.int64)
    d_by = np.zeros((1, units), dtype=np.int64)
    for g in range(keys.shape[0]):
        key = keys[g]
        cell[:] = cell0
        facing[:] = facing0
        damage[:] = damage0
        alive[:] = alive0
        wreck[:] = wreck0
        wreck_cells[:] = wreck_cells0
        tie_base[:] = tie0
        still[:] = 0
        best_d[:] = np.inf
        d_count[0] = 0
        dest[:] = forced_dest[g]
        dest_fac[:] = forced_fac[g]
        shells[:] = forced_shells[g]
        rnd = done + 1
        _apply(
            T.forbid_tank_rm,
            T.hits,
            T.kind,
            T.max_kind,
            T.max_units,
            T.no_swap,
            T.side,
            T.wrecks,
            0,
            rnd,
            cell,
            facing,
            damage,
            alive,
            wreck,
            wreck_cells,
            kills,
            dest,
            dest_fac,
            shells,
            moving,
            bounce,
            d_count,
            d_unit,
            d_cell,
            d_round,
            d_by,
        )
        end, winner = _check_end(
            T.goal, T.had_tanks, T.kind, T.max_rounds, T.side, rnd, cell, alive, tie_base
        )
        for r in range(ahead):
            if end != 0:
                break
            base = r * T.width
            for u in range(units):
                d_here = T.dist[T.ks[u], cell[u] * 8 + facing[u]]
                if d_here < best_d[u]:
                    best_d[u] = d_here
                    still[u] = 0
                else:
                    still[u] += 1
            dest[:] = cell
            dest_fac[:] = facing
            shells[:] = -1
            _view(
                T.berm_words,
                T.bet_words,
                T.zone_words,
                T.n_tgt,
                T.n_elev,
                T.blocks,
                T.elev,
                T.elevates,
                T.elevating,
                T.fires,
                T.kind,
                T.ks,
                T.lik_cell,
                T.lik_p,
                T.n,
                T.side,
                T.tgt,
                T.value,
                cell,
                facing,
                damage,
                alive,
                wreck,
                blk,
                vtgt,
                vvalid,
                danger,
                likely_all,
            )
            for side in range(2):
                _heuristic_side(
                    T.bet_words,
                    T.zone_words,
                    T.n_tgt,
                    T.dist,
                    T.elevating,
                    T.k,
                    T.k_move,
                    T.kind,
                    T.ks,
                    T.n,
                    T.ord_d,
                    T.ord_dest,
                    T.ord_fac,
                    T.side,
                    T.tgt,
                    T.width,
                    side,
                    False,
                    key,
                    base,
                    cell,
                    facing,
                    damage,
                    alive,
                    still,
                    wreck_cells,
                    blk,
                    vtgt,
                    vvalid,
                    danger,
                    likely_all,
                    dest,
                    dest_fac,
                    shells,
                    claimed,
                    likely,
                    vals,
                    ok,
                    mine,
                    keyd,
                    order,
                )
            rnd += 1
            _apply(
                T.forbid_tank_rm,
                T.hits,
                T.kind,
                T.max_kind,
                T.max_units,
                T.no_swap,
                T.side,
                T.wrecks,
                0,
                rnd,
                cell,
                facing,
                damage,
                alive,
                wreck,
                wreck_cells,
                kills,
                dest,
                dest_fac,
                shells,
                moving,
                bounce,
                d_count,
                d_unit,
                d_cell,
                d_round,
                d_by,
            )
            end, winner = _check_end(
                T.goal, T.had_tanks, T.kind, T.max_rounds, T.side, rnd, cell, alive, tie_base
            )
        if end != 0:
            values[g] = 0.0 if winner < 0 else (100.0 if winner == me else -100.0)
            continue
        score = 0.0
        best0 = np.inf
        best1 = np.inf
        for u in range(units):
            if not alive[u]:
                continue
            worth = 3.0 if T.kind[u] == TANK else 1.0
            if damage[u] > 0:
                worth -= 1.0
            score += worth if T.side[u] == me else -worth
            if T.kind[u] == TANK:
                d = float(T.dist[T.ks[u], cell[u] * 8 + facing[u]])
                if T.side[u] == 0:
                    best0 = min(best0, d)
                else:
                    best1 = min(best1, d)
        ours = min(best0 if me == 0 else best1, 20.0)
        theirs = min(best1 if me == 0 else best0, 20.0)
        values[g] = score + 1.5 * (theirs - ours)


def play_many(prep: Prepared, policies: tuple[str, str], keys: Sequence[int]) -> list[GameResult]:
    """Play one game per key (the same games as ``final_act_batch.play_many``)."""
    from tankmap.analysis.simulation.drivers.final_act_batch import tables_of

    tb = tables_of(prep)
    T = tables(tb)
    batch = tb.batch
    scenario = prep.game.scenario
    st = batch.initial(1)
    bases = np.zeros(2, dtype=np.int64)
    nobs = np.zeros(2, dtype=np.bool_)
    for s, spec in enumerate(policies):
        base, restrictions = parse_policy(spec)
        bases[s] = RANDOM if base == "random" else HEURISTIC
        nobs[s] = "no-berms" in restrictions
        for r in restrictions:
            if r != "no-berms":
                gone = (batch.side == s) & (batch.kind == ("tank", "at", "rm").index(r[3:]))
                st.alive[:, gone] = False
    g = len(keys)
    units = batch.n_units
    key_arr = np.array(keys, dtype=np.uint64)
    out = np.zeros((g, 4), dtype=np.int64)
    out[:, 0] = st.winner[0]
    out[:, 2] = st.end[0]
    cap = 16 * g + 16
    while True:
        kills = np.zeros((g, 2), dtype=np.int64)
        d_count = np.zeros(g, dtype=np.int64)
        d = [np.zeros((g, units), dtype=np.int64) for _ in range(4)]
        route_start = np.zeros(g + 1, dtype=np.int64)
        route_flat = np.zeros(cap, dtype=np.int64)
        res = out.copy()
        needed = _play(
            T,
            bases,
            nobs,
            key_arr,
            st.cell[0],
            st.facing[0],
            st.damage[0],
            st.alive[0],
            st.wreck[0],
            st.wreck_cells[0],
            res,
            kills,
            d_count,
            d[0],
            d[1],
            d[2],
            d[3],
            route_start,
            route_flat,
        )
        if needed <= cap:
            break
        cap = needed
    collecting = gc.isenabled()
    gc.disable()  # thousands of small acyclic objects: collections would only cost time
    try:
        most = int(d_count.max()) if g else 0  # deaths of the bloodiest game: columns used
        d_unit, d_cell, d_round, d_by = (a[:, :most].tolist() for a in d)
        flat = route_flat.tolist()
        starts = route_start.tolist()
        counts = d_count.tolist()
        kill_rows = kills.tolist()
        side_of = [SIDES[int(x)] for x in batch.side]
        kind_of = [u.kind for u in scenario.units]
        label_of = [u.label for u in scenario.units]
        results = []
        for i, (winner, length, end, wu) in enumerate(res.tolist()):
            units_i, cells_i, rounds_i, by_i = d_unit[i], d_cell[i], d_round[i], d_by[i]
            deaths = tuple(
                Death(
                    side_of[units_i[j]],
                    kind_of[units_i[j]],
                    cells_i[j],
                    rounds_i[j],
                    kind_of[by_i[j]],
                )
                for j in range(counts[i])
            )
            results.append(
                GameResult(
                    winner=None if winner < 0 else SIDES[winner],
                    length=length,
                    end=END_CODES[end],
                    kills=(kill_rows[i][0], kill_rows[i][1]),
                    winning_unit=None if wu < 0 else label_of[wu],
                    route=tuple(flat[starts[i] : starts[i + 1]]),
                    deaths=deaths,
                    record=None,
                )
            )
    finally:
        if collecting:
            gc.enable()
    return results


def lookahead_values(
    prep: Prepared,
    state: Any,
    me: int,
    dest: npt.NDArray[np.int64],
    facing: npt.NDArray[np.int64],
    shells: npt.NDArray[np.int64],
    keys: npt.NDArray[np.uint64],
    ahead: int,
) -> npt.NDArray[np.float64]:
    """The search agent's scores: for each row ``g`` of ``dest``/``facing``/``shells``
    (every unit's order and shell for the next round, -1 for no shell), play that round
    from the reference-engine ``state``, then up to ``ahead`` rounds of the heuristic on both
    sides with noise keyed ``keys[g]``, and value the position for side ``me`` (as
    ``final_act_search.value``). Only for games without advanced options (rules §1.8)."""
    from tankmap.analysis.simulation.drivers.final_act_batch import tables_of

    T = tables(tables_of(prep))
    units = len(state.kind)
    wreck_cells = np.zeros(T.n, dtype=np.bool_)
    mask = state.wreck_mask
    while mask:
        low = mask & -mask
        wreck_cells[low.bit_length() - 1] = True
        mask ^= low
    tie = np.zeros(units, dtype=np.bool_)
    if state.tie_base:
        tie[list(state.tie_base)] = True
    values = np.empty(dest.shape[0], dtype=np.float64)
    _lookahead(
        T,
        me,
        state.round,
        ahead,
        keys,
        np.array(state.cell, dtype=np.int64),
        np.array([int(f) for f in state.facing], dtype=np.int64),
        np.array(state.damage, dtype=np.int64),
        np.array(state.alive, dtype=np.bool_),
        np.array(state.wreck, dtype=np.bool_),
        wreck_cells,
        tie,
        dest,
        facing,
        shells,
        values,
    )
    return values


def warm(prep: Prepared, lookahead: bool = False) -> None:
    """Load the compiled kernel (from numba's cache, or compile it) and pack ``prep``'s
    tables: one game, and with ``lookahead`` one look-ahead row of the search agent."""
    play_many(prep, ("heuristic", "heuristic"), [0])
    if lookahead:
        st = prep.game.initial_state()
        units = len(st.kind)
        stay = np.array([st.cell], dtype=np.int64)
        facing = np.array([[int(f) for f in st.facing]], dtype=np.int64)
        shells = np.full((1, units), -1, dtype=np.int64)
        lookahead_values(prep, st, 0, stay, facing, shells, np.zeros(1, dtype=np.uint64), 1)
