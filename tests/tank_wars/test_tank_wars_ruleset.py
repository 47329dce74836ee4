"""Tank Wars ruleset (docs/rules.md §3): data, options, setup checks, moves, fire zone.

Every expected answer is derived by hand from docs/rules.md §3 in the comment next to it.
"""

from __future__ import annotations

from typing import Any

import pytest
from tw_support import BOARD, TW, cell, names, scenario, unit

from tankmap.rules.errors import OptionError
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Terrain
from tankmap.rules.tank_wars.data import CommandKind, TankWarsRules
from tankmap.rules.violations import Severity, is_complete, is_legal

# A complete legal setup (3 vehicles per side on own rows 1-2) used as a base.
FULL = [
    unit("heavy", "south", "b2"),
    unit("medium", "south", "e2"),
    unit("artillery", "south", "c1"),
    unit("heavy", "north", "e11"),
    unit("medium", "north", "b11"),
    unit("artillery", "north", "d12"),
]


def codes(s: Any) -> list[tuple[str, str, list[str]]]:
    return [(v.code, v.severity.value, names(v.cells)) for v in TW.check(s)]


# --- identity and data ---------------------------------------------------------------------


def test_registered_as_provisional() -> None:
    assert TW.name == "tank-wars"
    assert TW.provisional is True
    assert TW.title == "Tank Wars (COBI-22104) — provisional"
    assert TW.terrain_kinds == ("crater", "support")
    assert TW.unit_kinds == ("heavy", "medium", "artillery")
    assert TW.default_board == (6, 12)


@pytest.mark.parametrize(("columns", "rows", "ok"), [(6, 12, True), (12, 12, False), (6, 6, False)])
def test_only_the_6x12_board(columns: int, rows: int, ok: bool) -> None:
    # docs/rules.md §3: two 6 x 6 boards held as one 6 x 12 grid.
    assert (TW.board_problem(columns, rows) is None) is ok


def test_defaults_are_the_rules_numbers() -> None:
    # docs/rules.md §3: heavy 3 AP straight 1 or 2; medium 2 AP straight or diagonal 1; artillery
    # 2 AP straight 1 with 4 shells; 1 gunfire symbol per vehicle; 3 gunfire tokens per side;
    # one long-range shot; one supply drop per side per round; setup on own rows 1-2.
    r = TankWarsRules.defaults()
    heavy, medium, art = r.kind("heavy"), r.kind("medium"), r.kind("artillery")
    assert (heavy.armour, medium.armour, art.armour) == (3, 2, 2)
    assert heavy.moves == {CommandKind.STRAIGHT1, CommandKind.STRAIGHT2}
    assert medium.moves == {CommandKind.STRAIGHT1, CommandKind.DIAGONAL1}
    assert art.moves == {CommandKind.STRAIGHT1}
    assert (heavy.shells, medium.shells, art.shells) == (0, 0, 4)
    assert (heavy.gunfire, medium.gunfire, art.gunfire) == (1, 1, 1)
    assert (heavy.count, medium.count, art.count) == (1, 1, 1)
    assert (r.gunfire_tokens, r.long_range_shots, r.supply_drops, r.setup_rows) == (3, 1, 1, 2)


def test_every_number_is_an_option() -> None:
    names_ = {s.name for s in TW.option_specs}
    for kind in ("heavy", "medium", "artillery"):
        for what in ("count", "armour", "moves", "shells", "gunfire"):
            assert f"{kind}_{what}" in names_
    for name in ("gunfire_tokens", "long_range_shots", "supply_drops", "max_rounds"):
        assert name in names_


def test_options_change_the_rules() -> None:
    s = scenario([], heavy_armour=4, medium_moves="straight1,diagonal1,diagonal2")
    r = TW.rules(s)
    assert r.kind("heavy").armour == 4
    assert CommandKind.DIAGONAL2 in r.kind("medium").moves


@pytest.mark.parametrize(
    ("name", "value"),
    [("heavy_moves", "straight3"), ("heavy_armour", 0), ("setup_rows", 7), ("heavy_count", "1")],
)
def test_bad_option_values_are_refused(name: str, value: Any) -> None:
    with pytest.raises(OptionError):
        TW.option_spec(name).validate(value)


def test_unit_stats() -> None:
    assert TW.unit_stats("heavy")["armour"] == 3
    assert TW.unit_stats("artillery")["shells"] == 4


# --- setup checks --------------------------------------------------------------------------


def test_full_setup_is_legal_and_complete() -> None:
    v = TW.check(scenario(FULL))
    assert v == []


