"""The scenario file format (docs/architecture.md §3): validation, canonical text, atomic writes."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tankmap.rules.board import Board
from tankmap.rules.errors import ScenarioFormatError, TankmapError
from tankmap.rules.fileformat import (
    dumps_scenario,
    loads_scenario,
    read_scenario,
    scenario_from_json,
    write_scenario,
)
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Terrain, Unit


def toy_doc(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": "tankmap-scenario",
        "version": 1,
        "ruleset": "toy",
        "options": {"flag": True},
        "board": {"columns": 8, "rows": 8},
        "title": "T",
        "author": "me",
        "notes": "",
        "terrain": [{"kind": "rock", "cells": ["c3", "d3"]}],
        "units": [{"kind": "pawn", "name": "P", "side": "south", "cell": "a1", "facing": "N"}],
    }
    doc.update(changes)
    return doc


def test_reads_a_valid_document(toy: Any) -> None:
    s = scenario_from_json(toy_doc())
    b = Board.of(8, 8)
    assert s.ruleset == "toy" and s.board == b
    assert s.terrain == (Terrain("rock", (b.parse_cell("c3"), b.parse_cell("d3"))),)
    assert s.units == (Unit("pawn", Side.SOUTH, 0, Facing.N, name="P"),)
    assert dict(s.options) == {"flag": True}


def test_round_trip_is_byte_stable(toy: Any, tmp_path: Path) -> None:
    s = scenario_from_json(toy_doc(to_move="north"))
    text = dumps_scenario(s)
    again = loads_scenario(text)
    assert again == s
    assert dumps_scenario(again) == text
    path = tmp_path / "x.json"
    write_scenario(s, path)
    assert path.read_text("utf-8") == text
    assert read_scenario(path) == s
    assert json.loads(text)["to_move"] == "north"


def test_scenario_repr_rebuilds_it(toy: Any) -> None:
    from tankmap.rules.scenario import Scenario as S  # noqa: F401  (names used by eval)

    s = scenario_from_json(toy_doc())
    env = {
        "Scenario": Scenario,
        "Board": Board,
        "Terrain": Terrain,
        "Unit": Unit,
        "Side": Side,
        "Facing": Facing,
        "mappingproxy": dict,
    }
    rebuilt = eval(
        repr(s).replace("<Side.SOUTH: 'south'>", "Side.SOUTH").replace("<Facing.N: 0>", "Facing.N"),
        env,
    )
    assert rebuilt == s


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        ({"colour": 1}, "$.colour", "unknown key"),
        ({"ruleset": "chess"}, "$.ruleset", "unknown ruleset"),
        ({"ruleset": 3}, "$.ruleset", "must be a ruleset name"),
        ({"version": 2}, "$.version", "unsupported version"),
        ({"format": "other"}, "$.format", "must be"),
        ({"board": {"columns": 8}}, "$.board.rows", "is required"),
        ({"board": {"columns": 30, "rows": 8}}, "$.board.columns", "between 1 and 26"),
        ({"board": {"columns": 3, "rows": 8}}, "$.board", "at least 4x4"),
        ({"board": {"columns": "8", "rows": 8}}, "$.board.columns", "whole number"),
        ({"options": {"nope": 1}}, "$.options.nope", "no option 'nope'"),
        ({"options": {"flag": "yes"}}, "$.options.flag", "takes a true/false value"),
        ({"options": {"mode": "c"}}, "$.options.mode", "must be "),
        (
            {"units": [{"kind": "pawn", "side": "south", "cell": "a1", "wreck": 1}]},
            "$.units[0].wreck",
            "true or false (got 1)",
        ),
        (  # a JSON value quoted as JSON writes it
            {"units": [{"kind": "pawn", "side": "south", "cell": "a1", "name": True}]},
            "$.units[0].name",
            "(got true)",
        ),
        (
            {"units": [{"kind": "pawn", "side": "south", "cell": "9z"}]},
            "$.units[0].cell",
            "not a cell name",
        ),
        (
            {"units": [{"kind": "pawn", "side": "south", "cell": "a9"}]},
            "$.units[0].cell",
            "off the 8x8 board",
        ),
        (
            {"units": [{"kind": "king", "side": "south", "cell": "a1"}]},
            "$.units[0].kind",
            "unknown unit kind 'king'",
        ),
        (
            {"units": [{"kind": "pawn", "side": "east", "cell": "a1"}]},
            "$.units[0].side",
            "not a side",
        ),
        (
            {"units": [{"kind": "pawn", "side": "south", "cell": "a1", "facing": "UP"}]},
            "$.units[0].facing",
            "not a facing",
        ),
        ({"units": [{"kind": "pawn", "side": "south"}]}, "$.units[0].cell", "is required"),
        (
            {"units": [{"kind": "pawn", "side": "south", "cell": "a1", "hp": 3}]},
            "$.units[0].hp",
            "unknown key",
        ),
        (
            {"units": [{"kind": "pawn", "side": "south", "cell": "a1", "wreck": 1}]},
            "$.units[0].wreck",
            "true or false",
        ),
        (
            {"terrain": [{"kind": "lava", "cells": ["a1"]}]},
            "$.terrain[0].kind",
            "unknown terrain kind 'lava'",
        ),
        ({"terrain": [{"kind": "rock", "cells": []}]}, "$.terrain[0].cells", "at least one"),
        (
            {"terrain": [{"kind": "rock", "cells": ["a1", "A1"]}]},
            "$.terrain[0].cells",
            "listed twice",
        ),
        ({"terrain": {"kind": "rock"}}, "$.terrain", "must be a list"),
    ],
)
def test_bad_documents_name_the_path_and_problem(
    toy: Any, change: dict[str, Any], path: str, words: str
) -> None:
    with pytest.raises(ScenarioFormatError) as info:
        loads_scenario(json.dumps(toy_doc(**change)), source="maps/x.json")
    err = info.value
    assert err.path == path
    assert words in str(err)
    assert str(err).startswith("maps/x.json: ")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{", "malformed JSON at line 1"),
        ('{"title": "abc', "at line 1 column 11: unterminated string starting there$"),
        ("[]", "must be a JSON object"),
        (b"\xff\xfe", "not UTF-8"),
        ("", "malformed JSON"),
        ("[" * 100000, "JSON"),
    ],
)
def test_malformed_text(text: str | bytes, words: str) -> None:
    with pytest.raises(ScenarioFormatError, match=words):
        loads_scenario(text)


def test_unreadable_file_is_a_format_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioFormatError, match="cannot read file"):
        read_scenario(tmp_path / "missing.json")
    with pytest.raises(ScenarioFormatError, match="cannot read file"):
        read_scenario(tmp_path)


def test_failed_write_leaves_old_file_intact(
    toy: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = scenario_from_json(toy_doc())
    path = tmp_path / "keep.json"
    path.write_text("OLD", "utf-8")

    def boom(*args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(TankmapError, match="cannot write"):
        write_scenario(s, path)
    assert path.read_text("utf-8") == "OLD"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.json"]  # no temp file left


def test_write_into_missing_folder_is_a_clean_error(toy: Any, tmp_path: Path) -> None:
    s = scenario_from_json(toy_doc())
    with pytest.raises(TankmapError, match="cannot write"):
        write_scenario(s, tmp_path / "no" / "such" / "x.json")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_fuzz_any_bytes_give_a_scenario_or_a_format_error(data: bytes) -> None:
    try:
        result = loads_scenario(data)
    except ScenarioFormatError:
        return
    assert isinstance(result, Scenario)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 40)
    | st.sampled_from(
        ["toy", "a1", "c3", "h8", "z9", "south", "north", "N", "pawn", "rock", "tankmap-scenario"]
    ),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "kind",
                    "cells",
                    "cell",
                    "side",
                    "facing",
                    "columns",
                    "rows",
                    "board",
                    "ruleset",
                    "units",
                    "terrain",
                    "options",
                    "flag",
                    "name",
                    "wreck",
                ]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_fuzz_structured_json_gives_a_scenario_or_a_format_error(value: Any) -> None:
    # Mostly-valid documents with one random part: exercises the validation paths.
    for doc in (
        value,
        {"ruleset": "toy", "board": {"columns": 8, "rows": 8}, "units": value},
        {"ruleset": "toy", "board": value},
        toy_doc(terrain=[value]),
    ):
        try:
            result = loads_scenario(json.dumps(doc))
        except ScenarioFormatError:
            continue
        assert isinstance(result, Scenario)
