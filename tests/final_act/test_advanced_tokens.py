"""docs/rules.md §1.8 expansion tokens in the reference engine (seed 000 "Expansion Rules"): full
throttle, quick sand, smoke, air strike, mine clearing, Red Cross. Hand-made rounds; every
expected answer is derived in a comment (geometry as in test_advanced.py's docstring)."""

from __future__ import annotations

import pytest
from advanced_support import FAR, N, S, at, c, game, play, rm, stay, tank

from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.final_act.engine import Game
from tankmap.rules.final_act.engine_advanced import Actions
from tankmap.rules.geometry import Facing
from tankmap.rules.scenario import Terrain


# --- full throttle ------------------------------------------------------------------------
# docs/rules.md §1.8: a tank only; the order is its one-cell move (the dial) and the token
# makes it two cells straight on; the cell passed over must not hold a tank, R/M or wreck at
# the start of the round, else the tank moves one cell.
def test_full_throttle_moves_two_cells_without_turning() -> None:
    # c2 facing N: forward (c3) twice -> c4; forward-right without turning (d3) twice ->
    # d3 -> e4.
    for one, two in (("c3", "c4"), ("d3", "e4")):
        g = game(*FAR, tank(S, "c2", "C"), full_throttle=True)
        st = g.initial_state()
        play(g, st, {2: (one, Facing.N)}, actions=Actions(full_throttle=[2]))
        assert st.cell[2] == c(two) and st.facing[2] is Facing.N


def test_full_throttle_refusals() -> None:
    g = game(*FAR, tank(S, "c2", "C"), rm(S, "e2"), full_throttle=True)
    st = g.initial_state()
    with pytest.raises(IllegalMoveError, match="illegal order"):  # a 2-cell order
        play(g, st, {2: ("c4", Facing.N)}, actions=Actions(full_throttle=[2]))
    with pytest.raises(IllegalMoveError, match="full throttle"):  # with a direction change
        play(g, st, {2: ("d3", Facing.E)}, actions=Actions(full_throttle=[2]))
    with pytest.raises(IllegalMoveError, match="full throttle"):  # for tanks only
        play(g, st, {3: ("e3", Facing.N)}, actions=Actions(full_throttle=[3]))
    with pytest.raises(IllegalMoveError, match="full throttle"):  # staying is no move
        play(g, st, actions=Actions(full_throttle=[2]))
    play(g, st, {2: ("c3", Facing.N)}, actions=Actions(full_throttle=[2]))
    assert st.cell[2] == c("c4")
    with pytest.raises(IllegalMoveError, match="not available"):  # once per game
        play(g, st, {2: ("c5", Facing.N)}, actions=Actions(full_throttle=[2]))


def test_full_throttle_never_through_a_tank_or_rm() -> None:
    # South 1 stands on c3 at the start of the round and moves on to c4; C on c2 throttles
    # forward: c3 held by a tank at the start -> C makes its one-cell move to c3 (vacated by
    # 1, so no conflict). The same with the own R/M on c3 moving to c4.
    for blocker in (tank(S, "c3", "1"), rm(S, "c3")):
        g = game(*FAR, tank(S, "c2", "C"), blocker, full_throttle=True)
        st = g.initial_state()
        play(
            g,
            st,
            {2: ("c3", Facing.N), 3: ("c4", Facing.N)},
            actions=Actions(full_throttle=[2]),
        )
        assert (st.cell[2], st.cell[3]) == (c("c3"), c("c4"))


def test_full_throttle_passes_over_an_at_and_stops_short_of_a_wreck() -> None:
    # An enemy AT on c3 is no obstacle to pass over: C goes c2 -> c4, the AT (not entered)
    # stays in the game. A wreck on c4 (the second cell) cannot be entered: C moves to c3.
    g = game(*FAR, tank(S, "c2", "C"), at(N, "c3"), full_throttle=True)
    st = g.initial_state()
    play(g, st, {2: ("c3", Facing.N)}, actions=Actions(full_throttle=[2]))
    assert st.cell[2] == c("c4") and st.alive[3]
    g = game(*FAR, tank(S, "c2", "C"), tank(N, "c4", "1", 2, wreck=True), full_throttle=True)
    st = g.initial_state()
    play(g, st, {2: ("c3", Facing.N)}, actions=Actions(full_throttle=[2]))
    assert st.cell[2] == c("c3")


