"""Tank Wars game records carry their result (docs/formats.md): ``tankmap replay`` refuses a
record whose result the replay does not reproduce (one line naming the file and both
results, exit 2), and still plays an older record without one.

The hand-made record: south's heavy on a1 against north's medium on c12 with 1 AP left,
no supply drops, one round. South places its gunfire token on c12 and the medium stays:
"a vehicle that ends movement on an enemy gunfire token loses 1 AP per token" (and a
vehicle that did not move is hit too, ``gunfire_hits_stationary``), so it is destroyed and
north has lost its last vehicle: south wins (destroyed) after 1 round — whatever the dice
(if north's medium is hit by south's long-range artillery shot first, it is destroyed in
the artillery phase of the same round: the same result)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from tw_support import cell, scenario, unit

from tankmap.analysis.simulation.tank_wars.driver import DRIVER, TankWarsRecord
from tankmap.cli import main
from tankmap.maps import map_path
from tankmap.rules.errors import IllegalMoveError, ScenarioFormatError
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.tank_wars.engine import Orders

SOUTH_WINS = {"winner": "south", "end": "destroyed", "rounds": 1}


def hand_record(dice_seed: int, result: dict[str, object] | None) -> TankWarsRecord:
    s = scenario(
        [unit("heavy", "south", "a1"), unit("medium", "north", "c12", armour=1)],
        supply_drops=0,
    )
    orders = (Orders(gunfire=(cell("c12"),)), Orders())
    return TankWarsRecord(s, dice_seed, [orders], result)


def write(tmp_path: Path, doc: dict[str, object]) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), "utf-8")
    return path


@pytest.mark.parametrize("dice_seed", [0, 1, 12345])
def test_the_hand_made_game_replays_with_its_result(
    tmp_path: Path, dice_seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = hand_record(dice_seed, SOUTH_WINS)
    assert not rec.replay().vehicles_of(rec.scenario.units[1].side)  # north has none left
    assert main(["replay", str(write(tmp_path, rec.to_json()))]) == 0
    assert "result: South wins (destroyed) after 1 round" in capsys.readouterr().out


@pytest.mark.parametrize(
    "claimed, said",
    [
        ({"winner": "north", "end": "destroyed", "rounds": 1}, "North wins (destroyed)"),
        ({"winner": "south", "end": "destroyed", "rounds": 2}, "South wins (destroyed) after 2"),
        ({"winner": None, "end": None, "rounds": 1}, "undecided after 1 round"),
    ],
)
def test_a_result_the_replay_does_not_reproduce_is_refused(
    tmp_path: Path,
    claimed: dict[str, object],
    said: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    rec = hand_record(7, claimed)
    with pytest.raises(IllegalMoveError, match="South wins \\(destroyed\\) after 1 round"):
        rec.replay()
    path = write(tmp_path, rec.to_json())
    assert main(["replay", str(path)]) == 2
    out = capsys.readouterr()
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and "Traceback" not in out.err
    assert f"the record says {said}" in lines[0]
    assert "but replaying gives South wins (destroyed) after 1 round" in lines[0]
    assert out.out == ""


@pytest.mark.parametrize("result", ["missing", None])
def test_an_older_record_without_a_result_still_replays(
    tmp_path: Path, result: object, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = hand_record(7, None).to_json()
    if result == "missing":
        del doc["result"]
    assert TankWarsRecord.from_json(doc).result is None
    assert main(["replay", str(write(tmp_path, doc))]) == 0
    assert "South wins (destroyed)" in capsys.readouterr().out


@pytest.mark.parametrize(
    "result, path",
    [
        ("south", "$.result"),
        ({"winner": "south", "end": "destroyed"}, "$.result"),
        ({"winner": "east", "end": "destroyed", "rounds": 1}, "$.result.winner"),
        ({"winner": "south", "end": 3, "rounds": 1}, "$.result.end"),
        ({"winner": "south", "end": "destroyed", "rounds": -1}, "$.result.rounds"),
        ({"winner": "south", "end": "destroyed", "rounds": True}, "$.result.rounds"),
    ],
)
def test_a_malformed_result_is_a_format_error(result: object, path: str) -> None:
    doc = hand_record(7, None).to_json()
    doc["result"] = result
    with pytest.raises(ScenarioFormatError) as err:
        TankWarsRecord.from_json(doc, "game.json")
    assert path in str(err.value) and "game.json" in str(err.value)


def test_a_simulated_record_carries_its_result_and_another_dice_seed_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    default = read_scenario(map_path("tank-wars/default"))
    prep = DRIVER.prepare(default)
    r = DRIVER.play(prep, ("heuristic", "heuristic"), np.random.default_rng(3), record=True)
    rec = r.record
    assert isinstance(rec, TankWarsRecord)
    winner = None if r.winner is None else r.winner.value
    assert rec.result is not None  # the engine's words: "destroyed" is an annihilation
    assert (rec.result["winner"], rec.result["rounds"]) == (winner, r.length)
    assert rec.result["end"] == {"annihilation": "destroyed", "limit": "round-limit"}.get(r.end)
    doc = rec.to_json()
    assert main(["replay", str(write(tmp_path, doc))]) == 0
    capsys.readouterr()
    doc["dice_seed"] = rec.dice_seed ^ 1  # other dice: another game
    assert main(["replay", str(write(tmp_path, doc))]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "game.json" in err[0]


def test_a_played_game_carries_its_result_finished_or_not() -> None:
    from tankmap.analysis.play import HUMAN, open_session
    from tankmap.analysis.replay import replay_record
    from tankmap.rules.geometry import Side

    default = read_scenario(map_path("tank-wars/default"))
    s = open_session(default, (HUMAN, HUMAN), 0)
    for side in (Side.SOUTH, Side.NORTH):
        s.submit(side, s.hint_line(side))
    assert not s.over  # one round played of a game that goes on: undecided after 1 round
    data = s.record_json()
    assert data["result"] == {"winner": None, "end": None, "rounds": 1}
    replay_record(data)  # reproduced
    s.set_players(("heuristic", "heuristic"))
    s.step_agents()  # to the end
    assert s.result is not None
    data = s.record_json()
    winner = None if s.result.winner is None else s.result.winner.value
    assert data["result"] == {"winner": winner, "end": s.result.reason, "rounds": len(s.rounds)}
    assert replay_record(data).result.to_json() == data["result"]
