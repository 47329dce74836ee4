"""``analysis.replay``: the positions of a replayed record are the engine's states, and what
each step says happened agrees with the simulation's own account of the game."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tankmap.analysis.replay import Replay, load_replay, replay_of, replay_record
from tankmap.analysis.run_games import SampleGame, sample_games
from tankmap.analysis.simulation.runner import record_game
from tankmap.maps import map_path
from tankmap.rules.errors import TankmapError
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.scenario import Scenario


def _scenario(name: str) -> Scenario:
    path = map_path(name)
    assert path is not None
    return read_scenario(path)


def _recorded(name: str, seed: int = 3, game: int = 1) -> tuple[Scenario, object, Replay]:
    scenario = _scenario(name)
    result, rec = record_game(scenario, "heuristic", seed=seed, game=game)
    return scenario, result, replay_of(rec, f"{name} game {game}")


def _deaths_agree(result: object, replay: Replay) -> None:
    """Every unit out in a step is a death the simulation counted, in that round."""
    units = replay.start.units
    seen = Counter(
        (o.side, units[o.unit].kind, o.cell, step.number) for step in replay.steps for o in step.out
    )
    deaths = Counter((d.side, d.kind, d.cell, d.round) for d in result.deaths)  # type: ignore[attr-defined]
    assert seen == deaths


def test_final_act_positions_are_the_engine_states() -> None:
    from tankmap.rules.final_act.engine import Game

    scenario, result, replay = _recorded("final-act/mirror")
    game = Game(scenario)
    st = game.initial_state()
    assert replay.position(0) == st.to_scenario()
    rec = result.record  # type: ignore[attr-defined]
    for k, (orders, shells) in enumerate(rec.rounds, 1):
        before = list(st.cell)
        game.play_round(st, orders, shells, rec.actions.get(k - 1))
        assert replay.position(k) == st.to_scenario(), k
        step = replay.steps[k - 1]
        assert {(m.unit, m.start, m.end) for m in step.moves} == {
            (u, before[u], st.cell[u]) for u in range(len(before)) if st.cell[u] != before[u]
        }
        assert sorted(s.cell for s in step.shells) == sorted(shells.values())
    assert replay.result.winner == result.winner  # type: ignore[attr-defined]
    assert replay.result.end == result.end  # type: ignore[attr-defined]
    assert replay.result.rounds == len(replay.steps) == result.length  # type: ignore[attr-defined]
    _deaths_agree(result, replay)
    assert result.end == "goal"  # type: ignore[attr-defined]
    # the winner's route (the simulation's own account) is the moves the replay shows
    units = replay.start.units
    (u,) = [
        i
        for i, unit in enumerate(units)
        if unit.label == result.winning_unit and unit.side is result.winner  # type: ignore[attr-defined]
    ]
    cells = [units[u].cell] + [m.end for s in replay.steps for m in s.moves if m.unit == u]
    assert tuple(cells) == result.route  # type: ignore[attr-defined]
    with pytest.raises(IndexError):
        replay.position(len(replay.steps) + 1)


def test_tank_chess_positions_are_the_engine_states() -> None:
    from tankmap.rules.tank_chess.announce import announcements
    from tankmap.rules.tank_chess.notation import parse_turn
    from tankmap.rules.tank_chess.state import GameState

    scenario, result, replay = _recorded("tank-chess/basic-16", game=3)  # shots, Check!
    st = GameState(scenario)
    assert replay.position(0) == st.to_scenario()
    rec = result.record  # type: ignore[attr-defined]
    assert len(replay.steps) == len(rec.turns) == result.length  # type: ignore[attr-defined]
    for k, text in enumerate(rec.turns, 1):
        turn = parse_turn(st, text)
        start = st.cell[turn[0]]
        st.play(turn)
        step = replay.steps[k - 1]
        assert replay.position(k) == st.to_scenario(), k
        assert step.label == f"turn {k}" and step.notation == text
        assert step.announcements == announcements(st)
        if turn[1] != start:
            (move,) = step.moves
            assert (move.unit, move.start) == (turn[0], start)
            assert move.end == (None if turn[1] < 0 else turn[1])
        assert len(step.shells) == (turn[3] >= 0)
    assert sum(len(s.out) for s in replay.steps) == 2
    assert any(s.announcements for s in replay.steps)
    got = st.outcome()
    assert got is not None and replay.result.winner == got.winner == result.winner  # type: ignore[attr-defined]
    assert replay.result.end == got.reason
    _deaths_agree(result, replay)


def test_tank_wars_positions_are_the_engine_states() -> None:
    from tankmap.rules.tank_wars.engine import play_round
    from tankmap.rules.tank_wars.state import initial_state, to_scenario

    scenario, result, replay = _recorded("tank-wars/default")
    rec = result.record  # type: ignore[attr-defined]
    dice = np.random.default_rng(rec.dice_seed)
    state = initial_state(scenario)
    assert replay.position(0) == to_scenario(state, scenario)
    for k, (south, north) in enumerate(rec.rounds, 1):
        state = play_round(state, south, north, dice)
        assert replay.position(k) == to_scenario(state, scenario), k
    assert replay.final == to_scenario(rec.replay(), scenario)
    assert replay.result.winner == result.winner  # type: ignore[attr-defined]
    assert replay.result.rounds == result.length  # type: ignore[attr-defined]
    _deaths_agree(result, replay)
    moved = [m for s in replay.steps for m in s.moves]
    assert moved and all(m.start != m.end for m in moved)


def test_a_file_and_the_record_object_replay_alike(tmp_path: Path) -> None:
    _scenario_, result, replay = _recorded("final-act/mirror", seed=1, game=0)
    path = tmp_path / "game.json"
    result.record.save(path)  # type: ignore[attr-defined]
    again = load_replay(path)
    assert again.steps == replay.steps and again.result == replay.result
    assert again.source == str(path)
    assert again.result_line().startswith("result: ")
    assert again.result_line().endswith(f"after {again.result.rounds} rounds")


def test_bad_records_are_tankmap_errors_naming_the_round(tmp_path: Path) -> None:
    _scenario_, result, _replay = _recorded("final-act/mirror", seed=1, game=0)
    data = result.record.to_json()  # type: ignore[attr-defined]
    with pytest.raises(TankmapError, match="not a game record"):
        replay_record({"format": "tankmap-scenario"}, "x.json")
    with pytest.raises(TankmapError, match="not a game record"):
        replay_record({"format": ["a list"]}, "x.json")
    bad = json.loads(json.dumps(data))
    bad["rounds"][1]["orders"][0] = "a12N"
    with pytest.raises(TankmapError, match=r"x.json: round 2: .*illegal order a12N"):
        replay_record(bad, "x.json")
    (tmp_path / "cut.json").write_text(json.dumps(data)[:-20])
    with pytest.raises(TankmapError, match="malformed JSON"):
        load_replay(tmp_path / "cut.json")


def test_sample_games_pick_the_shortest_and_longest_of_each_outcome() -> None:
    table = pd.DataFrame(
        {
            "game": [0, 1, 2, 3, 4, 5, 6],
            "winner": ["south", "north", "south", "south", "draw", "south", "north"],
            "length": [9, 12, 7, 15, 100, 7, 12],
            "end": ["goal", "goal", "goal", "annihilation", "limit", "goal", "goal"],
        }
    )
    got = sample_games(table)
    assert [(s.outcome, s.which, s.game, s.length) for s in got] == [
        ("south", "shortest", 2, 7),  # games 2 and 5 are equally short: the first
        ("south", "longest", 3, 15),
        ("north", "only", 1, 12),  # games 1 and 6 are equally long: one game to show
        ("draw", "only", 4, 100),
    ]
    assert sample_games(table[table["winner"] == "draw"]) == [
        SampleGame(4, "draw", "only", 100, "limit")
    ]
    assert got[1].describe(("White", "Black"), "turn") == (
        "White wins, longest: game 3 (15 turns, annihilation)"
    )


def test_decided_maps_count_losses_and_where_wins_ended() -> None:
    from tankmap.analysis.run_games import decided_maps
    from tankmap.rules.board import Board

    board = Board.of(12, 12)
    table = pd.DataFrame(
        {
            "winner": ["south", "north", "draw", "south"],
            "route": ["f1 f2 f12", "c12 c1", "", "a1 b12"],
            "deaths": ["north:tank:c5:tank south:at:d4:- north:tank:c5:tank", "", "", ""],
        }
    )
    maps = decided_maps(table, board)
    assert set(maps) == {"losses-south", "losses-north", "won-south", "won-north"}

    def cells(grid: np.ndarray) -> dict[str, int]:
        return {
            board.cell_name(board.cell(c, r)): int(grid[r, c])
            for r in range(board.rows)
            for c in range(board.columns)
            if grid[r, c]
        }

    assert cells(maps["losses-north"]) == {"c5": 2}
    assert cells(maps["losses-south"]) == {"d4": 1}
    assert cells(maps["won-south"]) == {"f12": 1, "b12": 1}
    assert cells(maps["won-north"]) == {"c1": 1}
