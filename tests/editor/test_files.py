"""New / Open / Save / Save As / Revert / Recent files, the unsaved-changes prompt and
autosave recovery — all through the actions with a scripted prompter (no modal dialog)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings

from tankmap.editor import editing
from tankmap.editor.autosave import Autosave, autosave_path
from tankmap.editor.dialogs import NewDialog
from tankmap.editor.mainwindow import MainWindow
from tankmap.rules.board import Board
from tankmap.rules.fileformat import read_scenario, write_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Unit


def add_tank(w: MainWindow, cell: str = "b1", name: str = "C") -> None:
    b = w.doc.scenario.board
    assert editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell(cell), Facing.N, name)).ok


def test_save_as_then_reopen_round_trip(make_window: Any, prompter: Any, tmp_path: Path) -> None:
    w = make_window()
    add_tank(w)
    target = tmp_path / "mine.json"
    prompter.save = str(target)
    w.run_action("file.save")  # untitled: Save asks for a name
    assert target.exists() and not w.doc.modified
    assert w.doc.path == target
    saved = w.doc.scenario
    w.run_action("file.new")  # not modified: no prompt; the prompter's new is None -> stays
    prompter.open = str(target)
    assert w.open_file()
    assert w.doc.scenario == saved == read_scenario(target)
    assert str(target.resolve()) in w.recent_files()
    assert "mine.json" in w.windowTitle()


def test_save_as_adds_json_to_a_name_without_one_and_asks_before_replacing(
    make_window: Any, prompter: Any, tmp_path: Path
) -> None:
    """A name typed without an extension gets ``.json`` (the dialog's filter), so Open
    lists the file; an existing file of that name, which the dialog did not ask about, is
    replaced only when the user says so."""
    w = make_window()
    add_tank(w)
    prompter.save = str(tmp_path / "mine")
    w.run_action("file.save")
    assert (tmp_path / "mine.json").exists() and not (tmp_path / "mine").exists()
    assert w.doc.path == tmp_path / "mine.json" and not w.doc.modified
    other = tmp_path / "other.json"
    other.write_text("keep me", encoding="utf-8")
    prompter.save = str(tmp_path / "other")
    prompter.confirm_answer = False
    assert not w.save_as()
    assert other.read_text(encoding="utf-8") == "keep me"
    prompter.confirm_answer = True
    assert w.save_as()
    assert read_scenario(other) == w.doc.scenario
    prompter.save = str(tmp_path / "notes.txt")  # an extension of the user's own stays
    assert w.save_as() and (tmp_path / "notes.txt").exists()


def test_unsaved_changes_prompt_on_open_new_and_close(
    make_window: Any, prompter: Any, tmp_path: Path
) -> None:
    w = make_window()
    add_tank(w)
    prompter.unsaved = "cancel"
    prompter.new = get_ruleset("tank-chess").new_scenario()
    assert not w.new_file()  # cancelled: the document stays
    assert ("unsaved", "untitled") in prompter.asked
    assert prompter.asked[-1] == ("unsaved-doing", "starting a new scenario")
    assert w.doc.scenario.ruleset == "final-act" and w.doc.modified
    assert not w.close()
    assert prompter.asked[-1] == ("unsaved-doing", "quitting")
    assert w.isVisible()
    prompter.unsaved = "save"
    prompter.save = str(tmp_path / "kept.json")
    assert w.new_file()
    assert read_scenario(tmp_path / "kept.json").units  # saved before the new board
    assert w.doc.scenario.ruleset == "tank-chess"
    add_tank_chess = Unit("light", Side.SOUTH, 3, Facing.N)
    assert editing.place(w.doc, add_tank_chess).ok
    prompter.unsaved = "discard"
    assert w.close()


def test_revert_asks_before_throwing_changes_away(
    make_window: Any, prompter: Any, tmp_path: Path
) -> None:
    path = tmp_path / "r.json"
    write_scenario(get_ruleset("final-act").new_scenario(), path)
    w = make_window(path)
    add_tank(w)
    prompter.confirm_answer = False
    w.run_action("file.revert")  # the user says no: the changes stay
    assert (
        "confirm",
        f"Discard your changes to “r.json” and read it again from {path}? This cannot be undone.",
    ) in prompter.asked
    assert len(w.doc.scenario.units) == 1 and w.doc.modified
    prompter.confirm_answer = True
    w.run_action("file.revert")
    assert w.doc.scenario.units == () and not w.doc.modified


def test_save_never_writes_over_a_built_in_map(
    make_window: Any, prompter: Any, tmp_path: Path
) -> None:
    from tankmap.maps import map_path

    builtin = map_path("final-act/mirror")
    assert builtin is not None
    before = builtin.read_bytes()
    w = make_window(builtin)
    assert w.windowTitle().startswith("mirror.json[*] (built-in map) — ")
    w.delete_selection()
    w.select_all()
    w.delete_selection()
    assert w.doc.modified
    prompter.save = None  # Save asks for a name of the user's (and the user cancels)
    w.run_action("file.save")
    assert w.doc.modified
    assert prompter.asked[-1] == ("save", str(Path.home() / "mirror.json"))
    assert "built-in map" in w.message.text()
    prompter.save = str(builtin)  # choosing the built-in file itself is refused
    assert not w.save_as()
    assert prompter.asked[-1][0] == "error" and "built-in" in prompter.asked[-1][1]
    assert builtin.read_bytes() == before and w.doc.modified
    prompter.save = str(tmp_path / "my-mirror.json")
    assert w.save()
    assert w.doc.path == tmp_path / "my-mirror.json" and not w.doc.modified
    assert "built-in" not in w.windowTitle()  # the user's own copy now
    assert read_scenario(tmp_path / "my-mirror.json").units == ()
    assert builtin.read_bytes() == before


def test_autosave_writes_a_copy_and_recovery_restores_it(
    make_window: Any, prompter: Any, tmp_path: Path, qtbot: Any
) -> None:
    path = tmp_path / "a.json"
    write_scenario(get_ruleset("final-act").new_scenario(), path)
    w = make_window(path, interval_ms=20)
    with qtbot.waitSignal(w.autosave.saved, timeout=60_000) as blocker:
        add_tank(w)
    copy = Path(blocker.args[0])
    assert copy == autosave_path(tmp_path / "autosave", path)
    assert read_scenario(copy).units == w.doc.scenario.units
    assert copy.parent != path.parent  # never next to the user's file
    # simulate a crash: the window goes away without the clean close removing the copy
    w.autosave.attach = lambda doc: None  # type: ignore[method-assign]
    w.hide()
    prompter.recover_answer = True
    settings = QSettings(str(tmp_path / "s2.ini"), QSettings.Format.IniFormat)
    w2 = MainWindow(
        path, prompter=prompter, settings=settings, autosave=Autosave(tmp_path / "autosave", 10_000)
    )
    qtbot.addWidget(w2)
    assert ("recover", str(copy)) in prompter.asked
    assert ("recover-original", f"“{path}”") in prompter.asked  # names the original file
    assert len(w2.doc.scenario.units) == 1 and w2.doc.modified
    assert not copy.exists()
    w2.run_action("edit.undo")  # recovery is one undoable step
    assert w2.doc.scenario.units == ()


def test_starting_without_a_file_offers_the_work_left_on_a_recent_file(
    make_window: Any, prompter: Any, tmp_path: Path, qtbot: Any
) -> None:
    path = tmp_path / "b.json"
    write_scenario(get_ruleset("final-act").new_scenario(), path)
    w = make_window(path, interval_ms=20)  # (opening it makes it a recent file)
    with qtbot.waitSignal(w.autosave.saved, timeout=60_000):
        add_tank(w)
    w.autosave.attach = lambda doc: None  # type: ignore[method-assign]  # a crash: no clean close
    w.hide()
    prompter.recover_answer = True
    w2 = make_window(offer_recovery=True)  # ``tankmap edit`` with no file, the same settings
    assert ("recover-original", f"“{path}”") in prompter.asked
    assert w2.doc.path == path and len(w2.doc.scenario.units) == 1 and w2.doc.modified
    w2.run_action("edit.undo")  # one undoable step on the file as it was saved
    assert w2.doc.scenario.units == () and not w2.doc.modified
    w2.doc.undo_stack.redo()


def test_clean_save_removes_the_autosave(
    make_window: Any, prompter: Any, tmp_path: Path, qtbot: Any
) -> None:
    w = make_window(interval_ms=20)
    with qtbot.waitSignal(w.autosave.saved, timeout=60_000) as blocker:
        add_tank(w)
    copy = Path(blocker.args[0])
    assert copy.name.startswith("untitled-") and copy.exists()
    prompter.save = str(tmp_path / "s.json")
    w.run_action("file.save_as")
    assert not copy.exists()


def test_new_dialog_builds_the_scenario(qtbot: Any) -> None:
    dialog = NewDialog(None, "final-act")
    qtbot.addWidget(dialog)
    assert (dialog.columns.value(), dialog.rows.value()) == (12, 12)
    dialog.option_widgets["extra_forces"].setChecked(True)  # type: ignore[attr-defined]
    dialog.title.setText("Test")
    s = dialog.scenario()
    assert s.ruleset == "final-act" and s.options == {"extra_forces": True}
    assert s.title == "Test" and s.board == Board.of(12, 12)
    dialog.ruleset_box.setCurrentIndex(dialog.ruleset_box.findData("tank-chess"))
    assert (dialog.columns.value(), dialog.rows.value()) == (16, 16)
    dialog.columns.setValue(20)
    dialog.rows.setValue(20)
    assert dialog.scenario().board == Board.of(20, 20)


def test_open_error_is_reported_not_raised(make_window: Any, prompter: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json", encoding="utf-8")
    w = make_window()
    assert not w.open_file(bad)
    assert prompter.asked[-1][0] == "error" and "bad.json" in prompter.asked[-1][1]


def test_window_state_and_recent_files_are_remembered(make_window: Any, tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    write_scenario(get_ruleset("final-act").new_scenario(), path)
    w = make_window(path)
    assert w.close()
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    assert settings.value("window/geometry") is not None
    assert str(path.resolve()) in settings.value("recent")


def test_open_dialog_lists_the_builtin_maps(qtbot: Any) -> None:
    from tankmap.editor.dialogs import OpenDialog
    from tankmap.maps import builtin_maps

    dialog = OpenDialog(".")
    qtbot.addWidget(dialog)
    assert dialog.maps() == [str(p) for p in builtin_maps()] and dialog.maps()
    # grouped by game: one heading per ruleset folder
    assert dialog.list.topLevelItemCount() == len({p.parent.name for p in builtin_maps()})
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    dialog.show()
    dialog.select_map(str(builtin_maps()[0]))
    n = sum(1 for p in builtin_maps() if p.parent == builtin_maps()[0].parent)
    for _ in range(n):  # Down from the group's last map skips the next heading
        QTest.keyClick(dialog.list, Qt.Key.Key_Down)
    assert dialog.list.currentItem().data(0, Qt.ItemDataRole.UserRole) == str(builtin_maps()[n])
    QTest.keyClick(dialog.list, Qt.Key.Key_Up)  # and back up over the heading
    assert dialog.list.currentItem().data(0, Qt.ItemDataRole.UserRole) == str(builtin_maps()[n - 1])
    dialog.select_map(str(builtin_maps()[1]))
    dialog._accept_selected()
    assert dialog.chosen == str(builtin_maps()[1])


def test_new_action_uses_the_dialog_answer(make_window: Any, prompter: Any) -> None:
    w = make_window()
    prompter.new = get_ruleset("tank-wars").new_scenario()
    w.run_action("file.new")
    assert w.doc.scenario.ruleset == "tank-wars" and w.doc.path is None
    assert "provisional" in w.windowTitle().lower()
    assert "provisional" in w.ruleset_label.text().lower()


def test_untitled_autosave_offered_unless_its_editor_still_runs(
    make_window: Any, prompter: Any, tmp_path: Path
) -> None:
    auto = tmp_path / "autosave"
    auto.mkdir()
    s = get_ruleset("tank-chess").new_scenario()
    s = s.adding(Unit("light", Side.SOUTH, 3, Facing.N))
    live = auto / "untitled-1-5.autosave.json"  # pid 1 is running: live work, not a crash
    write_scenario(s, live)
    dead = auto / "untitled-999999999-5.autosave.json"
    write_scenario(s, dead)
    prompter.recover_answer = True
    w = make_window(offer_recovery=True)
    assert [a for a in prompter.asked if a[0] == "recover"] == [("recover", str(dead))]
    assert w.doc.scenario == s and w.doc.modified
    assert live.exists() and not dead.exists()


def test_open_dialog_lists_existing_recent_files_first(qtbot: Any, tmp_path: Path) -> None:
    from tankmap.editor.dialogs import OpenDialog
    from tankmap.maps import builtin_maps

    mine = tmp_path / "mine.json"
    mine.write_text('{"title": "My board"}', "utf-8")
    gone = tmp_path / "deleted.json"  # a recent file that no longer exists is not offered
    dialog = OpenDialog(".", None, [str(mine), str(gone)])
    qtbot.addWidget(dialog)
    assert dialog.recent() == [str(mine)]
    assert dialog.maps() == [str(p) for p in builtin_maps()]
    heading = dialog.list.topLevelItem(0)
    assert heading is not None and heading.text(0) == "Recent files"
    current = dialog.list.currentItem()
    assert current is not None and current.text(1) == "My board"  # Enter opens it
    dialog._accept_selected()
    assert dialog.chosen == str(mine)


def test_open_asks_with_the_recent_files(make_window: Any, prompter: Any, tmp_path: Path) -> None:
    w = make_window()
    target = tmp_path / "saved.json"
    prompter.save = str(target)
    assert w.save_as()
    prompter.open = None  # cancelled
    assert not w.open_file()
    recent = [v for k, v in prompter.asked if k == "open-recent"][-1]
    assert recent[0] == str(target.resolve())
