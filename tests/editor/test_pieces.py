"""Pure piece geometry (no Qt): answers derived by hand from docs/rules.md §0 (mirror = 180° point
rotation (c, r, d) -> (C+1-c, R+1-r, opposite d)) and the board's coordinate system."""

from __future__ import annotations

import pytest

from tankmap.editor.pieces import (
    Symmetry,
    copy_side,
    mirror_shape,
    mirrored,
    rotate,
    rotate_offsets,
    swap_sides,
    translate,
)
from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Terrain, Unit

B = Board.of(12, 12)
c = B.parse_cell


def test_rotate_offsets_clockwise() -> None:
    # east (1, 0) turned 90° clockwise points south (0, -1); west goes north.
    assert rotate_offsets(((-1, 0), (0, 0), (1, 0)), 1) == ((0, 1), (0, 0), (0, -1))
    assert rotate_offsets(((1, 0),), 4) == ((1, 0),)


@pytest.mark.parametrize(
    ("symmetry", "expected_cell", "expected_facing", "expected_side"),
    [
        # f1 = column 6 of 12, row 1 -> column 12+1-6 = 7 (g), row 12; N -> S; owner swaps.
        (Symmetry.POINT, "g12", Facing.S, Side.NORTH),
        # left-right: column 6 -> 7 (g), same row and owner; N stays N.
        (Symmetry.LEFT_RIGHT, "g1", Facing.N, Side.SOUTH),
    ],
)
def test_mirrored_unit(
    symmetry: Symmetry, expected_cell: str, expected_facing: Facing, expected_side: Side
) -> None:
    u = Unit("tank", Side.SOUTH, c("f1"), Facing.N, "C")
    m = mirrored(u, B, symmetry)
    assert isinstance(m, Unit)
    assert (B.cell_name(m.cell), m.facing, m.side, m.name) == (
        expected_cell,
        expected_facing,
        expected_side,
        "C",
    )


def test_mirrored_minefield_keeps_lane_and_reverses_arrow() -> None:
    # f5 g5 h5 lane g5 arrow N -> columns 7,6,5 (g f e) of row 8; lane f8; arrow S.
    t = Terrain("minefield", (c("f5"), c("g5"), c("h5")), Side.SOUTH, c("g5"), Facing.N)
    m = mirrored(t, B, Symmetry.POINT)
    assert isinstance(m, Terrain)
    assert sorted(B.cell_name(x) for x in m.cells) == ["e8", "f8", "g8"]
    assert (B.cell_name(m.lane or 0), m.arrow, m.side) == ("f8", Facing.S, Side.NORTH)


def test_rotate_terrain_about_its_anchor() -> None:
    # a 1x3 berm c3 d3 e3 turns about its middle cell d3 into d4 d3 d2.
    t = Terrain("berm-large", (c("c3"), c("d3"), c("e3")), Side.SOUTH)
    r = rotate(t, B, 1)
    assert isinstance(r, Terrain)
    assert [B.cell_name(x) for x in r.cells] == ["d4", "d3", "d2"]
    # at the edge the turned footprint would leave the board.
    edge = Terrain("berm-large", (c("a1"), c("b1"), c("c1")), Side.SOUTH)
    assert rotate(edge, B, 1) is None


def test_rotate_unit_by_eighths() -> None:
    u = Unit("light", Side.SOUTH, 0, Facing.N)
    assert rotate(u, B, 1, eighths=1) == Unit("light", Side.SOUTH, 0, Facing.NE)
    assert rotate(u, B, -1) == Unit("light", Side.SOUTH, 0, Facing.W)


def test_mirror_shape_flips_an_l() -> None:
    # L-tromino d3 e3 d4 with anchor e3 (middle of the list) mirrors to f3 e3 f4.
    t = Terrain("obstacle", (c("d3"), c("e3"), c("d4")))
    m = mirror_shape(t, B)
    assert isinstance(m, Terrain)
    assert [B.cell_name(x) for x in m.cells] == ["f3", "e3", "f4"]


def test_translate_refuses_leaving_the_board() -> None:
    u = Unit("tank", Side.SOUTH, c("a1"), Facing.N)
    assert translate(u, B, -1, 0) is None
    moved = translate(u, B, 2, 1)
    assert isinstance(moved, Unit) and B.cell_name(moved.cell) == "c2"


def _scenario() -> Scenario:
    return Scenario(
        "final-act",
        B,
        terrain=(Terrain("berm-large", (c("c3"), c("d3"), c("e3")), Side.SOUTH),),
        units=(
            Unit("tank", Side.SOUTH, c("a1"), Facing.N, "C"),
            Unit("tank", Side.NORTH, c("b12"), Facing.S, "C"),
        ),
    )


def test_swap_sides() -> None:
    # a1 -> l12 (north, facing S); b12 -> k1 (south, facing N); berm c3-e3 -> h10-j10.
    s = swap_sides(_scenario())
    assert {(B.cell_name(u.cell), u.side, u.facing) for u in s.units} == {
        ("l12", Side.NORTH, Facing.S),
        ("k1", Side.SOUTH, Facing.N),
    }
    assert sorted(B.cell_name(x) for x in s.terrain[0].cells) == ["h10", "i10", "j10"]
    assert s.terrain[0].side is Side.NORTH


def test_copy_side_replaces_the_other_side() -> None:
    s = copy_side(_scenario(), Side.SOUTH)
    north = s.units_of(Side.NORTH)
    assert [(B.cell_name(u.cell), u.facing, u.name) for u in north] == [("l12", Facing.S, "C")]
    assert len(s.units_of(Side.SOUTH)) == 1
    assert sorted(len(t.cells) for t in s.terrain) == [3, 3]
