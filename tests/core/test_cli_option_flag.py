"""``--option NAME=VALUE`` overrides a file's ruleset options for one command (a what-if
without editing the file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tankmap.cli import main

ROOT = Path(__file__).resolve().parents[2]
MIRROR = str(ROOT / "maps" / "final-act" / "mirror.json")


def test_check_sees_the_override(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", MIRROR, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["files"][0]["complete"] is True
    # Extra Forces adds 2 AT and 1 R/M per side (docs/rules.md §1.3) that the base map lacks:
    # still legal, no longer complete.
    assert main(["check", MIRROR, "--json", "--option", "extra_forces=true"]) == 0
    entry = json.loads(capsys.readouterr().out)["files"][0]
    assert entry["legal"] is True and entry["complete"] is False
    assert {v["code"] for v in entry["violations"]} == {"missing"}


def test_simulate_sees_the_override(capsys: pytest.CaptureFixture[str]) -> None:
    # No tank can reach the enemy's last line or be wiped out in one round, so with
    # max_rounds=1 every game is a draw (docs/rules.md §1.7).
    args = ["simulate", MIRROR, "--games", "20", "--seed", "3", "--workers", "1", "--json"]
    assert main([*args, "--option", "max_rounds=1"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["draws"] == 20 and doc["wins"] == {"south": 0, "north": 0}


@pytest.mark.parametrize("command", ["check", "moves", "analyze", "simulate", "render"])
@pytest.mark.parametrize(
    ("pair", "words"),
    [("bogus=1", "no option 'bogus'"), ("wrecks=maybe", "true/false"), ("wrecks", "NAME=VALUE")],
)
def test_bad_override_is_one_line_and_exit_2(
    command: str, pair: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = ["-o", str(tmp_path / "x.svg")] if command == "render" else []
    assert main([command, MIRROR, *extra, "--option", pair]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "mirror.json" in err and words in err


def test_a_value_not_among_the_choices_lists_them_in_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Before: "must be one of ['diamond-3', 'diamond-2', 'wide-4']" (a Python list)."""
    assert main(["check", MIRROR, "--option", "tank_cone=x"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("option 'tank_cone' must be diamond-3, diamond-2 or wide-4, not 'x'")
    assert main(["check", MIRROR, "--option", "tank_cone=wide-4"]) == 0
