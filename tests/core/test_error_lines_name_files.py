"""Every error line of ``replay``, ``perft`` and ``export`` names its file (issue 32): a
start position the engine cannot play said "cannot play: ..." without saying which file.
Hand-made cases, then seeded mutations of records and scenarios (one line, exit 2, the
file named — or a success)."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tankmap.analysis.simulation.runner import record_game
from tankmap.cli import main
from tankmap.commands.common import load

MAPS = ("final-act/mirror", "tank-chess/basic-16", "tank-wars/default")


def record_of(board: str) -> dict[str, Any]:
    _result, record = record_game(load(board), "random", seed=2)
    doc: dict[str, Any] = record.to_json()
    return doc


def load_path(board: str) -> Path:
    from tankmap.maps import resolve

    return Path(resolve(board))


def error_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    err = capsys.readouterr().err
    assert len(err.splitlines()) <= 1 and "Traceback" not in err, err
    return code, err


def shared_cell(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` (a scenario) with its second unit moved onto its first one's cell."""
    doc = copy.deepcopy(doc)
    doc["units"][1]["cell"] = doc["units"][0]["cell"]
    return doc


@pytest.mark.parametrize("board", ["tank-chess/basic-16", "tank-wars/default"])
def test_replaying_a_start_the_engine_cannot_play_names_the_record(
    board: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = record_of(board)
    doc["scenario"] = shared_cell(doc["scenario"])
    path = tmp_path / "shared.json"
    path.write_text(json.dumps(doc))
    code, err = error_line(["replay", str(path)], capsys)
    assert code == 2 and f"error: {path}: " in err  # before: "error: cannot play: ..."


def test_perft_of_a_position_the_engine_cannot_play_names_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads(load_path("tank-chess/basic-16").read_text("utf-8"))
    path = tmp_path / "shared.json"
    path.write_text(json.dumps(shared_cell(doc)))
    code, err = error_line(["perft", str(path), "--depth", "1"], capsys)
    assert code == 2 and f"error: {path}: cannot play" in err


VALUES: list[Any] = [None, 0, -1, 2**70, 1.5, "", "zz99", "a1", [], {}, [1], True, "N"]


def _places(doc: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _places(v, (*at, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _places(v, (*at, i))


def mutated(doc: Any, rng: random.Random) -> Any:
    """``doc`` with one value deleted, duplicated or replaced."""
    doc = copy.deepcopy(doc)
    at = rng.choice([p for p in _places(doc) if p])
    parent = doc
    for key in at[:-1]:
        parent = parent[key]
    what = rng.random()
    if what < 0.35:
        del parent[at[-1]]
    elif what < 0.45 and isinstance(parent, list):
        parent.append(copy.deepcopy(parent[at[-1]]))
    else:
        parent[at[-1]] = rng.choice(VALUES)
    return doc


def test_mutated_records_and_scenarios_fail_in_one_line_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(32)
    records = [record_of(board) for board in MAPS]
    scenarios = [json.loads(load_path(board).read_text("utf-8")) for board in MAPS]
    unnamed = []
    for i in range(150):
        record = tmp_path / f"record-{i}.json"
        record.write_text(json.dumps(mutated(rng.choice(records), rng)))
        tank_chess = tmp_path / f"tc-{i}.json"
        tank_chess.write_text(json.dumps(mutated(scenarios[1], rng)))
        scenario = tmp_path / f"sc-{i}.json"
        scenario.write_text(json.dumps(mutated(rng.choice(scenarios), rng)))
        for args, named in (
            (["replay", str(record)], record),
            (["perft", str(tank_chess), "--depth", "1"], tank_chess),
            (["export", str(scenario), "-o", str(tmp_path / "out.tmj"), "--force"], scenario),
        ):
            code, err = error_line(args, capsys)
            if code == 2 and str(named) not in err:
                unnamed.append(err)
    assert unnamed == []
