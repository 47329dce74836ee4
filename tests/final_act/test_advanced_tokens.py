"""docs/rules.md §1.8 expansion tokens in the reference engine (seed 000 "Expansion Rules"): full
throttle, quick sand, smoke, air strike, mine clearing, Red Cross. Hand-made rounds; every
expected answer is derived in a comment (geometry as in test_advanced.py's docstring)."""

from __future__ import annotations

import pytest
from advanced_support import FAR, N, S, at, c, game, play, tank

from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.final_act.engine import Game
from tankmap.rules.final_act.engine_advanced import Actions
from tankmap.rules.geometry import Facing
from tankmap.rules.scenario import Terrain


# --- full throttle ------------------------------------------------------------------------
def test_full_throttle_moves_two_cells_without_turning() -> None:
    # c2 facing N: forward twice -> c4; forward-right twice without turning -> d3 -> e4.
    for to in ("c4", "e4"):
        g = game(*FAR, tank(S, "c2", "C"), full_throttle=True)
        st = g.initial_state()
        play(g, st, {2: (to, Facing.N)}, actions=Actions(full_throttle=[2]))
        assert st.cell[2] == c(to) and st.facing[2] is Facing.N


def test_full_throttle_refusals() -> None:
    g = game(*FAR, tank(S, "c2", "C"), full_throttle=True)
    st = g.initial_state()
    with pytest.raises(IllegalMoveError):  # a 2-cell order without the token
        play(g, st, {2: ("c4", Facing.N)})
    with pytest.raises(IllegalMoveError):  # "cannot be applied with direction change"
        play(g, st, {2: ("e4", Facing.E)}, actions=Actions(full_throttle=[2]))
    play(g, st, {2: ("c4", Facing.N)}, actions=Actions(full_throttle=[2]))
    with pytest.raises(IllegalMoveError):  # once per game
        play(g, st, {2: ("c6", Facing.N)}, actions=Actions(full_throttle=[2]))
    # a wreck on the middle cell c3 stops it
    g = game(*FAR, tank(S, "c2", "C"), tank(N, "c3", "1", 2, wreck=True), full_throttle=True)
    with pytest.raises(IllegalMoveError):
        play(g, g.initial_state(), {2: ("c4", Facing.N)}, actions=Actions(full_throttle=[2]))


def test_full_throttle_conflict_at_the_end_cell() -> None:
    # South c2 throttles to c4 while north on c5 (facing S) moves forward to c4: two units
    # ordered into one cell -> neither moves (docs/rules.md §1.5).
    g = game(*FAR, tank(S, "c2", "C"), tank(N, "c5", "1"), full_throttle=True)
    st = g.initial_state()
    play(g, st, {2: ("c4", Facing.N), 3: ("c4", Facing.S)}, actions=Actions(full_throttle=[2]))
    assert (st.cell[2], st.cell[3]) == (c("c2"), c("c5"))


# --- quick sand ---------------------------------------------------------------------------
def test_quick_sand_stops_tanks_for_two_rounds_not_infantry() -> None:
    # Token on c3 at the start of round 1: "valid for 2 turns. None of the tanks can now
    # move through that area, including your own": c2 facing N may not go forward in
    # rounds 1 and 2; in round 3 it may. An AT (infantry) on b2 may step onto c3.
    g = game(*FAR, tank(S, "c2", "C"), at(S, "b2"), quick_sand=True)
    st = g.initial_state()
    with pytest.raises(IllegalMoveError, match="illegal order"):
        play(g, st, {2: ("c3", Facing.N)}, actions=Actions(quick_sand={0: c("c3")}))
    play(g, st, {3: ("c3", Facing.N)}, actions=Actions(quick_sand={0: c("c3")}))
    assert st.cell[3] == c("c3")
    assert all(o[0] != c("c3") for o in st.orders(2))
    with pytest.raises(IllegalMoveError, match="illegal order"):
        play(g, st, {2: ("c3", Facing.N)})
    play(g, st, {3: ("b2", Facing.N)})  # round 2: the AT leaves; the sand still lies
    play(g, st, {2: ("c3", Facing.N)})  # round 3: gone
    assert st.cell[2] == c("c3")
    with pytest.raises(IllegalMoveError, match="quick sand"):  # once per game
        play(g, st, actions=Actions(quick_sand={0: c("c5")}))


