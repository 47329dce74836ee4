"""docs/rules.md §1.7, simultaneous landings: a tank lands when it ends a round on the
enemy's last line and was not there at the end of the round before; when both sides land
in one round the side that landed more wins at once, equal counts are a tie and play goes
on (option ``simultaneous_landing`` ``count``, the default); with ``tie`` any round both
sides land in is a tie, whatever the counts. Knocking out or moving away a tank already on
the line decides nothing.

Hand-made rounds on an open 12 x 12 board, played by the reference engine (checked); under
``count`` the compiled kernel's end of the round (``kernel.rules._check_end``) judges every
round's position the same way, and a kernel game from a tied start position does too."""

from __future__ import annotations

import numpy as np
import pytest

from tankmap.analysis.simulation.final_act.kernel import games as kernel_games
from tankmap.analysis.simulation.final_act.kernel.packed import tables
from tankmap.analysis.simulation.final_act.kernel.rules import _check_end
from tankmap.analysis.simulation.final_act.kernel.tables import tables_of
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.rules.board import Board
from tankmap.rules.final_act.engine import END_GOAL, Game, State
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Unit

B = Board.of(12, 12)
c = B.parse_cell
SOUTH, NORTH = Side.SOUTH, Side.NORTH
END_CODES = {0: None, 1: END_GOAL}  # the kernel's end codes met here (no annihilation)


def tank(side: Side, cell: str, name: str, damage: int = 0, facing: Facing | None = None) -> Unit:
    ahead = Facing.N if side is SOUTH else Facing.S
    return Unit("tank", side, c(cell), ahead if facing is None else facing, name, damage)


# South's goal is row 12, north's row 1. Indices: south C f11 (0), 1 h11 (1), 2 c11 (2),
# 1A a1 (3, never moves); north C f2 (4), 1 k2 (5), 2 c2 (6), 1A l12 (7, never moves).
UNITS = (
    tank(SOUTH, "f11", "C"),
    tank(SOUTH, "h11", "1"),
    tank(SOUTH, "c11", "2"),
    tank(SOUTH, "a1", "1A"),
    tank(NORTH, "f2", "C"),
    tank(NORTH, "k2", "1"),
    tank(NORTH, "c2", "2"),
    tank(NORTH, "l12", "1A"),
)
# one step forward for each of the six movers (south: N, north: S) and south C's step back
LAND = {0: "f12", 1: "h12", 2: "c12", 4: "f1", 5: "k1", 6: "c1"}


def game(landing: str, units: tuple[Unit, ...] = UNITS) -> Game:
    opts = get_ruleset("final-act").new_scenario(B, {}).options
    return Game(Scenario("final-act", B, {**opts, "simultaneous_landing": landing}, (), units))


def step(units: tuple[int, ...]) -> dict[int, tuple[int, Facing]]:
    """Orders: each listed unit one cell forward onto its goal row."""
    return {u: (c(LAND[u]), Facing.N if UNITS[u].side is SOUTH else Facing.S) for u in units}


class KernelEnd:
    """The kernel's end of the round, fed the reference engine's position after each round."""

    def __init__(self, g: Game, start: State) -> None:
        self.T = tables(tables_of(Prepared(g)))
        self.tie_base = np.zeros(len(start.kind), dtype=np.bool_)
        for u in start.tie_base or ():
            self.tie_base[u] = True

    def after(self, st: State) -> tuple[str | None, Side | None]:
        T = self.T
        cell = np.array(st.cell, dtype=np.int64)
        alive = np.array(st.alive, dtype=np.bool_)
        end, winner = _check_end(
            T.goal, T.had_tanks, T.kind, T.max_rounds, T.side, st.round, cell, alive, self.tie_base
        )
        return END_CODES[int(end)], None if winner < 0 else (SOUTH, NORTH)[int(winner)]


def play(
    landing: str,
    rounds: list[dict[int, tuple[int, Facing]]],
    shells: list[dict[int, int]] | None = None,
    units: tuple[Unit, ...] = UNITS,
) -> tuple[list[str | None], Side | None]:
    """Play ``rounds`` (orders by unit; the others stay) until the game ends; the end after
    each round played and the winner. Under ``count`` the kernel must agree each round."""
    g = game(landing, units)
    st = g.initial_state()
    assert not st.over
    kernel = KernelEnd(g, st) if landing == "count" else None
    ends: list[str | None] = []
    for r, moves in enumerate(rounds):
        if st.over:
            break
        orders: list[tuple[int, Facing] | None] = [None] * len(units)
        for u, order in moves.items():
            orders[u] = order
        g.play_round(st, orders, (shells or [])[r] if shells and r < len(shells) else {})
        ends.append(st.end)
        if kernel is not None:
            assert kernel.after(st) == (st.end, st.winner), f"round {r + 1}"
    return ends, st.winner


BOTH = pytest.mark.parametrize("landing", ["count", "tie"])


def test_two_landings_against_one_win_at_once_by_count() -> None:
    # round 1: south lands C (f12) and 1 (h12), north lands C (f1): 2 > 1
    assert play("count", [step((0, 1, 4)), step((5,))]) == (["goal"], SOUTH)


