"""Tank Wars round phases 4-6 (docs/rules.md §3): movement, gunfire, supply drop — hand-made rounds.

Each test states the situation, the rule it exercises and the hand-derived result.
``ScriptedDice`` returns chosen rolls; ``roll(field, side)`` is the roll that lands on
``field`` of ``side``'s board (letter die = column, number die = own row).
"""

from __future__ import annotations

import pytest
from tw_support import (
    ScriptedDice,
    armour_by_cell,
    cell,
    cmd,
    names,
    planning,
    roll,
    scenario,
    unit,
    whats,
)

from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.engine import (
    NO_ORDERS,
    Event,
    Orders,
    Outcome,
    gunfire_targets,
    outcome,
    resolve_orders,
)

S, N = Side.SOUTH, Side.NORTH
QUIET = {"supply_drops": 0}  # no supply rolls unless a test wants them


# --- movement ------------------------------------------------------------------------------


def test_crater_on_the_path_and_at_the_end() -> None:
    # Heavy c2 (3 AP) straight2 N: crosses c3 and enters c4, both craters -> 2 x -1 AP = 1 AP,
    # both craters removed, ends on c4.
    s = scenario(
        [unit("heavy", "south", "c2"), unit("heavy", "north", "c11")], craters=("c3", "c4"), **QUIET
    )
    st = resolve_orders(planning(s), Orders({0: cmd("straight2 N")}), NO_ORDERS, ScriptedDice([]))  # type: ignore[arg-type]
    assert armour_by_cell(st) == {"c4": 1, "c11": 3}
    assert st.craters == frozenset()
    assert st.round == 1 and not st.in_round


def test_crater_destroys_a_vehicle_on_its_path() -> None:
    # Medium c2 with 1 AP, straight1 N into the crater c3 -> 0 AP: destroyed, crater removed;
    # south loses its last vehicle -> north wins; south's gunfire tokens 3 - 1 = 2.
    s = scenario(
        [unit("medium", "south", "c2", armour=1), unit("heavy", "north", "c11")],
        craters=("c3",),
        **QUIET,
    )
    st = resolve_orders(planning(s), Orders({0: cmd("straight1 N")}), NO_ORDERS, ScriptedDice([]))  # type: ignore[arg-type]
    assert st.vehicles_of(S) == () and st.craters == frozenset()
    assert st.lost_gunfire == (1, 0)
    assert outcome(st) == Outcome(N, "destroyed")


@pytest.mark.parametrize(
    ("kind", "armour", "order", "end"),
    [
        ("medium", 2, "diagonal2 NE", "c2"),  # diagonal 2 is not in the medium's pattern
        ("artillery", 2, "straight2 N", "c2"),  # artillery: straight 1 only
        ("heavy", 1, "straight2 N", "c2"),  # 2-field command with 1 AP left
        ("heavy", 1, "straight1 N", "c3"),  # ... a 1-field command still runs
        ("heavy", 3, "straight2 W", "a2"),  # c2 -> a2: on the board, runs
        ("medium", 2, "diagonal1 NE", "d3"),
    ],
)
def test_commands_outside_the_pattern_are_not_executed(
    kind: str, armour: int, order: str, end: str
) -> None:
    s = scenario([unit(kind, "south", "c2", armour=armour), unit("heavy", "north", "c11")], **QUIET)
    events: list[Event] = []
    st = resolve_orders(planning(s), Orders({0: cmd(order)}), NO_ORDERS, ScriptedDice([]), events)  # type: ignore[arg-type]
    assert names([st.vehicles_of(S)[0].cell]) == [end]
    assert ("not-executed" in whats(events)) == (end == "c2")


def test_a_command_may_not_leave_the_own_board() -> None:
    # Heavy c5 straight2 N would end on c7 (north's board): not executed. Heavy a1 straight1
    # W would leave the grid: not executed.
    s = scenario(
        [
            unit("heavy", "south", "c5"),
            unit("medium", "south", "a1"),
            unit("heavy", "north", "c11"),
        ],
        **QUIET,
    )
    events: list[Event] = []
    st = resolve_orders(
        planning(s),
        Orders({0: cmd("straight2 N"), 1: cmd("straight1 W")}),
        NO_ORDERS,
        ScriptedDice([]),
        events,
    )  # type: ignore[arg-type]
    assert sorted(armour_by_cell(st)) == ["a1", "c11", "c5"]
    assert whats(events) == ["not-executed", "not-executed"]


