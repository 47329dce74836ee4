"""Each tool through the actions and through simulated mouse events on the view.

Legality facts come from docs/rules.md §1.2 (Final Act): tanks set up in own rows 1-3, seven per
side named C 1 1A 1B 2 2A 2B, default facing forward (N for south); terrain never overlaps;
a unit never stands on a swamp.
"""

from __future__ import annotations

from typing import Any

from editor_helpers import choose, click, drag, hover
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tankmap.editor import editing
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Terrain, Unit


def test_place_tank_with_the_mouse(make_window: Any) -> None:
    w = make_window()
    choose(w, "tank")
    click(w, "f1")
    (u,) = w.doc.scenario.units
    assert (u.kind, u.side, u.name, u.facing) == ("tank", Side.SOUTH, "C", Facing.N)
    assert w.doc.scenario.board.cell_name(u.cell) == "f1"
    click(w, "g1")  # the second tank gets the next name of the panel list
    assert [x.name for x in w.doc.scenario.units] == ["C", "1"]
    assert w.doc.modified


def test_illegal_placement_is_refused_with_its_reason(make_window: Any) -> None:
    w = make_window()
    choose(w, "tank")
    click(w, "f5")  # row 5 is outside south's setup rows 1-3
    assert w.doc.scenario.units == ()
    assert "Refused" in w.message.text() and "rows 1–3" in w.message.text()
    assert w.doc.undo_stack.count() == 0


def test_preview_is_green_or_red_with_reason(make_window: Any) -> None:
    w = make_window()
    choose(w, "tank")
    b = w.doc.scenario.board
    hover(w, "c2")
    assert w.ctx.scene.preview.cells == (b.parse_cell("c2"),)
    assert "legal" in w.ctx.last_status
    hover(w, "c4")
    assert w.ctx.scene.preview.cells == (b.parse_cell("c4"),)
    assert "refused" in w.ctx.last_status and "rows 1–3" in w.ctx.last_status


def test_place_terrain_rotate_and_mirror(make_window: Any) -> None:
    w = make_window()
    b = w.doc.scenario.board
    choose(w, "berm-large")
    w.run_action("edit.rotate")  # the preview turns: 1x3 across -> along
    click(w, "d2")
    (t,) = w.doc.scenario.terrain
    assert sorted(b.cell_name(x) for x in t.cells) == ["d1", "d2", "d3"]
    # rotate the placed piece back with the select tool + R
    w.run_action("tools.select")
    click(w, "d2")
    assert w.doc.selection == (t,)
    w.run_action("edit.rotate")
    (t2,) = w.doc.scenario.terrain
    assert sorted(b.cell_name(x) for x in t2.cells) == ["c2", "d2", "e2"]
    w.run_action("edit.undo")
    assert w.doc.scenario.terrain == (t,)


def test_shift_wheel_rotates_the_selected_unit(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    b = w.doc.scenario.board
    editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("e2"), Facing.N, "C"))
    w.doc.select(w.doc.scenario.units)
    pos = QPointF(w.view.cell_point(b.parse_cell("e2")))
    event = QWheelEvent(
        pos,
        w.view.mapToGlobal(pos),
        QPoint(),
        QPoint(0, -120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.ShiftModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(w.view.viewport(), event)
    assert w.doc.scenario.units[0].facing is Facing.E  # 90° clockwise (orthogonal game)


def test_drag_moves_the_selection_in_one_undo_step(make_window: Any) -> None:
    w = make_window()
    b = w.doc.scenario.board
    editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("b1"), Facing.N, "C"))
    before = w.doc.scenario
    steps = w.doc.undo_stack.count()
    w.run_action("tools.select")
    drag(w, "b1", "d3")
    assert [b.cell_name(u.cell) for u in w.doc.scenario.units] == ["d3"]
    assert w.doc.undo_stack.count() == steps + 1
    w.run_action("edit.undo")
    assert w.doc.scenario == before


def test_illegal_drop_is_refused(make_window: Any) -> None:
    w = make_window()
    b = w.doc.scenario.board
    editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("b1"), Facing.N, "C"))
    before = w.doc.scenario
    w.run_action("tools.select")
    drag(w, "b1", "b6")  # row 6: outside the setup rows
    assert w.doc.scenario == before
    assert "Refused" in w.message.text() and "rows 1–3" in w.message.text()


def test_rubber_band_selects_pieces_inside(make_window: Any) -> None:
    w = make_window()
    b = w.doc.scenario.board
    for name, cell in (("C", "b1"), ("1", "c2"), ("1A", "h2")):
        editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell(cell), Facing.N, name))
    w.doc.select([])
    w.run_action("tools.select")
    drag(w, "a3", "d1")
    assert sorted(u.name or "" for u in w.doc.selection) == ["1", "C"]