def test_under_tie_two_landings_against_one_are_a_tie() -> None:
    # the same round is a tie; play goes on and north's second landing (1 on k1) wins
    assert play("tie", [step((0, 1, 4)), step((5,))]) == ([None, "goal"], NORTH)


@BOTH
def test_equal_counts_play_on(landing: str) -> None:
    # round 1: two landings each (C and 1 of both sides): a tie; round 2 south's 2 lands
    # on c12 and north lands none: south wins
    assert play(landing, [step((0, 1, 4, 5)), step((2,))]) == ([None, "goal"], SOUTH)


@pytest.mark.parametrize(
    "landing, ends, winner", [("count", [None, "goal"], SOUTH), ("tie", [None, None], None)]
)
def test_later_rounds_count_again(landing: str, ends: list[str | None], winner: Side) -> None:
    # round 1: one each (tie); round 2: south lands 1 and 2 (h12, c12), north lands 1 (k1):
    # counted again, 2 > 1
    assert play(landing, [step((0, 4)), step((1, 2, 5))]) == (ends, winner)


@BOTH
def test_a_tank_already_on_the_line_does_not_land_again(landing: str) -> None:
    # round 1: one each (south C on f12, north C on f1); round 2: south 1 and north 1 land.
    # South C stood on the line at the end of round 1, so it is not counted: 1 against 1
    # (counting it would make 2 against 1); then south's 2 lands alone
    rounds = [step((0, 4)), step((1, 5)), step((2,))]
    assert play(landing, rounds) == ([None, None, "goal"], SOUTH)


@BOTH
def test_moving_away_from_the_line_decides_nothing_and_a_return_lands(landing: str) -> None:
    # round 1: one each; round 2: south C backs off to f11 (north C still on f1: that
    # decides nothing); round 3: C comes back to f12 — it was not on the line at the end
    # of round 2, so it lands, alone: south wins
    back = {0: (c("f11"), Facing.N)}
    assert play(landing, [step((0, 4)), back, step((0,))]) == ([None, None, "goal"], SOUTH)


@BOTH
def test_knocking_out_a_tank_on_the_line_decides_nothing(landing: str) -> None:
    # South C is damaged; north 2A on f9 faces N: f12 is 3 cells straight ahead (f10, f11
    # empty once C has moved). Round 1: one each; round 2: 2A shells f12 and knocks C out
    # (a wreck there): north C still stands on f1 but landed nothing that round
    units = (
        tank(SOUTH, "f11", "C", damage=1),
        *UNITS[1:],
        tank(NORTH, "f9", "2A", facing=Facing.N),
    )
    ends, winner = play(landing, [step((0, 4)), {}], [{}, {8: c("f12")}], units)
    assert (ends, winner) == ([None, None], None)


@pytest.mark.parametrize(
    "south_cells, north_cells, landing, finished",
    [
        (("f12", "h12"), ("f1",), "count", SOUTH),
        (("f12", "h12"), ("f1",), "tie", None),
        (("f12",), ("f1", "k1"), "count", NORTH),
        (("f12",), ("f1",), "count", None),
        (("f12",), (), "tie", SOUTH),
    ],
)
def test_a_position_counts_every_tank_on_the_line_as_landed(
    south_cells: tuple[str, ...],
    north_cells: tuple[str, ...],
    landing: str,
    finished: Side | None,
) -> None:
    # §1.7: a position with tanks on the lines is judged as if they had just landed
    names = iter(("C", "1", "2"))
    units = (
        *(tank(SOUTH, cell, next(names)) for cell in south_cells),
        tank(SOUTH, "a1", "1A"),
        *(tank(NORTH, cell, name) for cell, name in zip(north_cells, ("C", "1"), strict=False)),
        tank(NORTH, "l12", "1A"),
    )
    g = game(landing, units)
    done = get_ruleset("final-act").finished(g.scenario)
    assert (done.winner if done else None) == finished
    st = g.initial_state()
    assert st.winner == finished and st.over == (finished is not None)


@pytest.mark.skipif(not kernel_games.available(), reason="the compiled kernel is not available")
def test_a_kernel_game_from_a_tied_position_does_not_count_the_tanks_already_there() -> None:
    # The start position is a tie: south C (damaged) on f12, north C on f1. North 1 on f9
    # faces N, f12 straight ahead: when it knocks south C out in round 1 nothing has
    # landed (north C stood on f1 already), so no game may end in round 1 by the goal.
    units = (
        tank(SOUTH, "f12", "C", damage=1),
        tank(SOUTH, "a3", "1"),
        tank(NORTH, "f1", "C"),
        tank(NORTH, "f9", "1", facing=Facing.N),
    )
    prep = Prepared(game("count", units))
    assert not prep.game.initial_state().over
    results = kernel_games.play_many(prep, ("heuristic", "heuristic"), list(range(64)))
    knocked_out_first = [
        r for r in results if any(d.round == 1 and d.cell == c("f12") for d in r.deaths)
    ]
    assert knocked_out_first  # the case the test is about happens
    for r in knocked_out_first:
        assert not (r.end == END_GOAL and r.length == 1)
