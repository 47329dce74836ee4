"""What every Final Act agent and the compiled kernel share about one scenario: the engine
``Game`` and each unit's rounds to goal, best orders and likely end cells (``Prepared``),
with the numbers the agents value units by.

Built once per scenario and worker (``FinalActDriver.prepare``); the reference agents
(``agents/reference.py``), the search agent and the kernel's tables
(``kernel/tables.py``) all read it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from tankmap.rules.final_act.engine import SIDES, Game
from tankmap.rules.final_act.tables import Order
from tankmap.rules.geometry import Facing

INF = 1_000_000
IntArray = npt.NDArray[np.int64]
# Relative likelihood of an enemy order that is ``k`` rounds worse than its best one.
LIKELY = (1.0, 0.35, 0.12, 0.04, 0.015)
VALUE = {"tank": 1.0, "at": 0.8, "rm": 0.6}
"""What a unit is worth to the heuristic when it aims its shells (damaged tanks double)."""


def flat_orders(table: Sequence[tuple[Order, ...]]) -> tuple[IntArray, IntArray, IntArray]:
    """A ``Tables.order_table`` as arrays: how many orders each ``cell * 8 + facing`` has,
    and every order's destination and facing, row after row."""
    lens = np.fromiter((len(o) for o in table), dtype=np.int64, count=len(table))
    total = int(lens.sum())
    flat = np.fromiter((v for o in table for order in o for v in order), np.int64, 2 * total)
    return lens, flat[0::2], flat[1::2]


def _rounds_to_goal(size: int, lens: IntArray, ends: IntArray, goal: int) -> list[int]:
    """Fewest orders from each ``cell * 8 + facing`` to a cell of the ``goal`` bitmask
    (``INF``: never), over the orders ``ends`` (``cell * 8 + facing`` each, ``lens`` a row):
    a breadth-first search backwards from the goal, a whole frontier at a time."""
    n8 = size * 8
    starts = np.repeat(np.arange(n8, dtype=np.int64), lens)
    dist = np.full(n8, INF, dtype=np.int64)
    on_goal = np.array([goal >> (i // 8) & 1 for i in range(n8)], dtype=bool)
    dist[on_goal] = 0
    frontier = on_goal
    d = 0
    while True:
        d += 1
        found = starts[frontier[ends]]
        found = found[dist[found] == INF]
        if found.size == 0:
            break
        dist[found] = d
        frontier = np.zeros(n8, dtype=bool)
        frontier[found] = True
    return [int(v) for v in dist.tolist()]


class Prepared:
    """Per-scenario data the policies share: the engine ``Game`` and, per (kind, side),
    ``dist[kind][side][cell * 8 + facing]`` = fewest rounds to stand on the enemy's last line
    of defence by terrain alone (``INF`` if impossible)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        t = game.tables
        size = game.board.size
        self.dist: dict[str, list[list[int]]] = {}
        for kind in ("tank", "at", "rm"):
            per_side = []
            for side in SIDES:
                lens, to, facing = flat_orders(t.order_table(kind, side))
                goal = game.goal_mask[side.index]
                per_side.append(_rounds_to_goal(size, lens, to * 8 + facing, goal))
            self.dist[kind] = per_side
        self._ranked: dict[tuple[str, int, int], tuple[tuple[int, int, Order], ...]] = {}
        self._zones: dict[tuple[str, int, int], tuple[tuple[int, ...], int]] = {}
        self._relevant: dict[tuple[str, int], int] = {}
        self._likely: dict[tuple[str, int, int], tuple[tuple[int, float], ...]] = {}

    def ranked(
        self, kind: str, side: int, cell: int, facing: int
    ) -> tuple[tuple[int, int, Order], ...]:
        """``(rounds to goal, destination, order)`` of every terrain-legal order of a unit
        (staying put included), best first (cached; wrecks are not considered here)."""
        key = (kind, side, cell * 8 + facing)
        found = self._ranked.get(key)
        if found is None:
            f = Facing(facing)
            dtab = self.dist[kind][side]
            opts = ((cell, f), *self.game.tables.orders(kind, SIDES[side], cell, f))
            found = tuple(sorted(((dtab[to * 8 + g], to, (to, g)) for to, g in opts)))
            self._ranked[key] = found
        return found

    def zone(self, kind: str, cell: int, facing: int, blockers: int) -> tuple[tuple[int, ...], int]:
        """The fire zone of a ``kind`` unit on ``cell``/``facing`` (``Tables.fire_zone``) as
        cells and as a bitmask, cached on the blockers that can matter for it (the union of
        the between-cells of its cone)."""
        g = self.game
        idx = cell * 8 + facing
        elevated = g.elevates[kind] and bool(g.tables.elevating_mask >> cell & 1)
        if elevated:
            key = (kind, idx, -1)
        else:
            rel = self._relevant.get((kind, idx))
            if rel is None:
                table = g.fire_tables[kind]
                rel = 0
                if table is not None:
                    for _t, m in table.pairs[idx]:
                        rel |= m
                self._relevant[(kind, idx)] = rel
            key = (kind, idx, blockers & rel)
        found = self._zones.get(key)
        if found is None:
            table = g.fire_tables[kind]
            zone: tuple[int, ...] = ()
            if table is not None:
                zone = tuple(
                    table.zone(
                        cell, Facing(facing), (blockers & ~(1 << cell)) | g.berm_mask, elevated
                    )
                )
            mask = 0
            for t in zone:
                mask |= 1 << t
            found = self._zones[key] = (zone, mask)
        return found

    def likely(self, kind: str, side: int, cell: int, facing: int) -> tuple[tuple[int, float], ...]:
        """Where a unit is likely to end this round: ``(cell, probability)`` with each order
        weighted by how much it shortens the unit's route (``LIKELY``), cached."""
        key = (kind, side, cell * 8 + facing)
        found = self._likely.get(key)
        if found is None:
            ranked = self.ranked(kind, side, cell, facing)
            best = ranked[0][0]
            acc: dict[int, float] = {}
            for d, to, _o in ranked:
                if d - best < len(LIKELY):
                    acc[to] = acc.get(to, 0.0) + LIKELY[d - best]
            total = sum(acc.values())
            found = tuple((c, w / total) for c, w in acc.items()) if total > 0 else ()
            self._likely[key] = found
        return found