# --- smoke --------------------------------------------------------------------------------
def test_smoke_blocks_the_line_of_fire_for_one_round() -> None:
    # South C on f3, north 1 on f8 facing S: f3 is in its zone (f4..f7 empty). South lays
    # smoke on f4 (vacant, next to C): the line f8 -> f3 crosses f4's interior -> blocked.
    g = game(*FAR, tank(S, "f3", "C"), tank(N, "f8", "1"), tank(S, "g3", "1"), smoke=True)
    st = g.initial_state()
    assert c("f3") in st.fire_zone(3)
    with pytest.raises(IllegalMoveError, match="fire zone"):
        play(g, st, shells={3: "f3"}, actions=Actions(smoke={0: c("f4")}))
    play(g, st, actions=Actions(smoke={0: c("f4")}))
    assert c("f3") in st.fire_zone(3)  # the next round it is gone
    play(g, st, shells={3: "f3"})
    assert st.damage[2] == 1


@pytest.mark.parametrize("cell", ["g3", "f6", "l12"])
def test_smoke_needs_a_vacant_cell_next_to_an_own_tank(cell: str) -> None:
    # g3 holds an own tank (not vacant); f6 is 3 rows from f3 and not next to g3; l12 is
    # next to no south tank (and holds a north tank).
    g = game(*FAR, tank(S, "f3", "C"), tank(N, "f8", "1"), tank(S, "g3", "1"), smoke=True)
    with pytest.raises(IllegalMoveError, match="smoke"):
        play(g, g.initial_state(), actions=Actions(smoke={0: c(cell)}))


# --- air strike ---------------------------------------------------------------------------
def strike_game(**opts: object) -> Game:
    # South tanks on c2 and e2 (plus a1); north tanks on c7 and c9 (plus l12).
    return game(
        *FAR,
        tank(S, "c2", "C"),
        tank(S, "e2", "2A"),
        tank(N, "c7", "1"),
        tank(N, "c9", "1B", 1),
        air_strike=True,
        **opts,
    )


def test_air_strike_hits_two_cells_of_the_token_column() -> None:
    # Token on c1 (south's last line of defence); "2 more shells anywhere on that column":
    # c7 (tank 1: first hit) and c9 (1B, damaged: second hit -> out). South has lost no
    # tank, so both shells come from active tanks: of its 3 tanks only 3 - 2 = 1 may fire.
    g = strike_game()
    st = g.initial_state()
    strike = Actions(air_strike={0: (c("c1"), [c("c7"), c("c9")])})
    with pytest.raises(IllegalMoveError, match="at most 1 tank shells"):
        play(g, st, shells={0: "a2", 2: "c3"}, actions=strike)
    play(g, st, shells={0: "a2"}, actions=strike)
    assert st.damage[4] == 1 and not st.alive[5] and st.wreck[5]
    with pytest.raises(IllegalMoveError, match="no air strike"):  # once per game
        play(g, st, actions=Actions(air_strike={0: (c("e1"), [c("e9")])}))


def test_air_strike_shells_of_lost_tanks_are_free() -> None:
    # "You can either use shells of tanks that were hit and are out of the game ... or use
    # a shell of an active tank": north 1 on c7 facing S covers c2 (f = 5, s = 0; c6..c3
    # empty), so the damaged C on c2 is out in round 1. In round 2 one strike shell is paid
    # by C's shell: both live south tanks (a1, e2) still fire.
    g = game(
        *FAR,
        tank(S, "c2", "C", 1),
        tank(S, "e2", "2A"),
        tank(N, "c7", "1"),
        air_strike=True,
    )
    st = g.initial_state()
    play(g, st, shells={4: "c2"})
    assert not st.alive[2]
    one = Actions(air_strike={0: (c("c1"), [c("c7")])})
    play(g, st, shells={0: "a2", 3: "e3"}, actions=one)
    assert st.damage[4] == 1


