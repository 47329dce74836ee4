"""Final Act rounds built by hand from docs/rules.md §1.4–1.7 (each expected answer derived in a
comment from the rule text, not from the engine)."""

from __future__ import annotations

import pytest

from tankmap.rules.board import Board
from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.final_act.engine import END_ANNIHILATION, END_GOAL, END_LIMIT, Game
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Unit

B = Board.of(12, 12)
S, N = Side.SOUTH, Side.NORTH
c = B.parse_cell


def tank(side: Side, cell: str, facing: Facing, name: str = "C", damage: int = 0) -> Unit:
    return Unit("tank", side, c(cell), facing, name, damage)


def at(side: Side, cell: str, facing: Facing) -> Unit:
    return Unit("at", side, c(cell), facing)


# Far-away tanks so that neither side runs out of tanks during a test round.
FAR_S = tank(S, "a1", Facing.N, "2B")
FAR_N = tank(N, "l12", Facing.S, "2B")


def game(*units: Unit, **options: object) -> Game:
    opts = {"extra_forces": True, **options}
    return Game(Scenario("final-act", B, opts, (), (FAR_S, FAR_N, *units)))  # type: ignore[arg-type]


def stay_all(g: Game) -> list[tuple[int, Facing] | None]:
    return [None] * len(g.scenario.units)


def test_two_units_ordered_into_one_cell_both_stay() -> None:
    # e2 facing N: forward-right is f3; g2 facing N: forward-left is f3. Same target → none moves.
    g = game(tank(S, "e2", Facing.N, "1"), tank(S, "g2", Facing.N, "2"))
    st = g.initial_state()
    orders = stay_all(g)
    orders[2] = (c("f3"), Facing.N)
    orders[3] = (c("f3"), Facing.N)
    g.play_round(st, orders, {})
    assert (st.cell[2], st.cell[3]) == (c("e2"), c("g2"))


def test_enemy_tanks_into_one_cell_both_stay() -> None:
    # f5 facing N forward = f6; f7 facing S forward = f6: same cell → both stay.
    g = game(tank(S, "f5", Facing.N), tank(N, "f7", Facing.S))
    st = g.initial_state()
    orders = stay_all(g)
    orders[2] = (c("f6"), Facing.N)
    orders[3] = (c("f6"), Facing.S)
    g.play_round(st, orders, {})
    assert (st.cell[2], st.cell[3]) == (c("f5"), c("f7"))


def test_no_swaps() -> None:
    # f5 (N) forward → f6 while f6 (S) forward → f5: a swap, both stay.
    g = game(tank(S, "f5", Facing.N), tank(N, "f6", Facing.S))
    st = g.initial_state()
    orders = stay_all(g)
    orders[2] = (c("f6"), Facing.N)
    orders[3] = (c("f5"), Facing.S)
    g.play_round(st, orders, {})
    assert (st.cell[2], st.cell[3]) == (c("f5"), c("f6"))


def test_chain_moves_but_bounce_propagates() -> None:
    # A f2→f3, B f3→f4, C stays on f4: B cannot end on C's cell (C did not move) → B stays on
    # f3 → A cannot end there either → A stays. Without C, both move (f3 is vacated).
    a, b = tank(S, "f2", Facing.N, "1"), tank(S, "f3", Facing.N, "2")
    g = game(a, b, tank(S, "f4", Facing.N, "C"))
    st = g.initial_state()
    orders = stay_all(g)
    orders[2] = (c("f3"), Facing.N)
    orders[3] = (c("f4"), Facing.N)
    g.play_round(st, orders, {})
    assert (st.cell[2], st.cell[3], st.cell[4]) == (c("f2"), c("f3"), c("f4"))
    g2 = game(a, b)
    st2 = g2.initial_state()
    orders2 = stay_all(g2)
    orders2[2] = (c("f3"), Facing.N)
    orders2[3] = (c("f4"), Facing.N)
    g2.play_round(st2, orders2, {})
    assert (st2.cell[2], st2.cell[3]) == (c("f3"), c("f4"))


def test_diagonal_move_with_turn() -> None:
    # f2 facing N, forward-left with a turn → e3 facing W (docs/rules.md §1.5).
    g = game(tank(S, "f2", Facing.N))
    st = g.initial_state()
    orders = stay_all(g)
    orders[2] = (c("e3"), Facing.W)
    g.play_round(st, orders, {})
    assert (st.cell[2], st.facing[2]) == (c("e3"), Facing.W)
    # a straight move ordered with a turn moves without turning (§1.5)
    g.play_round(st, [None, None, (c("d3"), Facing.S)], {})
    assert (st.cell[2], st.facing[2]) == (c("d3"), Facing.W)


