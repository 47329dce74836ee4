"""Final Act setup rules (rules §1.2–1.3, cli-json.md ``check``): one failing case per rule,
for both sides.

Each case starts from the hand-typed legal base setup in ``conftest.FA`` (south: large berm
c3-e3, small berms h2-h3 and j3-k3, swamp b5-c6, minefield f5-h5 lane g5 arrow N, tanks 1B b2
1A c2 1 d3 C f2 2 h3 2A i2 2B k2 facing N; north: its 180° image), changes one thing for the
side under test (written in south coordinates, mirrored for north), and expects exactly the
listed violations (``missing`` reports are checked separately).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from tankmap.rules.geometry import Side
from tankmap.rules.violations import Severity, is_complete, is_legal


@dataclass
class Case:
    """A change to the base setup of one side and the violations it must produce."""

    skip: tuple[str, ...] = ()
    terrain: tuple[tuple[str, str, str | None, str | None], ...] = ()
    units: tuple[tuple[str, str, str, str | None, dict[str, Any]], ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    expect: tuple[tuple[str, str], ...] = ()  # (code, cells) in south coordinates


def build(fa: Any, side: Side, case: Case) -> Any:
    terrain, units = fa.side_pieces(side, case.skip)
    other_t, other_u = fa.side_pieces(side.other)
    f = lambda n: fa.flip(n, side)  # noqa: E731
    for kind, cells, lane, arrow in case.terrain:
        terrain.append(
            fa.terrain(
                kind,
                " ".join(f(c) for c in cells.split()),
                side,
                None if lane is None else f(lane),
                None if arrow is None else fa.flip_facing(arrow, side),
            )
        )
    for kind, cell, facing, name, kw in case.units:
        units.append(fa.unit(kind, f(cell), fa.flip_facing(facing, side), name, side, **kw))
    return fa.scenario(terrain + other_t, units + other_u, **case.options)


CASES: dict[str, Case] = {
    # large berm c2-c4 (along): only c4 is outside rows 1-3 (tank 1A on c2 may stand on it)
    "berm-outside-zone": Case(
        skip=("berm-large c3",),
        terrain=(("berm-large", "c2 c3 c4", None, None),),
        expect=(("berm-outside-zone", "c4"),),
    ),
    "swamp-outside-zone": Case(
        skip=("swamp b5",),
        terrain=(("swamp", "b6 c6 b7 c7", None, None),),
        expect=(("swamp-outside-zone", "b7 c7"),),
    ),
    # vertical minefield g5-g7, lane g6, arrow E (crosses the strip): g7 is outside rows 1-6
    "minefield-outside-zone": Case(
        skip=("minefield f5",),
        terrain=(("minefield", "g5 g6 g7", "g6", "E"),),
        expect=(("minefield-outside-zone", "g7"),),
    ),
    # a bent large berm: all of its cells
    "bad-shape": Case(
        skip=("berm-large c3",),
        terrain=(("berm-large", "c3 d3 d2", None, None),),
        expect=(("bad-shape", "c3 d3 d2"),),
    ),
    "bad-shape-swamp": Case(
        skip=("swamp b5",),
        terrain=(("swamp", "b5 c5 d5 e5", None, None),),
        expect=(("bad-shape", "b5 c5 d5 e5"),),
    ),
    "bad-lane": Case(
        skip=("minefield f5",),
        terrain=(("minefield", "f5 g5 h5", "i5", "N"),),
        expect=(("bad-lane", "f5 g5 h5"),),
    ),
    # the arrow runs along the strip: nobody could use the lane
    "bad-arrow": Case(
        skip=("minefield f5",),
        terrain=(("minefield", "f5 g5 h5", "g5", "E"),),
        expect=(("bad-arrow", "f5 g5 h5"),),
    ),
    "bad-arrow-diagonal": Case(
        skip=("minefield f5",),
        terrain=(("minefield", "f5 g5 h5", "g5", "NE"),),
        expect=(("bad-arrow", "f5 g5 h5"),),
    ),
    # a third small berm: the cells of all three
    "too-many-terrain": Case(
        terrain=(("berm-small", "a1 b1", None, None),),
        expect=(("too-many", "h2 h3 j3 k3 a1 b1"),),
    ),
    # small berm e2-e3 overlaps the large berm c3-e3 on e3
    "overlap": Case(
        skip=("berm-small h2",),
        terrain=(("berm-small", "e2 e3", None, None),),
        expect=(("overlap", "e3"),),
    ),
    # swamp moved onto a1-b2: tank 1B on b2 stands in it
    "unit-on-swamp": Case(
        skip=("swamp b5",),
        terrain=(("swamp", "a1 b1 a2 b2", None, None),),
        expect=(("unit-on-swamp", "b2"),),
    ),
    # minefield b2-d2 (lane c2 arrow N): tanks 1B b2 and 1A c2 stand on it (lane included)
    "unit-on-minefield": Case(
        skip=("minefield f5",),
        terrain=(("minefield", "b2 c2 d2", "c2", "N"),),
        expect=(("unit-on-minefield", "b2"), ("unit-on-minefield", "c2")),
    ),
    "unit-outside-zone": Case(
        skip=("C",),
        units=(("tank", "f4", "N", "C", {}),),
        expect=(("unit-outside-zone", "f4"),),
    ),
    "diagonal-facing": Case(
        skip=("C",),
        units=(("tank", "f2", "NE", "C", {}),),
        expect=(("diagonal-facing", "f2"),),
    ),
    # two tanks named 2A (i2 and k2); no 2B, but the count is full: no "missing"
    "duplicate-name": Case(
        skip=("2B",),
        units=(("tank", "k2", "N", "2A", {}),),
        expect=(("duplicate-name", "i2 k2"),),
    ),
    "bad-name": Case(
        skip=("2B",),
        units=(("tank", "k2", "N", "X", {}),),
        expect=(("bad-name", "k2"),),
    ),
    # an eighth tank (a second C on a1): too many tanks (all 8 cells) and C twice
    "too-many-tanks": Case(
        units=(("tank", "a1", "N", "C", {}),),
        expect=(("too-many", "b2 c2 d3 f2 h3 i2 k2 a1"), ("duplicate-name", "f2 a1")),
    ),
    "wreck-at-setup": Case(
        skip=("2B",),
        units=(("tank", "k2", "N", "2B", {"wreck": True}),),
        expect=(("wreck-at-setup", "k2"),),
    ),
    "bad-damage": Case(
        skip=("2B",),
        units=(("tank", "k2", "N", "2B", {"damage": 2}),),
        expect=(("bad-damage", "k2"),),
    ),
    # two tanks on one cell: 1B moved onto 1A's c2
    "cell-shared": Case(
        skip=("1B",),
        units=(("tank", "c2", "N", "1B", {}),),
        expect=(("cell-shared", "c2"),),
    ),
    "extra-forces-off": Case(
        units=(("at", "a1", "N", None, {}),),
        expect=(("extra-forces-off", "a1"),),
    ),
    "extra-forces-off-rm": Case(
        units=(("rm", "a1", "N", None, {}),),
        expect=(("extra-forces-off", "a1"),),
    ),
    # Extra Forces sharing (docs/rules.md §1.3), all on row 1 except the tank cells
    "shared-tank-and-two-ats": Case(
        units=(
            ("at", "f2", "N", None, {}),
            ("at", "f2", "N", None, {}),
            ("rm", "a1", "N", None, {}),
        ),
        options={"extra_forces": True},
        expect=(("cell-shared", "f2"),),
    ),
    "shared-rm-and-tank": Case(
        units=(
            ("at", "a1", "N", None, {}),
            ("at", "b1", "N", None, {}),
            ("rm", "f2", "N", None, {}),
        ),
        options={"extra_forces": True},
        expect=(("cell-shared", "f2"),),
    ),
    "shared-rm-and-two-ats": Case(
        units=(
            ("at", "a1", "N", None, {}),
            ("at", "a1", "N", None, {}),
            ("rm", "a1", "N", None, {}),
        ),
        options={"extra_forces": True},
        expect=(("cell-shared", "a1"),),
    ),
    "too-many-ats": Case(
        units=(
            ("at", "a1", "N", None, {}),
            ("at", "b1", "N", None, {}),
            ("at", "d1", "N", None, {}),
            ("rm", "e1", "N", None, {}),
        ),
        options={"extra_forces": True},
        expect=(("too-many", "a1 b1 d1"),),
    ),
    # allowed: AT with own tank, two ATs together, R/M with one AT
    "sharing-allowed": Case(
        units=(
            ("at", "f2", "N", None, {}),
            ("at", "a1", "N", None, {}),
            ("rm", "a1", "N", None, {}),
        ),
        options={"extra_forces": True},
        expect=(),
    ),
    "two-ats-together": Case(
        units=(
            ("at", "a1", "N", None, {}),
            ("at", "a1", "N", None, {}),
            ("rm", "b1", "N", None, {}),
        ),
        options={"extra_forces": True},
        expect=(),
    ),
    # a unit may stand on a berm (1 on d3 already does); facing E/W/S is legal at setup
    "facing-back-is-legal": Case(
        skip=("C",),
        units=(("tank", "f2", "S", "C", {}),),
        expect=(),
    ),
}


@pytest.mark.parametrize("side", list(Side))
@pytest.mark.parametrize("name", list(CASES))
def test_setup_rule(fa: Any, side: Side, name: str) -> None:
    case = CASES[name]
    sc = build(fa, side, case)
    got = sorted((code, cells) for code, _, cells, _ in fa.report(sc))
    want = sorted((code, {fa.flip(c, side) for c in cells.split()}) for code, cells in case.expect)
    assert got == want, fa.rs.check(sc)
    for code, severity, _, vside in fa.report(sc):
        assert severity == "error"
        assert vside == side.value, code
    if case.expect:
        assert not is_legal(fa.rs.check(sc))
    else:
        violations = fa.rs.check(sc)
        assert is_legal(violations)
        assert not [v for v in violations if v.side is side]  # complete for this side


def test_base_setup_is_legal_and_complete(fa: Any) -> None:
    assert fa.rs.check(fa.base()) == []


@pytest.mark.parametrize("side", list(Side))
def test_missing_pieces_are_incomplete_without_cells(fa: Any, side: Side) -> None:
    terrain, units = fa.side_pieces(side, ("swamp b5", "berm-small j3", "1A", "2B"))
    other_t, other_u = fa.side_pieces(side.other)
    violations = fa.rs.check(fa.scenario(terrain + other_t, units + other_u))
    assert is_legal(violations) and not is_complete(violations)
    assert all(v.severity is Severity.INCOMPLETE for v in violations)
    assert all(v.code == "missing" and v.cells == () and v.side is side for v in violations)
    # one report per kind: small berm, swamp, tanks (naming 1A and 2B)
    assert len(violations) == 3
    tanks = next(v for v in violations if "tank" in v.message)
    assert "1A" in tanks.message and "2B" in tanks.message


def test_missing_tanks_count_unnamed_tanks(fa: Any) -> None:
    # Two unnamed south tanks are placed: 7 - 2 = 5 tanks are still to place, and since
    # neither placed tank uses a name, all seven names are still free (docs/rules.md §1.2 names
    # C 1 1A 1B 2 2A 2B). The message must not claim "5 tanks C 1 1A ..." (seven names).
    units = [replace(fa.tank("a1"), name=None), replace(fa.tank("b1"), name=None)]
    violations = fa.rs.check(fa.scenario([], units))
    south = next(
        v
        for v in violations
        if v.code == "missing" and "tank" in v.message and v.side is Side.SOUTH
    )
    assert south.message.startswith("south still has 5 tanks to place")
    assert "names not used yet" in south.message


def test_extra_forces_units_missing(fa: Any) -> None:
    violations = fa.rs.check(fa.base(extra_forces=True))
    assert is_legal(violations)
    assert sorted((v.side.value, v.code) for v in violations) == [
        ("north", "missing"),
        ("north", "missing"),
        ("south", "missing"),
        ("south", "missing"),
    ]


def test_empty_scenario_is_legal_but_incomplete(fa: Any) -> None:
    violations = fa.rs.check(fa.scenario())
    assert is_legal(violations) and not is_complete(violations)


def test_enemy_units_never_share(fa: Any) -> None:
    tank = fa.tank("f2", "N")
    enemy_at = fa.unit("at", "f2", "S", side=Side.NORTH)
    codes = [
        (v.code, fa.names(v.cells))
        for v in fa.rs.check(fa.scenario(units=[tank, enemy_at], extra_forces=True))
    ]
    assert ("cell-shared", {"f2"}) in codes


def test_terrain_without_side(fa: Any) -> None:
    piece = fa.terrain("swamp", "a5 b5 a6 b6", side=None)
    codes = [(v.code, fa.names(v.cells)) for v in fa.rs.check(fa.scenario([piece]))]
    assert ("missing-side", {"a5", "b5", "a6", "b6"}) in codes


def test_messages_name_the_piece_and_the_cells(fa: Any) -> None:
    terrain, units = fa.side_pieces(Side.SOUTH, ("berm-large c3",))
    terrain.append(fa.terrain("berm-large", "c4 d4 e4"))
    v = next(v for v in fa.rs.check(fa.scenario(terrain, units)) if v.code != "missing")
    assert v.code == "berm-outside-zone"
    assert v.message == "large berm c4-e4: berms must stay in south's rows 1–3"
    assert v.to_json(fa.board)["cells"] == ["c4", "d4", "e4"]


# docs/rules.md §1.2: berms and tanks in own rows 1–3, swamps and minefields in own rows 1–6;
# §0: north's own row k is row 13 - k on the 12-row board, so its rows 1–3 are rows 10–12.
# A refusal names the rows as the board labels them, the side's own count in brackets.
@pytest.mark.parametrize(
    ("piece", "code", "message"),
    [
        (("berm-large", "c9 d9 e9"), "berm-outside-zone",
         "large berm c9-e9: berms must stay in rows 10–12 (north's rows 1–3)"),
        (("berm-small", "h9 i9"), "berm-outside-zone",
         "small berm h9-i9: berms must stay in rows 10–12 (north's rows 1–3)"),
        (("swamp", "b5 c5 b6 c6"), "swamp-outside-zone",
         "swamp b5-c6: swamps must stay in rows 7–12 (north's rows 1–6)"),
        (("tank", "f9"), "unit-outside-zone",
         "north tank C at f9: units set up in rows 10–12 (north's rows 1–3)"),
    ],
)  # fmt: skip
def test_north_refusals_name_the_rows_the_board_labels(
    fa: Any, piece: tuple[str, str], code: str, message: str
) -> None:
    kind, cells = piece
    if kind == "tank":
        scenario = fa.scenario(units=[fa.tank(cells, "S", "C", Side.NORTH)])
    else:
        scenario = fa.scenario([fa.terrain(kind, cells, Side.NORTH)])
    (v,) = [v for v in fa.rs.check(scenario) if v.code == code]
    assert v.message == message and v.side is Side.NORTH


@pytest.mark.parametrize(
    ("option", "value", "cells", "ok"),
    [
        ("large_berm_orientation", "across", "c3 d3 e3", True),
        ("large_berm_orientation", "along", "c3 d3 e3", False),
        ("large_berm_orientation", "along", "c1 c2 c3", True),
        ("swamp_shape", "1x4", "b5 c5 d5 e5", True),
        ("swamp_shape", "1x4", "b5 c5 b6 c6", False),
    ],
)
def test_footprint_options(fa: Any, option: str, value: str, cells: str, ok: bool) -> None:
    kind = "swamp" if option == "swamp_shape" else "berm-large"
    piece = fa.terrain(kind, cells)
    codes = [v.code for v in fa.rs.check(fa.scenario([piece], **{option: value}))]
    assert ("bad-shape" not in codes) is ok


def test_can_place_answers_from_the_same_rules(fa: Any) -> None:
    rs = fa.rs
    terrain, units = fa.side_pieces(Side.SOUTH, ("2B",))
    sc = fa.scenario(terrain, units)
    assert rs.can_place(sc, fa.tank("k2", "N", "2B")).ok
    on_mines = rs.can_place(sc, fa.tank("h5", "N", "2B"))
    assert not on_mines.ok
    assert {v.code for v in on_mines.reasons} == {"unit-on-minefield", "unit-outside-zone"}
    assert "tank 2B" in on_mines.message
    twice = rs.can_place(sc, fa.tank("l1", "N", "C"))
    assert not twice.ok and [v.code for v in twice.reasons] == ["duplicate-name"]
    high = rs.can_place(sc, fa.terrain("berm-small", "a4 a5"))
    assert {v.code for v in high.reasons} == {"berm-outside-zone", "too-many"}
