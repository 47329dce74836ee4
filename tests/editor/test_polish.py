"""Session-3 polish: full palette names, readable unit stats, the first window size,
the recovery prompt's wording, the north setup sheet drawn from north's seat, toolbar icons.

Rule facts used (RULES.md): §1.2/1.6 a Final Act tank takes 2 hits, fires, blocks fire and
moves forward/back/diagonally (never sideways); §1.3 the AT does not block fire;
§2.1 Tank Chess heavy tank: speed 3, gun 3, armour 3/2/1; §3 Tank Wars heavy tank: 3 armour
points, moves straight 1 or 2 (provisional).
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QRect, QSettings

from editor.autosave import Autosave
from editor.dialogs import recovery_message
from editor.mainwindow import MainWindow, initial_geometry
from editor.stats import stat_rows
from rules.registry import get_ruleset

MAPS = Path(__file__).resolve().parents[2] / "maps"


def test_palette_shows_full_tank_chess_names(make_window: Any) -> None:
    w = make_window(MAPS / "tank-chess" / "sample-20.json")
    tree = w.palette_dock.list
    w.palette_dock.resize(120, 400)  # a narrow dock must not squeeze the names
    assert tree.minimumWidth() > 0
    header = tree.header()
    fm = tree.fontMetrics()
    names = [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())]
    assert "Tank destroyer" in names and "Command tank" in names
    widest = max(fm.horizontalAdvance(n) for n in names)
    w.palette_dock.resize(w.palette_dock.minimumSizeHint().width(), 400)
    # the icon (22 px) + the longest name fit in the piece column
    assert header.sectionSize(0) >= widest + 22
    row = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())][-1]
    assert row.text(0) == "Obstacle"
    # sample-20 has 16 obstacle pieces of the box's 26 (RULES §2.2): 10 left, shared
    assert (row.text(1), row.text(2)) == ("10/26", "shared")
    assert "16 placed" in row.toolTip(1)


def test_stats_are_readable_per_ruleset() -> None:
    fa = dict(stat_rows(get_ruleset("final-act"), "tank"))
    assert fa["Hits to knock out"] == "2"
    assert (fa["Fires"], fa["Blocks fire"]) == ("yes", "yes")
    assert "not sideways" in fa["Movement"]
    assert dict(stat_rows(get_ruleset("final-act"), "at"))["Blocks fire"] == "no"
    tc = dict(stat_rows(get_ruleset("tank-chess"), "heavy"))
    assert tc["Speed"].startswith("3")
    assert tc["Gun"] == "3"
    assert tc["Armour"] == "3 front / 2 side / 1 rear"
    tw = dict(stat_rows(get_ruleset("tank-wars"), "heavy"))
    assert tw["Armour points"] == "3"
    assert tw["Moves"] == "straight 1 or straight 2"


def test_inspector_shows_readable_stats_not_a_dict(make_window: Any) -> None:
    w = make_window(MAPS / "tank-chess" / "basic-16.json")
    heavy = next(u for u in w.doc.scenario.units if u.kind == "heavy")
    w.doc.select([heavy])
    f = w.inspector_dock.fields
    assert f["kind"].text() == "Heavy tank"  # type: ignore[attr-defined]
    assert f["side"].text() in ("White (south)", "Black (north)")  # type: ignore[attr-defined]
    text = f["stats"].text()  # type: ignore[attr-defined]
    assert "Armour" in text and "3 front / 2 side / 1 rear" in text
    assert "{" not in text and "_" not in text


def test_first_window_geometry_is_a_share_of_the_screen() -> None:
    rect = initial_geometry(QRect(0, 0, 1600, 1000))
    assert (rect.width(), rect.height()) == (1360, 850)
    assert rect.center() == QRect(0, 0, 1600, 1000).center()
    small = initial_geometry(QRect(0, 0, 1024, 600))
    assert small.width() <= 1024 and small.height() <= 600


def test_window_restores_saved_geometry(qtbot: Any, tmp_path: Path, prompter: Any) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)

    def window() -> MainWindow:
        w = MainWindow(
            prompter=prompter,
            settings=settings,
            autosave=Autosave(tmp_path / "autosave"),
            offer_recovery=False,
        )
        qtbot.addWidget(w)
        return w

    first = window()
    avail = first.screen().availableGeometry()
    assert first.size() == initial_geometry(avail).size()  # nothing saved yet
    first.show()
    qtbot.waitExposed(first)
    first.resize(700, 500)
    first.close()
    second = window()
    assert (second.width(), second.height()) == (700, 500)


def test_recovery_message_names_the_file_and_the_time(tmp_path: Path) -> None:
    import os

    copy = tmp_path / "a-123.autosave.json"
    copy.write_text("{}", encoding="utf-8")
    # 2026-03-04 05:06:07 local time
    stamp = datetime.datetime(2026, 3, 4, 5, 6, 7).timestamp()
    os.utime(copy, (stamp, stamp))
    text = recovery_message(str(copy), "“/home/me/maps/a.json”")
    assert "“/home/me/maps/a.json”" in text
    assert "on 2026-03-04 at 05:06:07" in text
    assert "unknown time" in recovery_message(str(tmp_path / "gone.json"), "x")


def test_untitled_recovery_names_ruleset_and_title(
    qtbot: Any, tmp_path: Path, prompter: Any
) -> None:
    from dataclasses import replace

    from rules.fileformat import write_scenario

    auto = tmp_path / "autosave"
    auto.mkdir()
    s = replace(get_ruleset("tank-chess").new_scenario(), title="Ring")
    write_scenario(s, auto / "untitled-999999999-1.autosave.json")
    w = MainWindow(
        prompter=prompter,
        settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
        autosave=Autosave(auto),
    )
    qtbot.addWidget(w)
    originals = [a for k, a in prompter.asked if k == "recover-original"]
    assert originals == ["an untitled Tank Chess (Forsage Games) scenario “Ring”"]


def test_flipped_geometry_is_the_north_players_view() -> None:
    from editor.scene import CELL, Geometry
    from rules.board import Board
    from rules.geometry import Facing

    b = Board.of(12, 12)
    geo = Geometry(b, flipped=True)
    # turned 180°: a1 at the top right, l12 (north's own row 1, its left) at the bottom left
    assert (geo.rect(b.parse_cell("a1")).x(), geo.rect(b.parse_cell("a1")).y()) == (11 * CELL, 0)
    assert (geo.rect(b.parse_cell("l12")).x(), geo.rect(b.parse_cell("l12")).y()) == (0, 11 * CELL)
    assert all(geo.cell_at(geo.centre(c)) == c for c in range(b.size))
    assert geo.vector(Facing.S) == (0, -1)  # north's forward points up the page
    assert Geometry(b).vector(Facing.N) == (0, -1)


def test_north_sheet_shows_north_setup_at_the_bottom(repo_root: Path) -> None:
    from editor.export import _scene, side_only
    from rules.geometry import Side

    s = read_map("final-act", "mirror.json")
    north = side_only(s, Side.NORTH)
    scene, _doc = _scene(north, flipped=True)
    mid = scene.geo.board_rect().center().y()
    centres = [scene.geo.centre(u.cell).y() for u in north.units]
    assert centres and all(y > mid for y in centres)  # north's rows 10-12 drawn low
    plain, _doc2 = _scene(north)
    assert all(plain.geo.centre(u.cell).y() < mid for u in north.units)


def read_map(ruleset: str, name: str) -> Any:
    from rules.fileformat import read_scenario

    return read_scenario(MAPS / ruleset / name)


def test_toolbar_actions_have_icons_and_text(make_window: Any) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QToolBar

    w = make_window()
    bar = w.findChild(QToolBar, "toolbar-main")
    assert bar.toolButtonStyle() is Qt.ToolButtonStyle.ToolButtonTextUnderIcon
    actions = [a for a in bar.actions() if not a.isSeparator()]
    assert len(actions) >= 14
    for act in actions:
        assert not act.icon().isNull(), act.objectName()
        assert act.iconText()
        image = act.icon().pixmap(24, 24).toImage()
        # something is drawn: some pixel is not transparent
        assert any(image.pixelColor(x, y).alpha() for x in range(24) for y in range(24))


def test_problems_headline_and_empty_state(make_window: Any) -> None:
    from editor.docks.problems import summary

    w = make_window()  # an empty Final Act board: legal, nothing placed yet
    dock = w.problems_dock
    assert dock.summary.text().startswith("Legal so far — ")
    assert "still to place" in dock.summary.text()
    assert dock.tree.count() == len(w.doc.violations)
    w2 = make_window(MAPS / "tank-chess" / "basic-16.json")  # the printed setup: complete
    assert w2.problems_dock.summary.text() == "Legal and complete"
    from editor.docks.problems import EMPTY_TEXT

    tree = w2.problems_dock.tree
    assert tree.count() == 1 and tree.item(0).text() == EMPTY_TEXT
    assert w2.step_problem(1) is None  # F8 with nothing to show
    assert summary([]) == "Legal and complete"


def test_option_labels_are_capitalised(make_window: Any) -> None:
    from PySide6.QtWidgets import QFormLayout, QLabel

    w = make_window()
    form = w.inspector_dock._layout
    assert isinstance(form, QFormLayout)
    label = form.labelForField(w.inspector_dock.fields["option-extra_forces"])
    assert isinstance(label, QLabel) and label.text() == "Extra forces"
    cone = form.labelForField(w.inspector_dock.fields["option-at_cone"])
    assert isinstance(cone, QLabel) and cone.text() == "AT cone"


def test_place_preview_shows_the_mirror_image_in_symmetry_mode(make_window: Any) -> None:
    from editor_helpers import hover

    from editor.pieces import Symmetry

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
    from editor import editing
    from editor.pieces import Symmetry
    from editor.tools.select import describe
    from rules.geometry import Facing, Side
    from rules.scenario import Terrain, Unit

    w = make_window()
    b = w.doc.scenario.board
    tank = Unit("tank", Side.SOUTH, b.parse_cell("b1"), Facing.N, "C")
    assert editing.place(w.doc, tank).ok
    assert w.doc.undo_stack.undoText() == "Place Tank C"
    assert describe(tank, w.doc.palette) == "Tank C (south) facing N"
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

    from editor.mainwindow import file_stem

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
    from editor import editing
    from rules.geometry import Facing, Side
    from rules.scenario import Unit

    w = make_window()
    b = w.doc.scenario.board
    tank = Unit("tank", Side.SOUTH, b.parse_cell("f1"), Facing.N, "C")
    editing.place(w.doc, tank)
    w.doc.select([tank])
    # RULES §1.5: on row 1 facing N only forward, forward-left, forward-right stay on the
    # board (3 cells, turning allowed on the diagonals); §4: 24 cells in its fire zone.
    text = w.message.text()
    assert text.startswith("Tank C: ")
    assert "to 3 cells (green dots)" in text and "24 cells in its fire zone" in text


def test_palette_uses_the_games_side_names(make_window: Any) -> None:
    w = make_window(MAPS / "tank-chess" / "basic-16.json")
    tree = w.palette_dock.list
    header = [tree.headerItem().text(i) for i in range(3)]
    assert header == ["Piece", "White", "Black"]  # RULES §2.3: White (south) moves first
    assert w.palette_dock.side_group.button(1).text() == "White"
    w.new_file(get_ruleset("final-act").new_scenario())
    assert [tree.headerItem().text(i) for i in range(1, 3)] == ["South", "North"]


def test_bracket_keys_cycle_the_footprint_shape(make_window: Any) -> None:
    from editor.palette_data import shapes_for

    w = make_window(MAPS / "tank-chess" / "blank-16.json")
    doc = w.doc
    shapes = shapes_for(doc.palette, "obstacle", doc.ruleset, doc.scenario)
    assert len(shapes) > 2  # RULES §2.2: several obstacle pieces plus single cells
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
    assert w.message.text() == "Placed at c2"
    hover(w, "d2")
    assert list(w.ctx.scene.preview.cells) == [w.doc.scenario.board.parse_cell("d2")]
    hover(w, "c2")  # coming back: now it is an occupied cell, refused in red
    assert "refused" in w.message.text()


def test_inspector_never_scrolls_sideways(make_window: Any) -> None:
    w = make_window(MAPS / "tank-wars" / "default.json")
    dock = w.docks["inspector"]
    dock.resize(260, 500)
    area = w.inspector_dock.scroll_area
    from PySide6.QtCore import Qt

    assert area.horizontalScrollBarPolicy() is Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    body = w.inspector_dock.body
    assert body is not None
    # every field fits a 260 px dock: its minimum width is small
    assert body.minimumSizeHint().width() <= 200


def test_shortcuts_dialog_fits_the_screen(qtbot: Any) -> None:
    from editor.actions import shortcuts_html
    from editor.dialogs import InfoDialog

    dialog = InfoDialog("Keyboard shortcuts", shortcuts_html())
    qtbot.addWidget(dialog)
    screen = dialog.screen().availableGeometry()
    assert dialog.height() <= screen.height() and dialog.width() <= screen.width()
    assert "Next shape" in dialog.browser.toPlainText()


def test_status_bar_greets_with_a_hint(make_window: Any) -> None:
    w = make_window()
    assert "palette" in w.message.text() and "F1" in w.message.text()


def _broken_final_act() -> Any:
    # RULES §1.2: tanks set up in own rows 1-3 (e5 is outside), facings are orthogonal
    # (NE is an error on that unit's cell); a minefield's arrow must cross the strip.
    from rules.geometry import Facing, Side
    from rules.scenario import Terrain, Unit

    s = get_ruleset("final-act").new_scenario()
    c = s.board.parse_cell
    s = s.adding(Unit("tank", Side.SOUTH, c("e5"), Facing.N, "C"))
    s = s.adding(Unit("tank", Side.SOUTH, c("f2"), Facing.NE, "1"))
    return s.adding(
        Terrain("minefield", (c("h4"), c("h5"), c("h6")), Side.SOUTH, lane=c("h5"), arrow=Facing.N)
    )


def test_error_cells_are_marked_on_the_board_but_not_in_exports(make_window: Any) -> None:
    from editor.export import _scene

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
    assert first.code in w.message.text()
    w.run_action("view.next_problem")
    assert dock.tree.currentRow() == 1
    w.run_action("view.previous_problem")
    w.run_action("view.previous_problem")
    assert dock.tree.currentRow() == len(dock.violations) - 1  # wraps around


def test_delete_says_what_was_erased(make_window: Any) -> None:
    from editor import editing
    from rules.geometry import Facing, Side
    from rules.scenario import Unit

    w = make_window()
    w.run_action("edit.delete")
    assert w.message.text() == "Nothing selected to delete"
    tank = Unit("tank", Side.SOUTH, w.doc.scenario.board.parse_cell("b1"), Facing.N, "C")
    editing.place(w.doc, tank)
    w.doc.select([tank])
    w.run_action("edit.delete")
    assert w.doc.scenario.units == ()
    assert w.message.text() == "Erased Tank C (Ctrl+Z to undo)"


def test_advanced_final_act_options_come_last_under_a_heading(qtbot: Any) -> None:
    from editor.dialogs import NewDialog, is_advanced, ordered_options

    specs = get_ruleset("final-act").option_specs
    ordered = ordered_options(specs)
    assert len(ordered) == len(specs)
    flags = [is_advanced(s) for s, _ in ordered]
    assert flags == sorted(flags)  # setup options first, then the advanced ones
    # RULES §1.3/§1.8: Extra Forces is a setup option, officer loss an advanced rule
    assert not is_advanced(next(s for s in specs if s.name == "extra_forces"))
    assert is_advanced(next(s for s in specs if s.name == "officer_loss"))
    assert sum(first for _, first in ordered) == 1
    dialog = NewDialog(None, "final-act")
    qtbot.addWidget(dialog)
    texts = [
        w.text()
        for i in range(dialog.options_form.rowCount())
        if (item := dialog.options_form.itemAt(i, dialog.options_form.ItemRole.SpanningRole))
        and (w := item.widget()) is not None
        and hasattr(w, "text")
    ]
    assert any("Advanced rules" in t for t in texts)


def test_hovering_keeps_the_message_line(make_window: Any) -> None:
    from editor_helpers import hover

    from editor import editing
    from rules.geometry import Facing, Side
    from rules.scenario import Unit

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
    assert "Tank C (south) facing N" in w.hover_label.text()


def test_palette_list_is_as_tall_as_its_rows(make_window: Any) -> None:
    w = make_window()
    tree = w.palette_dock.list
    rows = tree.topLevelItemCount()  # Final Act: 3 unit kinds + 4 terrain kinds
    assert rows == 7
    needed = tree.header().sizeHint().height() + rows * tree.sizeHintForRow(0)
    assert needed <= tree.height() <= needed + 2 * tree.frameWidth() + 8


def test_info_dialog_wraps_long_text(qtbot: Any) -> None:
    from editor.dialogs import InfoDialog

    dialog = InfoDialog("About", "word " * 400)
    qtbot.addWidget(dialog)
    assert dialog.width() <= 720 + 80


def test_problem_lines_start_with_a_capital(make_window: Any) -> None:
    w = make_window()  # empty Final Act board: "south still has ..." from the rules
    tree = w.problems_dock.tree
    texts = [tree.item(i).text() for i in range(tree.count())]
    assert texts and all(t[0].isupper() for t in texts)
    assert any(t.startswith("South still has") for t in texts)
