"""Walkthrough fixes (session 3): what the user reads and does while building a setup —
symmetric previews, readable history and status lines, the unit view's counts, shape keys,
error cells on the board, F8 through the problems, Save As names and file permissions.

Rule facts used (docs/rules.md): §1.2 Final Act tanks set up in own rows 1-3 with orthogonal
facings, a minefield's arrow must cross the strip; §1.5 a tank moves forward, back or
diagonally (never sideways); §4 a tank on f1 facing N has a 24-cell fire zone; §2.2 Tank
Chess obstacle pieces come in several shapes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tankmap.rules.registry import get_ruleset

MAPS = Path(__file__).resolve().parents[2] / "maps"


def test_place_preview_shows_the_mirror_image_in_symmetry_mode(make_window: Any) -> None:
    from editor_helpers import hover

    from tankmap.editor.pieces import Symmetry

    w = make_window()
    b = w.doc.scenario.board
    w.set_symmetry(Symmetry.POINT)
    w.ctx.set_choice(kind="tank", turns=0)
    w.ctx.set_tool("place")
    hover(w, "c2")
    # 180° point image of c2 on 12x12 is j11 (column 13-3=10 -> j, row 13-2=11)
    assert set(w.ctx.scene.preview.cells) == {b.parse_cell("c2"), b.parse_cell("j11")}
    assert len(w.ctx.scene.ghosts) == 2
    assert "mirror image" in w.message.text()


def test_history_and_status_use_readable_names(make_window: Any) -> None:
    from tankmap.editor import editing
    from tankmap.editor.pieces import Symmetry
    from tankmap.editor.tools.select import describe
    from tankmap.rules.geometry import Facing, Side
    from tankmap.rules.scenario import Terrain, Unit

    w = make_window()
    b = w.doc.scenario.board
    tank = Unit("tank", Side.SOUTH, b.parse_cell("b1"), Facing.N, "C")
    assert editing.place(w.doc, tank).ok
    assert w.doc.undo_stack.undoText() == "Place Tank C"
    assert describe(tank, w.doc.palette, w.doc.ruleset.side_names()) == "Tank C (South) facing N"
    w.set_symmetry(Symmetry.POINT)
    berm = Terrain(
        "berm-large", (b.parse_cell("d3"), b.parse_cell("e3"), b.parse_cell("f3")), Side.SOUTH
    )
    assert editing.place(w.doc, berm).ok
    assert w.doc.undo_stack.undoText() == "Place Large berm (symmetric)"


def test_save_as_suggests_the_title_and_writes_a_readable_file(
    make_window: Any, prompter: Any, tmp_path: Path
) -> None:
    import os
    import stat
    from dataclasses import replace

    from tankmap.editor.window_setup import file_stem

    assert file_stem("Ring of Fire!") == "ring-of-fire"
    assert file_stem("  ") == "scenario"
    s = replace(get_ruleset("final-act").new_scenario(), title="Walkthrough FA")
    w = make_window(scenario=s)
    target = tmp_path / "out.json"
    prompter.save = str(target)
    old = os.umask(0o022)
    try:
        assert w.save_as()
    finally:
        os.umask(old)
    suggested = [a for k, a in prompter.asked if k == "save"][0]
    assert Path(suggested).name == "walkthrough-fa.json"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644  # not the temp file's 0o600


def test_unit_view_status_names_the_unit_and_counts_cells(make_window: Any) -> None:
    from tankmap.editor import editing
    from tankmap.rules.geometry import Facing, Side
    from tankmap.rules.scenario import Unit

    w = make_window()
    b = w.doc.scenario.board
    tank = Unit("tank", Side.SOUTH, b.parse_cell("f1"), Facing.N, "C")
    editing.place(w.doc, tank)
    w.doc.select([tank])
    # docs/rules.md §1.5: on row 1 facing N only forward, forward-left, forward-right stay on the
    # board (3 cells, turning allowed on the diagonals); §4: 24 cells in its fire zone.
    text = w.message.text()
    assert text.startswith("Tank C: ")
    assert "to 3 cells (green dots)" in text and "24 cells in its fire zone" in text


def test_bracket_keys_cycle_the_footprint_shape(make_window: Any) -> None:
    from tankmap.editor.palette_data import shapes_for

    w = make_window(MAPS / "tank-chess" / "blank-16.json")
    doc = w.doc
    shapes = shapes_for(doc.palette, "obstacle", doc.ruleset, doc.scenario)
    assert len(shapes) > 2  # docs/rules.md §2.2: several obstacle pieces plus single cells
    w.ctx.set_choice(kind="obstacle", shape=0)
    w.run_action("tools.next_shape")
    assert w.ctx.choice.shape == 1 and w.ctx.tool_id == "place"
    assert w.palette_dock.shape_box.currentIndex() == 1
    w.run_action("tools.previous_shape")
    w.run_action("tools.previous_shape")
    assert w.ctx.choice.shape == len(shapes) - 1
    w.ctx.set_choice(kind="light")
    assert w.cycle_shape(1) is None


def test_no_red_preview_over_a_piece_just_placed(make_window: Any) -> None:
    from editor_helpers import click, hover

    w = make_window()
    w.ctx.set_choice(kind="tank", turns=0)
    w.ctx.set_tool("place")
    click(w, "c2")
    assert len(w.doc.scenario.units) == 1
    assert w.ctx.scene.preview.cells == () or not w.ctx.scene.preview.cells
    assert w.message.text() == "Placed Tank C at c2"  # the first tank gets C (docs/rules.md §1.2)
    hover(w, "d2")
    assert list(w.ctx.scene.preview.cells) == [w.doc.scenario.board.parse_cell("d2")]
    hover(w, "c2")  # coming back: now it is an occupied cell, refused in red
    assert "refused" in w.message.text()


def test_status_bar_greets_with_a_hint(make_window: Any) -> None:
    w = make_window()
    assert "palette" in w.message.text() and "F1" in w.message.text()


def _broken_final_act() -> Any:
    # docs/rules.md §1.2: tanks set up in own rows 1-3 (e5 is outside), facings are orthogonal
    # (NE is an error on that unit's cell); a minefield's arrow must cross the strip.
    from tankmap.rules.geometry import Facing, Side
    from tankmap.rules.scenario import Terrain, Unit

    s = get_ruleset("final-act").new_scenario()
    c = s.board.parse_cell
    s = s.adding(Unit("tank", Side.SOUTH, c("e5"), Facing.N, "C"))
    s = s.adding(Unit("tank", Side.SOUTH, c("f2"), Facing.NE, "1"))
    return s.adding(
        Terrain("minefield", (c("h4"), c("h5"), c("h6")), Side.SOUTH, lane=c("h5"), arrow=Facing.N)
    )


def test_error_cells_are_marked_on_the_board_but_not_in_exports(make_window: Any) -> None:
    from tankmap.editor.export import _scene

    s = _broken_final_act()
    w = make_window(scenario=s)
    b = s.board
    marked = {b.cell_name(c) for c in w.ctx.scene.errors.cells}
    assert marked == {"e5", "f2", "h4", "h5", "h6"}
    scene, _doc = _scene(s)
    assert not scene.errors.isVisible()


def test_f8_walks_through_the_problems(make_window: Any) -> None:
    w = make_window(scenario=_broken_final_act())
    dock = w.problems_dock
    w.run_action("view.next_problem")
    assert dock.tree.currentRow() == 0
    first = dock.violations[0]
    assert tuple(w.ctx.scene.problems.cells) == tuple(first.cells)
    # in words, not the rule's internal code (issue 18 item 6)
    assert w.message.text().startswith(f"Problem 1 of {len(dock.violations)} (error): ")
    assert first.code not in w.message.text()
    w.run_action("view.next_problem")
    assert dock.tree.currentRow() == 1
    w.run_action("view.previous_problem")
    w.run_action("view.previous_problem")
    assert dock.tree.currentRow() == len(dock.violations) - 1  # wraps around


def test_delete_says_what_was_erased(make_window: Any) -> None:
    from tankmap.editor import editing
    from tankmap.rules.geometry import Facing, Side
    from tankmap.rules.scenario import Unit

    w = make_window()
    w.run_action("edit.delete")
    assert w.message.text() == "Nothing selected to delete"
    tank = Unit("tank", Side.SOUTH, w.doc.scenario.board.parse_cell("b1"), Facing.N, "C")
    editing.place(w.doc, tank)
    w.doc.select([tank])
    w.run_action("edit.delete")
    assert w.doc.scenario.units == ()
    assert w.message.text() == "Erased Tank C (Ctrl+Z to undo)"


def test_hovering_keeps_the_message_line(make_window: Any) -> None:
    from editor_helpers import hover

    from tankmap.editor import editing
    from tankmap.rules.geometry import Facing, Side
    from tankmap.rules.scenario import Unit

    w = make_window()
    b = w.doc.scenario.board
    tank = Unit("tank", Side.SOUTH, b.parse_cell("f1"), Facing.N, "C")
    editing.place(w.doc, tank)
    w.doc.select([tank])
    text = w.message.text()
    assert text.startswith("Tank C:")
    hover(w, "h7")
    assert w.message.text() == text  # the unit view's answer stays
    assert w.hover_label.text().strip() == "h7"  # the cell shows on the right
    hover(w, "f1")
    assert "Tank C (South) facing N" in w.hover_label.text()


def test_problem_lines_start_with_a_capital(make_window: Any) -> None:
    w = make_window()  # empty Final Act board: "south still has ..." from the rules
    tree = w.problems_dock.tree
    texts = [tree.item(i).text() for i in range(tree.count())]
    assert texts and all(t[0].isupper() for t in texts)
    assert any(t.startswith("South still has") for t in texts)


def test_drop_says_what_moved_where(make_window: Any) -> None:
    from editor_helpers import drag

    from tankmap.editor import editing
    from tankmap.rules.geometry import Facing, Side
    from tankmap.rules.scenario import Unit

    w = make_window()
    b = w.doc.scenario.board
    editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("b1"), Facing.N, "C"))
    w.run_action("tools.select")
    drag(w, "b1", "d3")  # rows 1-3 are south's setup rows (docs/rules.md §1.2): legal
    assert w.message.text() == "Moved Tank C to d3 (Ctrl+Z to undo)"


def test_erase_tool_names_what_it_erased(make_window: Any) -> None:
    from editor_helpers import click

    from tankmap.editor import editing
    from tankmap.rules.geometry import Facing, Side
    from tankmap.rules.scenario import Unit

    w = make_window()
    b = w.doc.scenario.board
    editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("b1"), Facing.N, "C"))
    w.run_action("tools.erase")
    click(w, "b1")
    assert w.doc.scenario.units == ()
    assert w.message.text() == "Erased Tank C (Ctrl+Z to undo)"


def test_rotating_a_selected_unit_says_its_new_facing(make_window: Any) -> None:
    from tankmap.editor import editing
    from tankmap.rules.geometry import Facing, Side
    from tankmap.rules.scenario import Unit

    w = make_window()
    b = w.doc.scenario.board
    tank = Unit("tank", Side.SOUTH, b.parse_cell("c2"), Facing.N, "C")
    editing.place(w.doc, tank)
    w.run_action("tools.select")
    w.doc.select([tank])
    w.run_action("edit.rotate")  # docs/rules.md §1.2: any orthogonal facing is legal at setup
    assert w.doc.scenario.units[0].facing is Facing.E
    assert w.message.text() == "Rotated Tank C: facing E at c2"
    w.run_action("edit.escape")
    w.run_action("edit.rotate")
    assert w.message.text().startswith("Refused")


def test_hover_label_follows_an_edit_under_the_cursor(make_window: Any) -> None:
    from editor_helpers import hover

    from tankmap.editor import editing
    from tankmap.rules.geometry import Facing, Side
    from tankmap.rules.scenario import Unit

    w = make_window()
    b = w.doc.scenario.board
    tank = Unit("tank", Side.SOUTH, b.parse_cell("c2"), Facing.N, "C")
    editing.place(w.doc, tank)
    w.run_action("tools.select")
    hover(w, "c2")
    assert "facing N" in w.hover_label.text()
    w.doc.select([tank])
    w.run_action("edit.rotate")
    assert "facing E" in w.hover_label.text()


def test_warning_cells_are_outlined_on_the_board(make_window: Any) -> None:
    from tankmap.rules.geometry import Facing, Side
    from tankmap.rules.scenario import Unit

    s = get_ruleset("tank-chess").new_scenario()
    b = s.board
    # docs/rules.md §2.2: a piece starting outside its own rows 1-3 is only a warning
    s = s.adding(Unit("light", Side.SOUTH, b.parse_cell("b5"), Facing.N))
    w = make_window(scenario=s)
    assert b.parse_cell("b5") in w.ctx.scene.warnings.cells
    assert not w.ctx.scene.errors.cells
