"""Editor hardening (issue 14 items 3, 11, 12): a failed report job leaves the window
working, a report that no browser opens still says where it is, report folders do not pile
up, a save that cannot be encoded is a dialog, the open list reads through the input gate."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QUrl

from tankmap.editor.mainwindow import MainWindow
from tankmap.maps import map_path

MIRROR = map_path("final-act/mirror")
assert MIRROR is not None


def test_failed_report_jobs_leave_the_window_working(
    make_window: Callable[..., MainWindow],
    tmp_path: Path,
    monkeypatch: Any,
    qtbot: Any,
    prompter: Any,
    qtlog: Any,
) -> None:
    """Ctrl+Shift+B twice while the report folder cannot be written (its temp folder
    vanished): each failure is a dialog on the GUI thread; the window lives on."""
    import threading

    import tankmap.editor.reports as reports

    gui = threading.get_ident()
    failed_on: list[int] = []
    w = make_window(MIRROR)
    w.analysis.open_url = lambda url: pytest.fail("nothing to open")

    def vanished(*args: Any, **kw: Any) -> Path:
        raise FileNotFoundError(2, "No such file or directory", "/tmp/tankmap-analysis-x")

    monkeypatch.setattr(reports, "write_report", vanished)
    original = w.analysis._report_failed

    def record(message: str) -> None:
        failed_on.append(threading.get_ident())
        original(message)

    monkeypatch.setattr(w.analysis, "_report_failed", record)
    for n in (1, 2):
        w.run_action("analysis.report")
        job = w.analysis.report_job
        assert job is not None
        qtbot.waitUntil(lambda n=n: len(failed_on) == n, timeout=60_000)
        assert job.wait()
    errors = [t for k, t in prompter.asked if k == "error"]
    assert len(errors) == 2
    assert all(t.startswith("Cannot write the analysis report") for t in errors)
    assert failed_on == [gui, gui]  # before: on the worker thread (then a segfault)
    assert w.isVisible()
    w.run_action("edit.undo")  # the window still answers
    assert not any("wait on itself" in str(r.message) for r in qtlog.records)


def test_a_report_no_browser_opens_says_where_it_is(
    make_window: Callable[..., MainWindow],
    tmp_path: Path,
    monkeypatch: Any,
    qtbot: Any,
    prompter: Any,
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    w = make_window(MIRROR)
    tried: list[QUrl] = []

    def no_browser(url: QUrl) -> bool:
        tried.append(url)
        return False  # what QDesktopServices.openUrl says when nothing starts

    w.analysis.open_url = no_browser
    job = w.analysis.open_report()
    assert job is not None
    qtbot.waitUntil(lambda: bool(tried), timeout=120_000)
    job.wait()
    # before: only a status-bar line that the next message replaces
    assert ("info", "Analysis report") in prompter.asked


def test_balance_report_without_a_browser_shows_its_path(
    qtbot: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    from tankmap.editor.balance import BalanceDialog
    from tankmap.rules.fileformat import read_scenario

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    scenario = read_scenario(MIRROR)
    tried: list[QUrl] = []
    dialog = BalanceDialog(lambda: scenario, open_url=lambda url: tried.append(url) or False)
    qtbot.addWidget(dialog)
    dialog.games.setValue(10)
    dialog.south.setCurrentText("heuristic")  # (10 games would default to search)
    dialog.north.setCurrentText("heuristic")
    dialog.run()
    qtbot.waitUntil(lambda: dialog.last is not None, timeout=60_000)
    job = dialog.open_report()
    assert job is not None
    qtbot.waitUntil(lambda: bool(tried), timeout=60_000)
    job.wait()
    text = dialog.results.toPlainText()
    assert tried[0].toLocalFile() in text and "open it by hand" in text  # before: nothing


def test_report_folders_are_reused_and_swept(tmp_path: Path) -> None:
    from tankmap.editor.report_dirs import report_dir

    dead = tmp_path / "tankmap-analysis-report-999999999"  # an editor that is gone
    old = tmp_path / "tankmap-balance-abcd1234"  # an older tankmap's mkdtemp, a day old
    young = tmp_path / "tankmap-balance-wxyz9876"  # ... written a moment ago
    other = tmp_path / "someone-elses"
    for d in (dead, old, young, other):
        d.mkdir()
        (d / "report.html").write_text("x")
    os.utime(old, (1e9, 1e9))
    first = report_dir("analysis", tmp_path)
    (first / "report.html").write_text("first")
    second = report_dir("analysis", tmp_path)
    assert second == first and list(second.iterdir()) == []  # one folder, emptied
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([first.name, young.name, other.name]), left
    (tmp_path / "x").mkdir()
    assert report_dir("balance", tmp_path).parent == tmp_path


def test_save_of_text_that_cannot_be_written_is_a_dialog(
    make_window: Callable[..., MainWindow], tmp_path: Path, prompter: Any
) -> None:
    w = make_window(MIRROR)
    w.doc._scenario = replace(w.doc.scenario, title="\ud800")  # what a paste could bring
    target = tmp_path / "out.json"
    assert w._write(target) is False  # before: UnicodeEncodeError, no dialog
    assert any(k == "error" and "surrogate" in t for k, t in prompter.asked)
    assert list(tmp_path.glob(".out.json*")) == [] and not target.exists()


def test_open_list_titles_go_through_the_input_gate() -> None:
    from tankmap.editor.dialogs import _title_of

    assert _title_of(Path("/dev/zero")) == ""  # before: read until memory ran out
    assert _title_of(MIRROR) == " — Mirror"


def test_a_failed_picture_export_leaves_the_old_picture(
    tmp_path: Path, monkeypatch: Any, qtbot: Any
) -> None:
    from PySide6.QtGui import QImage

    from tankmap.editor import export
    from tankmap.rules.fileformat import read_scenario

    scenario = read_scenario(MIRROR)
    out = tmp_path / "board.png"
    export.export_png(scenario, out, scale=0.5)
    before = out.read_bytes()

    def full_disk(self: QImage, name: str, *args: Any) -> bool:
        Path(name).write_bytes(b"\x89PNG\r\n\x1a\n half")  # part written, then no room
        return False

    monkeypatch.setattr(QImage, "save", full_disk)
    with pytest.raises(export.ExportError):
        export.export_png(scenario, out)
    assert out.read_bytes() == before  # before: the half-written picture in its place
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.png"]


def test_exports_write_through_the_link_the_user_chose(tmp_path: Path, qtbot: Any) -> None:
    from tankmap.editor import export
    from tankmap.rules.fileformat import read_scenario

    real = tmp_path / "real.pdf"
    link = tmp_path / "sheets.pdf"
    link.symlink_to(real)
    assert export.export_setup_sheets(read_scenario(MIRROR), link) == 2
    assert link.is_symlink() and real.read_bytes().startswith(b"%PDF")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["real.pdf", "sheets.pdf"]
