"""Bad input found by fuzzing the readers: every refusal names the file, the JSON path of
the offending value and the value (docs/formats.md: "a bad file gives one message naming
the file, the JSON path and the value") — also for what the strict JSON gate refuses
(NaN, duplicate keys, over-long numbers) and for ``null`` where a value is required."""

from __future__ import annotations

import pytest

from tankmap.maps import map_path
from tankmap.rules.errors import ScenarioFormatError
from tankmap.rules.fileformat import loads_scenario
from tankmap.rules.safeio import strict_json

_PATH = map_path("final-act/mirror")
assert _PATH is not None
MIRROR = _PATH.read_text(encoding="utf-8")


def _refusal(old: str, new: str) -> ScenarioFormatError:
    assert old in MIRROR, old
    with pytest.raises(ScenarioFormatError) as info:
        loads_scenario(MIRROR.replace(old, new, 1), "m.json")
    return info.value


@pytest.mark.parametrize(
    "old, new, path, quoted",
    [
        ('"columns": 12', '"columns": NaN', "$.board.columns", "NaN"),
        (
            '"options": {}',
            '"options": {"max_rounds": -Infinity}',
            "$.options.max_rounds",
            "-Infinity",
        ),
        ('"columns": 12', '"columns": ' + "9" * 50, "$.board.columns", "50 digits"),
        ('"columns": 12', '"columns": 1' + "0" * 70 + ".5", "$.board.columns", "73 characters"),
        ('"columns": 12', '"columns": 1e400', "$.board.columns", "1e400 is too large"),
        ('"cell": "b11"', '"cell": -2E+999', "$.units[13].cell", "-2E+999 is too large"),
        ('"rows": 12}', '"rows": 12, "rows": 14}', "$.board.rows", "duplicate key 'rows'"),
        ('"cell": "b2"', '"cell": "b2", "cell": "c2"', "$.units[0].cell", "duplicate key 'cell'"),
        ('"cell": "b11"', '"cell": NaN', "$.units[13].cell", "NaN"),
    ],
)
def test_the_json_gate_names_the_path_of_the_refused_value(
    old: str, new: str, path: str, quoted: str
) -> None:
    exc = _refusal(old, new)
    assert exc.path == path
    assert str(exc).startswith(f"m.json: {path}: ") and quoted in str(exc)


def test_the_first_refused_value_in_the_document_is_named() -> None:
    text = '{"a": [1, {"b": NaN}], "c": Infinity}'
    with pytest.raises(ScenarioFormatError) as info:
        strict_json(text, "x.json")
    assert info.value.path == "$.a[1].b"


def test_a_refused_value_deeper_than_the_nesting_limit_is_still_refused() -> None:
    text = "[" * 70 + "NaN" + "]" * 70
    with pytest.raises(ScenarioFormatError, match="nested too deeply|NaN"):
        strict_json(text, "x.json")


@pytest.mark.parametrize(
    "old, new, path",
    [
        ('"title": "Mirror"', '"title": null', "$.title"),
        ('"options": {}', '"options": null', "$.options"),
        ('"columns": 12', '"columns": null', "$.board.columns"),
        ('"cell": "b2"', '"cell": null', "$.units[0].cell"),
        ('"facing": "N"', '"facing": null', "$.units[0].facing"),
        ('"side": "south"', '"side": null', "$.terrain[0].side"),
        ('"units": [', '"units": [null, ', "$.units[0]"),
    ],
)
def test_null_where_a_value_belongs_is_quoted_as_null(old: str, new: str, path: str) -> None:
    message = str(_refusal(old, new))
    assert message.startswith(f"m.json: {path}: ") and message.endswith("(got null)"), message


def test_messages_without_a_value_still_quote_nothing() -> None:
    message = str(_refusal('"ruleset": "final-act",', ""))
    assert message == "m.json: $.ruleset: is required"
