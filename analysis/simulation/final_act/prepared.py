"""What every Final Act agent and the compiled kernel share about one scenario: the engine
``Game`` and each unit's rounds to goal, best orders and likely end cells (``Prepared``),
with the numbers the agents value units by.

Built once per scenario and worker (``FinalActDriver.prepare``); the reference agents
(``agents/reference.py``), the search agent and the kernel's tables
(``kernel/tables.py``) all read it.
"""

from __future__ import annotations

from tankmap.rules.final_act.engine import SIDES, Game
from tankmap.rules.final_act.tables import Order
from tankmap.rules.geometry import Facing

INF = 1_000_000
# Relative likelihood of an enemy order that is ``k`` rounds worse than its best one.
_LIKELY = (1.0, 0.35, 0.12, 0.04, 0.015)
VALUE = {"tank": 1.0, "at": 0.8, "rm": 0.6}
"""What a unit is worth to the heuristic when it aims its shells (damaged tanks double)."""


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
                table = t.order_table(kind, side)
                pred: list[list[int]] = [[] for _ in range(size * 8)]
                for i, orders in enumerate(table):
                    for to, f in orders:
                        pred[to * 8 + f].append(i)
                dist = [INF] * (size * 8)
                goal = game.goal_mask[side.index]
                frontier = [i for i in range(size * 8) if goal >> (i // 8) & 1]
                for i in frontier:
                    dist[i] = 0
                d = 0
                while frontier:
                    d += 1
                    nxt = []
                    for i in frontier:
                        for j in pred[i]:
                            if dist[j] == INF:
                                dist[j] = d
                                nxt.append(j)
                    frontier = nxt
                per_side.append(dist)
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
        weighted by how much it shortens the unit's route (``_LIKELY``), cached."""
        key = (kind, side, cell * 8 + facing)
        found = self._likely.get(key)
        if found is None:
            ranked = self.ranked(kind, side, cell, facing)
            best = ranked[0][0]
            acc: dict[int, float] = {}
            for d, to, _o in ranked:
                if d - best < len(_LIKELY):
                    acc[to] = acc.get(to, 0.0) + _LIKELY[d - best]
            total = sum(acc.values())
            found = tuple((c, w / total) for c, w in acc.items()) if total > 0 else ()
            self._likely[key] = found
        return found
