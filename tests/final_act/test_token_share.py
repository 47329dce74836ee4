"""How the action tokens are shared out (docs/rules.md §1.8, option ``token_share``; seed
000 "Expansion Rules": "an equal set of tokens or ... divide them randomly ... picking a
few each (for example, 3 out of 5)"). Hand-made hands and seeded deals."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from advanced_support import FAR, S, c, game, play, tank

from tankmap.analysis.simulation.final_act.agents.factory import make_policy
from tankmap.analysis.simulation.final_act.driver import DRIVER
from tankmap.analysis.simulation.runner import game_rng
from tankmap.rules.errors import IllegalMoveError, ScenarioFormatError
from tankmap.rules.final_act.engine_actions import Actions
from tankmap.rules.final_act.engine_record import FinalActRecord
from tankmap.rules.final_act.engine_tokens import deal

ON = {"smoke": True, "quick_sand": True, "full_throttle": True}
IN_PLAY = ["full_throttle", "smoke", "quick_sand"]  # ACTION_TOKENS order


def test_equal_sets_by_default() -> None:
    g = game(*FAR, **ON)
    st = g.initial_state()
    assert st.adv.held == ({t: 1 for t in IN_PLAY}, {t: 1 for t in IN_PLAY})
    g.adv.deal(st, np.random.default_rng(0))  # equal sets: nothing dealt
    assert st.adv.held == ({t: 1 for t in IN_PLAY}, {t: 1 for t in IN_PLAY})


@pytest.mark.parametrize("seed", range(8))
def test_random_division_of_both_sets(seed: int) -> None:
    # "set the tokens facing down and divide them randomly": the pool is both sets (two of
    # each token in play, 6 tokens); each side draws half (3). Same seed, same deal.
    hands = deal(IN_PLAY, "random", 3, np.random.default_rng(seed))
    assert sum(hands[0].values()) == sum(hands[1].values()) == 3
    total = Counter(hands[0]) + Counter(hands[1])
    assert total == Counter({t: 2 for t in IN_PLAY})
    assert hands == deal(IN_PLAY, "random", 3, np.random.default_rng(seed))


def test_two_of_a_kind_are_used_twice_and_none_never() -> None:
    # South holds two smoke tokens, north none: south lays smoke in round 1 and again in
    # round 2 (next to C on f3: f4, then e4), a third time is refused; north may never.
    g = game(*FAR, tank(S, "f3", "C"), **ON, token_share="random")
    st = g.initial_state()
    g.adv.set_hands(st, ({"smoke": 2, "quick_sand": 1}, {"full_throttle": 2, "quick_sand": 1}))
    play(g, st, actions=Actions(smoke={0: c("f4")}))
    play(g, st, actions=Actions(smoke={0: c("e4")}))
    with pytest.raises(IllegalMoveError, match="smoke"):
        play(g, st, actions=Actions(smoke={0: c("g4")}))
    with pytest.raises(IllegalMoveError, match="smoke"):
        play(g, st, actions=Actions(smoke={1: c("k12")}))  # next to north's l12 tank
    assert st.adv.held[0]["smoke"] == 0


def test_hands_must_hold_tokens_in_play() -> None:
    g = game(*FAR, **ON, token_share="random")
    st = g.initial_state()
    with pytest.raises(IllegalMoveError, match="red_cross"):  # not on in this game
        g.adv.set_hands(st, ({"red_cross": 1}, {}))
    with pytest.raises(IllegalMoveError, match="3 smoke"):  # only two sets exist
        g.adv.set_hands(st, ({"smoke": 3}, {}))


def test_pick_three_out_of_five() -> None:
    # Five tokens in play, tokens_each = 3: each side holds the 3 it picked, one each.
    five = {**ON, "air_strike": True, "red_cross": True}
    g = game(*FAR, **five, token_share="pick", tokens_each=3)
    st = g.initial_state()
    picks = {0: ["smoke", "air_strike", "red_cross"], 1: ["quick_sand", "smoke", "full_throttle"]}
    g.adv.deal(st, np.random.default_rng(0), lambda side, tokens, k: picks[side])
    assert st.adv.held == ({t: 1 for t in picks[0]}, {t: 1 for t in picks[1]})
    with pytest.raises(ValueError, match="pick 3 distinct"):
        g.adv.deal(st, np.random.default_rng(0), lambda side, tokens, k: ["smoke"] * 3)


def test_policies_pick_their_tokens() -> None:
    # The heuristic picks by its preference (full throttle, air strike, quick shot, smoke,
    # ...): of full throttle, smoke and quick sand, k = 2 -> full throttle and smoke. The
    # random policy picks 2 distinct tokens in play.
    sc = game(*FAR, **ON, token_share="pick", tokens_each=2).scenario
    prep = DRIVER.prepare(sc)
    rng = np.random.default_rng(3)
    assert make_policy("heuristic", (), prep, 0).pick_tokens(IN_PLAY, 2, rng) == [
        "full_throttle",
        "smoke",
    ]
    got = make_policy("random", (), prep, 0).pick_tokens(IN_PLAY, 2, rng)
    assert len(set(got)) == 2 and set(got) <= set(IN_PLAY)


@pytest.mark.parametrize("share", ["random", "pick"])
def test_dealt_games_record_and_replay_their_hands(share: str) -> None:
    # A simulated game deals from its own seed (the same seed deals the same hands); the
    # record keeps the hands, and the checked replay with them reproduces the game.
    sc = game(*FAR, tank(S, "f3", "C"), **ON, token_share=share, tokens_each=2).scenario
    prep = DRIVER.prepare(sc)
    for g in range(6):
        r = DRIVER.play(prep, ("random", "heuristic"), game_rng(4, g), record=True)
        rec = r.record
        assert isinstance(rec, FinalActRecord) and rec.hands is not None
        again = FinalActRecord.loads(json.dumps(rec.to_json()))
        assert again.hands == rec.hands
        state = again.replay()
        assert (state.winner, state.round, state.end) == (r.winner, r.length, r.end)
        same = DRIVER.play(prep, ("random", "heuristic"), game_rng(4, g), record=True)
        assert same.record.hands == rec.hands  # type: ignore[union-attr]


def test_bad_hands_in_a_record_name_their_path() -> None:
    sc = game(*FAR, **ON, token_share="random").scenario
    doc = FinalActRecord(sc, [], None, {}, ({"smoke": 1}, {})).to_json()
    doc["tokens"]["north"] = {"teleport": 1}
    with pytest.raises(ScenarioFormatError, match=r"tokens\.north\.teleport"):
        FinalActRecord.from_json(doc)


def test_a_second_red_cross_waits_until_the_first_is_used() -> None:
    # South holds two Red Cross tokens (a random deal). One lies on c2 (laid at the end of
    # round 1); laying the second while it is there is refused; once the first has
    # repaired C (round 2), the second may be laid at the end of round 3.
    g = game(*FAR, tank(S, "d3", "C", 1), red_cross=True, smoke=True, token_share="random")
    st = g.initial_state()
    g.adv.set_hands(st, ({"red_cross": 2}, {"smoke": 2}))
    play(g, st, actions=Actions(red_cross={0: c("c2")}))
    with pytest.raises(IllegalMoveError, match="may not lay"):
        play(g, st, actions=Actions(red_cross={0: c("e2")}))
    play(g, st, actions=Actions(red_cross_repair=[2]))
    assert st.damage[2] == 0 and st.adv.crosses == {}
    play(g, st, actions=Actions(red_cross={0: c("e2")}))
    assert st.adv.crosses == {0: c("e2")} and st.adv.held[0]["red_cross"] == 0