@pytest.mark.parametrize(
    "token, targets",
    [
        ("c2", ["c7"]),  # the token goes on the last line of defence (own row 1)
        ("c12", ["c7"]),  # north's row 1, not south's
        ("c1", ["d7"]),  # another column
        ("c1", ["c1"]),  # the token's own cell ("air field")
        ("c1", ["c5", "c6", "c7"]),  # 2 more shells at most
    ],
)
def test_air_strike_refusals(token: str, targets: list[str]) -> None:
    g = strike_game()
    with pytest.raises(IllegalMoveError, match="air strike"):
        play(
            g,
            g.initial_state(),
            actions=Actions(air_strike={0: (c(token), [c(t) for t in targets])}),
        )


# --- mine clearing ------------------------------------------------------------------------
# South minefield across c4 d4 e4, lane d4 with its arrow N (entered only by a straight
# step north from d3, docs/rules.md §1.5); north minefield across h9 i9 j9, lane i9 arrow S.
MINES_S = Terrain("minefield", (c("c4"), c("d4"), c("e4")), S, lane=c("d4"), arrow=Facing.N)
MINES_N = Terrain("minefield", (c("h9"), c("i9"), c("j9")), N, lane=c("i9"), arrow=Facing.S)


def test_mine_clearing_opens_one_cell_to_its_owner_for_two_rounds() -> None:
    # South C on c3 facing N: c4 is a minefield cell (impassable). "Once placed on the board
    # you can cross on that specific area. This action is valid for two turns": token laid
    # at the start of round 1 -> c4 enterable in rounds 1 and 2, not in round 3.
    g = game(*FAR, tank(S, "c3", "C"), terrain=(MINES_S, MINES_N), mine_clearing=True)
    st = g.initial_state()
    with pytest.raises(IllegalMoveError, match="illegal order"):
        play(g, st, {2: ("c4", Facing.N)})
    play(g, st, actions=Actions(mine_clearing={0: c("c4")}))
    assert (c("c4"), Facing.N) in st.orders(2)  # round 2: still cleared
    play(g, st)
    assert (c("c4"), Facing.N) not in st.orders(2)  # round 3: the token is gone
    with pytest.raises(IllegalMoveError, match="may not clear"):  # once per game
        play(g, st, actions=Actions(mine_clearing={0: c("e4")}))


def test_mine_clearing_only_for_its_owner() -> None:
    # "Only the commander applying the token may pass on it": north 1 on c5 facing S may
    # not step forward onto c4 although south cleared it; south C on c3 may.
    g = game(
        *FAR,
        tank(S, "c3", "C"),
        tank(N, "c5", "1"),
        terrain=(MINES_S, MINES_N),
        mine_clearing=True,
    )
    st = g.initial_state()
    with pytest.raises(IllegalMoveError, match="illegal order"):
        play(g, st, {3: ("c4", Facing.S)}, actions=Actions(mine_clearing={0: c("c4")}))
    play(g, st, {2: ("c4", Facing.N)}, actions=Actions(mine_clearing={0: c("c4")}))
    assert st.cell[2] == c("c4")


def test_cleared_lane_may_be_entered_diagonally() -> None:
    # c3 facing N, forward-right is d4: a diagonal entry into the lane is not allowed
    # (docs/rules.md §1.5) until south clears d4, which is then open ground for it.
    g = game(*FAR, tank(S, "c3", "C"), terrain=(MINES_S, MINES_N), mine_clearing=True)
    st = g.initial_state()
    assert all(o[0] != c("d4") for o in st.orders(2))
    play(g, st, {2: ("d4", Facing.N)}, actions=Actions(mine_clearing={0: c("d4")}))
    assert st.cell[2] == c("d4")


def test_enemy_minefield_only_with_a_tank_in_the_enemy_half() -> None:
    # "on your enemy's minefield only when you have a tank on the enemy's side of the board":
    # with south tanks on c3 only, h9 is refused; with one on g8 (own row 8 > 6) allowed.
    g = game(*FAR, tank(S, "c3", "C"), terrain=(MINES_S, MINES_N), mine_clearing=True)
    with pytest.raises(IllegalMoveError, match="may not clear"):
        play(g, g.initial_state(), actions=Actions(mine_clearing={0: c("h9")}))
    g = game(*FAR, tank(S, "g8", "C"), terrain=(MINES_S, MINES_N), mine_clearing=True)
    st = g.initial_state()
    play(g, st, {2: ("h9", Facing.N)}, actions=Actions(mine_clearing={0: c("h9")}))
    assert st.cell[2] == c("h9")  # g8 facing N, forward-right h9


