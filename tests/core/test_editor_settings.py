"""The editor's settings saved in a scenario file (issue 18 item 9c): ``"editor":
{"symmetry": "point"}`` round-trips byte for byte, files without it still open, a bad value
is a format error naming the path, the schema agrees, and no rule reads it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tankmap import maps, resources
from tankmap.rules.errors import ScenarioFormatError
from tankmap.rules.fileformat import (
    EDITOR_SETTINGS,
    loads_scenario,
    read_scenario,
    scenario_to_json,
    write_scenario,
)
from tankmap.rules.registry import get_ruleset

MIRROR = maps.ROOT / "final-act" / "mirror.json"
SCHEMA = jsonschema.Draft202012Validator(
    json.loads(resources.path("scenario.schema.json").read_text("utf-8"))
)


def _doc(**editor: Any) -> dict[str, Any]:
    doc = json.loads(MIRROR.read_text("utf-8"))
    doc["editor"] = editor
    return doc


@pytest.mark.parametrize("mode", ["point", "left-right"])
def test_symmetry_round_trips_byte_for_byte(mode: str, tmp_path: Path) -> None:
    s = loads_scenario(json.dumps(_doc(symmetry=mode)))
    assert dict(s.editor) == {"symmetry": mode}
    path = tmp_path / "s.json"
    write_scenario(s, path)
    text = path.read_text("utf-8")
    assert json.loads(text)["editor"] == {"symmetry": mode}
    again = read_scenario(path)
    assert again == s
    write_scenario(again, path)
    assert path.read_text("utf-8") == text
    # written after to_move's place and before the pieces (docs/formats.md key order)
    keys = list(json.loads(text))
    assert keys.index("editor") == keys.index("notes") + 1 and keys[-2:] == ["terrain", "units"]


def test_old_files_and_the_default_write_no_editor_key() -> None:
    old = read_scenario(MIRROR)  # the built-in maps have no "editor" key
    assert dict(old.editor) == {} and "editor" not in scenario_to_json(old)
    off = loads_scenario(json.dumps(_doc(symmetry="off")))
    assert off == old and "editor" not in scenario_to_json(off)  # the default is not written
    assert loads_scenario(json.dumps(_doc())) == old  # an empty object is allowed


@pytest.mark.parametrize(
    ("editor", "path", "words"),
    [
        ({"symmetry": "mirror"}, "$.editor.symmetry", "must be one of off, point, left-right"),
        ({"symmetry": 1}, "$.editor.symmetry", "must be a string"),
        ({"grid": "on"}, "$.editor.grid", "unknown key"),
    ],
)
def test_bad_settings_are_format_errors(editor: dict[str, Any], path: str, words: str) -> None:
    doc = _doc(**editor)
    with pytest.raises(ScenarioFormatError) as err:
        loads_scenario(json.dumps(doc))
    assert path in str(err.value) and words in str(err.value)
    assert not SCHEMA.is_valid(doc)  # the schema refuses it too


def test_schema_accepts_every_value_and_the_reader_too() -> None:
    for mode in EDITOR_SETTINGS["symmetry"]:
        doc = _doc(symmetry=mode)
        assert SCHEMA.is_valid(doc)
        loads_scenario(json.dumps(doc))
    assert not SCHEMA.is_valid({**_doc(), "editor": "point"})


def test_no_rule_reads_it() -> None:
    plain = read_scenario(MIRROR)
    saved = loads_scenario(json.dumps(_doc(symmetry="point")))
    rs = get_ruleset(plain.ruleset)
    assert rs.check(saved) == rs.check(plain)


def test_tiled_maps_keep_it() -> None:
    from tankmap.rules.fileformat import dumps_scenario
    from tankmap.rules.tiled import dumps_tmj, dumps_tmx
    from tankmap.rules.tiled_read import loads_tmj, loads_tmx

    s = loads_scenario(json.dumps(_doc(symmetry="left-right")))
    assert '"editor:symmetry"' in dumps_tmj(s)
    assert dumps_scenario(loads_tmx(dumps_tmx(s))) == dumps_scenario(s)
    assert loads_tmj(dumps_tmj(s)) == s


def test_the_ladder_cache_key_ignores_it() -> None:
    from tankmap.analysis.ladder_cache import board_key

    plain = read_scenario(MIRROR)
    saved = loads_scenario(json.dumps(_doc(symmetry="point")))
    assert board_key(saved) == board_key(plain)
