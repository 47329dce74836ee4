"""The paste preview (issue 18 item 9b, as in Tiled): Ctrl+V makes the clipboard a stamp
that follows the cursor as a translucent ghost over green cells where it may go and red
ones where not (the reason in the status bar); a click pastes it there, one undo step."""

from __future__ import annotations

from typing import Any

from editor_helpers import click, hover

from tankmap.editor import editing
from tankmap.editor.scene import preview_look
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Terrain, Unit


def _copy_tank_and_berm(w: Any) -> None:
    """South tank C on b1 and a small berm on c2 d2 (Final Act, south's setup rows 1-3)."""
    b = w.doc.scenario.board
    editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("b1"), Facing.N, "C"))
    berm = Terrain("berm-small", (b.parse_cell("c2"), b.parse_cell("d2")), Side.SOUTH)
    editing.place(w.doc, berm)
    w.doc.select(w.doc.scenario.units + w.doc.scenario.terrain)
    w.run_action("edit.copy")


def _ghost_cells(w: Any) -> set[str]:
    b = w.doc.scenario.board
    return {b.cell_name(c) for c in w.ctx.scene.preview.cells}


def test_the_stamp_follows_the_cursor_green_then_red(make_window: Any) -> None:
    w = make_window()
    _copy_tank_and_berm(w)
    w.run_action("edit.paste")
    assert w.ctx.tool_id == "stamp"
    assert not any(w.actions_by_id[f"tools.{t}"].isChecked() for t in ("select", "place", "erase"))
    hover(w, "f1")  # the tank's anchor on f1: tank f1, berm g2 h2 — free, in the setup rows
    assert _ghost_cells(w) == {"f1", "g2", "h2"}
    assert w.ctx.tool.ok and w.ctx.scene.preview.fill == preview_look(True)[0]
    ghosts = w.ctx.scene.ghosts
    assert len(ghosts) == 2 and all(0 < g.opacity() < 1 for g in ghosts)  # translucent
    assert "click to place" in w.ctx.last_status
    hover(w, "f5")  # row 5 is outside south's setup rows 1-3: red, with the reason
    assert _ghost_cells(w) == {"f5", "g6", "h6"}
    assert not w.ctx.tool.ok and w.ctx.scene.preview.fill == preview_look(False)[0]
    assert "refused:" in w.ctx.last_status
    hover(w, "l1")  # the berm would leave the board: red on the cells still on it
    assert not w.ctx.tool.ok and "leave the board" in w.ctx.last_status
    assert _ghost_cells(w) == {"l1"}
    assert len(w.doc.scenario.units) == 1  # previews change nothing


def test_a_click_pastes_one_undo_step_and_the_stamp_stays(make_window: Any) -> None:
    w = make_window()
    _copy_tank_and_berm(w)
    w.run_action("edit.paste")
    before = w.doc.scenario
    click(w, "f1")
    s = w.doc.scenario
    b = s.board
    assert [b.cell_name(u.cell) for u in s.units] == ["b1", "f1"]
    assert s.units[1].name != "C"  # renamed: C is taken
    assert len(s.terrain) == 2
    assert w.ctx.tool_id == "stamp" and not w.ctx.tool.ok  # f1 is taken now: red
    assert w.ctx.last_status.startswith("Pasted at f1")
    click(w, "f5")  # refused: nothing pasted
    assert w.doc.scenario == s and w.ctx.last_status.startswith("Refused: ")
    w.doc.undo_stack.undo()
    assert w.doc.scenario == before
    w.run_action("edit.escape")
    assert w.ctx.tool_id == "select" and not w.ctx.scene.ghosts
    assert w.actions_by_id["tools.select"].isChecked()


def test_an_empty_clipboard_says_so(make_window: Any) -> None:
    w = make_window()
    w.run_action("edit.paste")
    assert w.ctx.tool_id != "stamp" and "clipboard is empty" in w.ctx.last_status
