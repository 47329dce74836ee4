"""Symmetry mode is saved with the file (issue 18 item 9c): switching it is an undoable
edit that marks the document modified, Save writes ``"editor": {"symmetry": ...}``, and
opening the file brings the mode back (toolbar button checked, edits mirrored)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from editor_helpers import click

from tankmap import maps
from tankmap.editor.pieces import Symmetry
from tankmap.rules.fileformat import write_scenario
from tankmap.rules.geometry import Facing

BLANK = maps.ROOT / "final-act" / "mirror.json"


def test_switching_symmetry_is_an_undoable_saved_edit(
    make_window: Any, prompter: Any, tmp_path: Path
) -> None:
    path = tmp_path / "board.json"
    write_scenario(make_window(BLANK).doc.scenario, path)
    w = make_window(path)
    assert w.doc.symmetry is Symmetry.OFF and not w.doc.modified
    w.run_action("symmetry.lr")
    assert w.doc.symmetry is Symmetry.LEFT_RIGHT and w.doc.modified
    assert "Symmetry: left-right" in w.actions_by_id["edit.undo"].text()
    w.doc.undo_stack.undo()
    assert w.doc.symmetry is Symmetry.OFF and w.actions_by_id["symmetry.off"].isChecked()
    w.doc.undo_stack.redo()
    assert w.actions_by_id["symmetry.lr"].isChecked()
    w.run_action("symmetry.point")
    w.run_action("file.save")
    assert json.loads(path.read_text("utf-8"))["editor"] == {"symmetry": "point"}
    assert not w.doc.modified


def test_opening_a_file_brings_its_symmetry_back(make_window: Any, tmp_path: Path) -> None:
    doc = json.loads(BLANK.read_text("utf-8"))
    doc["units"] = []
    doc["editor"] = {"symmetry": "point"}
    path = tmp_path / "point.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    w = make_window(path)
    assert w.doc.symmetry is Symmetry.POINT and not w.doc.modified
    assert w.actions_by_id["symmetry.point"].isChecked()
    w.ctx.set_choice(kind="tank")
    w.run_action("tools.place")
    click(w, "b2")  # mirrored at once: b2 -> k11 (12 + 1 - 2 = 11)
    b = w.doc.scenario.board
    placed = {(b.cell_name(u.cell), u.facing) for u in w.doc.scenario.units}
    assert placed == {("b2", Facing.N), ("k11", Facing.S)}


def test_a_file_without_it_opens_with_symmetry_off(make_window: Any) -> None:
    w = make_window(BLANK)
    w.run_action("symmetry.point")
    w.open_file(maps.ROOT / "final-act" / "flanks-vs-centre.json")  # unsaved: asked, cancelled
    w.doc.undo_stack.undo()
    w.open_file(maps.ROOT / "final-act" / "flanks-vs-centre.json")
    assert w.doc.symmetry is Symmetry.OFF and w.actions_by_id["symmetry.off"].isChecked()


def test_the_file_format_knows_every_mode() -> None:
    from tankmap.rules.fileformat import EDITOR_SETTINGS

    assert EDITOR_SETTINGS["symmetry"] == tuple(m.value for m in Symmetry)
    assert EDITOR_SETTINGS["symmetry"][0] == Symmetry.OFF.value  # the default, not written
