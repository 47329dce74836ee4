"""The Final Act play session without Qt: secret simultaneous orders, phases of a round,
a played round equal to the engine's ``apply_round``, take-back and records."""

from __future__ import annotations

import pytest

from tankmap.analysis.play import HUMAN, LineError, open_session
from tankmap.analysis.play.final_act import FinalActSession
from tankmap.analysis.play.records import record_lines, session_of_record
from tankmap.analysis.replay import replay_record
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.final_act.engine import Game
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario

MIRROR = read_scenario(map_path("final-act/mirror"))
EXTRA = read_scenario(map_path("final-act/extra-forces"))
TOKENS = {"smoke": True, "quick_sand": True, "red_cross": True, "mine_clearing": True}


def session(
    scenario: Scenario = MIRROR, players: tuple[str, str] = (HUMAN, HUMAN), seed: int = 0
) -> FinalActSession:
    s = open_session(scenario, players, seed)
    assert isinstance(s, FinalActSession)
    return s


@pytest.mark.parametrize(("scenario", "seed"), [(MIRROR, 1), (EXTRA, 2), (EXTRA, 5)])
def test_a_played_round_equals_the_engines_apply(scenario: Scenario, seed: int) -> None:
    s = session(scenario, seed=seed)
    game = Game(scenario)
    state = game.initial_state()
    for _ in range(4):
        if s.over:
            break
        lines = {side: s.hint_line(side) for side in s.waiting()}
        parts = {side: s.parse(side, line) for side, line in lines.items()}
        orders = [None] * len(state.kind)
        shells: dict[int, int] = {}
        from tankmap.rules.final_act.engine_actions import Actions

        acts = Actions()
        for part in parts.values():
            for u, o in part.orders.items():
                orders[u] = o
            shells.update(part.shells)
            acts.absorb(part.actions)
        game.apply_round(state, orders, shells, acts)
        for side, line in lines.items():
            s.submit(side, line)
        mine = s.state
        assert (mine.cell, mine.facing, mine.damage, mine.alive, mine.wreck) == (
            state.cell,
            state.facing,
            state.damage,
            state.alive,
            state.wreck,
        )
        assert (mine.winner, mine.end, mine.round) == (state.winner, state.end, state.round)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("C:f4N", "tank C: illegal order f4N"),  # two cells on (docs/rules.md §1.5)
        ("C:xa12", "tank C: a12 is not in its fire zone"),
        ("C:f3N 1:xa12", "tank 1: a12 is not in its fire zone"),
        ("repair:C", "no advanced rule (docs/rules.md §1.8) is on"),  # mirror: no R/M
    ],
)
def test_an_illegal_side_round_is_refused_by_the_engines_checks(line: str, reason: str) -> None:
    s = session()
    with pytest.raises(LineError) as err:
        s.submit(Side.SOUTH, line)
    assert reason in str(err.value) and repr(line) in str(err.value)
    assert s.waiting() == [Side.SOUTH, Side.NORTH]  # the game goes on


def test_orders_stay_secret_until_both_sides_have_given_them() -> None:
    s = session()
    before = s.position()
    s.submit(Side.SOUTH, "C:f3N")
    assert s.waiting() == [Side.NORTH] and s.steps == [] and s.revealed == []
    assert s.position() == before and s.record().rounds == []
    with pytest.raises(LineError, match="not South's decision"):
        s.submit(Side.SOUTH, "C:f3N")
    s.submit(Side.NORTH, "-")
    assert [side for side, _ in s.revealed] == [Side.SOUTH, Side.NORTH]
    assert s.steps[0].line.startswith("round 1: 1 moved (tank C (south) f2-f3)")
    assert s.waiting() == [Side.SOUTH, Side.NORTH] and s.round_number == 2


