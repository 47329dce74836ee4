"""docs/rules.md says its option tables are the list ``tankmap rulesets`` prints: every
option of every game, with the same default and the same words (a help text edited in the
code and not in the docs read differently, e.g. "with its next order" / "in its next
order")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tankmap.cli import main

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


SECTIONS = {"final-act": "## 1.", "tank-chess": "## 2.", "tank-wars": "## 3."}
"""Each game's section of docs/rules.md (its option tables are in it)."""


def _doc_rows(game: str) -> dict[str, tuple[str, str]]:
    """Option name → (default, words) of the tables in ``game``'s section."""
    rows: dict[str, tuple[str, str]] = {}
    inside = False
    for line in RULES.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            inside = line.startswith(SECTIONS[game])
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if inside and line.startswith("| `") and len(cells) == 3:
            rows[cells[0].strip("`")] = (cells[1], cells[2])
    return rows


def test_every_option_is_in_the_rules_doc_with_its_default_and_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rulesets", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["rulesets"]
    assert {rs["name"] for rs in listed} >= set(SECTIONS)
    for rs in (r for r in listed if r["name"] in SECTIONS):  # (tests may register others)
        rows = _doc_rows(rs["name"])
        assert len(rows) >= len(rs["options"]) > 0
        for option in rs["options"]:
            name = option["name"]
            assert name in rows, f"{rs['name']} option {name} is not in docs/rules.md"
            default, words = rows[name]
            assert default.strip('"') == json.dumps(option["default"]).strip('"'), name
            assert words == option["help"], name
