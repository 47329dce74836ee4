"""`tankmap replay` plays records of all three games back through the checked engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tankmap.cli import main
from tankmap.rules.fileformat import read_scenario

MAPS = ["final-act/mirror", "tank-chess/basic-16", "tank-wars/default"]


def _record(tmp_path: Path, name: str) -> Path:
    rec = tmp_path / f"{name.replace('/', '-')}.json"
    assert (
        main(
            [
                "simulate",
                name,
                "--games",
                "1",
                "--workers",
                "1",
                "--seed",
                "3",
                "--record",
                str(rec),
                "--json",
            ]
        )
        == 0
    )
    return rec


@pytest.mark.parametrize("name", MAPS)
def test_replay_json_and_final_position(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = _record(tmp_path, name)
    sim = json.loads(capsys.readouterr().out)
    final = tmp_path / "final.json"
    assert main(["replay", str(rec), "--json", "-o", str(final)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) >= {"result", "final", "rounds"}
    assert set(doc["result"]) == {"winner", "end", "rounds"}
    winner = max(sim["wins"], key=lambda s: sim["wins"][s]) if sim["draws"] == 0 else None
    assert doc["result"]["winner"] == winner
    assert doc["result"]["rounds"] == len(doc["rounds"])
    assert read_scenario(final).ruleset == name.split("/")[0]
    assert doc["final"]["format"] == "tankmap-scenario"


def test_a_tampered_result_names_the_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = _record(tmp_path, "final-act/mirror")
    capsys.readouterr()
    data = json.loads(rec.read_text())
    real = data["result"]
    data["result"] = {**real, "winner": "north" if real["winner"] == "south" else "south"}
    rec.write_text(json.dumps(data))
    assert main(["replay", str(rec)]) == 2
    err = capsys.readouterr().err
    said = {"south": "South", "north": "North"}
    assert (  # in words (it printed the two result dicts)
        f"the record says {said[data['result']['winner']]} wins ({real['end']}) but replaying "
        f"gives {said[real['winner']]} wins ({real['end']}) (after round {real['rounds']})"
    ) in err


def test_an_illegal_turn_names_the_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = _record(tmp_path, "tank-chess/basic-16")
    capsys.readouterr()
    data = json.loads(rec.read_text())
    data["turns"][1] = "a1a16N"
    data["result"] = None
    rec.write_text(json.dumps(data))
    assert main(["replay", str(rec)]) == 2
    assert "turn 2 ('a1a16N')" in capsys.readouterr().err


def test_tank_chess_replay_prints_announcements(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = _record(tmp_path, "tank-chess/basic-16")
    capsys.readouterr()
    assert main(["replay", str(rec), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    said = [a for r in doc["rounds"] for a in r["announcements"]]
    if doc["result"]["end"] == "escape":  # an escape is announced the turn before
        assert "Escape!" in said


def test_not_a_record_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "x.json"
    f.write_text('{"format": "tankmap-scenario"}')
    assert main(["replay", str(f)]) == 2
    assert "not a game record" in capsys.readouterr().err


def test_a_tank_without_facing_plays_facing_forward(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Legal means playable: `check` accepts a tank with no facing, so `simulate` must too
    (before: 'has no facing')."""
    from dataclasses import replace

    from tankmap.maps import map_path
    from tankmap.rules.fileformat import write_scenario

    path = map_path("final-act/mirror")
    assert path is not None
    s = read_scenario(path)
    s = s.with_units([replace(s.units[0], facing=None), *s.units[1:]])
    f = tmp_path / "nofacing.json"
    write_scenario(s, f)
    assert main(["check", str(f)]) == 0
    assert main(["simulate", str(f), "--games", "4", "--workers", "1", "--json"]) == 0


