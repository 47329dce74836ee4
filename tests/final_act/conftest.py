"""Helpers for the Final Act tests: build positions from cell names, read answers as names.

``fa`` (fixture) is an ``FA`` helper on the standard 12 × 12 board. ``FA.base(side)`` is a
hand-typed legal, complete base-game setup (south below, north = its 180° image) used by the
setup tests, which change one thing and expect exactly one rule to break.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.ruleset import Ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit

B = Board.of(12, 12)


class FA:
    """Builders and readers for hand-made Final Act positions."""

    board = B
    rs: Ruleset = get_ruleset("final-act")

    # --- cells --------------------------------------------------------------------------
    @staticmethod
    def c(name: str) -> int:
        return B.parse_cell(name)

    @staticmethod
    def names(cells: Iterable[int]) -> set[str]:
        return {B.cell_name(c) for c in cells}

    @staticmethod
    def flip(name: str, side: Side) -> str:
        """``name`` as seen by ``side``: unchanged for south, the 180° image for north."""
        return name if side is Side.SOUTH else B.cell_name(B.mirror(B.parse_cell(name)))

    @staticmethod
    def flip_facing(facing: str, side: Side) -> str:
        f = Facing.parse(facing)
        return (f if side is Side.SOUTH else f.opposite).name

    # --- pieces -------------------------------------------------------------------------
    def terrain(
        self,
        kind: str,
        cells: str,
        side: Side | None = Side.SOUTH,
        lane: str | None = None,
        arrow: str | None = None,
    ) -> Terrain:
        """A terrain piece from space-separated cell names (as written, not flipped)."""
        return Terrain(
            kind,
            tuple(self.c(x) for x in cells.split()),
            side,
            None if lane is None else self.c(lane),
            None if arrow is None else Facing.parse(arrow),
        )

    def unit(
        self,
        kind: str,
        cell: str,
        facing: str | None = "N",
        name: str | None = None,
        side: Side = Side.SOUTH,
        **kw: Any,
    ) -> Unit:
        return Unit(
            kind,
            side,
            self.c(cell),
            None if facing is None else Facing.parse(facing),
            name,
            **kw,
        )

    def tank(self, cell: str, facing: str = "N", name: str = "C", side: Side = Side.SOUTH,
             **kw: Any) -> Unit:  # fmt: skip
        return self.unit("tank", cell, facing, name, side, **kw)

    def scenario(
        self, terrain: Iterable[Terrain] = (), units: Iterable[Unit] = (), **options: Any
    ) -> Scenario:
        return Scenario("final-act", B, options, tuple(terrain), tuple(units))

    # --- answers as names -----------------------------------------------------------------
    def zone(self, scenario: Scenario, unit: Unit) -> set[str]:
        return self.names(self.rs.fire_zone(scenario, unit))

    def orders(self, scenario: Scenario, unit: Unit) -> set[tuple[str, str]]:
        out = set()
        for m in self.rs.moves(scenario, unit):
            assert m.to is not None and m.facing is not None
            out.add((B.cell_name(m.to), m.facing.name))
        return out

    def report(self, scenario: Scenario) -> list[tuple[str, str, set[str], str | None]]:
        """``(code, severity, cell names, side)`` of every violation except ``missing``."""
        return [
            (
                v.code,
                v.severity.value,
                self.names(v.cells),
                None if v.side is None else v.side.value,
            )
            for v in self.rs.check(scenario)
            if v.code != "missing"
        ]

    # --- a legal, complete base setup -----------------------------------------------------
    SOUTH_TERRAIN = (
        ("berm-large", "c3 d3 e3", None, None),
        ("berm-small", "h2 h3", None, None),
        ("berm-small", "j3 k3", None, None),
        ("swamp", "b5 c5 b6 c6", None, None),
        ("minefield", "f5 g5 h5", "g5", "N"),
    )
    SOUTH_TANKS = (("1B", "b2"), ("1A", "c2"), ("1", "d3"), ("C", "f2"), ("2", "h3"),
                   ("2A", "i2"), ("2B", "k2"))  # fmt: skip

    def side_pieces(self, side: Side, skip: Iterable[str] = ()) -> tuple[list[Terrain], list[Unit]]:
        """The base setup of ``side`` (north = mirrored), leaving out pieces named in
        ``skip`` (a terrain kind + first cell like ``"swamp b5"`` or a tank name)."""
        skipped = set(skip)
        terrain = []
        for kind, cells, lane, arrow in self.SOUTH_TERRAIN:
            if f"{kind} {cells.split()[0]}" in skipped:
                continue
            terrain.append(
                self.terrain(
                    kind,
                    " ".join(self.flip(x, side) for x in cells.split()),
                    side,
                    None if lane is None else self.flip(lane, side),
                    None if arrow is None else self.flip_facing(arrow, side),
                )
            )
        units = [
            self.tank(self.flip(cell, side), self.flip_facing("N", side), name, side)
            for name, cell in self.SOUTH_TANKS
            if name not in skipped
        ]
        return terrain, units

    def base(self, **options: Any) -> Scenario:
        st, su = self.side_pieces(Side.SOUTH)
        nt, nu = self.side_pieces(Side.NORTH)
        return self.scenario(st + nt, su + nu, **options)


@pytest.fixture
def fa() -> FA:
    return FA()
