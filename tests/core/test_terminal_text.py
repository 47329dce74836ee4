"""Names from files reach the terminal escaped (issue 32): a file name, title or unit name
holding terminal codes (ANSI colours, an OSC window title) or a right-to-left override is
printed by ``analyze`` and ``moves`` as ``check`` prints it — ``\\x1b[31m`` as text —, and
``render -o x.svg`` still writes valid XML."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tankmap.cli import main

ROOT = Path(__file__).resolve().parents[2]
ANSI, OSC, RLO = "\x1b[31m", "\x1b]0;owned\x07", "\u202e"
EVIL = f"{ANSI}red{OSC}{RLO}evil"
CONTROL = ("\x1b", "\x07", RLO, "\r")


@pytest.fixture
def evil_map(tmp_path: Path) -> Path:
    """Final Act's mirror map with the codes in its file name, title and unit names."""
    doc = json.loads((ROOT / "maps" / "final-act" / "mirror.json").read_text("utf-8"))
    doc["title"] = EVIL
    for unit in doc["units"][:2]:
        unit["name"] = f"{unit['name']}{EVIL}"
    path = tmp_path / f"map{EVIL}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


SHOWN = "\\x1b[31mred\\x1b]0;owned\\x07\\u202eevil"
"""``EVIL`` as printed: every code as text."""


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (["analyze"], [f"map{SHOWN}.json: final-act — {SHOWN}", f"South tank 1B{SHOWN} at b2"]),
        (["moves"], [f"South tank 1B{SHOWN} at b2 facing N"]),
        (["check"], [f"map{SHOWN}.json: ILLEGAL"]),
        (["analyze", "--out", "OUT"], [f"rep{SHOWN}/report.html"]),
    ],
    ids=["analyze", "moves", "check", "analyze-out"],
)
def test_names_are_printed_escaped(
    command: list[str],
    expected: list[str],
    evil_map: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = [str(tmp_path / f"rep{EVIL}") if a == "OUT" else a for a in command]
    assert main([args[0], str(evil_map), *args[1:]]) in (0, 1)  # check: 1, names are illegal
    out, err = capsys.readouterr()
    assert not any(c in out + err for c in CONTROL), (out + err)[:500]  # before: raw codes
    for text in expected:
        assert text in out


def test_render_svg_with_such_names_is_valid_xml(evil_map: Path, tmp_path: Path) -> None:
    svg = tmp_path / "board.svg"
    assert main(["render", str(evil_map), "-o", str(svg)]) == 0
    text = svg.read_text("utf-8")
    ET.fromstring(text)  # before: "not well-formed (invalid token)"
    assert "\\x1b[31mred" in text  # the title and names drawn escaped
    assert main(["render", str(evil_map), "-o", str(svg), "--title", EVIL]) == 0
    ET.parse(svg)
