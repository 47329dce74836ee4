"""The Final Act kernel's tables as the compiled code reads them: ``Tables`` (a named
tuple of arrays and numbers), packed once per ``ScenarioTables`` by ``tables`` into compact
types (16-bit cells and rows, float32 where exact, blocker words) so that a game's tables
span few cache lines. The values are those of ``kernel/tables.py``."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.kernel.table_rows import pack_bits
from tankmap.analysis.simulation.final_act.kernel.tables import NOISE_PER_UNIT, ScenarioTables


class Tables(NamedTuple):
    """The per-scenario arrays the kernel reads (from ``ScenarioTables``; see there)."""

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
    repair_on: bool
    col: npt.NDArray[np.int64]
    row: npt.NDArray[np.int64]
    n_move: npt.NDArray[np.int64]
    """``[ks, idx]``: past the last usable move order (``ord_dest >= 0``) of the first
    ``k_move``; the loops over move orders stop there (only padding follows)."""
    adv: npt.NDArray[Any]
    """``[ks, idx, :n_adv[ks, idx]]``: the orders ``j`` that leave the cell (``ord_dest``
    not -1 and not the cell of ``idx``), by ``ord_d`` and then ``j`` (``advance_order``)."""
    n_adv: npt.NDArray[Any]
    """``[ks, idx]``: how many orders ``adv[ks, idx]`` lists."""


def last_used(dest: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    """``[ks, idx]``: 1 + the position of the last ``dest >= 0`` along the last axis (0
    when there is none)."""
    used = dest >= 0
    width = used.shape[-1]
    past = width - np.argmax(used[..., ::-1], axis=-1)
    return np.ascontiguousarray(np.where(used.any(axis=-1), past, 0).astype(np.int64))


def spare_cells(
    cells: npt.NDArray[np.int64], p: npt.NDArray[np.float64], n: int
) -> npt.NDArray[np.int64]:
    """``cells`` with each entry worth 0 (``p == 0``: padding, mostly) moved to a spare
    cell past the board and its padding cell, ``n + 1 + j`` for entry ``j``: ``_view``
    adds every entry, and the zeros, all added to one cell, made one long chain of
    dependent additions; the maps it fills have ``n + 1 + cells.shape[-1]`` columns."""
    spare = n + 1 + np.arange(cells.shape[-1])
    return np.ascontiguousarray(np.where(np.asarray(p) == 0.0, spare, cells).astype(np.int64))


def advance_order(
    ord_dest: npt.NDArray[Any], ord_d: npt.NDArray[Any]
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """``Tables.adv`` and ``Tables.n_adv``: for each ``[ks, idx]``, the orders that move
    (``ord_dest`` not -1 and not the cell ``idx // 8``) sorted by ``ord_d`` (a lower bound
    of their scores, which add danger and noise that are never negative), ties in order
    number; the other orders after them."""
    dest = np.asarray(ord_dest, dtype=np.int64)
    here = (np.arange(dest.shape[1]) // 8)[None, :, None]
    moves = (dest >= 0) & (dest != here)
    first = np.argsort(np.asarray(ord_d, dtype=np.float64), axis=-1, kind="stable")
    second = np.argsort(~np.take_along_axis(moves, first, axis=-1), axis=-1, kind="stable")
    adv = np.take_along_axis(first, second, axis=-1)  # (moves first, even at an inf ord_d)
    fits = adv.shape[-1] <= 256
    adv = np.ascontiguousarray(adv, dtype=np.uint8) if fits else small(adv)
    return adv, small(moves.sum(axis=-1).astype(np.int64))


_PACKED: dict[int, tuple[ScenarioTables, Tables]] = {}


def small(a: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
    """``a`` as 16-bit integers when its values fit (cells, facings, the units' kinds,
    sides and table rows): the tables a game reads per round then span a quarter of the
    cache lines; the values are the same.
    Unsigned (uint16) when no value is negative: an index read from it then needs no
    wrap-around of negative indices in the compiled code."""
    lo, hi = (int(a.min()), int(a.max())) if a.size else (0, 0)
    if lo >= 0 and hi <= 65535:
        return np.ascontiguousarray(a, dtype=np.uint16)
    fits = lo >= -32768 and hi <= 32767
    return np.ascontiguousarray(a, dtype=np.int16 if fits else np.int64)


def compact(a: npt.NDArray[np.float64]) -> npt.NDArray[Any]:
    """``a`` as float32 when that is exact for every value (rounds to goal are whole
    numbers), else unchanged: arithmetic reads them back as the same float64."""
    b = a.astype(np.float32)
    exact = bool(np.array_equal(b.astype(np.float64), a))
    return np.ascontiguousarray(b if exact else a)


def tables(tb: ScenarioTables) -> Tables:
    """The kernel's view of ``tb`` (built once per tables object)."""
    found = _PACKED.get(id(tb))
    if found is not None and found[0] is tb:
        return found[1]
    b = tb.units
    c = np.ascontiguousarray
    bet_words = np.stack(tb.bet_words, axis=-1)  # [kc, idx, target, word]
    # an order's destination and facing side by side (views of one array): the facing of
    # the order chosen is then read from a cache line that choosing it loaded already
    dest = small(tb.ord_dest)
    orders = np.stack([dest, np.asarray(tb.ord_fac).astype(dest.dtype)], axis=-1)
    adv, n_adv = advance_order(tb.ord_dest, tb.ord_d)
    packed = Tables(
        n=int(tb.size),
        k=int(tb.k),
        k_move=int(tb.k_move),
        width=int(b.n_units * NOISE_PER_UNIT + tb.size + 1),
        ord_dest=orders[..., 0],
        ord_fac=orders[..., 1],
        ord_d=compact(tb.ord_d),
        dist=compact(tb.dist),
        lik_cell=small(spare_cells(tb.lik_cell, tb.lik_p, int(tb.size))),
        lik_p=c(tb.lik_p),
        tgt=small(tb.tgt),
        bet_words=c(bet_words),
        zone_words=c(np.bitwise_or.reduce(bet_words, axis=2)),
        n_tgt=small((tb.tgt < tb.size).sum(axis=2).astype(np.int64)),
        n_elev=small((tb.elev < tb.size).sum(axis=2).astype(np.int64)),
        elev=small(tb.elev),
        berm_words=c(pack_bits(tb.berm[None, : tb.size], bet_words.shape[-1])[0]),
        elevating=c(tb.elevating),
        ks=small(tb.ks.astype(np.int64)),
        value=c(tb.value),
        fires=c(tb.fires),
        elevates=c(tb.elevates),
        kind=small(b.kind),
        side=small(b.side),
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
        repair_on=bool(b.repair_on),
        col=c(tb.col),
        row=c(tb.row),
        n_move=small(last_used(np.asarray(tb.ord_dest)[:, :, : int(tb.k_move)])),
        adv=adv,
        n_adv=n_adv,
    )
    if len(_PACKED) > 8:
        _PACKED.clear()
    _PACKED[id(tb)] = (tb, packed)
    return packed