def test_mid_round_tokens_are_asked_after_the_moves_and_after_the_hits() -> None:
    s = session(MIRROR.with_options(**TOKENS))
    assert s.phase() == "start"  # quick sand and mine clearing are in hand
    s.submit(Side.SOUTH, "-")
    s.submit(Side.NORTH, "-")
    assert s.phase() == "orders"
    s.submit(Side.SOUTH, "C:f3N")
    s.submit(Side.NORTH, "-")
    assert s.phase() == "moved" and s.paused is not None
    b = MIRROR.board
    assert b.cell_name(s.position().units[3].cell) == "f3"  # the moves are made
    with pytest.raises(LineError, match="smoke"):
        s.submit(Side.SOUTH, "smoke:f3")  # not vacant: C stands there now
    s.submit(Side.SOUTH, "smoke:f4")
    s.submit(Side.NORTH, "-")
    assert s.phase() == "hit"
    s.submit(Side.SOUTH, "cross:a3")
    s.submit(Side.NORTH, "-")
    assert s.round_number == 2 and s.phase() == "start"
    assert s.record_json()["rounds"][0]["actions"] == {
        "smoke": {"south": "f4"},
        "red_cross": {"south": "a3"},
    }
    replay_record(s.record_json())  # the checked engine agrees


@pytest.mark.parametrize("players", [("heuristic", "random"), ("random", "heuristic")])
def test_agents_play_every_token_and_the_record_replays_line_for_line(
    players: tuple[str, str],
) -> None:
    options = {**TOKENS, "full_throttle": True, "air_strike": True, "double_shot": True}
    scenario = EXTRA.with_options(**options)
    s = session(scenario, players, seed=1)
    s.step_agents()
    assert s.over
    data = s.record_json()
    replay = replay_record(data)
    assert replay.result.to_json() == data["result"]
    again = session(scenario)
    for line in record_lines(data):
        again.submit(again.waiting()[0], line)
    assert again.record_json() == data


def test_take_back_starts_the_round_again_or_undoes_the_last_one() -> None:
    s = session(players=(HUMAN, "random"), seed=3)
    start = s.state.copy()
    s.submit(Side.SOUTH, "C:f3N")
    s.step_agents()
    assert s.round_number == 2
    s.submit(Side.SOUTH, "1:d4N")  # the person's part of round 2 ...
    assert s.undo() and s.round_number == 2 and s.waiting() == [Side.SOUTH, Side.NORTH]
    assert s.undo() and s.round_number == 1 and s.steps == []  # ... then round 1 itself
    assert (s.state.cell, s.state.facing) == (start.cell, start.facing)
    assert not s.undo()


def test_a_resumed_record_goes_on_where_it_stopped() -> None:
    s = session(EXTRA, ("random", "random"), seed=6)
    for _ in range(6):
        s.submit(s.waiting()[0], s.agent_line(s.waiting()[0]))
    data = s.record_json()
    resumed, lines = session_of_record(data, (HUMAN, "heuristic"))
    assert len(lines) == 6 and resumed.record_json() == data
    assert resumed.waiting() == [Side.SOUTH, Side.NORTH]


def test_legal_lines_list_each_units_orders_and_shells() -> None:
    s = session()
    lines = s.legal_lines(Side.SOUTH)
    c = next(line for line in lines if line.startswith("C "))
    # docs/rules.md §1.5: stay, forward, back, and the four diagonals with and without a turn
    assert c.startswith("C (tank on f2 N): orders f2N f3N f1N e3N e3W g3N g3E e1N e1W g1N g1E")
    assert len(lines) == 7


@pytest.mark.parametrize(
    ("scenario", "agent"),
    [
        (MIRROR, "ksearch:8"),
        (EXTRA, "ksearch:8"),  # the R/M repair is one ksearch plays
        (MIRROR.with_options(**TOKENS), "search"),  # advanced tokens: ksearch refuses them
    ],
)
def test_hint_asks_the_strongest_agent_that_plays_the_board(scenario: Scenario, agent: str) -> None:
    s = session(scenario)
    if s.phase() == "start":  # tokens in hand: play none, on to the orders
        s.submit(Side.SOUTH, "-")
        s.submit(Side.NORTH, "-")
    assert s.phase() == "orders"
    s.submit(Side.SOUTH, s.hint_line(Side.SOUTH))  # a line the session accepts
    assert s.hint_name(Side.SOUTH) == agent and s.waiting() == [Side.NORTH]
