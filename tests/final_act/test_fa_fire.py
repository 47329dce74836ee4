"""Final Act fire zones (docs/rules.md §1.6, §4) — every answer derived by hand from the rule text.

Notation in the derivations: a cone cell is (s, f) = (sideways to the right, ahead). The tank
cone is |s| + |f - 3| <= 3 (widths 3,5,7,5,3,1 for f = 1..6), the AT cone |s| + |f - 2| <= 2
(widths 3,5,3,1). A blocker's cell blocks a target when the centre-to-centre segment passes
through the blocker's open interior (touching a corner does not block unless strict).
"""

from __future__ import annotations

from typing import Any

import pytest

from tankmap.rules.geometry import Side

# Tank on f1 facing N: rows 2..7 with widths 3,5,7,5,3,1 centred on column f.
TANK_F1 = set("e2 f2 g2 d3 e3 f3 g3 h3 c4 d4 e4 f4 g4 h4 i4 d5 e5 f5 g5 h5 e6 f6 g6 f7".split())
# AT on f1 facing N: rows 2..5 with widths 3,5,3,1.
AT_F1 = set("e2 f2 g2 d3 e3 f3 g3 h3 e4 f4 g4 f5".split())
# Blocker on f2: a target (s, f) with f >= 2 is hidden exactly when |s| < f (its segment
# crosses f2's interior); d3/h3 and c4/i4 pass exactly through f2's corners (docs/rules.md §4).
BEHIND_F2 = {"e2", "f2", "g2", "d3", "h3", "c4", "i4"}


def flipped(fa: Any, names: set[str], side: Side) -> set[str]:
    return {fa.flip(n, side) for n in names}


@pytest.mark.parametrize("side", list(Side))
def test_tank_cone_on_empty_board_is_24_cells(fa: Any, side: Side) -> None:
    t = fa.tank(fa.flip("f1", side), fa.flip_facing("N", side), side=side)
    assert fa.zone(fa.scenario(units=[t]), t) == flipped(fa, TANK_F1, side)
    assert len(TANK_F1) == 24


@pytest.mark.parametrize("side", list(Side))
def test_tank_cone_clipped_in_the_corner_is_15_cells(fa: Any, side: Side) -> None:
    # a1 facing N keeps only s >= 0: per row 2,3,4,3,2,1 cells = 15.
    expected = set("a2 b2 a3 b3 c3 a4 b4 c4 d4 a5 b5 c5 a6 b6 a7".split())
    t = fa.tank(fa.flip("a1", side), fa.flip_facing("N", side), side=side)
    assert fa.zone(fa.scenario(units=[t]), t) == flipped(fa, expected, side)


def test_tank_cone_facing_west_clipped_by_two_edges(fa: Any) -> None:
    # f2 facing W: ahead = toward column a, right = N. f=1 column e rows 1-3; f=2 column d
    # rows 0-4 -> 1-4; f=3 column c rows 1-5; f=4 column b rows 1-4; f=5 column a rows
    # 1-3; f=6 would be column "a-1": off. 3+4+5+4+3 = 19.
    expected = set("e1 e2 e3 d1 d2 d3 d4 c1 c2 c3 c4 c5 b1 b2 b3 b4 a1 a2 a3".split())
    t = fa.tank("f2", "W")
    assert fa.zone(fa.scenario(units=[t]), t) == expected


def test_cone_off_the_far_edge(fa: Any) -> None:
    top = fa.tank("f12", "N")
    assert fa.zone(fa.scenario(units=[top]), top) == set()
    # f7 facing N: only f=6 (f13) is off the board -> 23.
    t = fa.tank("f7", "N")
    assert len(fa.zone(fa.scenario(units=[t]), t)) == 23


@pytest.mark.parametrize("side", list(Side))
def test_tank_on_a_berm_gets_the_seventh_cell_and_ignores_blockers(fa: Any, side: Side) -> None:
    f = lambda n: fa.flip(n, side)  # noqa: E731
    berm = fa.terrain("berm-small", f"{f('f1')} {f('g1')}", side)
    t = fa.tank(f("f1"), fa.flip_facing("N", side), side=side)
    blocker = fa.tank(f("f2"), fa.flip_facing("N", side), "1", side)
    expected = flipped(fa, TANK_F1 | {"f8"}, side)
    assert fa.zone(fa.scenario([berm], [t]), t) == expected
    assert fa.zone(fa.scenario([berm], [t, blocker]), t) == expected


def test_elevated_extra_cell_off_board_is_dropped(fa: Any) -> None:
    # f6 facing N on a berm: f=6 is f12 (on board), the extra f=7 would be f13.
    berm = fa.terrain("berm-small", "f6 g6")
    t = fa.tank("f6", "N")
    assert len(fa.zone(fa.scenario([berm], [t]), t)) == 24


def test_at_cone_is_12_cells_and_on_a_berm_elevated_but_never_longer(fa: Any) -> None:
    at = fa.unit("at", "f1", "N")
    assert fa.zone(fa.scenario(units=[at], extra_forces=True), at) == AT_F1
    # rules §1.6: on a berm the AT is elevated like a tank (at_berm_elevated, default true):
    # a tank on f2 hides nothing, the zone is the whole 12-cell cone and no extra cell.
    berm = fa.terrain("berm-small", "f1 g1")
    blocker = fa.tank("f2", "N", "1")
    sc = fa.scenario([berm], [at, blocker], extra_forces=True)
    assert fa.zone(sc, at) == AT_F1
    # at_berm_elevated=false: its line of fire counts: the tank on f2 hides (s, f) with
    # |s| < f, f >= 2: e3 f3 g3 e4 f4 g4 f5; left: e2 f2 g2 d3 h3.
    sc = fa.scenario([berm], [at, blocker], extra_forces=True, at_berm_elevated=False)
    assert fa.zone(sc, at) == {"e2", "f2", "g2", "d3", "h3"}


