"""Bad input found by fuzzing the commands: the error line names the file once and
recognisably, whatever its name — a long path keeps its end (the file's own name), a name
with control characters is shown escaped and not twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from tankmap.cli import main
from tankmap.maps import map_path
from tankmap.rules import errors
from tankmap.rules.errors import ScenarioFormatError
from tankmap.rules.fileformat import read_scenario

_PATH = map_path("final-act/mirror")
assert _PATH is not None
BAD = _PATH.read_text(encoding="utf-8").replace('"columns": 12', '"columns": 0', 1)


def _long_folder(tmp_path: Path) -> Path:
    folder = tmp_path / ("d" * 120) / ("e" * 120)
    folder.mkdir(parents=True)
    return folder


def test_a_long_path_keeps_the_file_name_in_the_message(tmp_path: Path) -> None:
    bad = _long_folder(tmp_path) / "my-board.json"
    bad.write_text(BAD, encoding="utf-8")
    with pytest.raises(ScenarioFormatError) as info:
        read_scenario(bad)
    message = str(info.value)
    assert "my-board.json: $.board.columns: must be between 1 and 26 (got 0)" in message
    assert message.startswith(str(tmp_path)[:20]) and len(message) < 400


def test_a_long_json_path_keeps_its_end() -> None:
    exc = ScenarioFormatError("unknown key", source="m.json", path="$." + "k" * 500 + ".tail")
    assert ".tail: unknown key" in str(exc) and len(str(exc)) < 200


@pytest.mark.parametrize(
    "text, limit, shown",
    [
        ("short", 20, "short"),
        ("a\nb", 20, "a\\nb"),
        ("abcdefghijklmnopqrstuvwxyz", 11, "abcd...wxyz"),
        ("\x1b" * 30, 11, "\\x1b...\\x1b"),
    ],
)
def test_printable_middle(text: str, limit: int, shown: str) -> None:
    assert errors.printable_middle(text, limit) == shown
    assert len(errors.printable_middle(text, limit)) <= max(limit, len(shown))


@pytest.mark.parametrize("command", ["check", "analyze"])
def test_an_escaped_file_name_is_named_once(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "a\nb\x1b[31m.json"
    bad.write_text(BAD, encoding="utf-8")
    assert main([command, str(bad), "--json"]) == 2
    err = capsys.readouterr().err
    assert err.count("a\\nb\\x1b[31m.json") == 1, err
    assert "\x1b" not in err and err.count("\n") == 1


@pytest.mark.parametrize("command", ["check", "analyze"])
def test_a_long_file_name_is_named_once_with_its_end(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _long_folder(tmp_path) / "my-board.json"
    bad.write_text(BAD, encoding="utf-8")
    assert main([command, str(bad), "--json"]) == 2
    err = capsys.readouterr().err
    assert err.count("my-board.json") == 1, err
    assert "my-board.json: $.board.columns: must be between 1 and 26 (got 0)" in err
