"""Session-3 polish: full palette names, readable unit stats, the first window size,
the recovery prompt's wording, the north setup sheet drawn from north's seat, toolbar icons.

Rule facts used (docs/rules.md): §1.2/1.6 a Final Act tank takes 2 hits, fires, blocks fire and
moves forward/back/diagonally (never sideways); §1.3 the AT does not block fire;
§2.1 Tank Chess heavy tank: speed 3, gun 3, armour 3/2/1; §3 Tank Wars heavy tank: 3 armour
points, moves straight 1 or 2 (provisional).
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QRect, QSettings

from tankmap.editor.autosave import Autosave
from tankmap.editor.dialogs import recovery_message
from tankmap.editor.mainwindow import MainWindow, initial_geometry
from tankmap.editor.stats import stat_rows
from tankmap.rules.registry import get_ruleset

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
    # sample-20 has 16 obstacle pieces of the box's 26 (docs/rules.md §2.2): 10 left, shared
    assert (row.text(1), row.text(2)) == ("10/26", "shared")
    assert "16 placed" in row.toolTip(1)


def test_a_piece_without_a_limit_shows_how_many_are_placed_not_a_number_left(
    make_window: Any,
) -> None:
    """Tank Wars craters have no budget: under the "left" header a bare 0, then 1 after
    placing one, read as counting down; the cell says "placed"."""
    w = make_window(MAPS / "tank-wars" / "default.json")
    tree = w.palette_dock.list
    rows = {
        tree.topLevelItem(i).text(0): tree.topLevelItem(i) for i in range(tree.topLevelItemCount())
    }
    crater = rows["Crater"]
    placed = sum(1 for t in w.doc.scenario.terrain if t.kind == "crater")
    assert crater.text(1) == f"{placed} placed" and "no limit" in crater.toolTip(1)


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
    assert f["side"].text() in ("White", "Black")  # type: ignore[attr-defined]
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

    from tankmap.rules.fileformat import write_scenario

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
    from tankmap.editor.scene import CELL, Geometry
    from tankmap.rules.board import Board
    from tankmap.rules.geometry import Facing

    b = Board.of(12, 12)
    geo = Geometry(b, flipped=True)
    # turned 180°: a1 at the top right, l12 (north's own row 1, its left) at the bottom left
    assert (geo.rect(b.parse_cell("a1")).x(), geo.rect(b.parse_cell("a1")).y()) == (11 * CELL, 0)
    assert (geo.rect(b.parse_cell("l12")).x(), geo.rect(b.parse_cell("l12")).y()) == (0, 11 * CELL)
    assert all(geo.cell_at(geo.centre(c)) == c for c in range(b.size))
    assert geo.vector(Facing.S) == (0, -1)  # north's forward points up the page
    assert Geometry(b).vector(Facing.N) == (0, -1)


def test_north_sheet_shows_north_setup_at_the_bottom(repo_root: Path) -> None:
    from tankmap.editor.export import _scene, side_only
    from tankmap.rules.geometry import Side

    s = read_map("final-act", "mirror.json")
    north = side_only(s, Side.NORTH)
    scene, _doc = _scene(north, flipped=True)
    mid = scene.geo.board_rect().center().y()
    centres = [scene.geo.centre(u.cell).y() for u in north.units]
    assert centres and all(y > mid for y in centres)  # north's rows 10-12 drawn low
    plain, _doc2 = _scene(north)
    assert all(plain.geo.centre(u.cell).y() < mid for u in north.units)


def read_map(ruleset: str, name: str) -> Any:
    from tankmap.rules.fileformat import read_scenario

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
    from tankmap.editor.docks.problems import summary

    w = make_window()  # an empty Final Act board: legal, nothing placed yet
    dock = w.problems_dock
    assert dock.summary.text().startswith("Legal so far — ")
    assert "still to place" in dock.summary.text()
    assert dock.tree.count() == len(w.doc.violations)
    w2 = make_window(MAPS / "tank-chess" / "basic-16.json")  # the printed setup: complete
    assert w2.problems_dock.summary.text() == "Legal and complete"
    from tankmap.editor.docks.problems import EMPTY_TEXT

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


def test_palette_uses_the_games_side_names(make_window: Any) -> None:
    w = make_window(MAPS / "tank-chess" / "basic-16.json")
    tree = w.palette_dock.list
    header = [tree.headerItem().text(i) for i in range(3)]
    # docs/rules.md §2.3: White (south) moves first
    assert header == ["Piece", "White left", "Black left"]
    assert w.palette_dock.side_group.button(1).text() == "White"
    w.new_file(get_ruleset("final-act").new_scenario())
    assert [tree.headerItem().text(i) for i in range(1, 3)] == ["South left", "North left"]


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
    from tankmap.editor.actions import shortcuts_html
    from tankmap.editor.dialogs import InfoDialog

    dialog = InfoDialog("Keyboard shortcuts", shortcuts_html())
    qtbot.addWidget(dialog)
    screen = dialog.screen().availableGeometry()
    assert dialog.height() <= screen.height() and dialog.width() <= screen.width()
    assert "Next shape" in dialog.browser.toPlainText()


def test_advanced_final_act_options_come_last_under_a_heading(qtbot: Any) -> None:
    from tankmap.editor.dialogs import NewDialog, is_advanced, ordered_options

    specs = get_ruleset("final-act").option_specs
    ordered = ordered_options(specs)
    assert len(ordered) == len(specs)
    flags = [is_advanced(s) for s, _ in ordered]
    assert flags == sorted(flags)  # setup options first, then the advanced ones
    # docs/rules.md §1.3/§1.8: Extra Forces is a setup option, officer loss an advanced rule
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


def test_palette_list_is_as_tall_as_its_rows(make_window: Any) -> None:
    w = make_window()
    tree = w.palette_dock.list
    rows = tree.topLevelItemCount()  # Final Act: 3 unit kinds + 4 terrain kinds
    assert rows == 7
    needed = tree.header().sizeHint().height() + rows * tree.sizeHintForRow(0)
    assert needed <= tree.height() <= needed + 2 * tree.frameWidth() + 8


def test_info_dialog_wraps_long_text(qtbot: Any) -> None:
    from tankmap.editor.dialogs import InfoDialog

    dialog = InfoDialog("About", "word " * 400)
    qtbot.addWidget(dialog)
    assert dialog.width() <= 720 + 80


def test_obstacles_over_the_budget_show_negative_and_orange(make_window: Any) -> None:
    from tankmap.rules.scenario import Terrain

    s = get_ruleset("tank-chess").new_scenario()
    b = s.board
    # docs/rules.md §2.2: the box holds 26 obstacle pieces; 28 single cells on rows 7-8 go over it
    for i in range(28):
        s = s.adding(Terrain("obstacle", (b.cell(i % 16, 6 + i // 16),), None, shape="monomino"))
    w = make_window(scenario=s)
    tree = w.palette_dock.list
    row = next(
        tree.topLevelItem(i)
        for i in range(tree.topLevelItemCount())
        if tree.topLevelItem(i).text(0) == "Obstacle"
    )
    assert row.text(1) == "-2/26"
    assert "2 more than the box holds" in row.toolTip(1)
    assert row.foreground(1).color().name() == "#e65100"


def test_palette_has_a_reliable_minimum_height(make_window: Any) -> None:
    # a word-wrapping label makes the minimum height width-dependent, and a restored dock
    # split could then squeeze the side row onto the list
    w = make_window()
    layout = w.palette_dock.layout()
    assert not layout.hasHeightForWidth()
    assert w.palette_dock.minimumSizeHint().height() > w.palette_dock.list.height()


def test_a_long_status_message_ends_in_an_ellipsis_with_the_whole_text_in_its_tooltip(
    make_window: Any, qtbot: Any
) -> None:
    """A refusal wider than the status bar's room was clipped mid-word behind the cell
    shown on the right ("…has no nan"); it now gives way to the permanent labels and says
    the whole text on hover."""
    w = make_window(MAPS / "final-act" / "mirror.json")
    w.resize(700, 500)
    qtbot.waitUntil(lambda: w.width() <= 720)
    long = "south tank at l1: " + "a reason that goes on and on " * 12
    w.ctx.say(long)
    qtbot.wait(10)
    assert w.message.text() == long and w.message.toolTip() == long
    assert w.message.minimumSizeHint().width() == 0
    assert w.message.geometry().right() < w.ruleset_label.geometry().left()
    w.ctx.say("Saved")
    assert w.message.toolTip() == ""
    shot = w.message.grab()
    assert not shot.isNull()