@pytest.mark.parametrize("side", list(Side))
def test_blocker_on_f2(fa: Any, side: Side) -> None:
    f = lambda n: fa.flip(n, side)  # noqa: E731
    t = fa.tank(f("f1"), fa.flip_facing("N", side), side=side)
    b = fa.tank(f("f2"), fa.flip_facing("N", side), "1", side)
    assert fa.zone(fa.scenario(units=[t, b]), t) == flipped(fa, BEHIND_F2, side)
    # strict: e2/g2 touch f2's corner, so are d3/h3/c4/i4: only f2 itself remains.
    assert fa.zone(fa.scenario(units=[t, b], strict_line_of_fire=True), t) == {f("f2")}


def test_off_axis_blocker_corner_lines(fa: Any) -> None:
    # Blocker on g3 = (s 1, f 2), square x in (0.5, 1.5), y in (1.5, 2.5). Line to (s, f) is
    # x = s*y/f. g4 (1,3): x in (0.5, 0.83) -> hidden; h4 (2,3): x in (1, 1.67) -> hidden;
    # g5 (1,4): x in (0.375, 0.625) -> hidden; h5 (2,4): x in (0.75, 1.25) -> hidden.
    # h3 (2,2) and i4 (3,3) pass the corner (1.5, 1.5); g6 (1,5) the corner (0.5, 2.5):
    # visible, but hidden when strict. 24 - 4 = 20; strict 24 - 7 = 17.
    t = fa.tank("f1", "N")
    b = fa.unit("rm", "g3", "N", side=Side.NORTH)
    sc = fa.scenario(units=[t, b], extra_forces=True)
    assert fa.zone(sc, t) == TANK_F1 - {"g4", "h4", "g5", "h5"}
    strict = sc.with_options(strict_line_of_fire=True)
    assert fa.zone(strict, t) == TANK_F1 - {"g4", "h4", "g5", "h5", "h3", "i4", "g6"}


@pytest.mark.parametrize(
    ("what", "blocks"),
    [
        ("own tank", True),
        ("enemy tank", True),
        ("own R/M", True),
        ("wreck", True),
        ("wreck, wrecks off", False),
        ("berm", True),
        ("own AT", False),
        ("enemy AT", False),
        ("swamp", False),
        ("minefield", False),
    ],
)
def test_what_blocks_a_line_of_fire(fa: Any, what: str, blocks: bool) -> None:
    shooter = fa.tank("f1", "N")
    units, terrain, options = [shooter], [], {"extra_forces": True}
    if what == "own tank":
        units.append(fa.tank("f2", "N", "1"))
    elif what == "enemy tank":
        units.append(fa.tank("f2", "S", "1", Side.NORTH))
    elif what == "own R/M":
        units.append(fa.unit("rm", "f2"))
    elif what.startswith("wreck"):
        units.append(fa.tank("f2", "N", "1", wreck=True))
        options["wrecks"] = what == "wreck"
    elif what == "berm":  # f3's shadow (|s| < f/3) lies inside f2's
        terrain.append(fa.terrain("berm-small", "f2 f3"))
    elif what == "own AT":
        units.append(fa.unit("at", "f2"))
    elif what == "enemy AT":
        units.append(fa.unit("at", "f2", "S", side=Side.NORTH))
    elif what == "swamp":
        terrain.append(fa.terrain("swamp", "f2 g2 f3 g3"))
    elif what == "minefield":
        terrain.append(fa.terrain("minefield", "e2 f2 g2", lane="f2", arrow="N"))
    zone = fa.zone(fa.scenario(terrain, units, **options), shooter)
    assert zone == (BEHIND_F2 if blocks else TANK_F1)


def test_units_sharing_the_shooters_cell_do_not_block(fa: Any) -> None:
    tank = fa.tank("f1", "N")
    at = fa.unit("at", "f1", "N")
    sc = fa.scenario(units=[tank, at], extra_forces=True)
    assert fa.zone(sc, tank) == TANK_F1
    assert fa.zone(sc, at) == AT_F1


def test_rm_and_wrecks_have_no_fire_zone(fa: Any) -> None:
    rm = fa.unit("rm", "f1")
    wreck = fa.tank("c1", "N", "1", wreck=True)
    sc = fa.scenario(units=[rm, wreck], extra_forces=True)
    assert fa.zone(sc, rm) == set()
    assert fa.zone(sc, wreck) == set()


def test_unit_without_facing_faces_forward(fa: Any) -> None:
    t = fa.unit("tank", "f1", None, "C")
    assert fa.zone(fa.scenario(units=[t]), t) == TANK_F1


def test_cone_option_is_data(fa: Any) -> None:
    # House rule: tanks use the AT's diamond-2 cone.
    t = fa.tank("f1", "N")
    assert fa.zone(fa.scenario(units=[t], tank_cone="diamond-2"), t) == AT_F1
