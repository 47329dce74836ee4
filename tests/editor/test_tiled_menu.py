"""File ▸ Export to Tiled map / Import from Tiled through the window's actions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tankmap.rules.fileformat import read_scenario
from tankmap.rules.tiled_read import read_tiled

ROOT = Path(__file__).resolve().parents[2]
MIRROR = ROOT / "maps" / "final-act" / "mirror.json"


def test_export_then_import_gives_back_the_board(
    make_window: Any, prompter: Any, tmp_path: Path
) -> None:
    w = make_window(MIRROR)
    prompter.save = str(tmp_path / "mirror.tmj")
    w.run_action("file.export_tiled")
    assert read_tiled(tmp_path / "mirror.tmj") == read_scenario(MIRROR)
    assert (tmp_path / "tankmap-tiles.png").exists()
    prompter.open = str(tmp_path / "mirror.tmj")
    w.run_action("file.import_tiled")
    assert w.doc.path is None  # untitled: saving asks for a scenario file name
    assert w.doc.scenario == read_scenario(MIRROR)
    assert ("open-file", "Tiled maps (*.tmx *.tmj)") in prompter.asked


def test_import_of_a_broken_map_says_why_and_keeps_the_document(
    make_window: Any, prompter: Any, tmp_path: Path
) -> None:
    w = make_window(MIRROR)
    bad = tmp_path / "broken.tmx"
    bad.write_text("<map")
    prompter.open = str(bad)
    assert not w.import_tiled()
    errors = [text for what, text in prompter.asked if what == "error"]
    assert errors and "broken.tmx" in errors[0] and "not valid XML" in errors[0]
    assert w.doc.path == MIRROR
