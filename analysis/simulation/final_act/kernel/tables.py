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

from tankmap.analysis.simulation.final_act.kernel.table_rows import (
    fire_rows,
    likely_rows,
    ranked_rows,
)
from tankmap.analysis.simulation.final_act.prepared import INF, VALUE, Prepared
from tankmap.rules.final_act.data import DATA
from tankmap.rules.final_act.engine import Game

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
        present = sorted(
            {(int(k), int(s)) for k, s in zip(self.units.kind, self.units.side, strict=True)}
        )
        # orders sorted as Prepared.ranked sorts them, and likely end cells as
        # Prepared.likely weighs them (``table_rows``: whole-board arrays)
        ranked = {(kc, s): ranked_rows(prep, KINDS[kc], s) for kc, s in present}
        k_max = max([int(r.lengths.max()) for r in ranked.values()] or [1])
        self.k = k_max
        # widest order list of the kinds that move like tanks (tank, R/M)
        self.k_move = max(
            [int(r.lengths.max()) for (kc, _s), r in ranked.items() if kc != AT] or [1]
        )
        self.ord_dest = np.full((6, n8, k_max), -1, dtype=np.int64)
        self.ord_fac = np.zeros((6, n8, k_max), dtype=np.int64)
        self.ord_d = np.full((6, n8, k_max), float(INF))
        self.dist = np.full((6, n8), float(INF))
        likely = {}
        for (kc, s), r in ranked.items():
            ks = kc * 2 + s
            self.dist[ks] = prep.dist[KINDS[kc]][s]
            width = r.dest.shape[1]
            self.ord_dest[ks, :, :width] = r.dest
            self.ord_fac[ks, :, :width] = r.fac
            self.ord_d[ks, :, :width] = np.where(r.dest >= 0, r.d, float(INF))
            likely[ks] = likely_rows(r)
        l_max = max([int(c.max()) for _cells, _p, c in likely.values()] or [1])
        self.lik_cell = np.full((6, n8, l_max), n, dtype=np.int64)
        self.lik_p = np.zeros((6, n8, l_max))
        for ks, (cells, prob, _count) in likely.items():
            width = min(l_max, cells.shape[1])
            self.lik_cell[ks, :, :width] = np.where(cells[:, :width] >= 0, cells[:, :width], n)
            self.lik_p[ks, :, :width] = prob[:, :width]
        # fire zones: targets and between-cells (padding: the dummy cell n, never blocking),
        # shared by the boards of one size and cone
        fire = fire_rows(game.fire_tables[KINDS[TANK]], game.fire_tables[KINDS[AT]], n)
        self.tgt, self.bet, self.elev = fire.tgt, fire.bet, fire.elev
        self.words = len(fire.bet_words)
        self.bet_words = fire.bet_words
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
