"""Built-in maps by name: `tankmap maps`, and every command taking a scenario FILE accepts
``final-act/mirror`` style names (a real file of that name wins)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tankmap.cli import main
from tankmap.maps import catalogue, map_names, map_path, resolve

ROOT = Path(__file__).resolve().parents[2]


def test_names_cover_every_builtin_file() -> None:
    files = sorted((ROOT / "maps").glob("*/*.json"))
    assert map_names() == [f"{p.parent.name}/{p.stem}" for p in files]
    assert map_path("final-act/mirror.json") == map_path("final-act/mirror")
    assert map_path("final-act/nothing") is None


def test_maps_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["maps", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    names = [m["name"] for m in doc["maps"]]
    assert names == map_names()
    mirror = doc["maps"][names.index("final-act/mirror")]
    assert mirror == {
        "name": "final-act/mirror",
        "ruleset": "final-act",
        "title": "Mirror",
        "board": {"columns": 12, "rows": 12},
        "legal": True,
    }
    assert all(m["legal"] for m in doc["maps"])  # every built-in map is legal


def test_maps_text_lists_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["maps"]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) == len(catalogue())
    assert "tank-chess/basic-16" in out and "16x16" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "final-act/mirror"],
        ["moves", "final-act/mirror", "--unit", "C"],
        ["perft", "tank-chess/basic-16", "--depth", "1"],
        ["simulate", "tank-wars/default", "--games", "2", "--workers", "1"],
        ["analyze", "tank-chess/basic-16", "--json"],
    ],
)
def test_commands_take_map_names(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 0, capsys.readouterr().err


def test_render_and_export_take_names(tmp_path: Path) -> None:
    assert main(["render", "final-act/mirror", "-o", str(tmp_path / "b.svg")]) == 0
    assert main(["export", "final-act/mirror", "-o", str(tmp_path / "b.tmx")]) == 0


def test_unknown_name_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "final-act/no-such-map"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "final-act/no-such-map" in err and "tankmap maps" in err


def test_a_real_file_wins_over_a_name(tmp_path: Path) -> None:
    (tmp_path / "final-act").mkdir()
    mine = tmp_path / "final-act" / "mirror"
    mine.write_text("{}")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert resolve("final-act/mirror") == "final-act/mirror"  # the local file
        assert main(["check", "final-act/mirror"]) == 2  # ... which is not a scenario
    finally:
        os.chdir(cwd)
