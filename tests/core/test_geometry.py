"""Line-of-fire geometry (docs/rules.md §1.6): exact, edges and corner points never block."""

from __future__ import annotations

import pytest

from tankmap.rules.geometry import Facing, Side, between_offsets, relative_offset


@pytest.mark.parametrize(
    ("dx", "dy", "expected"),
    [
        (0, 1, set()),  # adjacent: nothing between
        (0, 4, {(0, 1), (0, 2), (0, 3)}),  # straight line
        (3, 0, {(1, 0), (2, 0)}),
        (1, 1, set()),  # diagonal neighbour: only the corner point
        (2, 2, {(1, 1)}),  # diagonal passes through corners + centres
        (-3, 3, {(-1, 1), (-2, 2)}),
        (1, 2, {(0, 1), (1, 1)}),  # knight: through the middle of a shared edge
        (2, 1, {(1, 0), (1, 1)}),
        (1, 3, {(0, 1), (1, 2)}),  # slope 3: (0.5,1.5) is a corner -> cells (0,1),(1,2)
    ],
)
def test_between_offsets_open_interior(dx: int, dy: int, expected: set[tuple[int, int]]) -> None:
    assert set(between_offsets(dx, dy)) == expected


@pytest.mark.parametrize(
    ("dx", "dy", "expected"),
    [
        (1, 1, {(1, 0), (0, 1)}),  # touches the two corner cells
        (2, 2, {(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)}),
        (0, 3, {(0, 1), (0, 2)}),  # a straight line touches no extra cell
        (1, 3, {(0, 1), (1, 1), (0, 2), (1, 2)}),
    ],
)
def test_between_offsets_strict_touches_corners(
    dx: int, dy: int, expected: set[tuple[int, int]]
) -> None:
    assert set(between_offsets(dx, dy, strict=True)) == expected


def test_worked_example_blocker_in_front_hides_exactly_the_cells_with_s_less_than_f() -> None:
    # docs/rules.md §4: tank facing N, blocker straight ahead at (0, 1); a target (s, f) is hidden
    # exactly when |s| < f (f >= 2), by the open-interior rule.
    for f in range(2, 7):
        for s in range(-(6 - abs(f - 3)), 7):
            if abs(s) + abs(f - 3) > 3:
                continue
            hidden = (0, 1) in between_offsets(s, f)
            assert hidden == (abs(s) < f), (s, f)


def test_facings_and_sides() -> None:
    assert Facing.parse("ne") is Facing.NE
    assert Facing.N.opposite is Facing.S
    assert Facing.N.left is Facing.W and Facing.N.right is Facing.E
    assert Facing.from_delta(-1, -1) is Facing.SW
    assert Facing.E.mirrored_lr() is Facing.W and Facing.NE.mirrored_lr() is Facing.NW
    assert Side.parse("North") is Side.NORTH and Side.SOUTH.other is Side.NORTH
    assert Side.NORTH.forward is Facing.S
    with pytest.raises(ValueError):
        Facing.parse("up")


@pytest.mark.parametrize(
    ("facing", "forward", "sideways", "expected"),
    [
        (Facing.N, 2, 1, (1, 2)),
        (Facing.S, 2, 1, (-1, -2)),
        (Facing.E, 1, -1, (1, 1)),
        (Facing.W, 3, 0, (-3, 0)),
    ],
)
def test_relative_offset(
    facing: Facing, forward: int, sideways: int, expected: tuple[int, int]
) -> None:
    assert relative_offset(facing, forward, sideways) == expected
