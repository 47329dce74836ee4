"""The Final Act kernel's Extra Forces R/M repairs (docs/rules.md §1.3), compiled, one game
at a time: the agents' declarations and the rule's bookkeeping (which R/Ms stay as wrecks,
the repairs done after the hits, as ``rules.final_act.engine_advanced`` does them). Called
only when the game has R/M repair on (``Tables.repair_on``), so games without an R/M
decide as if this module did not exist.

- ``random``: every damaged tank that shares its cell with its R/M (repairs left) is
  declared repaired when its noise number ``REPAIR_NOISE`` (``NOISE_PER_UNIT`` layout) is
  below 1/2: both stay, the tank fires no shell.
- ``heuristic`` (after the tanks' and R/M's orders, before the shells): a damaged tank
  sharing with its R/M is repaired when at most ``SAFE_DANGER`` enemy shooters cover the
  cell and no other unit of the side was ordered into it; then each R/M with repairs left
  that is not with a damaged tank drives toward the nearest damaged own tank (Chebyshev
  distance, lowest unit first on ties): among its usable orders the first (in the order
  tables' rank) that ends strictly closer than its planned order, never into a cell
  another unit of the side holds or was ordered into — except the tank's own cell when
  joining is cheap (at most ``SAFE_DANGER`` enemy shooters cover it and nobody else takes
  it); when the R/M joins, the tank waits for it (stays, keeping its facing).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tankmap.analysis.simulation.final_act.kernel.base import _inline, _jit, _noise
from tankmap.analysis.simulation.final_act.kernel.tables import (
    NOISE_PER_UNIT,
    REPAIR_NOISE,
    RM,
    TANK,
)

SAFE_DANGER = 1.0  # at most this many enemy shooters on the cell: a repair is worth it


@_inline
def _partner(T_kind: Any, T_side: Any, t: int, cell: Any, alive: Any, rm_left: Any) -> int:
    """The own R/M with repairs left on tank ``t``'s cell, or -1 (the caller checks that
    ``t`` is a damaged tank in play)."""
    for v in range(cell.shape[0]):
        if (
            T_kind[v] == RM
            and alive[v]
            and rm_left[v] > 0
            and T_side[v] == T_side[t]
            and cell[v] == cell[t]
        ):
            return v
    return -1


@_inline
def _random_repairs(
    T_kind: Any,
    T_side: Any,
    side: int,
    key: np.uint64,
    base: int,
    cell: Any,
    facing: Any,
    damage: Any,
    alive: Any,
    rm_left: Any,
    dest: Any,
    dest_fac: Any,
    shells: Any,
    repair: Any,
) -> None:
    """The ``random`` agent's repair declarations for ``side`` (module docstring)."""
    for t in range(cell.shape[0]):
        if T_side[t] != side or T_kind[t] != TANK or not alive[t] or damage[t] == 0:
            continue
        v = _partner(T_kind, T_side, t, cell, alive, rm_left)
        if v < 0 or _noise(key, base + t * NOISE_PER_UNIT + REPAIR_NOISE) >= 0.5:
            continue
        repair[t] = True
        dest[t] = cell[t]
        dest_fac[t] = facing[t]
        dest[v] = cell[v]
        dest_fac[v] = facing[v]
        shells[t] = -1


@_inline
def _cheb(T_col: Any, T_row: Any, a: int, b: int) -> int:
    d: int = max(abs(T_col[a] - T_col[b]), abs(T_row[a] - T_row[b]))
    return d