def test_card_order_decides_who_gets_the_field() -> None:
    # Heavy c1 ordered straight1 N to c2, where the medium stands; the medium moves to c3.
    # Heavy's card first: c2 is still occupied -> cancelled (heavy stays c1), medium -> c3.
    heavy_first = [
        unit("heavy", "south", "c1"),
        unit("medium", "south", "c2"),
        unit("heavy", "north", "c11"),
    ]
    orders = Orders({0: cmd("straight1 N"), 1: cmd("straight1 N")})
    st = resolve_orders(
        planning(scenario(heavy_first, **QUIET)), orders, NO_ORDERS, ScriptedDice([])
    )  # type: ignore[arg-type]
    assert sorted(armour_by_cell(st)) == ["c1", "c11", "c3"]
    # Medium's card first: it leaves c2, then the heavy enters it.
    medium_first = [heavy_first[1], heavy_first[0], heavy_first[2]]
    orders = Orders({0: cmd("straight1 N"), 1: cmd("straight1 N")})
    st = resolve_orders(
        planning(scenario(medium_first, **QUIET)), orders, NO_ORDERS, ScriptedDice([])
    )  # type: ignore[arg-type]
    assert sorted(armour_by_cell(st)) == ["c11", "c2", "c3"]


def test_cancelled_move_takes_no_crater_damage() -> None:
    # Heavy c1 straight2 N to c3 (artillery there): cancelled; the crater on c2 stays.
    s = scenario(
        [
            unit("heavy", "south", "c1"),
            unit("artillery", "south", "c3"),
            unit("heavy", "north", "c11"),
        ],
        craters=("c2",),
        **QUIET,
    )
    events: list[Event] = []
    st = resolve_orders(
        planning(s), Orders({0: cmd("straight2 N")}), NO_ORDERS, ScriptedDice([]), events
    )  # type: ignore[arg-type]
    assert armour_by_cell(st) == {"c1": 3, "c3": 2, "c11": 3}
    assert names(st.craters) == ["c2"] and whats(events) == ["cancelled"]


@pytest.mark.parametrize(("armour", "after"), [(1, 2), (2, 2)])
def test_support_pickup(armour: int, after: int) -> None:
    # Medium (starting AP 2) ends on a support token: +1 AP but never above 2; token gone.
    s = scenario(
        [unit("medium", "south", "c2", armour=armour), unit("heavy", "north", "c11")],
        supports=("d3",),
        **QUIET,
    )
    st = resolve_orders(planning(s), Orders({0: cmd("diagonal1 NE")}), NO_ORDERS, ScriptedDice([]))  # type: ignore[arg-type]
    assert armour_by_cell(st)["d3"] == after and st.supports == frozenset()


def test_north_moves_on_its_own_board() -> None:
    # North heavy c11 straight2 S -> c9 (own row 4); its arrow points at board south.
    s = scenario([unit("heavy", "south", "c2"), unit("heavy", "north", "c11")], **QUIET)
    st = resolve_orders(planning(s), NO_ORDERS, Orders({1: cmd("straight2 S")}), ScriptedDice([]))  # type: ignore[arg-type]
    assert sorted(armour_by_cell(st)) == ["c2", "c9"]


# --- gunfire -------------------------------------------------------------------------------


def test_gunfire_hits_where_the_vehicle_ends() -> None:
    # North's heavy moves c11 -> c10. South put two tokens on c10 and one on c11:
    # 2 x -1 AP on c10 -> 3 - 2 = 1 AP; the token on c11 (left) does nothing.
    s = scenario([unit("heavy", "south", "c2"), unit("heavy", "north", "c11")], **QUIET)
    south = Orders({}, (cell("c10"), cell("c10"), cell("c11")))
    st = resolve_orders(planning(s), south, Orders({1: cmd("straight1 S")}), ScriptedDice([]))  # type: ignore[arg-type]
    assert armour_by_cell(st) == {"c2": 3, "c10": 1}


