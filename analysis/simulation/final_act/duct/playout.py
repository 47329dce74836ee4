"""The ``duct`` search's own playout policy and position value, compiled (the search:
``search.py``; the plain-Python twin: ``agents/duct_ref.py``).

Neither reads the heuristic's choices or rankings: the **light policy** moves every tank
one step along a shortest route to the enemy's last line by terrain (``Tables.dist``),
random among equally short steps and, with probability ``EPSILON``, takes a uniformly
random legal order instead; the side's tanks never step onto a cell another of its tanks
or its R/M holds or has just claimed. ATs and the R/M stay. Every tank, and every AT
(which stays), shells where it expects an enemy to end the round — a tank's own shortest
step, random among equally short ones; an AT or R/M where it stands — looking at the
enemies from a random one on, first at their expected cells, then at the cells they stand
on; none in its fire zone: no shell.

The **value** of a position for south is +1 or -1 for a decided game (0 for a draw) and
otherwise ``(material + race) / SCALE`` clipped to ±``CLIP``: material is the tanks (a
damaged one ``DAMAGED_WORTH``), ATs and R/M of south minus north's; the race weighs by
``RACE`` how many rounds (by terrain, at most ``DIST_CAP``) north's best, second and third
tanks are behind south's.

Noise: ``analysis.simulation.noise`` counters of the iteration's key (``params``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from tankmap.analysis.simulation.final_act.duct.params import (
    AT_WORTH,
    CLIP,
    DAMAGED_WORTH,
    DIST_CAP,
    EPSILON,
    GUESS_TIE,
    MOVE_TIE,
    PLAYOUT_STRIDE,
    RACE,
    RM_WORTH,
    SALT_ITER,
    SALT_ROUND,
    SCALE,
    TANK_WORTH,
)
from tankmap.analysis.simulation.final_act.kernel.base import (
    _GOLDEN,
    _MUL1,
    _MUL2,
    _S27,
    _S30,
    _S31,
    KERNEL_SOURCES,
    _inline,
    _jit,
    _noise,
    _numba,
)
from tankmap.analysis.simulation.final_act.kernel.tables import AT, TANK
from tankmap.analysis.simulation.kernel_cache import guard_cache

_HERE = Path(__file__).resolve().parent
DUCT_SOURCES = (*sorted(_HERE.glob("*.py")), *KERNEL_SOURCES)
"""The files the compiled search depends on: this package's and the kernel's (this module
is the base of the package's compiled ones: importing it guards their cache)."""

if _numba is not None:
    guard_cache(_HERE / "__pycache__", DUCT_SOURCES, "fa_duct")


@_inline
def _mix64(z: np.uint64) -> np.uint64:
    """``noise.mix64`` (SplitMix64's finaliser) on a uint64."""
    z = z + _GOLDEN
    z = (z ^ (z >> _S30)) * _MUL1
    z = (z ^ (z >> _S27)) * _MUL2
    out: np.uint64 = z ^ (z >> _S31)
    return out


@_inline
def _search_key(key: np.uint64, rnd: int, side: int) -> np.uint64:
    """The key of the search ``side`` makes before round ``rnd`` of the game keyed ``key``
    (``agents.duct_ref.search_key``)."""
    return _mix64(key ^ _mix64(np.uint64(SALT_ROUND + 2 * rnd + side)))


@_inline
def _iter_key(skey: np.uint64, i: int) -> np.uint64:
    """The key of iteration ``i`` of the search keyed ``skey``."""
    return _mix64(skey ^ _mix64(np.uint64(SALT_ITER + i)))


@_inline
def _blockers(T: Any, cell: Any, alive: Any, wreck: Any, blk: Any) -> None:
    """``blk``: the cells that block fire now (berms, wrecks, live tanks and R/Ms) as
    64-bit words."""
    blk[:] = T.berm_words
    for u in range(cell.shape[0]):
        if wreck[u] or (alive[u] and T.blocks[u]):
            c = cell[u]
            blk[c >> 6] |= np.uint64(1) << np.uint64(c & 63)


@_inline
def _can_hit(T: Any, X: Any, u: int, here: int, face: int, target: int, blk: Any) -> bool:
    """Whether unit ``u`` (a tank or an AT) standing on ``here`` facing ``face`` may shell
    ``target`` (in its cone, line of fire clear of ``blk``, or elevated on a berm)."""
    kc = min(T.kind[u], AT)
    idx = here * 8 + face
    if T.elevates[u] and T.elevating[here]:
        out: bool = X.elev_in[kc, idx, target]
        return out
    t = X.cone_pos[kc, idx, target]
    if t < 0:
        return False
    hit = np.uint64(0)
    for w in range(blk.shape[0]):
        hit |= T.bet_words[kc, idx, t, w] & blk[w]
    clear: bool = hit == 0
    return clear


@_inline
def _usable(T: Any, ks: int, idx: int, j: int, here: int, wreck_cells: Any, nob: bool) -> int:
    """The destination of order ``j`` of row ``(ks, idx)`` if it may be given (not padding,
    not into a wreck, not onto a berm under ``nob``), else -1."""
    d = T.ord_dest[ks, idx, j]
    if d < 0:
        return -1
    if d != here and (wreck_cells[d] or (nob and T.elevating[d])):
        return -1
    out: int = d
    return out


@_inline
def _shortest(
    T: Any,
    ikey: np.uint64,
    ctr: int,
    tie: int,
    u: int,
    cell: Any,
    facing: Any,
    wreck_cells: Any,
    claim: Any,
    bit: int,
    nob: bool,
) -> int:
    """The position ``j`` of tank ``u``'s usable order with the fewest rounds to goal, a tie
    broken by the smallest noise ``ctr + tie + j``; orders onto a cell with claim bit
    ``bit`` are left out (``bit`` 0: none). Staying is always usable."""
    ks = T.ks[u]
    here = cell[u]
    idx = here * 8 + facing[u]
    best = -1
    best_d = np.inf
    best_r = 2.0
    for j in range(T.k_move):
        d = _usable(T, ks, idx, j, here, wreck_cells, nob)
        if d < 0 or (d != here and (claim[d] & bit) != 0):
            continue
        dj = float(T.ord_d[ks, idx, j])
        if dj > best_d:
            continue
        r = _noise(ikey, ctr + tie + j)
        if dj < best_d or r < best_r:
            best, best_d, best_r = j, dj, r
    return best


@_jit
def _light_round(
    T: Any,
    X: Any,
    ikey: np.uint64,
    r: int,
    nobs: Any,
    cell: Any,
    facing: Any,
    alive: Any,
    wreck: Any,
    wreck_cells: Any,
    blk: Any,
    claim: Any,
    guess: Any,
    dest: Any,
    dest_fac: Any,
    shells: Any,
) -> None:
    """Both sides' orders and shells of playout round ``r`` by the light policy (module
    docstring); ``claim`` (a byte per cell, zero on entry and on return), ``guess`` and
    ``blk`` are work space."""
    units = cell.shape[0]
    _blockers(T, cell, alive, wreck, blk)
    for u in range(units):
        dest[u] = cell[u]
        dest_fac[u] = facing[u]
        shells[u] = -1
        guess[u] = cell[u]
        if alive[u] and T.kind[u] != AT:
            claim[cell[u]] |= 1 << T.side[u]
    for u in range(units):
        if not (alive[u] and T.kind[u] == TANK):
            continue
        ctr = (r * units + u) * PLAYOUT_STRIDE
        j = _shortest(T, ikey, ctr, GUESS_TIE, u, cell, facing, wreck_cells, claim, 0, False)
        if j >= 0:
            guess[u] = T.ord_dest[T.ks[u], cell[u] * 8 + facing[u], j]
    for u in range(units):
        if not (alive[u] and T.kind[u] == TANK):
            continue
        side = T.side[u]
        bit = 1 << side
        nob = nobs[side]
        ks = T.ks[u]
        here = cell[u]
        idx = here * 8 + facing[u]
        ctr = (r * units + u) * PLAYOUT_STRIDE
        pick = -1
        if _noise(ikey, ctr) < EPSILON:
            count = 0
            for j in range(T.k_move):
                d = _usable(T, ks, idx, j, here, wreck_cells, nob)
                if d >= 0 and (d == here or (claim[d] & bit) == 0):
                    count += 1
            nth = min(int(_noise(ikey, ctr + 1) * count), count - 1)
            for j in range(T.k_move):
                d = _usable(T, ks, idx, j, here, wreck_cells, nob)
                if d >= 0 and (d == here or (claim[d] & bit) == 0):
                    if nth == 0:
                        pick = j
                        break
                    nth -= 1
        else:
            pick = _shortest(T, ikey, ctr, MOVE_TIE, u, cell, facing, wreck_cells, claim, bit, nob)
        if pick >= 0:
            to = T.ord_dest[ks, idx, pick]
            dest[u] = to
            dest_fac[u] = T.ord_fac[ks, idx, pick]
            if to != here:
                claim[here] &= ~bit
                claim[to] |= bit
    for u in range(units):
        claim[cell[u]] = 0
        claim[dest[u]] = 0
    for u in range(units):
        if not (alive[u] and T.fires[u]) or (dest[u] != cell[u] and T.kind[u] != TANK):
            continue
        start = int(_noise(ikey, (r * units + u) * PLAYOUT_STRIDE + 2) * units)
        target = -1
        for phase in range(2):
            for k in range(units):
                v = (start + k) % units
                if not alive[v] or T.side[v] == T.side[u]:
                    continue
                c = guess[v] if phase == 0 else cell[v]
                if _can_hit(T, X, u, cell[u], facing[u], c, blk):
                    target = c
                    break
            if target >= 0:
                break
        shells[u] = target


@_jit
def _value(T: Any, cell: Any, facing: Any, damage: Any, alive: Any, end: int, winner: int) -> float:
    """The position's value for south (module docstring); ``end``/``winner`` as
    ``rules._check_end`` returns them."""
    if end != 0:
        if winner < 0:
            return 0.0
        return 1.0 if winner == 0 else -1.0
    score = 0.0
    a0 = a1 = a2 = DIST_CAP  # south's three best tanks' rounds to the line
    b0 = b1 = b2 = DIST_CAP  # north's
    for u in range(cell.shape[0]):
        if not alive[u]:
            continue
        kind = T.kind[u]
        if kind == TANK:
            worth = DAMAGED_WORTH if damage[u] > 0 else TANK_WORTH
        elif kind == AT:
            worth = AT_WORTH
        else:
            worth = RM_WORTH
        south = T.side[u] == 0
        score += worth if south else -worth
        if kind != TANK:
            continue
        d = min(float(T.dist[T.ks[u], cell[u] * 8 + facing[u]]), DIST_CAP)
        if south:
            if d < a0:
                a0, a1, a2 = d, a0, a1
            elif d < a1:
                a1, a2 = d, a1
            elif d < a2:
                a2 = d
        else:
            if d < b0:
                b0, b1, b2 = d, b0, b1
            elif d < b1:
                b1, b2 = d, b1
            elif d < b2:
                b2 = d
    score += RACE[0] * (b0 - a0) + RACE[1] * (b1 - a1) + RACE[2] * (b2 - a2)
    v = score / SCALE
    return min(max(v, -CLIP), CLIP)