# --- Red Cross ----------------------------------------------------------------------------
def test_red_cross_removes_a_flame_next_to_it() -> None:
    # "place the token at any vacant square on their half ... at the end of any turn" (= the
    # start of our round 1); "only at the end of the next turn after it was placed" (= the
    # end of round 1); "a hit tank located at any of the surrounding squares ... including
    # the token's area itself, can be fixed": C damaged on d3, token on c2 (diagonal
    # neighbour). The token is then removed.
    g = game(*FAR, tank(S, "d3", "C", 1), red_cross=True)
    st = g.initial_state()
    play(g, st, actions=Actions(red_cross={0: c("c2")}, red_cross_repair=[2]))
    assert st.damage[2] == 0 and st.adv.crosses == {}


def test_red_cross_brings_back_a_tank_hit_twice_that_round() -> None:
    # North 1 on d8 facing S covers d3 (f = 5, s = 0; d7..d4 empty): C's second hit. "A tank
    # that is hit a second time may also be recovered ... only if the Red Cross was
    # activated at the end of the turn it was hit. That tank continues the battle with a
    # hit mark": alive, one hit, no wreck, not counted as a kill.
    g = game(*FAR, tank(S, "d3", "C", 1), tank(N, "d8", "1"), red_cross=True)
    st = g.initial_state()
    play(g, st, shells={3: "d3"}, actions=Actions(red_cross={0: c("c2")}, red_cross_repair=[2]))
    assert st.alive[2] and not st.wreck[2] and st.damage[2] == 1
    assert st.kills == [0, 0] and not st.wreck_mask >> c("d3") & 1


def test_red_cross_out_of_range_or_enemy_on_it_does_nothing() -> None:
    # C on d3 is 2 columns from the token on b2: out of range, the token stays. Then north 1
    # on c5 (facing S) drives onto the token's cell c4 next to C: "If an enemy tank is on
    # your Red Cross you cannot activate it"; once it has moved on to c3, C is repaired.
    g = game(*FAR, tank(S, "d3", "C", 1), red_cross=True)
    st = g.initial_state()
    play(g, st, actions=Actions(red_cross={0: c("b2")}, red_cross_repair=[2]))
    assert st.damage[2] == 1 and st.adv.crosses == {0: c("b2")}
    g = game(*FAR, tank(S, "d3", "C", 1), tank(N, "c5", "1"), red_cross=True)
    st = g.initial_state()
    play(
        g,
        st,
        {3: ("c4", Facing.S)},
        actions=Actions(red_cross={0: c("c4")}, red_cross_repair=[2]),
    )
    assert st.cell[3] == c("c4") and st.damage[2] == 1
    play(g, st, {3: ("c3", Facing.S)}, actions=Actions(red_cross_repair=[2]))
    assert st.damage[2] == 0


@pytest.mark.parametrize(
    "cell, why",
    [
        ("d3", "may not lay"),  # not vacant (C stands there)
        ("d7", "may not lay"),  # south's own row 7: the enemy half
    ],
)
def test_red_cross_placement_refusals(cell: str, why: str) -> None:
    g = game(*FAR, tank(S, "d3", "C", 1), red_cross=True)
    with pytest.raises(IllegalMoveError, match=why):
        play(g, g.initial_state(), actions=Actions(red_cross={0: c(cell)}))


def test_red_cross_once_per_game_and_only_with_a_token() -> None:
    g = game(*FAR, tank(S, "d3", "C", 1), red_cross=True)
    st = g.initial_state()
    with pytest.raises(IllegalMoveError, match="Red Cross repair"):  # no token yet
        play(g, st, actions=Actions(red_cross_repair=[2]))
    play(g, st, actions=Actions(red_cross={0: c("c2")}, red_cross_repair=[2]))
    with pytest.raises(IllegalMoveError, match="may not lay"):  # used
        play(g, st, actions=Actions(red_cross={0: c("c1")}))