def test_moving_into_shelled_cell_is_hit_and_leaving_escapes() -> None:
    # North tank on f9 facing S: f4 is 5 ahead (s = 0, width 3 at f = 5) with f8..f5 empty,
    # so f4 is in its zone. South tank f3 → f4 ends on the shell: hit (damaged, not out).
    # A second south tank leaves the shelled e5 for e6... e5 is 4 ahead and 1 sideways.
    g = game(
        tank(N, "f9", Facing.S, "1"), tank(S, "f3", Facing.N, "1"), tank(S, "e5", Facing.N, "2")
    )
    st = g.initial_state()
    zone = st.fire_zone(2)
    assert c("f4") in zone and c("e5") in zone
    orders = stay_all(g)
    orders[3] = (c("f4"), Facing.N)
    orders[4] = (c("e6"), Facing.N)
    g.play_round(st, orders, {2: c("f4")})
    assert st.damage[3] == 1 and st.alive[3]
    g2 = game(
        tank(N, "f9", Facing.S, "1"), tank(S, "f3", Facing.N, "1"), tank(S, "e5", Facing.N, "2")
    )
    st2 = g2.initial_state()
    g2.play_round(st2, orders, {2: c("e5")})  # e5 was left: nobody is hit
    assert st2.damage == [0] * 5


def test_second_hit_knocks_out_and_leaves_a_wreck() -> None:
    # A damaged tank (damage 1) staying on f4 and shelled: second hit → out; with the
    # ``wrecks`` option (default on) it stays as a wreck that blocks moves; off → removed.
    for wrecks in (True, False):
        g = game(
            tank(N, "f9", Facing.S, "1"), tank(S, "f4", Facing.N, "1", damage=1), wrecks=wrecks
        )
        st = g.initial_state()
        g.play_round(st, stay_all(g), {2: c("f4")})
        assert not st.alive[3]
        assert st.wreck[3] is wrecks
        assert st.kills == [0, 1]
        # the wreck on f4: the tank on f3 facing N cannot be ordered onto it
        g2 = game(tank(S, "f3", Facing.N, "2"))
        st2 = g2.initial_state()
        st2.wreck_mask = (1 << c("f4")) if wrecks else 0
        dests = {o[0] for o in st2.orders(2)}
        assert (c("f4") in dests) is not wrecks


def test_two_shells_on_one_cell_knock_out_a_fresh_tank() -> None:
    # Two north tanks both shell f4 where a fresh south tank stays: two hits → out.
    g = game(
        tank(N, "f9", Facing.S, "1"), tank(N, "g9", Facing.S, "2"), tank(S, "f4", Facing.N, "1")
    )
    st = g.initial_state()
    assert c("f4") in st.fire_zone(3)  # g9 facing S: f4 is 5 ahead, 1 sideways (width 3)
    g.play_round(st, stay_all(g), {2: c("f4"), 3: c("f4")})
    assert not st.alive[4]


def test_at_under_a_tank_survives_first_hit_then_both_out() -> None:
    # Tank + own AT share f4 (allowed, §1.3). One shell: the tank takes it, the AT survives.
    # A second shell next round is the tank's second hit: both out.
    g = game(tank(N, "f9", Facing.S, "1"), tank(S, "f4", Facing.N, "1"), at(S, "f4", Facing.N))
    st = g.initial_state()
    g.play_round(st, stay_all(g), {2: c("f4")})
    assert st.damage[3] == 1 and st.alive[3] and st.alive[4]
    g.play_round(st, stay_all(g), {2: c("f4")})
    assert not st.alive[3] and not st.alive[4]
    assert st.kills[1] == 2


def test_two_ats_one_out_per_shell() -> None:
    g = game(tank(N, "f9", Facing.S, "1"), at(S, "f4", Facing.N), at(S, "f4", Facing.E))
    st = g.initial_state()
    report = g.play_round(st, stay_all(g), {2: c("f4")})
    assert [st.alive[3], st.alive[4]].count(True) == 1
    # the report names the cell, the side (north = 1) and the unit (index 2) that did it
    assert len(report.knocked_out) == 1 and report.knocked_out[0][1:] == (c("f4"), 1, 2)


def test_enemy_tank_entering_at_cell_eliminates_it() -> None:
    # South tank f3 → f4 where a north AT stays: the AT is eliminated, the tank moves.
    g = game(tank(S, "f3", Facing.N), at(N, "f4", Facing.S))
    st = g.initial_state()
    orders = stay_all(g)
    orders[2] = (c("f4"), Facing.N)
    g.play_round(st, orders, {})
    assert st.cell[2] == c("f4") and not st.alive[3] and st.kills == [1, 0]


def test_enemy_tank_cannot_enter_cell_of_tank_with_at() -> None:
    # The AT shares f4 with its own tank (which stays): the entering enemy tank would make
    # two tanks in one cell → it stays; nothing is eliminated.
    g = game(tank(S, "f3", Facing.N), at(N, "f4", Facing.S), tank(N, "f4", Facing.S, "1"))
    st = g.initial_state()
    orders = stay_all(g)
    orders[2] = (c("f4"), Facing.N)
    g.play_round(st, orders, {})
    assert st.cell[2] == c("f3") and st.alive[3]


