"""A Final Act game record that does not fit its own scenario is refused as bad input —
one line naming the JSON path and the value — not replayed into a crash: a result that is
not one the format can hold, a unit index past the scenario's units (in shells and in
declared actions), a scenario of another game."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tankmap.analysis.simulation.runner import record_game
from tankmap.cli import main
from tankmap.maps import map_path
from tankmap.rules.errors import ScenarioFormatError
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.final_act.engine_record import FinalActRecord


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    scenario = read_scenario(map_path("final-act/extra-forces"))  # type: ignore[arg-type]
    _result, rec = record_game(scenario, "heuristic", seed=1, game=0)
    doc: dict[str, Any] = rec.to_json()
    return doc


def _refused(doc: dict[str, Any]) -> ScenarioFormatError:
    with pytest.raises(ScenarioFormatError) as info:
        FinalActRecord.from_json(doc, "r.json")
    return info.value


def test_the_untouched_record_reads(record: dict[str, Any]) -> None:
    assert FinalActRecord.from_json(record, "r.json").result == record["result"]


@pytest.mark.parametrize(
    ("result", "path", "shown"),
    [
        ({"winner": "zz", "end": "goal", "rounds": 9}, "$.result.winner", "'zz'"),
        ({"end": "goal", "rounds": 9}, "$.result", "rounds"),
        ({"winner": "south", "end": None, "rounds": 9}, "$.result.end", "null"),
        ({"winner": "south", "end": "goal", "rounds": -1}, "$.result.rounds", "-1"),
        ("south", "$.result", "'south'"),
    ],
)
def test_a_result_the_format_cannot_hold(
    record: dict[str, Any], result: Any, path: str, shown: str
) -> None:
    doc = {**record, "result": result}
    err = _refused(doc)
    assert err.path == path and shown in str(err)


def test_a_shell_of_a_unit_the_scenario_does_not_have(record: dict[str, Any]) -> None:
    doc = copy.deepcopy(record)
    n = len(doc["scenario"]["units"])  # 20 on the Extra Forces board: indices 0..19
    doc["rounds"][0]["shells"] = {str(n): "f6"}
    err = _refused(doc)
    assert err.path == "$.rounds[0].shells" and f"'{n}'" in str(err)


@pytest.mark.parametrize("index", [1e25, 20, -1, True, "3"])
def test_an_action_of_a_unit_the_scenario_does_not_have(record: dict[str, Any], index: Any) -> None:
    doc = copy.deepcopy(record)
    doc["rounds"][0]["actions"] = {"at_spared": [index]}
    assert _refused(doc).path == "$.rounds[0].actions.at_spared"


def test_a_scenario_of_another_game(record: dict[str, Any]) -> None:
    doc = copy.deepcopy(record)
    tank_chess = json.loads(Path(map_path("tank-chess/basic-16")).read_text(encoding="utf-8"))
    doc["scenario"] = tank_chess
    err = _refused(doc)
    assert err.path == "$.scenario.ruleset" and "'tank-chess'" in str(err)


def test_replay_says_it_in_one_line(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**record, "result": {"winner": "zz"}}), encoding="utf-8")
    for argv in (["replay", str(bad)], ["replay", str(bad), "--lines"]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "$.result" in err and "Traceback" not in err


def test_a_record_of_an_illegal_setup_names_the_record(record: dict[str, Any]) -> None:
    from tankmap.analysis.play.records import session_of_record
    from tankmap.rules.errors import TankmapError

    doc = copy.deepcopy(record)
    doc["scenario"]["units"][0]["cell"] = "f6"  # a tank outside its set-up rows 1-3
    with pytest.raises(TankmapError) as info:
        session_of_record(doc, source="games/r.json")
    assert str(info.value).startswith("games/r.json: cannot play an illegal scenario")


def test_version_true_is_not_version_1(record: dict[str, Any]) -> None:
    # JSON true is not the number 1 (Python's True == 1 let it through)
    err = _refused({**record, "version": True})
    assert err.path == "$.version" and "true" in str(err)