def test_missing_vehicles_are_incomplete_without_cells() -> None:
    # North has no artillery vehicle: 1 expected -> incomplete, no cells (docs/cli-json.md).
    v = TW.check(scenario(FULL[:5]))
    assert [(x.code, x.severity, x.cells, x.side) for x in v] == [
        ("missing", Severity.INCOMPLETE, (), Side.NORTH)
    ]
    assert is_legal(v) and not is_complete(v)


def test_too_many_lists_all_cells_of_that_kind() -> None:
    # A second south heavy on a2: 2 > 1 -> error naming both heavies' cells.
    v = codes(scenario([*FULL, unit("heavy", "south", "a2")]))
    assert v == [("too-many", "error", ["b2", "a2"])]


@pytest.mark.parametrize(
    ("side", "where", "ok"),
    [
        ("south", "a1", True),
        ("south", "f2", True),
        ("south", "c3", False),  # own row 3
        ("south", "f6", False),  # own row 6
        ("north", "a12", True),  # own row 1 = row 13 - 1
        ("north", "f11", True),  # own row 2
        ("north", "c10", False),  # own row 3 = row 13 - 10
    ],
)
def test_setup_rows(side: str, where: str, ok: bool) -> None:
    s = scenario([unit("heavy", side, where)])
    found = [c for c in codes(s) if c[0] == "outside-setup-rows"]
    assert found == ([] if ok else [("outside-setup-rows", "error", [where])])


def test_setup_rows_option() -> None:
    # setup_rows = 3 makes own row 3 (south c3) legal; row 4 still not.
    assert not [
        c
        for c in codes(scenario([unit("heavy", "south", "c3")], setup_rows=3))
        if c[0] == "outside-setup-rows"
    ]
    assert ("outside-setup-rows", "error", ["c4"]) in codes(
        scenario([unit("heavy", "south", "c4")], setup_rows=3)
    )


@pytest.mark.parametrize(("side", "where"), [("south", "c7"), ("north", "c6"), ("south", "a12")])
def test_vehicle_on_the_other_board(side: str, where: str) -> None:
    # South's board is rows 1-6, north's rows 7-12: nothing moves between them.
    assert ("wrong-board", "error", [where]) in codes(scenario([unit("heavy", side, where)]))


def test_one_vehicle_per_field() -> None:
    s = scenario([unit("heavy", "south", "c1"), unit("medium", "south", "c1")])
    assert ("cell-shared", "error", ["c1"]) in codes(s)


@pytest.mark.parametrize(
    ("kind", "armour", "options", "ok"),
    [
        ("heavy", 3, {}, True),
        ("heavy", 1, {}, True),
        ("heavy", 4, {}, False),  # above the heavy's 3 AP
        ("heavy", 0, {}, False),  # a vehicle at 0 AP is destroyed
        ("medium", 3, {}, False),  # medium has 2 AP
        ("heavy", 4, {"heavy_armour": 4}, True),
    ],
)
def test_armour_range(kind: str, armour: int, options: dict[str, Any], ok: bool) -> None:
    s = scenario([unit(kind, "south", "c1", armour=armour)], **options)
    found = [c for c in codes(s) if c[0] == "armour-out-of-range"]
    assert found == ([] if ok else [("armour-out-of-range", "error", ["c1"])])


def test_wrecks_and_facings() -> None:
    s = scenario(
        [unit("heavy", "south", "c1", wreck=True), unit("medium", "south", "d1", facing=Facing.N)]
    )
    got = codes(s)
    assert ("wreck-at-setup", "error", ["c1"]) in got
    assert ("facing-ignored", "warning", ["d1"]) in got
    assert all(c[1] != "error" or c[0] == "wreck-at-setup" for c in got)


def test_tokens() -> None:
    s = scenario(
        [unit("heavy", "south", "c1"), unit("medium", "south", "d1")],
        craters=("c1", "a4", "e9"),
        supports=("d1", "a4"),
    )
    got = codes(s)
    assert ("unit-on-crater", "error", ["c1"]) in got
    assert ("unit-on-support", "error", ["d1"]) in got
    assert ("overlap", "error", ["a4"]) in got
    # e9 is a crater on north's board with no vehicle: fine.
    assert not [c for c in got if "e9" in c[2]]


def test_token_marked_for_the_other_board() -> None:
    s = scenario([]).adding(Terrain("crater", (cell("c3"), cell("c9")), side=Side.NORTH))
    assert ("wrong-board", "error", ["c3"]) in codes(s)


def test_can_place() -> None:
    s = scenario(FULL[:2])
    assert TW.can_place(s, unit("artillery", "south", "c2")).ok
    refused = TW.can_place(s, unit("artillery", "south", "c3"))
    assert not refused.ok and [r.code for r in refused.reasons] == ["outside-setup-rows"]
    assert "south's rows 1–2" in refused.message
    north = TW.can_place(s, unit("artillery", "north", "c10"))
    # north's own rows 1–2 are the board's rows 12 and 11 (its board is rows 7–12)
    assert "set up on rows 11–12 (north's rows 1–2)" in north.message
    assert [r.code for r in TW.can_place(s, unit("heavy", "south", "a1")).reasons] == ["too-many"]
    assert [r.code for r in TW.can_place(s, unit("artillery", "south", "b2")).reasons] == [
        "cell-shared"
    ]


