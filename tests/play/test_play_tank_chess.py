"""The Tank Chess play session without Qt: lines in the notation, refusals with reasons,
agents, take-back and the record (positions hand-checked against docs/rules.md §2)."""

from __future__ import annotations

import pytest

from tankmap.analysis.play import HUMAN, LineError, open_session
from tankmap.analysis.play.records import record_lines, session_of_record
from tankmap.analysis.play.tank_chess import TankChessSession
from tankmap.analysis.replay import replay_record
from tankmap.maps import map_path
from tankmap.rules.board import Board
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Unit

BASIC = read_scenario(map_path("tank-chess/basic-16"))


def session(players: tuple[str, str] = (HUMAN, HUMAN), seed: int = 1) -> TankChessSession:
    s = open_session(BASIC, players, seed)
    assert isinstance(s, TankChessSession)
    return s


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        # h2 is empty, h3 holds White's medium tank (docs/rules.md §2.2 diagram)
        ("h1h3N", "cannot end its move on h3 facing N"),
        ("h16h15S", "no White piece on h16"),
        ("zz9", "not Tank Chess notation"),
        ("h1h2Nxh16", "cannot shoot at h16"),
        ("h1esc", "cannot escape now"),
        ("q1q2N", "off the 16x16 board"),
    ],
)
def test_a_bad_line_is_refused_with_its_reason(line: str, reason: str) -> None:
    s = session()
    with pytest.raises(LineError) as err:
        s.submit(Side.SOUTH, line)
    message = str(err.value)
    assert reason in message and repr(line) in message and "\n" not in message
    assert s.steps == [] and s.waiting() == [Side.SOUTH]  # the game goes on


def test_turns_alternate_and_only_the_side_to_move_may_play() -> None:
    s = session()
    s.submit(Side.SOUTH, "h1h2N")  # the command tank steps forward
    assert s.waiting() == [Side.NORTH] and s.prompt() == "Black to move (turn 2)"
    with pytest.raises(LineError, match="not White's decision"):
        s.submit(Side.SOUTH, "h2h1N")
    s.submit(Side.NORTH, "i16i15S")
    assert [step.notation for step in s.steps] == ["h1h2N", "i16i15S"]
    assert s.record().turns == ["h1h2N", "i16i15S"]


def test_the_facing_may_be_left_out_and_is_written_in_full() -> None:
    s = session()
    s.submit(Side.SOUTH, "H1H2")
    assert s.steps[0].notation == "h1h2N"


def lone_commanders() -> Scenario:
    """White's command tank on h1 facing N and Black's on a16 facing S, nothing else."""
    return Scenario(
        ruleset="tank-chess",
        board=Board.of(16, 16),
        units=(
            Unit("command", Side.SOUTH, Board.of(16, 16).parse_cell("h1"), Facing.N),
            Unit("command", Side.NORTH, Board.of(16, 16).parse_cell("a16"), Facing.S),
        ),
    )


def test_an_escape_ends_the_game_as_the_rules_say() -> None:
    # docs/rules.md §4: a lone command tank on h1 facing N escapes in 4 turns (5+5+5+1)
    s = open_session(lone_commanders(), (HUMAN, HUMAN), 0)
    for white, black in (("h1h6N", "a16a15S"), ("h6h11N", "a15a14S"), ("h11h16N", "a14a13S")):
        s.submit(Side.SOUTH, white)
        s.submit(Side.NORTH, black)
    assert "Escape!" in s.steps[-2].announcements  # White could leave on its next turn
    s.submit(Side.SOUTH, "h16esc")
    assert s.result is not None and (s.result.winner, s.result.reason) == (Side.SOUTH, "escape")
    assert s.waiting() == [] and s.phase() == "over"
    with pytest.raises(LineError, match="the game is over"):
        s.submit(Side.NORTH, "a13a12S")


def test_a_game_between_agents_ends_with_the_engines_result_and_replays() -> None:
    s = session(("random", "heuristic"), seed=3)
    s.step_agents()
    assert s.over and s.steps[-1].number == len(s.steps)
    replay = replay_record(s.record_json())
    assert replay.result.winner == s.result.winner  # type: ignore[union-attr]
    assert replay.result.end == s.result.reason  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", [0, 5])
def test_agents_are_seeded(seed: int) -> None:
    one, two = session(("random", "random"), seed), session(("random", "random"), seed)
    for s in (one, two):
        for _ in range(6):
            s.submit(s.waiting()[0], s.agent_line(s.waiting()[0]))
    assert one.record().turns == two.record().turns


def test_take_back_returns_to_the_persons_turn_before_the_agents_reply() -> None:
    s = session((HUMAN, "random"), seed=2)
    start = s.state.position_key()
    assert not s.undo()  # nothing played yet
    s.submit(Side.SOUTH, "h1h2N")
    s.step_agents()
    assert len(s.steps) == 2
    assert s.undo()
    assert s.steps == [] and s.state.position_key() == start and s.waiting() == [Side.SOUTH]


def test_take_back_in_a_game_of_two_people_is_one_turn() -> None:
    s = session()
    s.submit(Side.SOUTH, "h1h2N")
    s.submit(Side.NORTH, "i16i15S")
    assert s.undo() and s.record().turns == ["h1h2N"] and s.waiting() == [Side.NORTH]


def test_hint_is_a_legal_line_and_changes_nothing() -> None:
    s = session((HUMAN, "random"))
    hint = s.hint_line(Side.SOUTH)
    assert hint in s.legal_lines(Side.SOUTH) and s.steps == []
    assert s.hint_name(Side.SOUTH) == "alphabeta"
    s.submit(Side.SOUTH, hint)


def test_a_record_resumes_and_its_lines_play_it_again() -> None:
    s = session(("random", "random"), seed=4)
    for _ in range(8):
        s.submit(s.waiting()[0], s.agent_line(s.waiting()[0]))
    data = s.record_json()
    assert record_lines(data) == data["turns"]
    resumed, _ = session_of_record(data, (HUMAN, "heuristic"))
    assert resumed.record_json() == data and resumed.waiting() == [Side.SOUTH]
    assert resumed.players == (HUMAN, "heuristic")


def test_an_unknown_agent_is_refused_with_the_known_names() -> None:
    with pytest.raises(ValueError, match="known: random, heuristic"):
        open_session(BASIC, (HUMAN, "cleverest"), 0)
