"""docs/rules.md §1.5: "A facing change is only possible together with a diagonal move ...
A straight move ordered with a turn moves without turning." Tanks and the R/M; an AT may
turn with any move. Hand-made orders on an open 12 x 12 board through the checked entry
point (``play_round``, used by replays and records) and the unchecked one
(``apply_round``, used by the engines' callers); both must give the plain move."""

from __future__ import annotations

import pytest

from tankmap.rules.board import Board
from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.final_act.engine import Game, State
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Unit

B = Board.of(12, 12)
N, E, S, W = Facing.N, Facing.E, Facing.S, Facing.W
# 0 south tank e5 N, 1 south R/M c3 N, 2 south AT i5 N, 3 north tank f10 S, 4 north tank k10 S
UNITS = (
    Unit("tank", Side.SOUTH, B.parse_cell("e5"), N, "C"),
    Unit("rm", Side.SOUTH, B.parse_cell("c3"), N, "R"),
    Unit("at", Side.SOUTH, B.parse_cell("i5"), N, "A"),
    Unit("tank", Side.NORTH, B.parse_cell("f10"), S, "C"),
    Unit("tank", Side.NORTH, B.parse_cell("k10"), S, "1"),
)


def _game() -> Game:
    rs = get_ruleset("final-act")
    s = rs.new_scenario(B, {"extra_forces": True})
    return Game(Scenario("final-act", B, s.options, (), UNITS))


def _go(cell: str, facing: Facing) -> tuple[int, Facing]:
    return (B.parse_cell(cell), facing)


def _where(st: State, u: int) -> tuple[str, Facing]:
    return B.cell_name(st.cell[u]), st.facing[u]


@pytest.mark.parametrize("checked", [True, False], ids=["play_round", "apply_round"])
@pytest.mark.parametrize(
    "unit, order, expected",
    [
        (0, ("e6", E), ("e6", N)),  # tank forward, ordered with a right turn
        (0, ("e6", W), ("e6", N)),  # ... with a left turn
        (0, ("e4", W), ("e4", N)),  # tank backward with a turn
        (0, ("e6", S), ("e6", N)),  # a half turn is no turn either
        (1, ("c4", W), ("c4", N)),  # the R/M moves and turns exactly like a tank
        (3, ("f9", E), ("f9", S)),  # north's tank forward (south on the board)
        (0, ("d6", W), ("d6", W)),  # forward-left turning left: a legal diagonal turn
        (2, ("i6", E), ("i6", E)),  # an AT may turn with any move
    ],
)
def test_straight_move_with_a_turn_is_the_plain_move(
    checked: bool, unit: int, order: tuple[str, Facing], expected: tuple[str, Facing]
) -> None:
    game = _game()
    st = game.initial_state()
    orders: list[tuple[int, Facing] | None] = [None] * len(UNITS)
    orders[unit] = _go(*order)
    if checked:
        game.play_round(st, orders, {})
    else:
        game.apply_round(st, orders, {})
    assert _where(st, unit) == expected


@pytest.mark.parametrize(
    "order",
    [("d6", E), ("e5", E)],  # forward-left turning right; turning in place
    ids=["diagonal-wrong-turn", "turn-in-place"],
)
def test_other_turns_stay_illegal_for_a_tank(order: tuple[str, Facing]) -> None:
    game = _game()
    st = game.initial_state()
    orders: list[tuple[int, Facing] | None] = [None] * len(UNITS)
    orders[0] = _go(*order)
    with pytest.raises(IllegalMoveError):
        game.play_round(st, orders, {})
    assert _where(st, 0) == ("e5", N)  # nothing happened


def test_the_callers_orders_are_not_changed() -> None:
    game = _game()
    st = game.initial_state()
    orders: list[tuple[int, Facing] | None] = [_go("e6", E), None, None, None, None]
    game.play_round(st, orders, {})
    assert orders[0] == _go("e6", E)