def test_full_throttle_conflict_at_the_end_cell() -> None:
    # South c2 throttles to c4 while north on c5 (facing S) moves forward to c4: two units
    # ordered into one cell -> neither moves (docs/rules.md §1.5).
    g = game(*FAR, tank(S, "c2", "C"), tank(N, "c5", "1"), full_throttle=True)
    st = g.initial_state()
    play(g, st, {2: ("c3", Facing.N), 3: ("c4", Facing.S)}, actions=Actions(full_throttle=[2]))
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
# docs/rules.md §1.8: laid after the moves, before the shells land, on a vacant cell next to
# an own tank (where it now stands); shells whose line of fire (from where they were placed)
# crosses it do not land.
def smoke_game(**opts: object) -> Game:
    # South C on f2 (index 2), north 1 on f8 facing S (index 3).
    return game(*FAR, tank(S, "f2", "C"), tank(N, "f8", "1"), smoke=True, **opts)


def test_smoke_is_laid_after_the_moves_and_stops_a_shell() -> None:
    # C moves f2 -> f3; north 1 shells f3 (f = 5 straight ahead; f7..f4 empty at the
    # start). South lays smoke on f4: next to f3 where C now stands (it was 2 rows from
    # f2). The line f8 -> f3 crosses f4's interior -> the shell does not land: no hit.
    g = smoke_game()
    st = g.initial_state()
    play(g, st, {2: ("f3", Facing.N)}, shells={3: "f3"}, actions=Actions(smoke={0: c("f4")}))
    assert st.cell[2] == c("f3") and st.damage[2] == 0 and st.adv.used[0] == {"smoke"}
    play(g, st, shells={3: "f3"})  # the next round the smoke is gone
    assert st.damage[2] == 1


@pytest.mark.parametrize("cell", ["f3", "f5", "l12"])
def test_smoke_needs_a_cell_vacant_and_next_to_an_own_tank_after_the_moves(cell: str) -> None:
    # C moves f2 -> f3: f3 then holds C (not vacant); f5 is two rows from f3; l12 is next to
    # no south tank (and holds a north tank).
    g = smoke_game()
    with pytest.raises(IllegalMoveError, match="smoke"):
        play(g, g.initial_state(), {2: ("f3", Facing.N)}, actions=Actions(smoke={0: c(cell)}))


def test_smoke_may_go_where_a_unit_stood_before_the_moves() -> None:
    # South 1 on e3 moves to e4; e3 is vacant after the moves and next to C on f2.
    g = game(*FAR, tank(S, "f2", "C"), tank(S, "e3", "1"), smoke=True)
    st = g.initial_state()
    play(g, st, {3: ("e4", Facing.N)}, actions=Actions(smoke={0: c("e3")}))
    assert st.adv.used[0] == {"smoke"}


@pytest.mark.parametrize("owner_blocked", [True, False])
def test_smoke_blocks_its_owners_fire_by_option(owner_blocked: bool) -> None:
    # C on f2 and north 1 on f8 both stay and shell each other (f = 6 each way; f3..f7
    # empty). South's smoke on f3 lies on both lines. smoke_blocks_owner true (default):
    # both shells stop; false: only north's shell stops, C's shell damages north 1.
    g = smoke_game(smoke_blocks_owner=owner_blocked)
    st = g.initial_state()
    play(g, st, shells={2: "f8", 3: "f2"}, actions=Actions(smoke={0: c("f3")}))
    assert st.damage[2] == 0
    assert st.damage[3] == (0 if owner_blocked else 1)