def test_allowed_sharing_moves_and_overfull_cell_bounces() -> None:
    # AT e3 → f4 onto its own staying tank: allowed (tank + AT). Two ATs into a cell with a
    # staying tank: tank + 2 AT is not allowed → both ATs stay.
    g = game(tank(S, "f4", Facing.N), at(S, "e3", Facing.N))
    st = g.initial_state()
    orders = stay_all(g)
    orders[3] = (c("f4"), Facing.N)
    g.play_round(st, orders, {})
    assert st.cell[3] == c("f4")
    g2 = game(tank(S, "f4", Facing.N), at(S, "e3", Facing.N), at(S, "g3", Facing.N))
    st2 = g2.initial_state()
    orders2 = stay_all(g2)
    orders2[3] = (c("f4"), Facing.N)
    orders2[4] = (c("f4"), Facing.N)
    g2.play_round(st2, orders2, {})
    assert (st2.cell[3], st2.cell[4]) == (c("e3"), c("g3"))


def test_moving_at_does_not_shoot() -> None:
    g = game(at(S, "f4", Facing.N))
    st = g.initial_state()
    move = (c("f5"), Facing.N)
    assert not st.can_fire(2, move)
    assert st.can_fire(2, (c("f4"), Facing.E))  # turning in place is not moving
    orders = stay_all(g)
    orders[2] = move
    with pytest.raises(IllegalMoveError):
        g.play_round(st, orders, {2: c("f6")})


def test_shell_outside_zone_rejected() -> None:
    g = game(tank(S, "f4", Facing.N))
    st = g.initial_state()
    with pytest.raises(IllegalMoveError):
        g.play_round(st, stay_all(g), {2: c("f3")})  # behind the tank


def test_goal_win_and_simultaneous_goal_plays_on() -> None:
    # South tank f11 (N) → f12 = north's row 1: south wins at the end of the round.
    g = game(tank(S, "f11", Facing.N))
    st = g.initial_state()
    orders = stay_all(g)
    orders[2] = (c("f12"), Facing.N)
    g.play_round(st, orders, {})
    assert st.winner is S and st.end == END_GOAL
    # Both reach their goal in the same round with one tank each: play continues; the next
    # round south brings a second tank: 2 > 1 → south wins.
    g2 = game(tank(S, "f11", Facing.N), tank(N, "c2", Facing.S, "1"), tank(S, "h11", Facing.N, "1"))
    st2 = g2.initial_state()
    orders2 = stay_all(g2)
    orders2[2] = (c("f12"), Facing.N)
    orders2[3] = (c("c1"), Facing.S)
    g2.play_round(st2, orders2, {})
    assert not st2.over
    orders3 = stay_all(g2)
    orders3[4] = (c("h12"), Facing.N)
    g2.play_round(st2, orders3, {})
    assert st2.winner is S and st2.end == END_GOAL


def test_no_tanks_left_loses_and_round_limit_draws() -> None:
    # North's only tank (damaged) is knocked out: north has no tanks → south wins.
    sc = Scenario(
        "final-act",
        B,
        {},
        (),
        (tank(S, "f4", Facing.N), tank(N, "f8", Facing.S, damage=1)),
    )
    g = Game(sc)
    st = g.initial_state()
    g.play_round(st, [None, None], {0: c("f8")})
    assert st.winner is S and st.end == END_ANNIHILATION
    g2 = Game(sc.with_options(max_rounds=2))
    st2 = g2.initial_state()
    g2.play_round(st2, [None, None], {})
    assert not st2.over
    g2.play_round(st2, [None, None], {})
    assert st2.over and st2.winner is None and st2.end == END_LIMIT


def test_a_tank_and_an_at_may_trade_cells() -> None:
    # South tank and south AT share f4. The tank goes f4→f5 while the north AT on f5 goes
    # f5→f4. docs/rules.md §1.5: only two tanks, or a tank and the R/M, may not swap — a
    # tank and an AT may: the tank ends on f5 and the AT alone on f4 (the south AT left for
    # e5), so nothing is run over and both live.
    g = game(tank(S, "f4", Facing.N), at(S, "f4", Facing.N), at(N, "f5", Facing.S))
    st = g.initial_state()
    orders = stay_all(g)
    orders[2] = (c("f5"), Facing.N)
    orders[3] = (c("e5"), Facing.N)
    orders[4] = (c("f4"), Facing.S)
    g.play_round(st, orders, {})
    assert (st.cell[2], st.cell[3], st.cell[4]) == (c("f5"), c("e5"), c("f4"))
    assert st.alive[4]
