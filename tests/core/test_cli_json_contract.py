"""The ``--json`` documents say what docs/cli-json.md says they say: every key a document
has is named in its section, unreadable files are said on standard error, and several
files get an entry each."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tankmap.cli import main

ROOT = Path(__file__).resolve().parents[2]
CLI_JSON = (ROOT / "docs" / "cli-json.md").read_text(encoding="utf-8")
TW = "tank-wars/default"


def section(heading: str) -> str:
    """The text of cli-json.md's section whose heading starts with ``heading``."""
    parts = re.split(r"^## ", CLI_JSON, flags=re.M)
    found = [p for p in parts if p.startswith(heading)]
    assert found, f"no section {heading!r} in cli-json.md"
    return "\n".join(found)


def named(keys: Any, text: str) -> set[str]:
    """The ``keys`` that ``text`` does not name (as `key` or "key")."""
    return {k for k in keys if f"`{k}`" not in text and f'"{k}"' not in text}


def run_json(capsys: pytest.CaptureFixture[str], code: int, *argv: str) -> Any:
    assert main(list(argv)) == code
    return json.loads(capsys.readouterr().out)


def test_check_json_says_an_unreadable_file_on_stderr_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    doc = run_json(capsys, 2, "check", TW, str(bad), "--json")
    assert [f["file"] for f in doc["files"]] == [TW, str(bad)]
    assert "malformed JSON" in doc["files"][1]["error"]
    main(["check", TW, str(bad), "--json"])
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"tankmap check: error: {bad}")


def test_analyze_json_of_several_files_gives_an_unreadable_one_an_error_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As ``check`` does: the others are analysed, exit 2, one line on stderr."""
    empty = tmp_path / "empty.json"
    empty.write_text("")
    assert main(["analyze", TW, str(empty), "--json"]) == 2
    captured = capsys.readouterr()
    files = json.loads(captured.out)["files"]
    assert [f["file"] for f in files] == [TW, str(empty)]
    assert files[0]["ruleset"] == "tank-wars" and "error" not in files[0]
    assert set(files[1]) == {"file", "error"}
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"tankmap analyze: error: {empty}")
    # the text output too, and the error entries are named by the doc
    assert main(["analyze", str(empty), TW]) == 2
    captured = capsys.readouterr()
    assert f"{TW}: tank-wars" in captured.out and str(empty) in captured.err
    assert not named(["error"], section("`tankmap analyze FILE --json`"))


def _record(tmp_path: Path, name: str) -> str:
    rec = str(tmp_path / f"{name.replace('/', '-')}.json")
    argv = ["simulate", name, "--games", "1", "--workers", "1", "--policy", "random"]
    assert main([*argv, "--record", rec]) == 0
    return rec


@pytest.mark.parametrize("name", ["tank-chess/basic-16", "final-act/mirror", TW])
def test_replay_json_entries_have_the_keys_the_doc_names(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tank Chess numbers its entries ``turn`` (it has turns), the others ``round``."""
    rec = _record(tmp_path, name)
    capsys.readouterr()
    doc = run_json(capsys, 0, "replay", rec, "--json")
    text = section("`tankmap replay RECORD --json`")
    assert not named(doc, text)
    assert not named(doc["result"], text)
    entry = doc["rounds"][0]
    assert not named(entry, text)
    assert ("turn" in entry) is (name.startswith("tank-chess"))
    assert ("round" in entry) is not (name.startswith("tank-chess"))


def test_draws_are_said_a_count_or_a_share_where_each_is_one() -> None:
    """``simulate`` and ``ladder`` count draws, ``verdict`` gives their share."""

    def said(heading: str) -> str:
        return " ".join(section(heading).split())

    for heading in ("`tankmap simulate FILE --json`\n", "`tankmap ladder FILE --json`"):
        assert "`draws` is the number of drawn games" in said(heading), heading
    assert "`draws` is the share of drawn games" in said("`tankmap verdict FILE --json`")


def test_rulesets_json_is_documented(capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_json(capsys, 0, "rulesets", "--json")
    text = section("`tankmap rulesets --json`")
    assert not named(doc, text)
    assert not named(doc["rulesets"][0], text)
    assert not named(doc["rulesets"][0]["options"][0], text)
