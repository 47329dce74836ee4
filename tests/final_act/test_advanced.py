"""RULES §1.8 advanced rules in the reference engine: hand-made rounds from the rule texts
(seed 000 "Advanced Rules" 2–4 and "Expansion Rules", seed 001 "Repairing a damaged tank";
readings where the texts are silent: ``rules/final_act/engine_advanced.py``). Every expected
answer is derived in a comment from the text and the geometry of RULES §1.5–1.6.

Geometry used throughout (12 × 12, tank cone ``|s| + |f - 3| <= 3``, 1 <= f <= 6): a tank
facing S on x8 covers x3 (f = 5, s = 0: 0 + 2 <= 3) and x2 (f = 6: 0 + 3 <= 3) with the
cells between on the same column; a tank facing N on x2/x3 covers x3/x4 (f = 1: 0 + 2 <= 3).
"""

from __future__ import annotations

import pytest

from rules.board import Board
from rules.errors import IllegalMoveError
from rules.final_act.engine import Game, State
from rules.final_act.engine_advanced import Actions
from rules.final_act.tables import Order
from rules.geometry import Facing, Side
from rules.scenario import Scenario, Terrain, Unit

B = Board.of(12, 12)
S, N = Side.SOUTH, Side.NORTH
c = B.parse_cell


def tank(side: Side, cell: str, name: str, damage: int = 0, wreck: bool = False) -> Unit:
    facing = Facing.N if side is S else Facing.S
    return Unit("tank", side, c(cell), facing, name, damage, wreck=wreck)


def rm(side: Side, cell: str) -> Unit:
    return Unit("rm", side, c(cell), Facing.N if side is S else Facing.S)


def at(side: Side, cell: str) -> Unit:
    return Unit("at", side, c(cell), Facing.N if side is S else Facing.S)


def game(*units: Unit, terrain: tuple[Terrain, ...] = (), **options: object) -> Game:
    opts = {"extra_forces": True, **options}
    return Game(Scenario("final-act", B, opts, terrain, units))  # type: ignore[arg-type]


def stay(g: Game) -> list[Order | None]:
    return [None] * len(g.scenario.units)


def play(
    g: Game,
    st: State,
    moves: dict[int, tuple[str, Facing]] | None = None,
    shells: dict[int, str] | None = None,
    actions: Actions | None = None,
) -> None:
    orders = stay(g)
    for u, (cell, facing) in (moves or {}).items():
        orders[u] = (c(cell), facing)
    g.play_round(st, orders, {u: c(t) for u, t in (shells or {}).items()}, actions)


# Far-away tanks keep both sides in the game: south 2B a1, north 2B l12 (indices 0, 1).
FAR = (tank(S, "a1", "2B"), tank(N, "l12", "2B"))


# --- R/M repair (seed 001) ----------------------------------------------------------------
def test_rm_may_join_a_damaged_tank_only_with_rm_repair() -> None:
    # "R/M units are not allowed to share a square with a tank, with the exception of when
    # exercising the repair act": R/M on f2 facing N moves forward to f3 where the damaged
    # tank stays. With rm_repair the pair may end the round together; without it the R/M
    # bounces (RULES §1.3 forbids tank + R/M); an undamaged tank needs no repair: bounce.
    for opts, damage, joined in (({"rm_repair": True}, 1, True), ({}, 1, False)):
        g = game(*FAR, tank(S, "f3", "C", damage), rm(S, "f2"), **opts)
        st = g.initial_state()
        play(g, st, {3: ("f3", Facing.N)})
        assert (st.cell[3] == c("f3")) is joined
    g = game(*FAR, tank(S, "f3", "C", 0), rm(S, "f2"), rm_repair=True)
    st = g.initial_state()
    play(g, st, {3: ("f3", Facing.N)})
    assert st.cell[3] == c("f2")


def test_rm_repair_round_removes_the_flame_and_uses_one_repair() -> None:
    # Pair sharing f3; the side declares "Tank C repaired", both stay, the tank does not
    # fire: at the end of the round the flame is gone and the R/M has 2 - 1 = 1 repair left.
    g = game(*FAR, tank(S, "f3", "C", 1), rm(S, "f3"), rm_repair=True)
    st = g.initial_state()
    play(g, st, actions=Actions(rm_repair=[2]))
    assert st.damage[2] == 0 and st.alive[2] and st.alive[3]
    assert st.adv.rm_left[3] == 1


