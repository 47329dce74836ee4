"""Extra Forces R/M repairs in the vectorised Final Act policies (docs/rules.md §1.3).

Called by ``policies/final_act_batch.py`` (and its both-sides-at-once twin) only when the
game has R/M repair on (``BatchGame.repair_on``), so games without an R/M decide exactly as
before. Arrays are ``rows × slots``: one row per game (or per game and side), one slot per
unit of the deciding side in unit order; ``kind`` gives each slot's unit kind.

- ``random_repairs``: every damaged tank that shares its cell with its R/M (repairs left)
  is declared repaired when its noise number ``[3]`` (``NOISE_PER_UNIT`` layout) is below
  1/2: both stay, the tank fires no shell.
- ``heuristic_repairs`` (after the tanks' and R/M's orders, before the shells): a damaged
  tank sharing with its R/M is repaired when at most one enemy shooter covers the cell
  and no other unit of the side was ordered into it; then each R/M with repairs left that
  is not with a damaged tank drives toward the nearest damaged own tank (Chebyshev
  distance, lowest unit first on ties): among its usable orders the first (in the order
  tables' rank) that ends strictly closer than its planned order, never into a cell
  another unit of the side holds or was ordered into — except the tank's own cell when
  joining is cheap (at most one enemy shooter covers it and nobody else takes it); when
  the R/M joins, the tank waits for it (stays, keeping its facing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.kernel.repair import SAFE_DANGER
from tankmap.analysis.simulation.final_act.kernel.tables import NOISE_PER_UNIT, REPAIR_NOISE
from tankmap.rules.final_act.engine_batch import RM, TANK, BatchState

if TYPE_CHECKING:
    from tankmap.analysis.simulation.final_act.kernel.tables import BatchTables

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def _pairs(
    kind: IntArray, cell: IntArray, damage: IntArray, alive: BoolArray, rm_left: IntArray
) -> list[tuple[int, int, BoolArray]]:
    """``(tank slot, R/M slot, rows)``: the rows where that damaged tank shares its cell
    with that R/M, which has repairs left."""
    tanks = np.nonzero(kind == TANK)[0].tolist()
    rms = np.nonzero(kind == RM)[0].tolist()
    out = []
    for q in rms:
        free = alive[:, q] & (rm_left[:, q] > 0)
        if not free.any():
            continue
        for p in tanks:
            rows = free & alive[:, p] & (damage[:, p] > 0) & (cell[:, p] == cell[:, q])
            if rows.any():
                out.append((p, q, rows))
    return out


def _stay(
    rows: BoolArray, p: int, cell: IntArray, facing: IntArray, dest: IntArray, fac: IntArray
) -> None:
    dest[rows, p] = cell[rows, p]
    fac[rows, p] = facing[rows, p]


def random_repairs(
    kind: IntArray,
    units: IntArray,
    cell: IntArray,
    facing: IntArray,
    damage: IntArray,
    alive: BoolArray,
    rm_left: IntArray,
    noise: FloatArray,
    per_unit: int,
    dest: IntArray,
    fac: IntArray,
    shells: IntArray,
) -> BoolArray:
    """The ``random`` policy's repairs (module docstring); ``units[p]`` is slot ``p``'s
    unit index (its noise numbers start at ``units[p] * per_unit``). Changes ``dest``,
    ``fac`` and ``shells`` in place; returns ``repair[rows, slots]``."""
    repair = np.zeros(cell.shape, dtype=bool)
    for p, q, rows in _pairs(kind, cell, damage, alive, rm_left):
        rows = rows & (noise[:, units[p] * per_unit + REPAIR_NOISE] < 0.5)
        repair[:, p] |= rows
        _stay(rows, p, cell, facing, dest, fac)
        _stay(rows, q, cell, facing, dest, fac)
        shells[rows, p] = -1
    return repair


def heuristic_repairs(
    kind: IntArray,
    cell: IntArray,
    facing: IntArray,
    damage: IntArray,
    alive: BoolArray,
    rm_left: IntArray,
    col: IntArray,
    row: IntArray,
    d_cell: IntArray,
    d_fac: IntArray,
    ok: BoolArray,
    danger: npt.NDArray[Any],
    claimed: BoolArray,
    dest: IntArray,
    fac: IntArray,
) -> BoolArray:
    """The ``heuristic`` policy's repairs and R/M drives (module docstring). ``d_cell`` /
    ``d_fac`` / ``ok`` are the slots' ranked orders ``[rows, slots, k]`` and whether each is
    usable; ``danger[rows, cell]`` the enemy shooters per cell; ``claimed[rows, cell]``
    the cells the side's tanks and R/M hold or were ordered into. Changes ``dest``, ``fac``
    and ``claimed`` in place; returns ``repair[rows, slots]`` (those tanks fire no shell)."""
    n_rows = cell.shape[0]
    rix = np.arange(n_rows)
    repair = np.zeros(cell.shape, dtype=bool)
    busy = np.zeros(cell.shape, dtype=bool)
    for p, q, rows in _pairs(kind, cell, damage, alive, rm_left):
        here = cell[:, p]
        nobody = (dest[:, p] == here) | (dest[:, q] == here) | ~claimed[rix, here]
        rows = rows & nobody & (danger[rix, here] <= SAFE_DANGER)
        if not rows.any():
            continue
        for s in (p, q):
            moved = rows & (dest[:, s] != here)
            claimed[rix[moved], dest[moved, s]] = False
        claimed[rix[rows], here[rows]] = True
        repair[:, p] |= rows
        busy[:, q] |= rows
        _stay(rows, p, cell, facing, dest, fac)
        _stay(rows, q, cell, facing, dest, fac)
    tanks = np.nonzero(kind == TANK)[0]
    if not len(tanks):
        return repair
    damaged = alive[:, tanks] & (damage[:, tanks] > 0)  # [rows, t]
    for q in np.nonzero(kind == RM)[0].tolist():
        at = cell[:, q]
        same = cell[:, tanks] == at[:, None]
        can = alive[:, q] & (rm_left[:, q] > 0) & ~busy[:, q] & ~(damaged & same).any(axis=1)
        cand = damaged & ~repair[:, tanks] & ~same
        can &= cand.any(axis=1)
        if not can.any():
            continue
        gap = np.maximum(
            np.abs(col[cell[:, tanks]] - col[at][:, None]),
            np.abs(row[cell[:, tanks]] - row[at][:, None]),
        )
        pick = np.where(cand, gap, np.iinfo(np.int64).max).argmin(axis=1)  # first on ties
        t_slot = tanks[pick]
        target = cell[rix, t_slot]
        joinable = (danger[rix, target] <= SAFE_DANGER) & (
            (dest[rix, t_slot] == target) | ~claimed[rix, target]
        )
        planned = dest[:, q].copy()
        best = planned.copy()
        best_f = fac[:, q].copy()
        best_d = np.maximum(np.abs(col[best] - col[target]), np.abs(row[best] - row[target]))
        for j in range(d_cell.shape[2]):
            c = d_cell[:, q, j]
            safe = np.where(c >= 0, c, 0)
            allowed = ok[:, q, j] & (
                (c == planned) | ~claimed[rix, safe] | ((c == target) & joinable)
            )
            d = np.maximum(np.abs(col[safe] - col[target]), np.abs(row[safe] - row[target]))
            better = can & allowed & (d < best_d)
            best = np.where(better, c, best)
            best_f = np.where(better, d_fac[:, q, j], best_f)
            best_d = np.where(better, d, best_d)
        change = best != planned
        if not change.any():
            continue
        left = change & (planned != at)
        claimed[rix[left], planned[left]] = False
        claimed[rix[change], best[change]] = True
        dest[:, q] = best
        fac[:, q] = best_f
        wait = change & (best == target) & joinable
        moved = wait & (dest[rix, t_slot] != target)
        claimed[rix[moved], dest[rix, t_slot][moved]] = False
        claimed[rix[wait], target[wait]] = True
        dest[rix[wait], t_slot[wait]] = target[wait]
        fac[rix[wait], t_slot[wait]] = facing[rix[wait], t_slot[wait]]
    return repair


def side_random(
    kind: IntArray,
    units: list[int],
    st: BatchState,
    alive: BoolArray,
    noise: FloatArray,
    dest: IntArray,
    fac: IntArray,
    shells: IntArray,
    repair: BoolArray,
) -> None:
    """``random_repairs`` for the side whose units are ``units`` (whole-game arrays ``[g,
    u]``, changed in place)."""
    u = np.array(units)
    d, f, sh = dest[:, u], fac[:, u], shells[:, u]
    state = (st.cell[:, u], st.facing[:, u], st.damage[:, u], alive[:, u], st.rm_left[:, u])
    repair[:, u] = random_repairs(kind[u], u, *state, noise, NOISE_PER_UNIT, d, f, sh)
    dest[:, u], fac[:, u], shells[:, u] = d, f, sh


def side_heuristic(
    tb: BatchTables,
    units: list[int],
    st: BatchState,
    alive: BoolArray,
    options: tuple[IntArray, IntArray, BoolArray],
    danger: npt.NDArray[Any],
    claimed: BoolArray,
    dest: IntArray,
    fac: IntArray,
    repair: BoolArray,
) -> None:
    """``heuristic_repairs`` for the side whose units are ``units`` (``options``: their
    ranked orders ``[g, j, k]`` from the move pass; whole-game arrays changed in place)."""
    u = np.array(units)
    d, f = dest[:, u], fac[:, u]
    state = (st.cell[:, u], st.facing[:, u], st.damage[:, u], alive[:, u], st.rm_left[:, u])
    kind = tb.batch.kind[u]
    repair[:, u] = heuristic_repairs(kind, *state, tb.col, tb.row, *options, danger, claimed, d, f)
    dest[:, u], fac[:, u] = d, f