def test_erase_by_click_and_by_delete(make_window: Any) -> None:
    w = make_window()
    b = w.doc.scenario.board
    editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("b1"), Facing.N, "C"))
    editing.place(
        w.doc,
        Terrain("swamp", tuple(b.parse_cell(x) for x in ("e4", "f4", "e5", "f5")), Side.SOUTH),
    )
    w.run_action("tools.erase")
    click(w, "b1")
    assert w.doc.scenario.units == ()
    w.run_action("tools.select")
    click(w, "f5")
    assert len(w.doc.selection) == 1
    w.run_action("edit.delete")
    assert w.doc.scenario.terrain == ()
    w.run_action("edit.undo")
    assert len(w.doc.scenario.terrain) == 1


def test_unit_on_swamp_refused(make_window: Any) -> None:
    w = make_window()
    b = w.doc.scenario.board
    editing.place(
        w.doc,
        Terrain("swamp", tuple(b.parse_cell(x) for x in ("e2", "f2", "e3", "f3")), Side.SOUTH),
    )
    outcome = editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("e2"), Facing.N, "C"))
    assert not outcome.ok and outcome.reason
    assert w.doc.scenario.units == ()


def test_copy_paste_at_cursor(make_window: Any) -> None:
    w = make_window()
    b = w.doc.scenario.board
    editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("b1"), Facing.N, "C"))
    w.doc.select(w.doc.scenario.units)
    w.run_action("edit.copy")
    w.ctx.set_hover(b.parse_cell("e2"))
    w.run_action("edit.paste_here")  # Ctrl+Shift+V: at once (Ctrl+V is the stamp)
    units = w.doc.scenario.units
    assert [(b.cell_name(u.cell), u.name) for u in units] == [("b1", "C"), ("e2", "1")]
    w.ctx.set_hover(b.parse_cell("e2"))
    w.run_action("edit.paste_here")  # onto the same cell: refused, nothing changes
    assert len(w.doc.scenario.units) == 2
    assert "Refused" in w.message.text()


def test_place_tool_right_click_rotates_preview(make_window: Any) -> None:
    w = make_window()
    choose(w, "tank")
    click(w, "c2", Qt.MouseButton.RightButton)
    click(w, "c2")
    assert w.doc.scenario.units[0].facing is Facing.E


def test_arrow_keys_nudge_the_selection_when_the_board_has_focus(
    make_window: Any, qtbot: Any
) -> None:
    w = make_window()
    b = w.doc.scenario.board
    editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("b1"), Facing.N, "C"))
    w.activateWindow()
    qtbot.waitActive(w)
    w.view.setFocus()
    QTest.keyClick(w.view, Qt.Key.Key_Right)
    QTest.keyClick(w.view, Qt.Key.Key_Up)
    assert b.cell_name(w.doc.scenario.units[0].cell) == "c2"
    QTest.keyClick(w.view, Qt.Key.Key_Up)
    QTest.keyClick(w.view, Qt.Key.Key_Up)  # row 4 is outside the setup rows: refused
    assert b.cell_name(w.doc.scenario.units[0].cell) == "c3"
    assert "Refused" in w.message.text()


def test_help_lists_every_shortcut(make_window: Any, prompter: Any) -> None:
    from tankmap.editor.actions import ACTIONS, shortcuts_html

    w = make_window()
    w.run_action("help.shortcuts")
    assert prompter.asked[-1] == ("info", "Keyboard shortcuts")
    text = shortcuts_html()
    for spec in ACTIONS:
        if spec.menu != "&Help":
            assert spec.shortcut, spec.id  # every tool and command has a key
        assert spec.words()[0].replace("&", "") in text


def test_two_identical_units_in_one_cell_are_both_drawn(make_window: Any) -> None:
    # docs/rules.md §1.3 (Extra Forces): two ATs may share a cell; equal values, two pieces.
    from tankmap.rules.registry import get_ruleset

    s = get_ruleset("final-act").new_scenario(options={"extra_forces": True})
    at = Unit("at", Side.SOUTH, s.board.parse_cell("c2"), Facing.N)
    w = make_window(scenario=s)
    assert editing.place(w.doc, at).ok
    assert editing.place(w.doc, at).ok
    items = w.ctx.scene.piece_items()
    assert len(items) == 2
    offsets = {(i.offset.x(), i.offset.y()) for i in items.values()}  # type: ignore[attr-defined]
    assert len(offsets) == 2  # drawn side by side, not on top of each other


