"""The per-scenario tables the Final Act kernel reads, built from ``Prepared``.

``ScenarioTables`` (built once per prepared scenario: ``tables_of``): the units and the
rule numbers (``UnitFacts``: kinds, sides, hits, who blocks fire, goals, wrecks, the round
limit, cell sharing, R/M repair, and the start position), and for every (unit kind, side,
cell, facing) the orders (staying put included, sorted by rounds to goal) with their
rounds to goal, the likely end cells of the unit (``Prepared.likely``), and the fire-zone
targets with their between-cells (also as 64-bit words, so a line of fire is tested with
a few bitwise operations). The compiled code reads them through ``packed.py`` (``Tables``:
compact types). Numbers only, no numba: building them needs no compiled code.

Codes: unit kinds ``TANK``, ``AT``, ``RM`` (``KINDS``), ends ``END_CODES`` (0: the game
goes on), and the layout of each round's random numbers (``NOISE_PER_UNIT``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.prepared import INF, VALUE, Prepared
from tankmap.rules.final_act.data import DATA
from tankmap.rules.final_act.engine import Game
from tankmap.rules.geometry import Facing

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

KINDS = ("tank", "at", "rm")
TANK, AT, RM = 0, 1, 2  # unit kind codes (the position in KINDS)
END_CODES = ("", "goal", "annihilation", "limit")
"""How a game ended, by code (0: it goes on)."""
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


class Start(NamedTuple):
    """The start position as the kernel's arrays (one row per unit, ``wreck_cells`` one
    per cell) and how it stands: ``winner`` (-1: none) and ``end`` (``END_CODES`` index; 0
    while the game goes on)."""

    cell: IntArray
    facing: IntArray
    damage: IntArray
    alive: BoolArray
    wreck: BoolArray
    wreck_cells: BoolArray
    rm_left: IntArray
    winner: int
    end: int


class UnitFacts:
    """The units of one scenario (unit ``u`` = ``scenario.units[u]``) as the kernel's rules
    read them: kind codes (``TANK``, ``AT``, ``RM``), sides (0 south, 1 north), hits to
    knock out, who blocks fire, which pairs may not trade cells, each side's goal cells,
    and the rule numbers (wrecks, round limit, cell sharing, R/M repair)."""

    def __init__(self, game: Game) -> None:
        units = game.scenario.units
        self.game = game
        self.n_units = len(units)
        self.size = game.board.size
        self.kind = np.array([KINDS.index(u.kind) for u in units], dtype=np.int64)
        self.side = np.array([u.side.index for u in units], dtype=np.int64)
        self.hits = np.array([DATA.units[u.kind].hits for u in units], dtype=np.int64)
        self.blocks = np.array([DATA.units[u.kind].blocks_fire for u in units], dtype=bool)
        is_tank = self.kind == TANK
        # [u, v]: units u and v may not trade cells (two tanks, or a tank and an R/M)
        blocker = is_tank | (self.kind == RM)
        self.no_swap = blocker[:, None] & blocker[None, :] & (is_tank[:, None] | is_tank[None, :])
        self.goal = np.zeros((2, self.size), dtype=bool)
        for s in (0, 1):
            for c in range(self.size):
                self.goal[s, c] = bool(game.goal_mask[s] >> c & 1)
        self.had_tanks = np.array(game.had_tanks, dtype=bool)
        self.wrecks = game.wrecks
        self.max_rounds = game.max_rounds
        sharing = dict(DATA.sharing.max_per_kind)
        self.max_units = DATA.sharing.max_units
        self.max_kind = np.array([sharing.get(k, 1) for k in KINDS], dtype=np.int64)
        self.forbid_tank_rm = any(set(p) == {"tank", "rm"} for p in DATA.sharing.forbidden_pairs)
        self.repair_on = "rm_repair" in game.adv.on  # Extra Forces R/M repair

    def start(self) -> Start:
        """The scenario's start position (``Game.initial_state``) as arrays."""
        ref = self.game.initial_state()
        cell = np.array(ref.cell, dtype=np.int64)
        wreck = np.array(ref.wreck, dtype=bool)
        wreck_cells = np.zeros(self.size, dtype=bool)
        if self.wrecks:
            wreck_cells[cell[wreck]] = True
        return Start(
            cell=cell,
            facing=np.array([int(f) for f in ref.facing], dtype=np.int64),
            damage=np.array(ref.damage, dtype=np.int64),
            alive=np.array(ref.alive, dtype=bool),
            wreck=wreck,
            wreck_cells=wreck_cells,
            rm_left=np.array([ref.adv.rm_left.get(u, 0) for u in range(self.n_units)], np.int64),
            winner=-1 if ref.winner is None else ref.winner.index,
            end=END_CODES.index(ref.end or ""),
        )


class ScenarioTables:
    """Per-scenario arrays (see the module docstring); ``ks = kind * 2 + side``."""

    def __init__(self, prep: Prepared) -> None:
        game = prep.game
        self.prep = prep
        self.units = UnitFacts(game)
        n = self.size = game.board.size
        n8 = n * 8
        present = {(k, s) for k, s in zip(self.units.kind, self.units.side, strict=True)}
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
        b = self.units
        self.ks = b.kind * 2 + b.side
        self.value = np.array([VALUE[KINDS[k]] for k in b.kind], dtype=np.float64)
        self.fires = np.array([game.fire_tables[KINDS[k]] is not None for k in b.kind], dtype=bool)
        self.elevates = np.array([game.elevates[KINDS[k]] for k in b.kind], dtype=bool)
        cols = game.board.columns
        self.col = np.append(np.arange(n) % cols, 0).astype(np.int64)  # (index n: padding)
        self.row = np.append(np.arange(n) // cols, 0).astype(np.int64)


_TABLES: dict[int, ScenarioTables] = {}


def tables_of(prep: Prepared) -> ScenarioTables:
    """The ``ScenarioTables`` of a prepared scenario (built once)."""
    found = _TABLES.get(id(prep))
    if found is None or found.prep is not prep:
        if len(_TABLES) > 8:
            _TABLES.clear()
        found = _TABLES[id(prep)] = ScenarioTables(prep)
    return found