def test_setup_and_goal_cells() -> None:
    s = scenario(FULL)
    assert sorted(names(TW.setup_cells(s, Side.SOUTH))) == sorted(
        f"{c}{r}" for c in "abcdef" for r in (1, 2)
    )
    assert sorted(names(TW.setup_cells(s, Side.NORTH))) == sorted(
        f"{c}{r}" for c in "abcdef" for r in (11, 12)
    )
    assert TW.goal_cells(s, FULL[0]) is None


# --- moves and fire zone -------------------------------------------------------------------


def move_names(units: list[Any], index: int = 0, **options: Any) -> list[str]:
    s = scenario(units, **options)
    moves = TW.moves(s, units[index])
    assert all(m.facing is None for m in moves)
    return sorted(BOARD.cell_name(m.to) for m in moves if m.to is not None)


@pytest.mark.parametrize(
    ("kind", "side", "where", "armour", "expected"),
    [
        # heavy a1: straight1 -> a2, b1 (a0 and the left of a1 are off the board);
        # straight2 -> a3, c1.
        ("heavy", "south", "a1", None, "a2 a3 b1 c1"),
        # heavy c3: straight1 c4 d3 c2 b3; straight2 c5 e3 c1 a3.
        ("heavy", "south", "c3", None, "a3 b3 c1 c2 c4 c5 d3 e3"),
        # heavy c5: straight2 N would end on c7 = north's board -> not a move.
        ("heavy", "south", "c5", None, "a5 b5 c3 c4 c6 d5 e5"),
        # heavy with 1 AP left: no 2-field command.
        ("heavy", "south", "c3", 1, "b3 c2 c4 d3"),
        # medium c3: straight and diagonal 1 = the 8 neighbours.
        ("medium", "south", "c3", None, "b2 b3 b4 c2 c4 d2 d3 d4"),
        ("medium", "south", "a1", None, "a2 b1 b2"),
        ("artillery", "south", "c1", None, "b1 c2 d1"),
        # north heavy c10 (own row 3): S2 c8, S1 c9, N1 c11, N2 c12, W b10 a10, E d10 e10.
        ("north-heavy", "north", "c10", None, "a10 b10 c11 c12 c8 c9 d10 e10"),
        # north heavy c7 (own row 6): S1/S2 would enter south's board.
        ("north-heavy", "north", "c7", None, "a7 b7 c8 c9 d7 e7"),
    ],
)
def test_moves(kind: str, side: str, where: str, armour: int | None, expected: str) -> None:
    u = unit(kind.replace("north-", ""), side, where, armour=armour)
    assert move_names([u]) == sorted(expected.split())


def test_moves_never_end_on_an_occupied_field() -> None:
    # heavy c3 with its own medium on c4 and artillery on e3: c4 and e3 drop out; c5 (over
    # the medium) stays, since only the end field matters.
    units = [
        unit("heavy", "south", "c3"),
        unit("medium", "south", "c4"),
        unit("artillery", "south", "e3"),
    ]
    assert move_names(units) == sorted("a3 b3 c1 c2 c5 d3".split())


def test_pattern_option_changes_moves() -> None:
    # artillery allowed diagonal 2 as well: c1 -> a3, e3 added (diagonal 2 down is off board).
    u = [unit("artillery", "south", "c1")]
    assert move_names(u, artillery_moves="straight1,diagonal2") == sorted("b1 c2 d1 a3 e3".split())
    assert move_names(u, artillery_moves="") == []


@pytest.mark.parametrize(("side", "rows"), [("south", range(7, 13)), ("north", range(1, 7))])
def test_fire_zone_is_the_whole_enemy_board(side: str, rows: range) -> None:
    u = unit("medium", side, "c1" if side == "south" else "c12")
    zone = TW.fire_zone(scenario([u]), u)
    assert len(zone) == 36
    assert sorted(names(zone)) == sorted(f"{c}{r}" for c in "abcdef" for r in rows)


def test_unknown_kinds_built_in_code_are_reported_not_crashed() -> None:
    # The file reader refuses unknown kinds; a scenario built in code gets a violation.
    s = scenario([unit("tank", "south", "c1")]).adding(Terrain("swamp", (cell("c5"),)))
    assert ("unknown-kind", "error", ["c1"]) in codes(s)
    assert TW.moves(s, s.units[0]) == []