@pytest.mark.parametrize(
    "moves, shells, why",
    [
        ({3: ("f4", Facing.N)}, {}, "must stay"),  # "R/M cannot move and repair"
        ({2: ("f4", Facing.N)}, {}, "must stay"),  # "cannot move the next turn"
        ({}, {2: "f4"}, "does not fire"),  # "not allowed to shoot during this turn"
    ],
)
def test_rm_repair_keeps_both_idle(
    moves: dict[int, tuple[str, Facing]], shells: dict[int, str], why: str
) -> None:
    g = game(*FAR, tank(S, "f3", "C", 1), rm(S, "f3"), rm_repair=True)
    st = g.initial_state()
    with pytest.raises(IllegalMoveError, match=why):
        play(g, st, moves, shells, Actions(rm_repair=[2]))
    assert st.damage[2] == 1  # nothing happened


def test_rm_repair_needs_the_option_a_damaged_tank_and_the_rm_on_its_cell() -> None:
    g = game(*FAR, tank(S, "f3", "C", 1), rm(S, "f3"))
    with pytest.raises(IllegalMoveError):  # option off
        play(g, g.initial_state(), actions=Actions(rm_repair=[2]))
    g = game(*FAR, tank(S, "f3", "C", 0), rm(S, "f3"), rm_repair=True)
    with pytest.raises(IllegalMoveError):  # no flame to remove
        play(g, g.initial_state(), actions=Actions(rm_repair=[2]))
    g = game(*FAR, tank(S, "f3", "C", 1), rm(S, "f2"), rm_repair=True)
    with pytest.raises(IllegalMoveError):  # R/M not on the tank's cell
        play(g, g.initial_state(), actions=Actions(rm_repair=[2]))


def test_hit_during_repair_eliminates_tank_and_rm() -> None:
    # "If a tank and the R/M unit take a hit during repair, both are eliminated (and remain
    # on the board as wrecks)": north tank on f8 facing S covers f3 (f = 5, s = 0; f7..f4
    # empty). The damaged tank's second hit knocks it out, the R/M with it; the tank is a
    # wreck, no repair is used.
    g = game(*FAR, tank(S, "f3", "C", 1), rm(S, "f3"), tank(N, "f8", "1"), rm_repair=True)
    st = g.initial_state()
    play(g, st, shells={4: "f3"}, actions=Actions(rm_repair=[2]))
    assert not st.alive[2] and not st.alive[3] and st.wreck[2]
    assert st.adv.rm_left[3] == 2


def test_rm_repairs_at_most_two_tanks() -> None:
    # "Your R/M unit can repair up to 2 tanks during a game": repair, get hit again (the
    # tank takes the hit, not the R/M: RULES §1.6), repair, get hit, third repair refused.
    g = game(*FAR, tank(S, "f3", "C", 1), rm(S, "f3"), tank(N, "f8", "1"), rm_repair=True)
    st = g.initial_state()
    play(g, st, actions=Actions(rm_repair=[2]))
    play(g, st, shells={4: "f3"})
    assert st.damage[2] == 1 and st.alive[3]
    play(g, st, actions=Actions(rm_repair=[2]))
    assert st.damage[2] == 0 and st.adv.rm_left[3] == 0
    play(g, st, shells={4: "f3"})
    with pytest.raises(IllegalMoveError):
        play(g, st, actions=Actions(rm_repair=[2]))


# --- officer loss (seed 000, advanced rule 2) ---------------------------------------------
def officer_game(first: str, extra: tuple[Unit, ...] = (), **opts: object) -> Game:
    # South: the tank named ``first`` (damaged) on c2, tanks on e2, g2 and the far a1 tank;
    # north: 1B on c8 facing S covers c2 (f = 6, s = 0: 0 + 3 <= 3; c7..c3 empty).
    return game(
        *FAR,
        tank(S, "c2", first, 1),
        tank(S, "e2", "2A"),
        tank(S, "g2", "2"),
        tank(N, "c8", "1B"),
        *extra,
        officer_loss=True,
        **opts,
    )