@pytest.mark.parametrize(("stationary", "after"), [(True, 2), (False, 3)])
def test_gunfire_on_a_vehicle_that_stayed(stationary: bool, after: int) -> None:
    s = scenario(
        [unit("heavy", "south", "c2"), unit("heavy", "north", "c11")],
        gunfire_hits_stationary=stationary,
        **QUIET,
    )
    st = resolve_orders(planning(s), Orders({}, (cell("c11"),)), NO_ORDERS, ScriptedDice([]))  # type: ignore[arg-type]
    assert armour_by_cell(st)["c11"] == after


def test_gunfire_clears_an_own_crater() -> None:
    s = scenario(
        [unit("heavy", "south", "c2"), unit("heavy", "north", "c11")], craters=("e4", "e9"), **QUIET
    )
    assert names(gunfire_targets(planning(s), S))[-1] == "e4"  # 36 enemy fields + own crater
    assert len(gunfire_targets(planning(s), S)) == 37
    events: list[Event] = []
    st = resolve_orders(planning(s), Orders({}, (cell("e4"),)), NO_ORDERS, ScriptedDice([]), events)  # type: ignore[arg-type]
    assert names(st.craters) == ["e9"] and whats(events) == ["crater-cleared"]


def test_gunfire_on_an_own_plain_field_is_illegal() -> None:
    s = scenario([unit("heavy", "south", "c2"), unit("heavy", "north", "c11")], **QUIET)
    with pytest.raises(IllegalMoveError, match="d4"):
        resolve_orders(planning(s), Orders({}, (cell("d4"),)), NO_ORDERS, ScriptedDice([]))  # type: ignore[arg-type]


def test_only_the_available_gunfire_tokens_count() -> None:
    # 3 tokens available; 4 on north's heavy (5 AP by option) -> only 3 count: 5 - 3 = 2.
    s = scenario(
        [unit("heavy", "south", "c2"), unit("heavy", "north", "c11")], heavy_armour=5, **QUIET
    )
    st = resolve_orders(planning(s), Orders({}, (cell("c11"),) * 4), NO_ORDERS, ScriptedDice([]))  # type: ignore[arg-type]
    assert armour_by_cell(st)["c11"] == 2


def test_losing_a_vehicle_loses_its_gunfire_tokens() -> None:
    # North's medium (1 AP) is destroyed by a token: north keeps 3 - 1 = 2 tokens.
    s = scenario(
        [
            unit("heavy", "south", "c2"),
            unit("heavy", "north", "c11"),
            unit("medium", "north", "d11", armour=1),
        ],
        **QUIET,
    )
    st = resolve_orders(planning(s), Orders({}, (cell("d11"),)), NO_ORDERS, ScriptedDice([]))  # type: ignore[arg-type]
    assert st.gunfire_available(N) == 2 and st.gunfire_available(S) == 3


# --- supply drop ---------------------------------------------------------------------------


def test_supply_drop() -> None:
    # One drop per side: south's lands on the empty a4 (support token placed); north's on
    # its damaged heavy c11 (2 -> 3 AP, collected at once).
    s = scenario([unit("heavy", "south", "c2"), unit("heavy", "north", "c11", armour=2)])
    dice = ScriptedDice([roll("a4", S), roll("c11", N)])
    st = resolve_orders(planning(s), NO_ORDERS, NO_ORDERS, dice)  # type: ignore[arg-type]
    assert names(st.supports) == ["a4"] and armour_by_cell(st)["c11"] == 3
    assert dice.calls == [2]


def test_supply_drop_on_a_crater_is_lost() -> None:
    s = scenario([unit("heavy", "south", "c2"), unit("heavy", "north", "c11")], craters=("a4",))
    events: list[Event] = []
    st = resolve_orders(
        planning(s), NO_ORDERS, NO_ORDERS, ScriptedDice([roll("a4", S), roll("a9", N)]), events
    )  # type: ignore[arg-type]
    assert names(st.supports) == ["a9"] and names(st.craters) == ["a4"]
    assert whats(events) == ["supply-lost", "supply"]