def test_smoke_is_decided_blind_after_the_moves() -> None:
    # docs/rules.md §1.8: smoke is laid "after the movement orders are revealed and
    # executed, before shells are placed". Unchecked play asks ``respond`` in phase
    # "moved": it sees C on f3 (the move is made) but neither north's shell on f3 nor
    # north's air strike on the f column (declared with the shells); it lays smoke on f4.
    # The smoke stops north's shell (line f8 -> f3 crosses f4); the air strike has no line
    # of fire and lands on f5 (empty). The round's report keeps every declaration.
    g = smoke_game(air_strike=True)
    st = g.initial_state()
    seen = []

    def respond(phase: str, now: object, shells: dict[int, int], report: object) -> Actions:
        acts = report.actions  # type: ignore[attr-defined]
        seen.append((phase, st.cell[2], dict(shells), dict(acts.air_strike)))
        return Actions(smoke={0: c("f4")}) if phase == "moved" else Actions()

    orders = stay(g)
    orders[2] = (c("f3"), Facing.N)
    strike = Actions(air_strike={1: (c("f12"), [c("f5")])})
    report = g.apply_round(st, orders, {3: c("f3")}, strike, respond)
    assert seen == [("moved", c("f3"), {}, {})]
    assert st.damage[2] == 0 and report.stopped == [(3, c("f3"))]
    assert report.actions.smoke == {0: c("f4")}
    assert report.actions.air_strike == {1: (c("f12"), [c("f5")])}


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


def test_lost_tanks_shells_are_one_budget_per_round() -> None:
    # docs/rules.md §1.8: "in one round a side fires at most one extra shell per tank it has
    # lost, whichever tokens ask for them". As above C is out in round 1 (one lost tank).
    # Round 2: 2A (e2) fires its shell on e3 and a double shot on e4 (its zone): that uses
    # the one lost tank's shell, so the air strike's shell on c7 must take an active tank's
    # shell: of the live a1 and e2 only one may fire (a1's shell is refused).
    g = game(
        *FAR,
        tank(S, "c2", "C", 1),
        tank(S, "e2", "2A"),
        tank(N, "c7", "1"),
        air_strike=True,
        double_shot=True,
    )
    st = g.initial_state()
    play(g, st, shells={4: "c2"})
    both = Actions(air_strike={0: (c("c1"), [c("c7")])}, double_shot={3: c("e4")})
    with pytest.raises(IllegalMoveError, match="at most 1 tank shells"):
        play(g, st, shells={0: "a2", 3: "e3"}, actions=both)
    play(g, st, shells={3: "e3"}, actions=both)
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
# docs/rules.md §1.8: laid on a vacant own-half cell at the end of a round (after its hits);
# used at the end of a later round, decided after that round's hits, on a damaged tank on
# or next to it, not while an enemy tank stands on it.
def test_red_cross_removes_a_flame_next_to_it_a_round_later() -> None:
    # C damaged on d3. Round 1: the token goes on c2 at its end ("at the end of any turn").
    # Naming C in round 1 is refused: activation comes before the laying at a round's end,
    # and "only at the end of the next turn after it was placed". Round 2: c2 is a diagonal
    # neighbour of d3 ("any of the surrounding squares"): C's flame goes, the token too.
    g = game(*FAR, tank(S, "d3", "C", 1), red_cross=True)
    st = g.initial_state()
    with pytest.raises(IllegalMoveError, match="Red Cross"):
        play(g, st, actions=Actions(red_cross={0: c("c2")}, red_cross_repair=[2]))
    play(g, st, actions=Actions(red_cross={0: c("c2")}))
    assert st.adv.crosses == {0: c("c2")} and st.damage[2] == 1
    play(g, st, actions=Actions(red_cross_repair=[2]))
    assert st.damage[2] == 0 and st.adv.crosses == {}