SOUTH_THREE = {0: "a2", 3: "e3", 4: "g3"}  # a1/e2/g2 facing N: one cell ahead (f = 1)


def test_losing_an_officer_costs_a_shot_next_round_only() -> None:
    # C is out in round 1; south keeps a1, e2, g2 = 3 tanks (>= 3), so in round 2 its tanks
    # place at most 3 - 1 = 2 shells; in round 3 all 3 again.
    g = officer_game("C")
    st = g.initial_state()
    play(g, st, shells={5: "c2"})
    assert not st.alive[2] and st.adv.shots_lost == [1, 0]
    with pytest.raises(IllegalMoveError, match="at most 2 tank shells"):
        play(g, st, shells=SOUTH_THREE)
    play(g, st, shells={0: "a2", 3: "e3"})
    play(g, st, shells=SOUTH_THREE)


def test_losing_a_non_officer_costs_nothing() -> None:
    # 1A is not an officer (officers are C, 1, 2): round 2 keeps all 3 shells.
    g = officer_game("1A")
    st = g.initial_state()
    play(g, st, shells={5: "c2"})
    play(g, st, shells=SOUTH_THREE)


def test_officer_loss_only_while_three_tanks_remain() -> None:
    # "applied only when having at least 3 tanks left": south has only a1, C and e2, so
    # losing C leaves 2 tanks: no shot is lost (both remaining tanks fire in round 2).
    g = game(
        *FAR,
        tank(S, "c2", "C", 1),
        tank(S, "e2", "2A"),
        tank(N, "c8", "1B"),
        officer_loss=True,
    )
    st = g.initial_state()
    play(g, st, shells={4: "c2"})
    assert st.adv.shots_lost == [0, 0]
    play(g, st, shells={0: "a2", 3: "e3"})


# --- double shot (advanced rule 3) and quick shot (token) ---------------------------------
def shot_game(**opts: object) -> Game:
    # South C on f3 facing N covers f8 (f = 5, s = 0; f4..f7 empty); south 2A on k2 is
    # damaged and north 1B on k8 facing S covers k2 (f = 6). North 1 stands on f8.
    return game(
        *FAR,
        tank(S, "f3", "C"),
        tank(S, "k2", "2A", 1),
        tank(N, "f8", "1"),
        tank(N, "k8", "1B"),
        **opts,
    )


def test_double_shot_only_after_a_loss_then_two_hits_knock_out() -> None:
    g = shot_game(double_shot=True)
    st = g.initial_state()
    # "only after one of your tanks is out of the game": none lost yet.
    with pytest.raises(IllegalMoveError, match="not available"):
        play(g, st, shells={2: "f8"}, actions=Actions(double_shot={2: c("f8")}))
    play(g, st, shells={5: "k2"})  # 2A's second hit: south has lost a tank
    assert not st.alive[3]
    # C fires its shell and the double shot on f8: tank 1 takes 2 hits -> out, a wreck.
    play(g, st, shells={2: "f8"}, actions=Actions(double_shot={2: c("f8")}))
    assert not st.alive[4] and st.wreck[4]
    # "Once during a game".
    with pytest.raises(IllegalMoveError, match="not available"):
        play(g, st, shells={2: "f7"}, actions=Actions(double_shot={2: c("f7")}))


def test_double_shot_needs_the_tanks_own_shell_and_its_fire_zone() -> None:
    g = shot_game(double_shot=True)
    st = g.initial_state()
    play(g, st, shells={5: "k2"})
    with pytest.raises(IllegalMoveError, match="no normal shell"):
        play(g, st, actions=Actions(double_shot={2: c("f8")}))
    # f10 is 7 ahead of f3: outside the cone (f <= 6).
    with pytest.raises(IllegalMoveError, match="fire zone"):
        play(g, st, shells={2: "f8"}, actions=Actions(double_shot={2: c("f10")}))


