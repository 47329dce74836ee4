"""A small grid ruleset with real movement, used to test the game-independent analysis.

Rules of "grid-toy" (hand-checkable, so tests can derive answers on paper):
* terrain ``rock``: blocks movement and fire; ``oneway`` (one cell, ``arrow``): may only be
  entered by a step in the arrow direction.
* ``walker`` (no facing): moves one cell orthogonally; wins on the enemy's own row 1; fires at
  the cells up to 2 away orthogonally, a rock stopping the ray (the rock cell is not in it).
* ``scout`` (facing N/E/S/W): moves one cell forward, or turns 90° in place; a forward step
  off the enemy's edge is an escape (its goal); no fire.
* ``gun``: never moves, no goal; fires at its 8 neighbours.
"""

from __future__ import annotations

from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import register
from tankmap.rules.ruleset import Ruleset, UnitMove
from tankmap.rules.scenario import Scenario, Terrain, Unit
from tankmap.rules.violations import Severity, Violation

ORTHO = (Facing.N, Facing.E, Facing.S, Facing.W)


class GridToy(Ruleset):
    name = "grid-toy"
    title = "Grid toy (analysis tests only)"
    terrain_kinds = ("rock", "oneway")
    unit_kinds = ("walker", "scout", "gun")
    default_board = (6, 6)

    def check(self, scenario: Scenario) -> list[Violation]:
        rocks = self._rocks(scenario)
        return [
            Violation("on-rock", Severity.ERROR, f"{u.label} on a rock", (u.cell,), u.side)
            for u in scenario.units
            if u.cell in rocks
        ]

    @staticmethod
    def _rocks(scenario: Scenario) -> set[int]:
        out = {c for t in scenario.terrain if t.kind == "rock" for c in t.cells}
        out |= {u.cell for u in scenario.units if u.wreck}
        return out

    @staticmethod
    def _arrows(scenario: Scenario) -> dict[int, Facing]:
        return {t.cells[0]: t.arrow for t in scenario.terrain if t.kind == "oneway" and t.arrow}

    def _enterable(self, scenario: Scenario, to: int, step: Facing) -> bool:
        if to < 0 or to in self._rocks(scenario):
            return False
        arrow = self._arrows(scenario).get(to)
        return arrow is None or arrow is step

    def moves(self, scenario: Scenario, unit: Unit) -> list[UnitMove]:
        b = scenario.board
        out: list[UnitMove] = []
        if unit.wreck or unit.kind == "gun":
            return out
        if unit.kind == "walker":
            for f in ORTHO:
                to = b.step[f][unit.cell]
                if self._enterable(scenario, to, f):
                    out.append(UnitMove(to, None))
            return out
        assert unit.facing is not None
        to = b.step[unit.facing][unit.cell]
        if to < 0:
            if unit.facing is unit.side.forward:
                out.append(UnitMove(None, None))
        elif self._enterable(scenario, to, unit.facing):
            out.append(UnitMove(to, unit.facing))
        out.append(UnitMove(unit.cell, unit.facing.left))
        out.append(UnitMove(unit.cell, unit.facing.right))
        return out

    def fire_zone(self, scenario: Scenario, unit: Unit) -> list[int]:
        b = scenario.board
        if unit.wreck or unit.kind == "scout":
            return []
        rocks = self._rocks(scenario)
        zone: set[int] = set()
        if unit.kind == "gun":
            zone = {b.step[f][unit.cell] for f in Facing} - {-1}
        else:
            for f in ORTHO:
                c = unit.cell
                for _ in range(2):
                    c = b.step[f][c]
                    if c < 0 or c in rocks:
                        break
                    zone.add(c)
        return sorted(zone)

    def goal_cells(self, scenario: Scenario, unit: Unit) -> frozenset[int] | None:
        b = scenario.board
        if unit.kind == "walker":
            return frozenset(c for c in range(b.size) if b.own_row(c, unit.side.other.index) == 1)
        if unit.kind == "scout":
            return frozenset()
        return None


GRID = register(GridToy())


def scenario(
    cols: int,
    rows: int,
    rocks: str = "",
    units: tuple[tuple[str, str, str, str | None], ...] = (),
    oneways: tuple[tuple[str, str], ...] = (),
) -> Scenario:
    """Build a grid-toy scenario: ``rocks`` = space-separated cells; ``units`` = (kind, side,
    cell, facing); ``oneways`` = (cell, arrow)."""
    b = Board.of(cols, rows)
    terrain = [Terrain("rock", (b.parse_cell(c),)) for c in rocks.split()]
    terrain += [Terrain("oneway", (b.parse_cell(c),), arrow=Facing.parse(a)) for c, a in oneways]
    us = [
        Unit(k, Side.parse(s), b.parse_cell(c), None if f is None else Facing.parse(f))
        for k, s, c, f in units
    ]
    return Scenario(ruleset="grid-toy", board=b, terrain=tuple(terrain), units=tuple(us))