def test_records_with_rm_repairs_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Extra Forces games of the kernel's heuristic (R/M repair on by default) record the
    repairs they declare; ``tankmap replay`` plays them back through the checked reference
    engine (every repair must be legal there) and reaches the recorded result."""
    from tankmap.analysis.simulation.final_act.kernel.games import play_many
    from tankmap.analysis.simulation.games import get_driver
    from tankmap.analysis.simulation.noise import game_key

    scenario = read_scenario(
        Path(__file__).resolve().parents[2] / "maps/final-act/extra-forces.json"
    )
    prep = get_driver("final-act").prepare(scenario)
    results = play_many(prep, ("heuristic", "random"), [game_key(5, g) for g in range(40)], True)
    with_repairs = [r for r in results if r.record is not None and r.record.actions]
    assert len(with_repairs) >= 2
    for i, r in enumerate(with_repairs[:3]):
        assert r.record is not None
        path = tmp_path / f"repairs-{i}.json"
        r.record.save(path)
        rounds = [n for n, a in r.record.actions.items() if a.rm_repair]
        saved = json.loads(path.read_text())
        assert all("rm_repair" in saved["rounds"][n]["actions"] for n in rounds)
        assert main(["replay", str(path), "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["result"]["rounds"] == r.length
        assert doc["result"]["winner"] == (None if r.winner is None else r.winner.value)


@pytest.mark.parametrize(
    ("name", "steps"), [("final-act/mirror", "rounds"), ("tank-chess/basic-16", "turns")]
)
def test_an_unfinished_game_is_not_decided(
    name: str, steps: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record of a game stopped early ends "not decided", as play says; before it read
    "result: draw (None) after 2 turns"."""
    rec = _record(tmp_path, name)
    data = json.loads(rec.read_text())
    data[steps] = data[steps][:2]
    data["result"] = None
    rec.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["replay", str(rec)]) == 0
    word = "turns" if steps == "turns" else "rounds"
    assert capsys.readouterr().out.splitlines()[-1] == f"result: not decided after 2 {word}"


def test_a_missing_record_is_said_as_the_other_commands_say_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: the system's "No such file or directory"."""
    missing = tmp_path / "missing.json"
    assert main(["replay", str(missing)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"tankmap replay: error: {missing}: $: cannot read file: no such file")


def test_no_final_position_is_written_after_an_escape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a lone White command tank on h1 facing N escapes in 4 turns (docs/rules.md §2.5): off
    # the board, it would leave a position that reads as a game going on
    from tankmap.analysis.play import HUMAN, open_session
    from tankmap.rules.board import Board
    from tankmap.rules.geometry import Facing, Side
    from tankmap.rules.registry import get_ruleset
    from tankmap.rules.scenario import Unit

    board = Board.of(16, 16)
    scenario = (
        get_ruleset("tank-chess")
        .new_scenario(board)
        .with_units(
            (
                Unit("command", Side.SOUTH, board.parse_cell("h1"), Facing.N),
                Unit("command", Side.NORTH, board.parse_cell("a16"), Facing.S),
            )
        )
    )
    s = open_session(scenario, (HUMAN, HUMAN), 0)
    for white, black in (("h1h6N", "a16a15S"), ("h6h11N", "a15a14S"), ("h11h16N", "a14a13S")):
        s.submit(Side.SOUTH, white)
        s.submit(Side.NORTH, black)
    s.submit(Side.SOUTH, "h16esc")
    record = tmp_path / "won.json"
    record.write_text(json.dumps(s.record_json()), encoding="utf-8")
    final = tmp_path / "final.json"
    assert main(["replay", str(record), "-o", str(final)]) == 2
    err = capsys.readouterr().err
    assert "not written: the game ended with White's command tank escaping off the board" in err
    assert not final.exists()


def test_tank_wars_events_name_the_vehicle_and_who_acts() -> None:
    """A Tank Wars round's events in words: the vehicle concerned by its label and owner,
    the side whose artillery or gunfire shot (before: "north destroyed b12" read as North
    destroying something, when North's vehicle on b12 was destroyed)."""
    from tankmap.analysis.replay import tank_wars_event_text as said

    assert said("destroyed", "north", "b12", "heavy (north)") == "heavy (north) is destroyed on b12"
    assert said("shot-hit", "south", "b12", "heavy (north)") == (
        "south's artillery hits heavy (north) on b12"
    )
    assert said("gunfire-hit", "north", "c1", "artillery (south)") == (
        "north's gunfire hits artillery (south) on c1"
    )
    assert said("moved", "south", "b3", "heavy (south)") == "heavy (south) moves to b3"
    assert said("shot-crater", "north", "f1", "") == "north's artillery leaves a crater on f1"
    assert said("destroyed", "north", "b12", "") == "north destroyed b12"  # no vehicle known
    assert said("something-new", "south", "a1", "x (south)") == "south something-new a1"


def test_a_tank_wars_replay_says_its_rounds_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "tw.json"
    assert main(["simulate", "tank-wars/default", "--games", "1", "--seed", "4",
                 "--record", str(out), "--workers", "1"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["replay", str(out)]) == 0
    text = capsys.readouterr().out
    assert " is destroyed on " in text and " moves to " in text
    assert "'s artillery " in text and "'s gunfire hits " in text
    assert "shot-hit" not in text and "south destroyed" not in text