def test_quick_shot_is_a_separate_once_per_game_token() -> None:
    # Both options on (each usable once): no quick shot before a loss; after it, C places
    # its shell and the double shot on f8 (two hits: tank 1 out) and the quick shot on f7;
    # a second quick shot later is refused.
    g = shot_game(double_shot=True, quick_shot=True)
    st = g.initial_state()
    with pytest.raises(IllegalMoveError):
        play(g, st, shells={2: "f8"}, actions=Actions(quick_shot={2: c("f8")}))
    play(g, st, shells={5: "k2"})
    play(
        g,
        st,
        shells={2: "f8"},
        actions=Actions(double_shot={2: c("f8")}, quick_shot={2: c("f7")}),
    )
    assert not st.alive[4]
    with pytest.raises(IllegalMoveError):
        play(g, st, shells={2: "f7"}, actions=Actions(quick_shot={2: c("f6")}))


# --- repair behind a berm (advanced rule 4) -----------------------------------------------
BERM_S = Terrain("berm-small", (c("d3"), c("e3")), S)
BERM_N = Terrain("berm-small", (c("h10"), c("i10")), N)


def test_berm_repair_once_per_game() -> None:
    # South C damaged on d2; d3 (one step toward north) is a berm; d2 is own row 2 <= 6.
    # "During the repair turn the tank remains in its place and is unable to fire"; then
    # the flame is removed. "Repair one damaged tank during the game": with a flame again
    # (set by hand) a second repair is refused.
    g = game(*FAR, tank(S, "d2", "C", 1), terrain=(BERM_S,), berm_repair=True)
    st = g.initial_state()
    with pytest.raises(IllegalMoveError, match="does not fire"):
        play(g, st, shells={2: "d3"}, actions=Actions(berm_repair=[2]))
    with pytest.raises(IllegalMoveError, match="must stay"):
        play(g, st, {2: ("c3", Facing.N)}, actions=Actions(berm_repair=[2]))
    play(g, st, actions=Actions(berm_repair=[2]))
    assert st.damage[2] == 0
    st.damage[2] = 1
    with pytest.raises(IllegalMoveError, match="behind a berm"):
        play(g, st, actions=Actions(berm_repair=[2]))


def test_berm_repair_for_north_mirrors() -> None:
    # North 1 damaged on h11: toward south the next cell is h10, a north berm; own row 2.
    g = game(*FAR, tank(N, "h11", "1", 1), terrain=(BERM_N,), berm_repair=True)
    st = g.initial_state()
    play(g, st, actions=Actions(berm_repair=[2]))
    assert st.damage[2] == 0


@pytest.mark.parametrize(
    "cell, terrain",
    [
        ("d4", (BERM_S,)),  # in front of the berm, not behind it
        ("d3", (BERM_S,)),  # on the berm
        ("h9", (BERM_N,)),  # h10 is a berm ahead, but h9 is south's own row 9: enemy half
        ("d2", ()),  # no berm at all
    ],
)
def test_berm_repair_needs_own_half_and_a_berm_ahead(
    cell: str, terrain: tuple[Terrain, ...]
) -> None:
    g = game(*FAR, tank(S, cell, "C", 1), terrain=terrain, berm_repair=True)
    with pytest.raises(IllegalMoveError, match="behind a berm"):
        play(g, g.initial_state(), actions=Actions(berm_repair=[2]))


def test_hit_during_berm_repair_is_the_second_hit() -> None:
    # A north tank on a2 facing E covers d2 from the side (f = 3, s = 0: 0 + 0 <= 3; b2,
    # c2 empty). The repairing tank's second hit knocks it out: no repair happens.
    shooter = Unit("tank", N, c("a2"), Facing.E, "1")
    g = game(*FAR, tank(S, "d2", "C", 1), shooter, terrain=(BERM_S,), berm_repair=True)
    st = g.initial_state()
    play(g, st, shells={3: "d2"}, actions=Actions(berm_repair=[2]))
    assert not st.alive[2] and st.wreck[2]


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
    # ordered into one cell -> neither moves (RULES §1.5).
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
# step north from d3, RULES §1.5); north minefield across h9 i9 j9, lane i9 arrow S.
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
    # (RULES §1.5) until south clears d4, which is then open ground for it.
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