def test_red_cross_is_laid_on_a_cell_vacant_at_the_end_of_the_round() -> None:
    # C moves d3 -> d4 in round 1: d3 is vacant at the round's end (the token may go there),
    # d4 is not.
    g = game(*FAR, tank(S, "d3", "C", 1), red_cross=True)
    with pytest.raises(IllegalMoveError, match="may not lay"):
        play(g, g.initial_state(), {2: ("d4", Facing.N)}, actions=Actions(red_cross={0: c("d4")}))
    st = g.initial_state()
    play(g, st, {2: ("d4", Facing.N)}, actions=Actions(red_cross={0: c("d3")}))
    assert st.adv.crosses == {0: c("d3")}


def test_red_cross_brings_back_a_tank_hit_twice_that_round() -> None:
    # Token laid on c2 at the end of round 1. Round 2: north 1 on d8 facing S shells d3
    # (f = 5, s = 0; d7..d4 empty): C's second hit. Decided after the hits: "A tank that is
    # hit a second time may also be recovered ... only if the Red Cross was activated at
    # the end of the turn it was hit. That tank continues the battle with a hit mark":
    # alive, one hit, no wreck, not counted as a kill.
    g = game(*FAR, tank(S, "d3", "C", 1), tank(N, "d8", "1"), red_cross=True)
    st = g.initial_state()
    play(g, st, actions=Actions(red_cross={0: c("c2")}))
    play(g, st, shells={3: "d3"}, actions=Actions(red_cross_repair=[2]))
    assert st.alive[2] and not st.wreck[2] and st.damage[2] == 1
    assert st.kills == [0, 0] and not st.wreck_mask >> c("d3") & 1


def test_red_cross_out_of_range_or_enemy_on_it_is_refused() -> None:
    # C on d3 is 2 columns from a token on b2: out of range. Then north 1 on c5 (facing S)
    # drives onto the token's cell c4 next to C: "If an enemy tank is on your Red Cross you
    # cannot activate it"; once it has moved on to c3, C is repaired.
    g = game(*FAR, tank(S, "d3", "C", 1), red_cross=True)
    st = g.initial_state()
    play(g, st, actions=Actions(red_cross={0: c("b2")}))
    with pytest.raises(IllegalMoveError, match="Red Cross"):
        play(g, st, actions=Actions(red_cross_repair=[2]))
    g = game(*FAR, tank(S, "d3", "C", 1), tank(N, "c5", "1"), red_cross=True)
    st = g.initial_state()
    play(g, st, actions=Actions(red_cross={0: c("c4")}))
    with pytest.raises(IllegalMoveError, match="Red Cross"):
        play(g, st, {3: ("c4", Facing.S)}, actions=Actions(red_cross_repair=[2]))
    play(g, st, {3: ("c4", Facing.S)})
    assert st.damage[2] == 1
    play(g, st, {3: ("c3", Facing.S)}, actions=Actions(red_cross_repair=[2]))
    assert st.damage[2] == 0


def test_red_cross_decided_by_respond_after_the_hits() -> None:
    # Unchecked play asks ``respond`` in phase "hit" after the hits: it sees C knocked out
    # by north's shell and names it; C is back with one hit.
    g = game(*FAR, tank(S, "d3", "C", 1), tank(N, "d8", "1"), red_cross=True)
    st = g.initial_state()
    play(g, st, actions=Actions(red_cross={0: c("c2")}))

    def respond(phase: str, now: object, shells: dict[int, int], report: object) -> Actions:
        out = [u for u, *_ in report.knocked_out]  # type: ignore[attr-defined]
        return Actions(red_cross_repair=out) if phase == "hit" and out == [2] else Actions()

    report = g.apply_round(st, stay(g), {3: c("d3")}, None, respond)
    assert st.alive[2] and st.damage[2] == 1 and report.actions.red_cross_repair == [2]


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
    with pytest.raises(IllegalMoveError, match="Red Cross"):  # no token yet
        play(g, st, actions=Actions(red_cross_repair=[2]))
    play(g, st, actions=Actions(red_cross={0: c("c2")}))
    play(g, st, actions=Actions(red_cross_repair=[2]))
    with pytest.raises(IllegalMoveError, match="may not lay"):  # used
        play(g, st, actions=Actions(red_cross={0: c("c1")}))