def test_mirror_shape_with_m_and_redo(make_window: Any) -> None:
    from tankmap.rules.registry import get_ruleset

    w = make_window(scenario=get_ruleset("tank-chess").new_scenario())
    b = w.doc.scenario.board
    # L-tromino d7 e7 d8 (anchor e7); mirrored about e7's column: f7 e7 f8 (rows 7-8 hold
    # no printed start cell, which obstacles may not cover).
    piece = Terrain(
        "obstacle", tuple(b.parse_cell(x) for x in ("d7", "e7", "d8")), shape="L-tromino"
    )
    assert editing.place(w.doc, piece).ok
    w.run_action("tools.select")
    w.doc.select([piece])
    w.run_action("edit.mirror")
    (t,) = w.doc.scenario.terrain
    assert sorted(b.cell_name(c) for c in t.cells) == ["e7", "f7", "f8"], w.message.text()
    after = w.doc.scenario
    w.run_action("edit.undo")
    assert w.doc.scenario.terrain == (piece,)
    w.run_action("edit.redo")
    assert w.doc.scenario == after


def test_drag_painting_and_erasing_obstacle_cells_is_one_step_each(make_window: Any) -> None:
    from editor_helpers import move_mouse
    from PySide6.QtCore import QPoint

    from tankmap.rules.registry import get_ruleset

    w = make_window(scenario=get_ruleset("tank-chess").new_scenario())
    b = w.doc.scenario.board
    w.ctx.set_choice(kind="obstacle", shape=0)  # single cell
    w.run_action("tools.place")
    vp = w.view.viewport()
    pts = [w.view.cell_point(b.parse_cell(c)) for c in ("e8", "f8", "g8")]
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pts[0])
    for p in pts[1:]:
        move_mouse(w, QPoint(p), Qt.MouseButton.LeftButton)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pts[-1])
    assert sorted(b.cell_name(t.cells[0]) for t in w.doc.scenario.terrain) == ["e8", "f8", "g8"]
    assert w.doc.undo_stack.count() == 1
    w.run_action("tools.erase")
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pts[0])
    move_mouse(w, QPoint(pts[1]), Qt.MouseButton.LeftButton)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pts[1])
    assert [b.cell_name(t.cells[0]) for t in w.doc.scenario.terrain] == ["g8"]
    assert w.doc.undo_stack.count() == 2
    w.run_action("edit.undo")
    assert len(w.doc.scenario.terrain) == 3
    w.run_action("edit.undo")
    assert w.doc.scenario.terrain == ()


def test_right_click_selects_and_offers_edit_commands(make_window: Any) -> None:
    w = make_window()
    b = w.doc.scenario.board
    editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("b1"), Facing.N, "C"))
    w.doc.select([])
    w.run_action("tools.select")
    click(w, "b1", Qt.MouseButton.RightButton)
    assert [u.name for u in w.doc.selection] == ["C"]  # type: ignore[union-attr]
    menu = w.ctx.context_menu
    assert menu is not None
    texts = [a.text().replace("&", "") for a in menu.actions()]
    assert "Rotate clockwise" in texts and "Delete" in texts
    menu.close()


def test_ghost_shows_the_turned_piece_before_the_click(make_window: Any) -> None:
    w = make_window()
    choose(w, "tank")
    hover(w, "c2")
    assert w.ctx.scene._ghost_piece is not None
    assert w.ctx.scene._ghost_piece.facing is Facing.N  # type: ignore[union-attr]
    w.run_action("edit.rotate")
    assert w.ctx.scene._ghost_piece.facing is Facing.E  # type: ignore[union-attr]
    w.run_action("tools.select")
    assert w.ctx.scene._ghost_piece is None


def test_dragging_shows_ghosts_and_escape_resets(make_window: Any) -> None:
    from editor_helpers import move_mouse
    from PySide6.QtCore import QPoint

    w = make_window()
    b = w.doc.scenario.board
    editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("b1"), Facing.N, "C"))
    w.run_action("tools.select")
    vp = w.view.viewport()
    a, z = w.view.cell_point(b.parse_cell("b1")), w.view.cell_point(b.parse_cell("c2"))
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, a)
    move_mouse(w, QPoint(z), Qt.MouseButton.LeftButton)
    ghosts = w.ctx.scene._ghost_pieces
    assert [b.cell_name(g.cell) for g in ghosts] == ["c2"]  # type: ignore[union-attr]
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, z)
    assert w.ctx.scene._ghost_pieces == ()
    choose(w, "tank")
    w.run_action("edit.escape")
    assert w.ctx.tool_id == "select" and w.doc.selection == ()
