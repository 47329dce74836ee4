"""docs/rules.md §1.8 advanced rules in the reference engine: hand-made rounds from the rule texts
(seed 000 "Advanced Rules" 2–4 and "Expansion Rules", seed 001 "Repairing a damaged tank";
readings where the texts are silent: ``rules/final_act/engine_advanced.py``). Every expected
answer is derived in a comment from the text and the geometry of docs/rules.md §1.5–1.6.

Geometry used throughout (12 × 12, tank cone ``|s| + |f - 3| <= 3``, 1 <= f <= 6): a tank
facing S on x8 covers x3 (f = 5, s = 0: 0 + 2 <= 3) and x2 (f = 6: 0 + 3 <= 3) with the
cells between on the same column; a tank facing N on x2/x3 covers x3/x4 (f = 1: 0 + 2 <= 3).
"""

from __future__ import annotations

import pytest
from advanced_support import FAR, N, S, c, game, play, rm, tank

from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.final_act.engine import Game
from tankmap.rules.final_act.engine_advanced import Actions
from tankmap.rules.geometry import Facing
from tankmap.rules.scenario import Terrain, Unit


# --- R/M repair (seed 001) ----------------------------------------------------------------
def test_rm_may_join_a_damaged_tank_only_with_rm_repair() -> None:
    # "R/M units are not allowed to share a square with a tank, with the exception of when
    # exercising the repair act": R/M on f2 facing N moves forward to f3 where the damaged
    # tank stays. With rm_repair (on by default with Extra Forces) the pair may end the
    # round together; without it the R/M bounces (docs/rules.md §1.3 forbids tank + R/M);
    # an undamaged tank needs no repair: bounce.
    cases = (({"rm_repair": True}, 1, True), ({}, 1, True), ({"rm_repair": False}, 1, False))
    for opts, damage, joined in cases:
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
    g = game(*FAR, tank(S, "f3", "C", 1), rm(S, "f3"), rm_repair=False)
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
    # empty). The damaged tank's second hit knocks it out, the R/M with it; both are
    # wrecks (the wrecks option is on by default), no repair is used.
    g = game(*FAR, tank(S, "f3", "C", 1), rm(S, "f3"), tank(N, "f8", "1"), rm_repair=True)
    st = g.initial_state()
    play(g, st, shells={4: "f3"}, actions=Actions(rm_repair=[2]))
    assert not st.alive[2] and not st.alive[3] and st.wreck[2] and st.wreck[3]
    assert st.adv.rm_left[3] == 2


def test_rm_repairs_at_most_two_tanks() -> None:
    # "Your R/M unit can repair up to 2 tanks during a game": repair, get hit again (the
    # tank takes the hit, not the R/M: docs/rules.md §1.6), repair, get hit, third repair refused.
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
    # Both options on (each usable once): no quick shot before a loss. After one loss
    # (2A out) south has one lost tank's shell a round (docs/rules.md §1.8: one budget per
    # round across double shot, quick shot and air strike), so double and quick shot in
    # the same round is refused; in two rounds both are allowed: round 2 C places its shell
    # and the double shot on f8 (two hits: tank 1 out), round 3 its shell and the quick
    # shot; a second quick shot later is refused.
    g = shot_game(double_shot=True, quick_shot=True)
    st = g.initial_state()
    with pytest.raises(IllegalMoveError):
        play(g, st, shells={2: "f8"}, actions=Actions(quick_shot={2: c("f8")}))
    play(g, st, shells={5: "k2"})
    with pytest.raises(IllegalMoveError, match="lost tanks' shells"):
        play(
            g,
            st,
            shells={2: "f8"},
            actions=Actions(double_shot={2: c("f8")}, quick_shot={2: c("f7")}),
        )
    play(g, st, shells={2: "f8"}, actions=Actions(double_shot={2: c("f8")}))
    assert not st.alive[4]
    play(g, st, shells={2: "f7"}, actions=Actions(quick_shot={2: c("f6")}))
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
