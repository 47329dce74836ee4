"""Tank Wars through the command line and the built-in maps: legal, and marked provisional."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tw_support import TW

from tankmap import maps
from tankmap.cli import main
from tankmap.rules.fileformat import dumps_scenario, loads_scenario, read_scenario
from tankmap.rules.violations import is_complete, is_legal

MAPS = maps.builtin_maps("tank-wars")


def test_there_are_two_builtin_maps() -> None:
    assert [p.name for p in MAPS] == ["default.json", "flank-artillery.json"]


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.name)
def test_builtin_maps_are_legal_complete_and_say_provisional(path: Path) -> None:
    s = read_scenario(path)
    v = TW.check(s)
    assert is_legal(v) and is_complete(v), v
    assert "provisional" in s.title.lower()
    assert loads_scenario(dumps_scenario(s)) == s
    assert dumps_scenario(s) == path.read_text("utf-8")  # stable, canonical file


def test_check_json_says_legal_and_provisional(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", *map(str, MAPS), "--json"]) == 0
    files = json.loads(capsys.readouterr().out)["files"]
    assert [(f["legal"], f["complete"], f["provisional"]) for f in files] == [
        (True, True, True)
    ] * 2


def test_check_text_says_provisional(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(MAPS[0])]) == 0
    assert "[provisional ruleset]" in capsys.readouterr().out


def test_check_reports_a_bad_setup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(MAPS[0].read_text("utf-8"))
    doc["units"][0]["cell"] = "b3"  # south heavy on own row 3
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), "utf-8")
    assert main(["check", str(bad), "--json"]) == 1
    (entry,) = json.loads(capsys.readouterr().out)["files"]
    assert [(v["code"], v["cells"]) for v in entry["violations"]] == [
        ("outside-setup-rows", ["b3"])
    ]


def test_rulesets_marks_tank_wars_provisional(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("tank-wars"))
    assert "PROVISIONAL" in line and "provisional" in line
    assert main(["rulesets", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rulesets"]
    entry = next(r for r in rows if r["name"] == "tank-wars")
    assert entry["provisional"] is True and entry["board"] == "6x12"
    defaults = {o["name"]: o["default"] for o in entry["options"]}
    assert defaults["artillery_shells"] == 4 and defaults["heavy_moves"] == "straight1,straight2"


def test_moves_json_lists_command_token_moves(capsys: pytest.CaptureFixture[str]) -> None:
    # default.json: south heavy on b2 -> straight1 b1 a2 c2 b3, straight2 d2 b4 (b0, z2 off).
    assert main(["moves", str(MAPS[0]), "--unit", "b2", "--json"]) == 0
    (u,) = json.loads(capsys.readouterr().out)["units"]
    assert u["kind"] == "heavy" and u["facing"] is None
    assert sorted(m["to"] for m in u["moves"]) == sorted("b1 a2 c2 b3 d2 b4".split())
    assert all(m["facing"] is None for m in u["moves"])
    assert len(u["fire_zone"]) == 36 and u["fire_zone"][0] == "a7"


def test_moves_says_provisional_and_keeps_the_json_contract(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["moves", str(MAPS[0]), "--unit", "b2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "[provisional ruleset" in out[0]
    assert out[1] == "South heavy at b2"  # no 'facing None' for facing-less vehicles
    assert main(["moves", str(MAPS[0]), "--unit", "b2", "--json"]) == 0
    captured = capsys.readouterr()
    assert list(json.loads(captured.out)) == ["units"]
    assert "[provisional ruleset" in captured.err


def test_new_writes_a_tank_wars_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "tw.json"
    assert main(["new", "tank-wars", "--option", "heavy_armour=4", "-o", str(out)]) == 0
    s = read_scenario(out)
    assert (s.board.columns, s.board.rows) == (6, 12) and s.options["heavy_armour"] == 4
    assert main(["new", "tank-wars", "--board", "12x12", "-o", str(tmp_path / "x.json")]) == 2
    assert "6x12" in capsys.readouterr().err


def test_bad_pattern_option_in_a_file_is_a_format_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads(MAPS[0].read_text("utf-8"))
    doc["options"] = {"heavy_moves": "straight1,jump3"}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), "utf-8")
    assert main(["check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "$.options.heavy_moves" in err and "jump3" in err
