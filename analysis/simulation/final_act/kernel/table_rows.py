"""The rows of the Final Act kernel's per-scenario tables, built a whole board at a time.

``ScenarioTables`` needs, for every (kind, side, cell, facing), the unit's orders sorted as
``Prepared.ranked`` sorts them and its likely end cells as ``Prepared.likely`` weighs them;
and per kind the fire-zone targets with their between-cells. Asked cell by cell in Python
that took most of the time of preparing a board (about 0.3 s of CPU per board, paid again
for every edited board ``suggest`` plays); here the same numbers come from numpy arrays,
and the fire rows, which depend on the board and the cone only, are kept per fire table.

The results are equal to the per-cell answers, float for float (tested in
``tests/simulation/test_final_act_table_rows.py``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.prepared import INF, LIKELY, Prepared, flat_orders
from tankmap.rules.final_act.engine import SIDES
from tankmap.rules.final_act.tables import FireTable

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


class RankedRows(NamedTuple):
    """Per ``cell * 8 + facing``: the orders' destinations (``-1`` padding), facings (``0``
    padding) and rounds to goal (``INF`` padding), best first; ``lengths``: orders a row."""

    dest: IntArray
    fac: IntArray
    d: FloatArray
    lengths: IntArray


def ranked_rows(prep: Prepared, kind: str, side: int) -> RankedRows:
    """``Prepared.ranked`` of every cell and facing of a ``kind`` unit of ``side``, as
    arrays: staying put and every terrain-legal order, sorted by (rounds to goal,
    destination, facing)."""
    lens, to, facing = flat_orders(prep.game.tables.order_table(kind, SIDES[side]))
    n8 = len(lens)
    width = 1 + int(lens.max(initial=0))
    dest = np.full((n8, width), -1, dtype=np.int64)
    fac = np.zeros((n8, width), dtype=np.int64)
    idx = np.arange(n8, dtype=np.int64)
    dest[:, 0], fac[:, 0] = idx // 8, idx % 8  # staying put
    rows = np.repeat(idx, lens)
    starts = np.cumsum(lens) - lens
    cols = 1 + np.arange(len(to), dtype=np.int64) - np.repeat(starts, lens)
    dest[rows, cols] = to
    fac[rows, cols] = facing
    used = dest >= 0
    dist = np.asarray(prep.dist[kind][side], dtype=np.int64)
    d_int = np.where(used, dist[np.where(used, dest * 8 + fac, 0)], INF)
    # (rounds, destination, facing) as one number; padding sorts last
    key = np.where(used, (d_int * n8 + dest * 8 + fac), np.iinfo(np.int64).max)
    order = np.argsort(key, axis=1, kind="stable")
    dest = np.take_along_axis(dest, order, axis=1)
    fac = np.take_along_axis(fac, order, axis=1)
    d = np.take_along_axis(d_int, order, axis=1).astype(np.float64)
    return RankedRows(dest, fac, d, 1 + lens)


def likely_rows(rows: RankedRows) -> tuple[IntArray, FloatArray, IntArray]:
    """``Prepared.likely`` of every row of ``rows``: the distinct end cells in the order
    they first come (``-1`` padding), their probabilities, and how many a row has."""
    dest, d = rows.dest, rows.d
    n8, width = dest.shape
    best = d[:, 0]
    slot = np.full((n8, width), -1, dtype=np.int64)  # the column's cell's place in the row
    cells = np.full((n8, width), -1, dtype=np.int64)
    weight = np.zeros((n8, width), dtype=np.float64)
    count = np.zeros(n8, dtype=np.int64)
    likely = np.asarray(LIKELY, dtype=np.float64)
    all_rows = np.arange(n8)
    for j in range(width):
        gap = d[:, j] - best
        counted = (dest[:, j] >= 0) & (gap < len(LIKELY))
        seen = np.full(n8, -1, dtype=np.int64)
        for i in range(j):
            same = counted & (seen < 0) & (dest[:, i] == dest[:, j]) & (slot[:, i] >= 0)
            seen = np.where(same, slot[:, i], seen)
        new = counted & (seen < 0)
        seen = np.where(new, count, seen)
        cells[all_rows[new], count[new]] = dest[new, j]
        count = count + new
        slot[:, j] = np.where(counted, seen, -1)
        w = likely[np.clip(gap, 0, len(LIKELY) - 1).astype(np.int64)]
        hit = all_rows[counted]
        weight[hit, seen[counted]] = weight[hit, seen[counted]] + w[counted]
    total = np.zeros(n8, dtype=np.float64)
    for j in range(width):  # summed in the order Python's sum() takes
        total = total + weight[:, j]
    p = np.divide(weight, total[:, None], out=np.zeros_like(weight), where=total[:, None] > 0)
    return cells, p, count


class FireRows(NamedTuple):
    """Per kind code (tank 0, AT 1) and ``cell * 8 + facing``: the fire-zone targets, their
    between-cells and the targets when elevated (the dummy cell ``n`` pads them); and the
    between-cells as bit words (word ``w`` holds bit ``c`` of cell ``64 * w + c``), for a
    line of fire tested with a few bitwise operations."""

    tgt: IntArray
    bet: IntArray
    elev: IntArray
    bet_words: list[npt.NDArray[np.uint64]]


@lru_cache(maxsize=8)  # a few MB each; boards of one size and cone share one
def fire_rows(tank: FireTable | None, at: FireTable | None, n: int) -> FireRows:
    """The fire rows of the tank's and the AT's fire tables on a board of ``n`` cells
    (``None``: that kind never fires), kept per pair of tables. Callers must not write to
    the arrays (``ScenarioTables`` shares them between boards)."""
    tables = (tank, at)
    n8 = n * 8
    t_max, b_max = 1, 1
    for table in tables:
        if table is None:
            continue
        for idx in range(n8):
            pairs = table.pairs[idx]
            t_max = max(t_max, len(pairs), len(table.elevated[idx]))
            for _t, m in pairs:
                b_max = max(b_max, m.bit_count())
    tgt = np.full((2, n8, t_max), n, dtype=np.int64)
    bet = np.full((2, n8, t_max, b_max), n, dtype=np.int64)
    elev = np.full((2, n8, t_max), n, dtype=np.int64)
    for kc, table in enumerate(tables):
        if table is None:
            continue
        for idx in range(n8):
            for j, (t, m) in enumerate(table.pairs[idx]):
                tgt[kc, idx, j] = t
                cells = []
                while m:  # the set bits of m, lowest first
                    low = m & -m
                    cells.append(low.bit_length() - 1)
                    m ^= low
                bet[kc, idx, j, : len(cells)] = cells
            for j, t in enumerate(table.elevated[idx]):
                elev[kc, idx, j] = t
    words = (n + 1 + 63) // 64
    onehot = np.zeros((2, n8, t_max, n + 1), dtype=bool)
    np.put_along_axis(onehot, bet, True, axis=3)
    onehot[..., n] = False
    bits = pack_bits(onehot.reshape(-1, n + 1), words).reshape(2, n8, t_max, words)
    return FireRows(tgt, bet, elev, [np.ascontiguousarray(bits[..., w]) for w in range(words)])


def pack_bits(bits: npt.NDArray[np.bool_], words: int) -> npt.NDArray[np.uint64]:
    """Rows of booleans as little-endian 64-bit words (``rows × words``)."""
    packed = np.packbits(bits, axis=1, bitorder="little")
    out = np.zeros((bits.shape[0], words * 8), dtype=np.uint8)
    out[:, : packed.shape[1]] = packed
    return out.view(np.uint64)