@_jit
def _heuristic_repairs(
    T_col: Any,
    T_row: Any,
    T_elevating: Any,
    T_k_move: Any,
    T_kind: Any,
    T_ks: Any,
    T_ord_dest: Any,
    T_ord_fac: Any,
    T_side: Any,
    side: int,
    nob: bool,
    cell: Any,
    facing: Any,
    damage: Any,
    rm_left: Any,
    wreck_cells: Any,
    danger: Any,
    claimed: Any,
    dest: Any,
    dest_fac: Any,
    repair: Any,
    busy: Any,
    ok: Any,
    mine: Any,
    m: int | np.int64,
) -> None:
    """The ``heuristic`` agent's repairs and R/M drives for ``side`` (after the tanks' and
    R/M's orders; ``repair`` and ``busy`` are cleared here for the side's units).
    ``mine[:m]``: the side's units in play, in unit order (the only ones that can repair
    or be repaired)."""
    units = cell.shape[0]
    for u in range(units):
        if T_side[u] == side:
            repair[u] = False
            busy[u] = False
    # repairs: R/Ms in unit order, then tanks in unit order (as the numpy pairs)
    for i in range(m):
        q = mine[i]
        if T_kind[q] != RM or rm_left[q] <= 0:
            continue
        for i2 in range(m):
            p = mine[i2]
            if T_kind[p] != TANK or damage[p] == 0:
                continue
            here = cell[p]
            if cell[q] != here:
                continue
            if not (dest[p] == here or dest[q] == here or not claimed[here]):
                continue
            if danger[here] > SAFE_DANGER:
                continue
            if dest[p] != here:
                claimed[dest[p]] = False
            if dest[q] != here:
                claimed[dest[q]] = False
            claimed[here] = True
            repair[p] = True
            busy[q] = True
            dest[p] = here
            dest_fac[p] = facing[p]
            dest[q] = here
            dest_fac[q] = facing[q]
    # R/Ms drive toward the nearest damaged own tank
    for i in range(m):
        q = mine[i]
        if T_kind[q] != RM or rm_left[q] <= 0 or busy[q]:
            continue
        at = cell[q]
        t_slot = -1
        gap = 0
        with_damaged = False
        for i2 in range(m):
            p = mine[i2]
            if T_kind[p] != TANK or damage[p] == 0:
                continue
            if cell[p] == at:
                with_damaged = True
                break
            if repair[p]:
                continue
            d = _cheb(T_col, T_row, cell[p], at)
            if t_slot < 0 or d < gap:
                t_slot, gap = p, d
        if with_damaged or t_slot < 0:
            continue
        target = cell[t_slot]
        joinable = danger[target] <= SAFE_DANGER and (dest[t_slot] == target or not claimed[target])
        planned = dest[q]
        best = planned
        best_f = dest_fac[q]
        best_d = _cheb(T_col, T_row, best, target)
        ks = T_ks[q]
        idx = at * 8 + facing[q]
        for j in range(T_k_move):
            c = T_ord_dest[ks, idx, j]
            if c < 0:
                continue
            moving = c != at
            if moving and wreck_cells[c]:
                continue
            if nob and moving and T_elevating[c]:
                continue
            if not (c == planned or not claimed[c] or (c == target and joinable)):
                continue
            d = _cheb(T_col, T_row, c, target)
            if d < best_d:
                best, best_f, best_d = c, T_ord_fac[ks, idx, j], d
        if best == planned:
            continue
        if planned != at:
            claimed[planned] = False
        claimed[best] = True
        dest[q] = best
        dest_fac[q] = best_f
        if best == target and joinable:
            if dest[t_slot] != target:
                claimed[dest[t_slot]] = False
            claimed[target] = True
            dest[t_slot] = target
            dest_fac[t_slot] = facing[t_slot]


@_inline
def _repair_wrecks(
    T_kind: Any,
    T_side: Any,
    cell: Any,
    damage: Any,
    alive: Any,
    rm_left: Any,
    repair: Any,
    out: Any,
) -> bool:
    """``out[v]``: R/M ``v`` repairs a declared tank this round (stays as a wreck if
    knocked out with it). Returns whether any does."""
    found = False
    for v in range(cell.shape[0]):
        out[v] = False
    for t in range(cell.shape[0]):
        if repair[t] and alive[t] and T_kind[t] == TANK and damage[t] > 0:
            v = _partner(T_kind, T_side, t, cell, alive, rm_left)
            if v >= 0:
                out[v] = True
                found = True
    return found


@_inline
def _finish_repairs(
    T_kind: Any, T_side: Any, cell: Any, damage: Any, alive: Any, rm_left: Any, repair: Any
) -> None:
    """After the hits: each declared tank still in play with its R/M is undamaged and that
    R/M has one repair fewer."""
    for t in range(cell.shape[0]):
        if repair[t] and alive[t] and T_kind[t] == TANK and damage[t] > 0:
            v = _partner(T_kind, T_side, t, cell, alive, rm_left)
            if v >= 0:
                damage[t] = 0
                rm_left[v] -= 1
