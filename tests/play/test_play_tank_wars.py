"""The Tank Wars play session without Qt: the artillery's dice before planning, a played
round equal to the engine's ``play_round`` with the same dice, take-back, records."""

from __future__ import annotations

import numpy as np
import pytest

from tankmap.analysis.play import HUMAN, LineError, open_session
from tankmap.analysis.play.records import record_lines
from tankmap.analysis.play.tank_wars import TankWarsSession
from tankmap.analysis.replay import replay_record
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.engine import initial_state, play_round

DEFAULT = read_scenario(map_path("tank-wars/default"))


def session(players: tuple[str, str] = (HUMAN, HUMAN), seed: int = 0) -> TankWarsSession:
    s = open_session(DEFAULT, players, seed)
    assert isinstance(s, TankWarsSession)
    return s


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_played_rounds_equal_the_engines_rounds_with_the_same_dice(seed: int) -> None:
    s = session(seed=seed)
    dice = np.random.default_rng(s.dice_seed)
    state = initial_state(DEFAULT)
    for _ in range(5):
        if s.over:
            break
        south, north = (s.hint_line(side) for side in (Side.SOUTH, Side.NORTH))
        orders = [s.parse(side, line) for side, line in ((Side.SOUTH, south), (Side.NORTH, north))]
        state = play_round(state, orders[0], orders[1], dice)
        s.submit(Side.SOUTH, south)
        s.submit(Side.NORTH, north)
        if s.over:
            assert s.state == state
        else:  # the session has rolled the next round's artillery already
            assert s.snapshots[-1][0] == state


def test_the_artillery_has_fired_when_the_sides_plan() -> None:
    s = session(seed=4)
    assert s.state.in_round and s.events  # where the shells fell is known
    assert {e.phase for e in s.events} == {"artillery"}


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("xa1", "only enemy fields and own craters"),
        ("xa7 xa8 xa9 xa10", "4 gunfire tokens, 3 in hand"),
        ("heavy:s2Q", "expected a command token"),
    ],
)
def test_bad_tokens_are_refused_and_the_game_goes_on(line: str, reason: str) -> None:
    s = session()
    with pytest.raises(LineError) as err:
        s.submit(Side.SOUTH, line)
    assert reason in str(err.value)
    assert s.waiting() == [Side.SOUTH, Side.NORTH]


def test_take_back_rolls_the_same_artillery_again() -> None:
    s = session(players=(HUMAN, "random"), seed=5)
    first = list(s.events)
    s.submit(Side.SOUTH, "heavy:s1N")
    s.step_agents()
    assert len(s.steps) == 1
    assert s.undo()
    assert s.steps == [] and s.events == first and s.waiting() == [Side.SOUTH, Side.NORTH]


def test_a_game_between_agents_replays_and_its_lines_play_it_again() -> None:
    s = session(("heuristic", "random"), seed=3)
    s.step_agents()
    data = s.record_json()
    replay = replay_record(data)
    assert s.result is not None and replay.result.winner == s.result.winner
    again = open_session(DEFAULT, (HUMAN, HUMAN), 0, dice_seed=data["dice_seed"])
    for line in record_lines(data):
        again.submit(again.waiting()[0], line)
    assert again.record_json() == data


def test_hint_asks_plan_and_its_line_plays() -> None:
    s = session(seed=3)
    line = s.hint_line(Side.SOUTH)
    assert s.hint_name(Side.SOUTH) == "plan:1024"
    s.submit(Side.SOUTH, line)
