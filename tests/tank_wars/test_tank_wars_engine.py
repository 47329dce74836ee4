"""The Tank Wars round engine (docs/rules.md §3) with hand-made rounds and scripted dice.

Each test states the situation, the rule it exercises and the hand-derived result.
``ScriptedDice`` returns chosen rolls; ``roll(field, side)`` is the roll that lands on
``field`` of ``side``'s board (letter die = column, number die = own row).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from tw_support import (
    BOARD,
    TW,
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

from tankmap.rules.errors import IllegalMoveError, TankmapError
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.tank_wars.data import CommandKind
from tankmap.rules.tank_wars.engine import (
    NO_ORDERS,
    Command,
    Event,
    Orders,
    Outcome,
    artillery_phase,
    command_end,
    command_options,
    draw_choices,
    draw_rolls,
    gunfire_targets,
    hit_probability,
    hit_probability_exact,
    initial_state,
    outcome,
    play_game,
    play_round,
    random_orders,
    resolve_orders,
    roll_to_cell,
    to_scenario,
)

S, N = Side.SOUTH, Side.NORTH
QUIET = {"supply_drops": 0}  # no supply rolls unless a test wants them


# --- probability and dice -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "exact"),
    [
        (0, Fraction(0)),
        (1, Fraction(1, 36)),  # one shot: 1 field in 36
        (2, Fraction(71, 1296)),  # 1 - 35^2/36^2 = (1296 - 1225) / 1296
        (4, Fraction(178991, 1679616)),  # 1 - 35^4/36^4 = (1679616 - 1500625) / 1679616
    ],
)
def test_hit_probability(k: int, exact: Fraction) -> None:
    assert hit_probability_exact(k) == exact
    assert hit_probability(k) == pytest.approx(float(exact))


def test_hit_probability_k4_value() -> None:
    assert hit_probability(4) == pytest.approx(0.1066, abs=5e-5)
    with pytest.raises(ValueError):
        hit_probability(-1)


@pytest.mark.parametrize(
    ("r", "south", "north"),
    [
        (0, "a1", "a12"),  # letter A, number 1: own row 1 (north's row 1 is board row 12)
        (35, "f6", "f7"),  # letter F, number 6
        (22, "e4", "e9"),  # rules.md/seed example "E4": E = 5th letter (4), row 4: 6*3 + 4 = 22
    ],
)
def test_roll_to_cell(r: int, south: str, north: str) -> None:
    assert BOARD.cell_name(roll_to_cell(BOARD, S, r)) == south
    assert BOARD.cell_name(roll_to_cell(BOARD, N, r)) == north


def test_artillery_hits_a_field_with_probability_one_minus_35_over_36_to_the_k() -> None:
    # South's artillery fires 4 shells at an empty north board (north's only vehicle sits
    # on f12). The chance that c9 gets a crater is 1 - (35/36)^4 = 0.10657; over 4000 seeded
    # phases the frequency must lie within 4 standard errors (sqrt(p(1-p)/4000) = 0.0049).
    s = scenario([unit("artillery", "south", "a1"), unit("heavy", "north", "f12")], **QUIET)
    start = initial_state(s)
    rng = np.random.default_rng(2024)
    trials = 4000
    hits = sum(cell("c9") in artillery_phase(start, rng).craters for _ in range(trials))
    p = 178991 / 1679616
    assert abs(hits / trials - p) < 4 * (p * (1 - p) / trials) ** 0.5


# --- artillery -----------------------------------------------------------------------------


def test_artillery_support_vehicle_crater() -> None:
    # South artillery (4 shells) fires at north's board: shot 1 on a support token (token
    # removed, no crater), shot 2 on north's heavy (3 -> 2 AP), shot 3 on an empty field
    # (crater), shot 4 on that crater again (still one crater). North has no shells: one
    # long-range shot, on the empty field b2 of south's board (crater).
    s = scenario(
        [unit("artillery", "south", "a1"), unit("heavy", "north", "c11")],
        supports=("e8",),
        **QUIET,
    )
    dice = ScriptedDice(
        [roll("e8", N), roll("c11", N), roll("d9", N), roll("d9", N), roll("b2", S)]
    )
    events: list[Event] = []
    mid = artillery_phase(initial_state(s), dice, events)  # type: ignore[arg-type]
    assert dice.calls == [5]  # 4 shells + 1 long-range shot, rolled in one go
    assert mid.supports == frozenset()
    assert sorted(names(mid.craters)) == ["b2", "d9"]
    assert armour_by_cell(mid) == {"a1": 2, "c11": 2}
    assert whats(events) == [
        "shot-support",
        "shot-hit",
        "shot-crater",
        "shot-on-crater",
        "shot-crater",
    ]
    assert mid.in_round and mid.round == 0


def test_artillery_fire_is_simultaneous() -> None:
    # North's artillery has 1 AP; south's first shot destroys it, yet it still fires its
    # 4 shells (a1, b1, c1, d1 of south's board: craters), and is removed at phase end.
    s = scenario(
        [
            unit("artillery", "south", "f2"),
            unit("heavy", "north", "a12"),
            unit("artillery", "north", "d12", armour=1),
        ],
        **QUIET,
    )
    rolls = [roll("d12", N), roll("c9", N), roll("c9", N), roll("c9", N)]
    rolls += [roll(x, S) for x in ("a1", "b1", "c1", "d1")]
    events: list[Event] = []
    mid = artillery_phase(initial_state(s), ScriptedDice(rolls), events)  # type: ignore[arg-type]
    assert sorted(names(c for c in mid.craters if c < 36)) == ["a1", "b1", "c1", "d1"]
    assert [v.kind for v in mid.vehicles_of(N)] == ["heavy"]
    assert whats(events)[-1] == "destroyed"
    # its gunfire symbol is lost: 3 - 1 = 2 tokens; next round north fires 1 long-range shot.
    assert mid.gunfire_available(N) == 2 and mid.artillery_shots(N) == 1


@pytest.mark.parametrize(("long_range", "expected"), [(1, 1), (2, 2), (0, 0)])
def test_long_range_artillery(long_range: int, expected: int) -> None:
    # North has no artillery vehicle: it gets long_range_shots shots; south's artillery 4.
    s = scenario(
        [unit("artillery", "south", "a1"), unit("heavy", "north", "a12")],
        long_range_shots=long_range,
        **QUIET,
    )
    st = initial_state(s)
    assert (st.artillery_shots(S), st.artillery_shots(N)) == (4, expected)
    dice = ScriptedDice([roll("f8", N)] * 4 + [roll("f5", S)] * expected)
    artillery_phase(st, dice)  # type: ignore[arg-type]
    assert dice.calls == [4 + expected]


def test_shell_count_option() -> None:
    s = scenario(
        [unit("artillery", "south", "a1"), unit("artillery", "north", "a12")], artillery_shells=2
    )
    assert initial_state(s).artillery_shots(S) == 2


# --- end of game, round flow ---------------------------------------------------------------


def test_a_side_without_vehicles_loses_and_the_round_stops() -> None:
    # North's only vehicle (artillery, 1 AP) is hit by south's first shell: south wins in the
    # artillery phase; movement, gunfire and supply are not played (no more dice).
    s = scenario([unit("artillery", "south", "a1"), unit("artillery", "north", "c11", armour=1)])
    dice = ScriptedDice([roll("c11", N)] + [roll("f8", N)] * 3 + [roll("f5", S)] * 4)
    st = play_round(initial_state(s), NO_ORDERS, NO_ORDERS, dice)  # type: ignore[arg-type]
    assert outcome(st) == Outcome(S, "destroyed") and st.round == 1 and not st.in_round
    assert dice.calls == [8]
    with pytest.raises(IllegalMoveError):
        play_round(st, NO_ORDERS, NO_ORDERS, np.random.default_rng(0))


def test_both_sides_destroyed_is_a_draw() -> None:
    s = scenario(
        [unit("artillery", "south", "a1", armour=1), unit("artillery", "north", "a12", armour=1)],
        artillery_shells=1,
    )
    dice = ScriptedDice([roll("a12", N), roll("a1", S)])
    st = play_round(initial_state(s), NO_ORDERS, NO_ORDERS, dice)  # type: ignore[arg-type]
    assert outcome(st) == Outcome(None, "both-destroyed")


def test_round_limit_is_a_draw() -> None:
    # Nobody can hurt anybody (no shells, no long-range shot, no tokens): max_rounds = 2.
    s = scenario(
        [unit("heavy", "south", "a1"), unit("heavy", "north", "a12")],
        heavy_shells=0,
        long_range_shots=0,
        gunfire_tokens=0,
        supply_drops=0,
        max_rounds=2,
    )
    rng = np.random.default_rng(1)
    final, result = play_game(initial_state(s), NO_ORDERS, NO_ORDERS, rng)
    assert result == Outcome(None, "round-limit") and final.round == 2


def test_policies_plan_after_the_artillery() -> None:
    # A policy is called with the mid-round state: it sees the crater the shell just made.
    s = scenario([unit("artillery", "south", "a1"), unit("heavy", "north", "c11")], **QUIET)
    seen: list[frozenset[int]] = []

    def policy(state: object, side: Side) -> Orders:
        seen.append(state.craters)  # type: ignore[attr-defined]
        assert state.in_round  # type: ignore[attr-defined]
        return NO_ORDERS

    dice = ScriptedDice([roll("f8", N)] * 4 + [roll("b3", S)])
    play_round(initial_state(s), policy, policy, dice)  # type: ignore[arg-type]
    assert [sorted(names(c)) for c in seen] == [["b3", "f8"]] * 2


def test_orders_for_enemy_vehicles_are_illegal() -> None:
    s = scenario([unit("heavy", "south", "c2"), unit("heavy", "north", "c11")], **QUIET)
    with pytest.raises(IllegalMoveError, match="cannot command"):
        resolve_orders(planning(s), Orders({1: cmd("straight1 S")}), NO_ORDERS, ScriptedDice([]))  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError):
        resolve_orders(initial_state(s), NO_ORDERS, NO_ORDERS, ScriptedDice([]))  # type: ignore[arg-type]


def test_commands() -> None:
    assert str(Command.parse("diagonal2 se")) == "diagonal2 SE"
    with pytest.raises(IllegalMoveError):
        Command(CommandKind.STRAIGHT1, Facing.NE)  # a straight arrow cannot point NE
    with pytest.raises(TankmapError):
        Command.parse("straight3 N")


@pytest.mark.parametrize(
    ("kind", "where", "armour", "count"),
    [
        ("heavy", "c3", 3, 1 + 8),  # stay + 4 straight1 + 4 straight2, all on the board
        ("heavy", "c3", 1, 1 + 4),  # 1 AP: no 2-field tokens
        ("medium", "a1", 2, 1 + 3),  # stay + N, E, NE
        ("artillery", "c5", 2, 1 + 4),
    ],
)
def test_command_options(kind: str, where: str, armour: int, count: int) -> None:
    s = scenario([unit(kind, "south", where, armour=armour)])
    (v,) = initial_state(s).vehicles
    options = command_options(initial_state(s), v)
    assert options[0] is None and len(options) == count


def test_unplayable_positions_are_refused() -> None:
    with pytest.raises(TankmapError, match="own board"):
        initial_state(scenario([unit("heavy", "south", "c8")]))


def test_same_seed_same_game_and_position_round_trip() -> None:
    s = scenario(
        [
            unit("heavy", "south", "b2"),
            unit("medium", "south", "e2"),
            unit("artillery", "south", "c1"),
            unit("heavy", "north", "e11"),
            unit("medium", "north", "b11"),
            unit("artillery", "north", "d12"),
        ]
    )

    def run(seed: int) -> tuple[list[Event], Outcome]:
        rng = np.random.default_rng(seed)
        events: list[Event] = []

        def pol(st: object, side: Side) -> Orders:
            return random_orders(st, side, rng)  # type: ignore[arg-type]

        _, result = play_game(initial_state(s), pol, pol, rng, events)
        return events, result

    assert run(5) == run(5)
    # every position reached is a valid scenario again (vehicles anywhere on own board)
    rng = np.random.default_rng(9)
    st = initial_state(s)
    for _ in range(3):
        if outcome(st) is not None:
            break
        st = play_round(st, random_orders(st, S, rng), random_orders(st, N, rng), rng)
        back = to_scenario(st, s)
        assert {v.code for v in TW.check(back) if v.severity.value == "error"} <= {
            "outside-setup-rows"
        }
        assert initial_state(back).vehicles == tuple(
            replace(v, ident=i) for i, v in enumerate(st.vehicles)
        )


class FixedDraw:
    """A generator stub whose ``integers(0, high)`` always returns ``value``."""

    def __init__(self, value: int) -> None:
        self.value = value
        self.highs: list[int] = []

    def integers(self, low: int, high: int) -> int:
        self.highs.append(high)
        return self.value


def test_draw_rolls_are_base_36_digits() -> None:
    # 2 rolls from one draw in 0..36^2-1: 257 = 5 + 7 * 36 -> rolls [5, 7] (low digit first).
    stub = FixedDraw(257)
    assert draw_rolls(stub, 2) == [5, 7]  # type: ignore[arg-type]
    assert stub.highs == [36**2]
    # 30 rolls need draws of 12, 12 and 6 rolls.
    stub = FixedDraw(0)
    assert draw_rolls(stub, 30) == [0] * 30  # type: ignore[arg-type]
    assert stub.highs == [36**12, 36**12, 36**6]
    rolls = draw_rolls(np.random.default_rng(3), 500)
    assert len(rolls) == 500 and set(rolls) <= set(range(36)) and len(set(rolls)) == 36


def test_draw_choices_are_mixed_radix_digits() -> None:
    # sizes 3 and 4: one draw in 0..11; 11 = 2 + 3 * 3 -> picks [2, 3].
    stub = FixedDraw(11)
    assert draw_choices(stub, [3, 4]) == [2, 3]  # type: ignore[arg-type]
    assert stub.highs == [12]


def test_random_orders_are_legal() -> None:
    s = scenario(
        [
            unit("heavy", "south", "b2"),
            unit("medium", "south", "e2"),
            unit("heavy", "north", "e11"),
        ],
        craters=("a3",),
    )
    st = initial_state(s)
    rng = np.random.default_rng(11)
    for _ in range(50):
        o = random_orders(st, S, rng)
        assert len(o.gunfire) == st.gunfire_available(S) == 3
        assert set(o.gunfire) <= set(gunfire_targets(st, S))
        for ident, c in o.commands.items():
            assert c in command_options(st, st.vehicles[ident])


def test_orders_json_and_command_end() -> None:
    o = Orders({2: cmd("diagonal1 NE"), 0: cmd("straight2 N")}, (cell("c10"), cell("c10")))
    data = o.to_json(BOARD)
    assert data == {
        "commands": {"0": "straight2 N", "2": "diagonal1 NE"},
        "gunfire": ["c10", "c10"],
    }
    assert Orders.from_json(data, BOARD) == o and hash(Orders.from_json(data, BOARD)) == hash(o)
    with pytest.raises(IllegalMoveError):
        Orders.from_json({"commands": {"x": "straight1 N"}, "gunfire": []}, BOARD)
    # c2 + straight2 N = c4; a1 + diagonal1 SW leaves the grid.
    assert command_end(BOARD, cell("c2"), cmd("straight2 N")) == cell("c4")
    assert command_end(BOARD, cell("a1"), cmd("diagonal1 SW")) == -1


def test_a_record_of_seed_and_orders_replays() -> None:
    # Dice from their own Generator, policies from another: replaying the recorded orders
    # with the same dice seed reproduces every event.
    s = scenario(
        [
            unit("heavy", "south", "b2"),
            unit("medium", "south", "e2"),
            unit("artillery", "south", "c1"),
            unit("heavy", "north", "e11"),
            unit("medium", "north", "b11"),
            unit("artillery", "north", "d12"),
        ]
    )
    policy_rng = np.random.default_rng(1)
    recorded: list[tuple[Orders, Orders]] = []

    def pol(st: object, side: Side) -> Orders:
        o = random_orders(st, side, policy_rng)  # type: ignore[arg-type]
        if side is S:
            recorded.append((o, NO_ORDERS))
        else:
            recorded[-1] = (recorded[-1][0], o)
        return o

    events: list[Event] = []
    final, result = play_game(initial_state(s), pol, pol, np.random.default_rng(77), events)
    dice = np.random.default_rng(77)
    replay: list[Event] = []
    st = initial_state(s)
    for south, north in recorded:
        st = play_round(st, south, north, dice, replay)
    assert replay == events and st == final and outcome(st) == result
