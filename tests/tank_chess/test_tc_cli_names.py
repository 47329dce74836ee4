"""Tank Chess is played White (south) against Black (north) (docs/rules.md §0): the command
line's texts say White and Black; ``--json`` keeps ``south``/``north`` (docs/cli-json.md);
``--white``/``--black`` are the Tank Chess spellings of ``--south``/``--north``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tankmap.cli import main

SIDE_WORD = re.compile(r"\b(south|north)\b", re.IGNORECASE)


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(args) == 0
    return capsys.readouterr().out


def test_simulate_and_replay_say_white_and_black(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    out = _run(
        ["simulate", "tank-chess/basic-16", "--games", "4", "--policy", "random", "--seed", "1",
         "--workers", "1", "--record", str(record)],
        capsys,
    )  # fmt: skip
    lines = out.splitlines()
    assert any(line.startswith("  White wins ") for line in lines)
    assert any(line.startswith("  Black wins ") for line in lines)
    assert any(line.startswith("  White agent: random") for line in lines)
    assert not SIDE_WORD.search(out)
    replay = _run(["replay", str(record)], capsys).splitlines()
    assert re.fullmatch(r"result: (White wins|Black wins|draw) \(.+\) after \d+ turns", replay[-1])
    assert replay[0].startswith("turn 1: White ") and replay[1].startswith("turn 2: Black ")
    assert not any(SIDE_WORD.search(line) for line in replay)


def test_json_keeps_south_and_north_and_white_black_are_aliases(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = _run(
        ["simulate", "tank-chess/basic-16", "--games", "2", "--white", "random", "--black",
         "random", "--workers", "1", "--json"],
        capsys,
    )  # fmt: skip
    doc = json.loads(out)
    assert doc["policy"] == {"south": "random", "north": "random"}
    assert set(doc["wins"]) == {"south", "north"}


def test_moves_names_the_pieces_white_and_black(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _run(["moves", "tank-chess/basic-16"], capsys).splitlines()
    heads = [line for line in lines if not line.startswith(" ")]
    assert heads and all(h.startswith(("White ", "Black ")) for h in heads)
