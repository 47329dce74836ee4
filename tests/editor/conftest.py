"""Editor fixtures: a main window with a scripted prompter, isolated QSettings and an
autosave directory under tmp_path (nothing touches the user's settings or blocks on a
modal dialog)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from tankmap.editor.autosave import Autosave
from tankmap.editor.mainwindow import MainWindow
from tankmap.rules.scenario import Scenario


class FakePrompter:
    """Answers every question from attributes; records what was asked in ``asked``."""

    def __init__(self) -> None:
        self.unsaved = "cancel"
        self.open: str | None = None
        self.save: str | None = None
        self.new: Scenario | None = None
        self.recover_answer = False
        self.confirm_answer = False
        self.resize: Any = None  # a tankmap.editor.resize.ResizeRequest
        self.asked: list[tuple[str, Any]] = []

    def unsaved_changes(self, name: str, doing: str = "closing it") -> str:
        self.asked.append(("unsaved", name))
        self.asked.append(("unsaved-doing", doing))
        return self.unsaved

    def open_path(self, start: str, recent: Sequence[str] = ()) -> str | None:
        self.asked.append(("open", start))
        self.asked.append(("open-recent", list(recent)))
        return self.open

    def open_file(self, start: str, title: str, filt: str) -> str | None:
        self.asked.append(("open-file", filt))
        return self.open

    def save_path(self, suggested: str, title: str = "", filt: str = "") -> str | None:
        self.asked.append(("save", suggested))
        return self.save

    def new_scenario(self) -> Scenario | None:
        self.asked.append(("new", None))
        return self.new

    def recover(self, autosave: str, original: str) -> bool:
        self.asked.append(("recover", autosave))
        self.asked.append(("recover-original", original))
        return self.recover_answer

    def error(self, text: str) -> None:
        self.asked.append(("error", text))

    def info(self, title: str, text: str) -> None:
        self.asked.append(("info", title))

    def confirm(self, title: str, text: str) -> bool:
        self.asked.append(("confirm", text))
        return self.confirm_answer

    def resize_board(self, columns: int, rows: int, problem: Any = None) -> Any:
        self.asked.append(("resize", (columns, rows)))
        self.resize_problem = problem
        return self.resize


@pytest.fixture
def prompter() -> FakePrompter:
    return FakePrompter()


@pytest.fixture
def make_window(qtbot: Any, tmp_path: Path, prompter: FakePrompter) -> Callable[..., MainWindow]:
    """``make_window(path=None, scenario=None, offer_recovery=False)`` → a shown window."""

    def make(path: str | Path | None = None, **kw: Any) -> MainWindow:
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        autosave = Autosave(tmp_path / "autosave", interval_ms=kw.pop("interval_ms", 50))
        kw.setdefault("offer_recovery", False)
        w = MainWindow(path, prompter=prompter, settings=settings, autosave=autosave, **kw)
        qtbot.addWidget(w)
        w.resize(1200, 800)
        w.show()
        qtbot.waitExposed(w)
        w.view.fit()
        return w

    return make
