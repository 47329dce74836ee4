"""docs/rules.md §1.7, tie on the last line: when both sides reach the enemy's last line in
one round play goes on, and the winner is the first to land a *further* tank (one not on
the line at the end of the tying round); knocking out or withdrawing a tank already there
decides nothing; both landing a further tank in one round is a new tie. Hand-made rounds
on an open 12 x 12 board, played through the reference engine and the compiled kernel's
rules (``kernel.orders.given_rounds``)."""

from __future__ import annotations

import numpy as np

from tankmap.analysis.simulation.final_act.kernel.orders import given_rounds
from tankmap.analysis.simulation.final_act.kernel.tables import END_CODES
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.rules.board import Board
from tankmap.rules.final_act.engine import Game, State
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Unit

B = Board.of(12, 12)
N, S = Facing.N, Facing.S
# units: 0 south A f11 N, 1 south C h11 N, 2 north B f2 S, 3 north D k2 S
UNITS = (
    Unit("tank", Side.SOUTH, B.parse_cell("f11"), N, "C"),
    Unit("tank", Side.SOUTH, B.parse_cell("h11"), N, "1"),
    Unit("tank", Side.NORTH, B.parse_cell("f2"), S, "C"),
    Unit("tank", Side.NORTH, B.parse_cell("k2"), S, "1"),
)


def _game() -> Game:
    rs = get_ruleset("final-act")
    s = rs.new_scenario(B, {})
    return Game(Scenario("final-act", B, s.options, (), UNITS))


def _go(cell: str, facing: Facing) -> tuple[int, Facing]:
    return (B.parse_cell(cell), facing)


def _kernel(
    game: Game, start: State, rounds: list[list[tuple[int, Facing] | None]]
) -> tuple[list[str], list[int], list[list[int]]]:
    """The kernel's rules on ``rounds`` (orders per unit, no shells) from ``start``: the end
    and winner after each round, and the cells after each round. A unit without an order
    stays: its order is its cell and facing before the round (as the reference engine
    has them: the two engines are compared round by round)."""
    n = len(start.kind)
    st = start.copy()
    dest, facing = [], []
    for orders in rounds:
        dest.append([o[0] if o else st.cell[u] for u, o in enumerate(orders)])
        facing.append([int(o[1]) if o else int(st.facing[u]) for u, o in enumerate(orders)])
        game.apply_round(st, list(orders), {})
    shells = np.full((len(rounds), n), -1, dtype=np.int64)
    got = given_rounds(Prepared(game), start, np.array(dest), np.array(facing), shells, shells >= 0)
    return [END_CODES[e] for e in got.end.tolist()], got.winner.tolist(), got.cell.tolist()


def _play(rounds: list[list[tuple[int, Facing] | None]]) -> tuple[State, list[str | None]]:
    """Play ``rounds`` (orders per unit, no shells) in both engines; they must agree."""
    game = _game()
    st = game.initial_state()
    ends, winners, _cells = _kernel(game, st, rounds)
    played: list[str | None] = []
    for r, orders in enumerate(rounds):
        game.play_round(st, list(orders), {})
        assert ends[r] == (st.end or "")
        assert winners[r] == (-1 if st.winner is None else st.winner.index)
        played.append(st.end)
    return st, played


def test_both_reach_the_line_in_one_round_is_a_tie() -> None:
    st, ends = _play([[_go("f12", N), None, _go("f1", S), None]])
    assert ends == [None] and st.winner is None  # play goes on


def test_withdrawing_a_tank_on_the_line_decides_nothing() -> None:
    # round 1 tie; round 2 south's tank backs off the line (f12 -> f11): under the old
    # count-the-tanks reading north (1 on the line vs 0) would have won; not any more
    st, ends = _play(
        [
            [_go("f12", N), None, _go("f1", S), None],
            [_go("f11", N), None, None, None],
        ]
    )
    assert ends == [None, None]


def test_the_first_further_tank_wins() -> None:
    # round 2: south's second tank (h11) lands on h12, north lands none: south wins
    st, ends = _play(
        [
            [_go("f12", N), None, _go("f1", S), None],
            [None, _go("h12", N), None, None],
        ]
    )
    assert ends == [None, "goal"] and st.winner is Side.SOUTH


def test_a_tank_that_left_the_line_lands_again() -> None:
    # docs/rules.md §1.7: a tank lands when it ends a round on the line and was not there
    # at the end of the round before. South's A leaves the line (round 2) and comes back
    # (round 3): it lands again and north landed none that round -> south wins
    st, ends = _play(
        [
            [_go("f12", N), None, _go("f1", S), None],
            [_go("f11", N), None, None, None],
            [_go("f12", N), None, None, None],
        ]
    )
    assert ends == [None, None, "goal"] and st.winner is Side.SOUTH


def test_both_land_a_further_tank_is_a_new_tie() -> None:
    st, ends = _play(
        [
            [_go("f12", N), None, _go("f1", S), None],
            [None, _go("h12", N), None, _go("k1", S)],
        ]
    )
    assert ends == [None, None] and st.winner is None
    assert st.tie_base == frozenset({0, 1, 2, 3})


# --- swaps (docs/rules.md §1.5) -------------------------------------------------------------


def _swap_game(kinds: tuple[str, str], sides: tuple[Side, Side]) -> tuple[Game, State]:
    rs = get_ruleset("final-act")
    s = rs.new_scenario(B, {"extra_forces": True})
    units = (
        Unit(kinds[0], sides[0], B.parse_cell("e5"), N, "C" if kinds[0] == "tank" else None),
        Unit(
            kinds[1],
            sides[1],
            B.parse_cell("e6"),
            S if sides[1] is Side.NORTH else N,
            ("1" if sides[1] is sides[0] else "C") if kinds[1] == "tank" else None,
        ),
        Unit("tank", Side.SOUTH, B.parse_cell("a1"), N, "2"),
        Unit("tank", Side.NORTH, B.parse_cell("l12"), S, "2"),
    )
    game = Game(Scenario("final-act", B, s.options, (), units))
    return game, game.initial_state()


def _trade(kinds: tuple[str, str], sides: tuple[Side, Side]) -> tuple[str, str]:
    """Order unit 0 (e5) onto e6 and unit 1 (e6) onto e5; where each ends, in both engines."""
    game, st = _swap_game(kinds, sides)
    f0, f1 = st.facing[0], st.facing[1]
    orders = [_go("e6", f0), _go("e5", f1), None, None]
    _ends, _winners, cells = _kernel(game, st, [orders])
    game.apply_round(st, orders, {})
    assert cells[0][:2] == st.cell[:2]
    return B.cell_name(st.cell[0]), B.cell_name(st.cell[1])


def test_two_tanks_may_not_swap() -> None:
    assert _trade(("tank", "tank"), (Side.SOUTH, Side.SOUTH)) == ("e5", "e6")


def test_a_tank_and_the_rm_may_not_swap() -> None:
    assert _trade(("tank", "rm"), (Side.SOUTH, Side.SOUTH)) == ("e5", "e6")


def test_a_tank_and_its_own_at_may_swap() -> None:
    # an AT may share a cell with an own tank (§1.3), so the two may trade cells
    assert _trade(("tank", "at"), (Side.SOUTH, Side.SOUTH)) == ("e6", "e5")


def test_an_at_and_the_rm_may_swap() -> None:
    assert _trade(("at", "rm"), (Side.SOUTH, Side.SOUTH)) == ("e6", "e5")
