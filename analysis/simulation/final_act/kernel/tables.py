"""The per-scenario tables the Final Act kernel reads, built from ``Prepared``.

Precomputed per scenario (``BatchTables``): for every (unit kind, side, cell, facing) the
orders (staying put included, sorted by rounds to goal) with their rounds to goal, the
likely end cells of the unit, and the fire-zone targets with their between-cells (also as
64-bit words, so a line of fire is tested with a few bitwise operations). The compiled
code reads them through ``kernel/packed.py`` (``Tables``: compact types, built once per
tables object); ``tables_of`` builds them once per prepared scenario.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.prepared import INF, VALUE, Prepared
from tankmap.rules.final_act.engine_batch import AT, TANK, BatchGame
from tankmap.rules.geometry import Facing

BoolArray = npt.NDArray[np.bool_]

KINDS = ("tank", "at", "rm")
NOISE_PER_UNIT = 48  # random numbers each game draws per unit and round (+ cells + 1)
# A unit's numbers: [0] random order, [1] shell when nothing is likely, [2] tie among
# units, [3] random R/M repair (tanks; ``REPAIR_NOISE``), [8 + j] order j's score.
REPAIR_NOISE = 3  # the noise number (of the tank's NOISE_PER_UNIT) random repairs read


def pack_bits(bits: BoolArray, words: int) -> npt.NDArray[np.uint64]:
    """Rows of booleans as little-endian 64-bit words (``rows × words``)."""
    packed = np.packbits(bits, axis=1, bitorder="little")
    out = np.zeros((bits.shape[0], words * 8), dtype=np.uint8)
    out[:, : packed.shape[1]] = packed
    return out.view(np.uint64)


class BatchTables:
    """Per-scenario arrays (see the module docstring); ``ks = kind * 2 + side``."""

    def __init__(self, prep: Prepared) -> None:
        game = prep.game
        self.prep = prep
        self.batch = BatchGame(game)
        n = self.size = game.board.size
        n8 = n * 8
        present = {(k, s) for k, s in zip(self.batch.kind, self.batch.side, strict=True)}
        ranked: dict[tuple[int, int], list[tuple[tuple[int, int, tuple[int, Facing]], ...]]] = {}
        k_max = 1
        for kc, s in present:
            rows = []
            for idx in range(n8):
                r = prep.ranked(KINDS[kc], int(s), idx // 8, idx % 8)
                rows.append(r)
                k_max = max(k_max, len(r))
            ranked[(int(kc), int(s))] = rows
        self.k = k_max
        # widest order list of the kinds that move like tanks (tank, R/M)
        self.k_move = max(
            [len(r) for (kc, _s), rows in ranked.items() if kc != AT for r in rows] or [1]
        )
        self.ord_dest = np.full((6, n8, k_max), -1, dtype=np.int64)
        self.ord_fac = np.zeros((6, n8, k_max), dtype=np.int64)
        self.ord_d = np.full((6, n8, k_max), float(INF))
        self.dist = np.full((6, n8), float(INF))
        for kc, s in present:
            self.dist[int(kc) * 2 + int(s)] = prep.dist[KINDS[kc]][int(s)]
        for (kc, s), rows in ranked.items():
            ks = kc * 2 + s
            for idx, r in enumerate(rows):
                for j, (d, to, (_t, f)) in enumerate(r):
                    self.ord_dest[ks, idx, j] = to
                    self.ord_fac[ks, idx, j] = int(f)
                    self.ord_d[ks, idx, j] = d
        # likely end cells (reference: Prepared.likely)
        l_max = 1
        likely: dict[tuple[int, int], list[tuple[tuple[int, float], ...]]] = {}
        for kc, s in present:
            rows2 = [prep.likely(KINDS[kc], int(s), idx // 8, idx % 8) for idx in range(n8)]
            l_max = max(l_max, max(len(r) for r in rows2))
            likely[(int(kc), int(s))] = rows2
        self.lik_cell = np.full((6, n8, l_max), n, dtype=np.int64)
        self.lik_p = np.zeros((6, n8, l_max))
        for (kc, s), rows2 in likely.items():
            ks = kc * 2 + s
            for idx, lk in enumerate(rows2):
                for j, (c, p) in enumerate(lk):
                    self.lik_cell[ks, idx, j] = c
                    self.lik_p[ks, idx, j] = p
        # fire zones: targets and between-cells (padding: the dummy cell n, never blocking)
        t_max, b_max = 1, 1
        for kc in (TANK, AT):
            table = game.fire_tables[KINDS[kc]]
            if table is None:
                continue
            for idx in range(n8):
                pairs = table.pairs[idx]
                t_max = max(t_max, len(pairs), len(table.elevated[idx]))
                for _t, m in pairs:
                    b_max = max(b_max, bin(m).count("1"))
        self.tgt = np.full((2, n8, t_max), n, dtype=np.int64)
        self.bet = np.full((2, n8, t_max, b_max), n, dtype=np.int64)
        self.elev = np.full((2, n8, t_max), n, dtype=np.int64)
        for kc in (TANK, AT):
            table = game.fire_tables[KINDS[kc]]
            if table is None:
                continue
            for idx in range(n8):
                for j, (t, m) in enumerate(table.pairs[idx]):
                    self.tgt[kc, idx, j] = t
                    cells = []
                    while m:  # the set bits of m, lowest first
                        low = m & -m
                        cells.append(low.bit_length() - 1)
                        m ^= low
                    self.bet[kc, idx, j, : len(cells)] = cells
                for j, t in enumerate(table.elevated[idx]):
                    self.elev[kc, idx, j] = t
        # the between-cells as bit words (bit c of word c // 64), for a fast blocked test
        self.words = (n + 1 + 63) // 64
        onehot = np.zeros((2, n8, t_max, n + 1), dtype=bool)
        np.put_along_axis(onehot, self.bet, True, axis=3)
        onehot[..., n] = False
        bits = pack_bits(onehot.reshape(-1, n + 1), self.words).reshape(2, n8, t_max, self.words)
        self.bet_words = [np.ascontiguousarray(bits[..., w]) for w in range(self.words)]
        self.berm = np.zeros(n + 1, dtype=bool)
        self.elevating = np.zeros(n + 1, dtype=bool)
        for c in range(n):
            self.berm[c] = bool(game.berm_mask >> c & 1)
            self.elevating[c] = bool(game.tables.elevating_mask >> c & 1)
        b = self.batch
        self.ks = b.kind * 2 + b.side
        self.value = np.array([VALUE[KINDS[k]] for k in b.kind], dtype=np.float64)
        self.fires = np.array([game.fire_tables[KINDS[k]] is not None for k in b.kind], dtype=bool)
        self.elevates = np.array([game.elevates[KINDS[k]] for k in b.kind], dtype=bool)
        cols = game.board.columns
        self.col = np.append(np.arange(n) % cols, 0).astype(np.int64)  # (index n: padding)
        self.row = np.append(np.arange(n) // cols, 0).astype(np.int64)


_TABLES: dict[int, BatchTables] = {}


def tables_of(prep: Prepared) -> BatchTables:
    """The ``BatchTables`` of a prepared scenario (built once)."""
    found = _TABLES.get(id(prep))
    if found is None or found.prep is not prep:
        if len(_TABLES) > 8:
            _TABLES.clear()
        found = _TABLES[id(prep)] = BatchTables(prep)
    return found
