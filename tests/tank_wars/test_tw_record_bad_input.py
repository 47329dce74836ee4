"""A Tank Wars game record that does not fit its own scenario is refused with its JSON
path, not replayed into a crash: a command for a vehicle the side does not have (the
scenario lost a unit), a scenario of another game."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tankmap.analysis.simulation.runner import record_game
from tankmap.analysis.simulation.tank_wars.driver import TankWarsRecord
from tankmap.cli import main
from tankmap.maps import map_path
from tankmap.rules.errors import ScenarioFormatError
from tankmap.rules.fileformat import read_scenario


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    scenario = read_scenario(map_path("tank-wars/default"))  # type: ignore[arg-type]
    _result, rec = record_game(scenario, "heuristic", seed=1, game=0)
    doc: dict[str, Any] = rec.to_json()
    return doc


def test_the_untouched_record_reads(record: dict[str, Any]) -> None:
    assert TankWarsRecord.from_json(record, "r.json").dice_seed == record["dice_seed"]


def test_a_command_of_a_vehicle_the_side_does_not_have(record: dict[str, Any]) -> None:
    doc = copy.deepcopy(record)
    units = doc["scenario"]["units"]
    last = len(units) - 1  # the last vehicle (north's) is taken out of the scenario
    doc["scenario"]["units"] = units[:-1]
    doc["rounds"][0][1]["commands"][str(last)] = "straight1 N"
    with pytest.raises(ScenarioFormatError) as info:
        TankWarsRecord.from_json(doc, "r.json")
    assert info.value.path == "$.rounds[0][1].commands" and f"'{last}'" in str(info.value)


def test_a_command_given_to_the_other_side_s_vehicle(record: dict[str, Any]) -> None:
    doc = copy.deepcopy(record)
    south = next(i for i, u in enumerate(doc["scenario"]["units"]) if u["side"] == "south")
    doc["rounds"][0][1]["commands"][str(south)] = "straight1 N"  # in north's orders
    with pytest.raises(ScenarioFormatError) as info:
        TankWarsRecord.from_json(doc, "r.json")
    assert info.value.path == "$.rounds[0][1].commands"


def test_a_scenario_of_another_game(record: dict[str, Any]) -> None:
    doc = copy.deepcopy(record)
    doc["scenario"] = json.loads(Path(map_path("final-act/mirror")).read_text(encoding="utf-8"))
    with pytest.raises(ScenarioFormatError) as info:
        TankWarsRecord.from_json(doc, "r.json")
    assert info.value.path == "$.scenario.ruleset" and "'final-act'" in str(info.value)


def test_replay_lines_say_it_in_one_line(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = copy.deepcopy(record)
    doc["scenario"] = json.loads(Path(map_path("final-act/mirror")).read_text(encoding="utf-8"))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["replay", str(bad), "--lines"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "$.scenario.ruleset" in err


def test_version_true_is_not_version_1(record: dict[str, Any]) -> None:
    with pytest.raises(ScenarioFormatError) as info:
        TankWarsRecord.from_json({**record, "version": True}, "r.json")
    assert info.value.path == "$.version" and "true" in str(info.value)
