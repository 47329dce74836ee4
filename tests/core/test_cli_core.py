"""The command line frame and the game-independent commands (architecture.md §4, cli-json.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tankmap.cli import main


def write(path: Path, doc: dict[str, Any]) -> str:
    path.write_text(json.dumps(doc), "utf-8")
    return str(path)


def toy_doc(units: list[dict[str, Any]]) -> dict[str, Any]:
    return {"ruleset": "toy", "board": {"columns": 8, "rows": 8}, "units": units}


PAWN_A1 = {"kind": "pawn", "side": "south", "cell": "a1", "facing": "N"}


def test_help_lists_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for command in ("rulesets", "new", "check", "moves"):
        assert command in out


def test_every_command_help_reads_cleanly(capsys: pytest.CaptureFixture[str]) -> None:
    """Each command's --help prints (no format error) and shows no doubled percent signs
    (argparse %-formats help strings, not descriptions)."""
    from tankmap.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    names = list(sub.choices)  # type: ignore[arg-type]
    assert {"check", "simulate", "ladder", "suggest", "replay"} <= set(names)
    for name in names:
        with pytest.raises(SystemExit) as info:
            main([name, "--help"])
        assert info.value.code == 0
        out = capsys.readouterr().out
        assert "%%" not in out, name
        assert out.startswith("usage: tankmap " + name), name


def test_rulesets_json_lists_options(toy: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    entry = next(r for r in data["rulesets"] if r["name"] == "toy")
    assert [o["name"] for o in entry["options"]] == ["flag", "limit", "mode"]


def test_new_writes_an_empty_scenario(
    toy: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "n.json"
    assert (
        main(
            [
                "new",
                "toy",
                "--board",
                "6x5",
                "--option",
                "limit=7",
                "--option",
                "flag=yes",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    doc = json.loads(out.read_text())
    assert doc["board"] == {"columns": 6, "rows": 5}
    assert doc["options"] == {"flag": True, "limit": 7}
    assert doc["units"] == [] and doc["terrain"] == []
    # refuses to overwrite, and bad options are one-line errors with exit 2
    assert main(["new", "toy", "-o", str(out)]) == 2
    assert main(["new", "toy", "--option", "limit=x", "-o", str(tmp_path / "m.json")]) == 2
    assert main(["new", "toy", "--option", "nope=1", "-o", str(tmp_path / "m.json")]) == 2
    assert main(["new", "toy", "--board", "3x3", "-o", str(tmp_path / "m.json")]) == 2
    assert main(["new", "toy", "--board", "big", "-o", str(tmp_path / "m.json")]) == 2
    assert main(["new", "nosuch", "-o", str(tmp_path / "m.json")]) == 2
    err = capsys.readouterr().err
    assert (
        "already exists" in err
        and "takes a whole-number value" in err
        and "no option 'nope'" in err
    )
    assert "unknown ruleset 'nosuch'" in err
    assert "Traceback" not in err
    assert not (tmp_path / "m.json").exists()


def test_check_exit_codes_and_json(
    toy: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path / "good.json", toy_doc([PAWN_A1]))
    bad = write(tmp_path / "bad.json", toy_doc([PAWN_A1, dict(PAWN_A1, facing="E")]))
    broken = tmp_path / "broken.json"
    broken.write_text("{nope", "utf-8")

    assert main(["check", good]) == 0
    assert main(["check", good, bad, "--json"]) == 1
    capsys.readouterr()
    assert main(["check", good, bad, str(broken), "--json"]) == 2
    data = json.loads(capsys.readouterr().out)
    files = data["files"]
    assert [f["file"] for f in files] == [good, bad, str(broken)]
    assert files[0]["legal"] is True and files[0]["complete"] is True
    assert files[1]["legal"] is False
    assert files[1]["violations"] == [
        {
            "code": "cell-shared",
            "severity": "error",
            "message": "two pawns share a cell",
            "cells": ["a1"],
            "side": "south",
        }
    ]
    assert "malformed JSON" in files[2]["error"]


def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path / "off.json", toy_doc([dict(PAWN_A1, cell="q3")]))
    assert main(["moves", bad]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "off.json: $.units[0].cell" in err and "q3" in err
    assert main(["moves", str(tmp_path / "missing.json")]) == 2
    assert "cannot read file" in capsys.readouterr().err


def test_moves_json_shape(toy: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path / "m.json", toy_doc([dict(PAWN_A1, name="P")]))
    assert main(["moves", f, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {
        "units": [
            {
                "name": "P",
                "kind": "pawn",
                "side": "south",
                "cell": "a1",
                "facing": "N",
                "wreck": False,
                "moves": [],
                "fire_zone": [],
            }
        ]
    }
    assert main(["moves", f, "--unit", "Q"]) == 2


def test_moves_on_a_board_without_units_says_so(
    toy: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = write(tmp_path / "e.json", toy_doc([]))
    assert main(["moves", f]) == 0
    assert capsys.readouterr().out == f"{f}: no units on the board: nothing moves\n"
    assert main(["moves", f, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"units": []}


def test_an_output_that_is_a_folder_is_said_to_be_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # (it said "already exists (use --force to overwrite)", and with --force "a folder")
    from tankmap.cli import main

    assert main(["new", "final-act", "-o", str(tmp_path)]) == 2
    assert capsys.readouterr().err.rstrip().endswith(f"{tmp_path}: is a folder: give a file name")
