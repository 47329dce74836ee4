"""One shell on two ATs of a side (docs/rules.md §1.6; seed 001: "If two AT units occupy the
same square and are hit by the enemy with one shell, one of the units is out of the game
(commander's choice)"): the owner names the AT it keeps (``Actions.at_spared``); without a
choice the lower unit index is out. Needs only Extra Forces, no §1.8 option."""

from __future__ import annotations

import json

import pytest
from advanced_support import FAR, N, S, c, game, play, stay, tank

from tankmap.analysis.simulation.final_act.agents.reference import (
    HeuristicPolicy,
    RandomPolicy,
    RoundView,
)
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.final_act.engine import Game
from tankmap.rules.final_act.engine_actions import Actions
from tankmap.rules.final_act.engine_record import FinalActRecord
from tankmap.rules.geometry import Facing
from tankmap.rules.scenario import Unit


def two_ats() -> Game:
    # South ATs (indices 2, 3) share d5: #2 faces E, #3 faces N. North 1 on d9 facing S
    # shells d5 (4 straight ahead; d8, d7, d6 empty).
    return game(
        *FAR,
        Unit("at", S, c("d5"), Facing.E),
        Unit("at", S, c("d5"), Facing.N),
        tank(N, "d9", "1"),
    )


@pytest.mark.parametrize("spared, out", [(None, 2), ([2], 3), ([3], 2)])
def test_the_owner_chooses_which_at_is_out(spared: list[int] | None, out: int) -> None:
    g = two_ats()
    st = g.initial_state()
    acts = None if spared is None else Actions(at_spared=spared)
    play(g, st, shells={4: "d5"}, actions=acts)
    assert not st.alive[out] and st.alive[5 - out]  # the other one (2 + 3 = 5)
    assert st.kills == [0, 1]


def test_sparing_needs_an_at_in_play() -> None:
    g = two_ats()
    with pytest.raises(IllegalMoveError, match="no AT"):
        play(g, g.initial_state(), actions=Actions(at_spared=[4]))


def test_the_choice_is_kept_in_game_records() -> None:
    g = two_ats()
    st = g.initial_state()
    orders = stay(g)
    acts = {0: Actions(at_spared=[2])}
    g.play_round(st, orders, {4: c("d5")}, acts[0])
    rec = FinalActRecord.of(st, [(orders, {4: c("d5")})], acts)
    again = FinalActRecord.loads(json.dumps(rec.to_json()))
    final = again.replay()
    assert final.alive[2] and not final.alive[3]


def test_heuristic_keeps_the_at_facing_the_enemy() -> None:
    # Both ATs stay on d5. #3 faces N: its zone (d6..d9 and around) holds north's tank on
    # d9; #2 faces E: its zone (e5..h5 and around) holds no enemy. The heuristic keeps #3;
    # the random policy leaves it to the default rule (no choice).
    g = two_ats()
    prep = Prepared(g)
    view = RoundView(g.initial_state(), prep)
    assert HeuristicPolicy(prep, 0).spare_ats(view, {}) == [3]
    assert RandomPolicy(prep, 0).spare_ats(view, {}) == []
    # one AT per cell: nothing to choose
    single = game(*FAR, Unit("at", S, c("d5"), Facing.N), tank(N, "d9", "1"))
    p1 = Prepared(single)
    assert HeuristicPolicy(p1, 0).spare_ats(RoundView(single.initial_state(), p1), {}) == []
