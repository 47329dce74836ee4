"""Every question the editor asks the user, behind one injectable ``Prompter``.

The main window never opens a modal dialog itself: it calls its prompter. ``QtPrompter``
shows real dialogs; tests pass a scripted prompter so nothing ever blocks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tankmap.editor.palette_data import ruleset_title
from tankmap.rules.board import MAX_COLUMNS, MAX_ROWS, Board
from tankmap.rules.registry import get_ruleset, ruleset_names
from tankmap.rules.ruleset import OptionSpec, Ruleset
from tankmap.rules.scenario import OptionValue, Scenario

if TYPE_CHECKING:
    from tankmap.editor.resize import ResizeRequest

FILE_FILTER = "tankmap scenarios (*.json);;All files (*)"


class Prompter(Protocol):
    """The questions the editor asks (answers ``None`` = the user cancelled)."""

    def unsaved_changes(self, name: str, doing: str = "closing it") -> str:
        """``"save"``, ``"discard"`` or ``"cancel"`` (asked before ``doing``)."""
        ...

    def open_path(self, start: str, recent: Sequence[str] = ()) -> str | None: ...

    def open_file(self, start: str, title: str, filt: str) -> str | None:
        """A plain file-open dialog (e.g. a Tiled map to import)."""
        ...

    def save_path(
        self, suggested: str, title: str = "Save As", filt: str = FILE_FILTER
    ) -> str | None: ...

    def new_scenario(self) -> Scenario | None: ...

    def recover(self, autosave: str, original: str) -> bool:
        """Offer to restore an autosaved copy left by a crash."""
        ...

    def error(self, text: str) -> None: ...

    def info(self, title: str, text: str) -> None: ...

    def confirm(self, title: str, text: str) -> bool:
        """A yes/no question (``True``: go ahead)."""
        ...

    def resize_board(
        self, columns: int, rows: int, problem: Callable[[int, int], str | None] | None = None
    ) -> ResizeRequest | None:
        """The new board size and anchor (Edit ▸ Resize board…); ``problem(columns, rows)``
        says why a size cannot be (``None``: it can)."""
        ...


class QtPrompter:
    """The real dialogs."""

    def __init__(self, parent: QWidget | None) -> None:
        self.parent = parent

    def _refocus(self) -> None:
        """Give the keyboard back to the main window after a dialog (without a window
        manager nobody else does, and shortcuts would stop working)."""
        if self.parent is not None:
            self.parent.activateWindow()
            self.parent.raise_()

    def unsaved_changes(self, name: str, doing: str = "closing it") -> str:
        box = QMessageBox(self.parent)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Unsaved changes")
        box.setText(f"“{name}” has unsaved changes.")
        box.setInformativeText(f"Save them before {doing}?")
        box.setStandardButtons(
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel
        )
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        answer = box.exec()
        self._refocus()
        if answer == QMessageBox.StandardButton.Save:
            return "save"
        if answer == QMessageBox.StandardButton.Discard:
            return "discard"
        return "cancel"

    def open_file(self, start: str, title: str, filt: str) -> str | None:
        path, _ = QFileDialog.getOpenFileName(self.parent, title, start, filt)
        self._refocus()
        return path or None

    def open_path(self, start: str, recent: Sequence[str] = ()) -> str | None:
        dialog = OpenDialog(start, self.parent, recent)
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        self._refocus()
        return dialog.chosen if accepted else None

    def save_path(
        self, suggested: str, title: str = "Save As", filt: str = FILE_FILTER
    ) -> str | None:
        path, _ = QFileDialog.getSaveFileName(self.parent, title, suggested, filt)
        self._refocus()
        return path or None

    def new_scenario(self) -> Scenario | None:
        dialog = NewDialog(self.parent)
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        self._refocus()
        return dialog.scenario() if accepted else None

    def recover(self, autosave: str, original: str) -> bool:
        box = QMessageBox(self.parent)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle("Recover unsaved work?")
        box.setText(recovery_message(autosave, original))
        box.setInformativeText(
            "Restore it? Restoring is one undoable step and nothing is written to disk "
            "until you save. Discard deletes the autosaved copy."
        )
        box.setDetailedText(f"Autosaved copy: {autosave}")
        restore = box.addButton("Restore", QMessageBox.ButtonRole.AcceptRole)
        box.addButton("Discard", QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(restore)
        box.exec()
        self._refocus()
        return box.clickedButton() is restore

    def error(self, text: str) -> None:
        QMessageBox.critical(self.parent, "tankmap", text)
        self._refocus()

    def info(self, title: str, text: str) -> None:
        InfoDialog(title, text, self.parent).exec()
        self._refocus()

    def confirm(self, title: str, text: str) -> bool:
        answer = QMessageBox.question(self.parent, title, text)
        self._refocus()
        return answer == QMessageBox.StandardButton.Yes

    def resize_board(
        self, columns: int, rows: int, problem: Callable[[int, int], str | None] | None = None
    ) -> ResizeRequest | None:
        from tankmap.editor.resize import ResizeDialog

        dialog = ResizeDialog(columns, rows, self.parent, problem)
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        self._refocus()
        return dialog.request() if accepted else None


def recovery_message(autosave: str, original: str) -> str:
    """What the recovery prompt says: which file (``original``: its quoted path, or a
    description of an untitled scenario) the copy belongs to and when it was autosaved (the copy's
    modification time, local time; "at an unknown time" if it cannot be read)."""
    import datetime

    try:
        stamp = Path(autosave).stat().st_mtime
    except OSError:
        when = "at an unknown time"
    else:
        moment = datetime.datetime.fromtimestamp(stamp)
        when = f"on {moment:%Y-%m-%d} at {moment:%H:%M:%S}"
    return (
        f"Unsaved changes to {original} were autosaved {when} by an editor session that "
        "did not close normally."
    )


class InfoDialog(QDialog):
    """Rich text (help, about) with its title as a heading, scrolling when it is taller
    than the screen allows, and a Close button."""

    def __init__(self, title: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        heading = QLabel(f"<h3>{title}</h3>")
        layout.addWidget(heading)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        self.browser.setFrameShape(QFrame.Shape.NoFrame)
        self.browser.setHtml(text)
        layout.addWidget(self.browser, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        layout.addWidget(buttons)
        doc = self.browser.document()
        doc.setTextWidth(-1)
        screen = self.screen().availableGeometry()
        text_width = min(doc.idealWidth(), 720.0, screen.width() * 0.85)
        doc.setTextWidth(max(text_width, 360.0))  # long paragraphs wrap
        size = doc.size().toSize()
        width = min(size.width() + 60, int(screen.width() * 0.9))
        height = min(size.height() + 140, int(screen.height() * 0.85))
        self.resize(width, height)


# --- New ----------------------------------------------------------------------------------
def option_widget(spec: OptionSpec, value: OptionValue) -> QWidget:
    """An editor widget for one ruleset option (checkbox, spin box, choice or text)."""
    if isinstance(spec.default, bool):
        w: QWidget = QCheckBox()
        w.setChecked(bool(value))  # type: ignore[attr-defined]
    elif spec.choices:
        w = QComboBox()
        for c in spec.choices:
            w.addItem(str(c), c)
        w.setCurrentIndex(list(spec.choices).index(value) if value in spec.choices else 0)
    elif isinstance(spec.default, int):
        w = QSpinBox()
        w.setRange(-1_000_000, 1_000_000)
        w.setValue(int(value))
    elif isinstance(spec.default, float):
        w = QDoubleSpinBox()
        w.setRange(-1e9, 1e9)
        w.setValue(float(value))
    else:
        w = QLineEdit(str(value))
    w.setToolTip(spec.help)
    w.setObjectName(f"option-{spec.name}")
    return w


def option_label(spec: OptionSpec) -> str:
    """An option's form label: ``extra_forces`` → ``Extra forces``."""
    words = [ABBREVIATIONS.get(w, w) for w in spec.name.split("_")]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


ADVANCED_PREFIXES = ("advanced", "action token", "extra forces (seed")


def is_advanced(spec: OptionSpec) -> bool:
    """Advanced rules and action tokens (Final Act seeds 000/001): options that only change
    how games are played out, listed after the setup options under their own heading."""
    return spec.help.lower().startswith(ADVANCED_PREFIXES)


def ordered_options(specs: tuple[OptionSpec, ...]) -> list[tuple[OptionSpec, bool]]:
    """``(spec, starts_advanced_section)`` with the setup options first, then the
    advanced ones; the flag is True on the first advanced option only."""
    basic = [s for s in specs if not is_advanced(s)]
    advanced = [s for s in specs if is_advanced(s)]
    return [(s, False) for s in basic] + [(s, i == 0) for i, s in enumerate(advanced)]


ADVANCED_HEADING = "<b>Advanced rules and action tokens</b> (play-outs only)"

ABBREVIATIONS = {"at": "AT", "rm": "R/M", "ap": "AP"}
"""Option-name words shown in capitals (``at_cone`` → ``AT cone``)."""


def option_value(spec: OptionSpec, w: QWidget) -> OptionValue:
    """The value an ``option_widget`` holds."""
    if isinstance(w, QCheckBox):
        return w.isChecked()
    if isinstance(w, QComboBox):
        data: Any = w.currentData()
        return data  # type: ignore[no-any-return]
    if isinstance(w, QSpinBox):
        return w.value()
    if isinstance(w, QDoubleSpinBox):
        return w.value()
    assert isinstance(w, QLineEdit)
    return spec.parse(w.text())


class NewDialog(QDialog):
    """Ruleset, board size, title and options for a new scenario."""

    def __init__(self, parent: QWidget | None = None, ruleset: str = "final-act") -> None:
        super().__init__(parent)
        self.setWindowTitle("New scenario")
        self.setMinimumWidth(460)
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.ruleset_box = QComboBox()
        for name in ruleset_names():
            rs = get_ruleset(name)
            label = ruleset_title(rs)
            self.ruleset_box.addItem(label, name)
        self.columns = QSpinBox()
        self.rows = QSpinBox()
        for spin in (self.columns, self.rows):
            spin.setRange(1, max(MAX_COLUMNS, MAX_ROWS))
        size = QHBoxLayout()
        size.addWidget(self.columns)
        size.addWidget(QLabel("×"))
        size.addWidget(self.rows)
        self.title = QLineEdit()
        self.title.setPlaceholderText("untitled")
        form.addRow("Ruleset", self.ruleset_box)
        form.addRow("Board (columns × rows)", size)
        form.addRow("Title", self.title)
        layout.addLayout(form)
        self.options_box = QGroupBox("Options")
        self.options_form = QFormLayout(self.options_box)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.options_box)
        scroll.setMinimumHeight(380)
        layout.addWidget(scroll, 1)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #b71c1c")
        layout.addWidget(self.problem)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.option_widgets: dict[str, QWidget] = {}
        self.ruleset_box.currentIndexChanged.connect(self._ruleset_changed)
        self.columns.valueChanged.connect(self._validate)
        self.rows.valueChanged.connect(self._validate)
        index = self.ruleset_box.findData(ruleset)
        self.ruleset_box.setCurrentIndex(max(index, 0))
        self._ruleset_changed()

    @property
    def ruleset(self) -> Ruleset:
        return get_ruleset(str(self.ruleset_box.currentData()))

    def _ruleset_changed(self) -> None:
        rs = self.ruleset
        self.columns.setValue(rs.default_board[0])
        self.rows.setValue(rs.default_board[1])
        while self.options_form.rowCount():
            self.options_form.removeRow(0)
        self.option_widgets = {}
        for spec, first_advanced in ordered_options(rs.option_specs):
            w = option_widget(spec, spec.default)
            self.option_widgets[spec.name] = w
            if first_advanced:
                self.options_form.addRow(QLabel(ADVANCED_HEADING))
            self.options_form.addRow(option_label(spec), w)
        self._validate()

    def _validate(self) -> None:
        problem = self.ruleset.board_problem(self.columns.value(), self.rows.value())
        self.problem.setText(problem or "")
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(problem is None)

    def scenario(self) -> Scenario:
        """The empty scenario described by the dialog (options differing from defaults)."""
        rs = self.ruleset
        options = {}
        for spec in rs.option_specs:
            value = option_value(spec, self.option_widgets[spec.name])
            if value != spec.default:
                options[spec.name] = value
        board = Board.of(self.columns.value(), self.rows.value())
        return replace(rs.new_scenario(board, options), title=self.title.text().strip())


# --- Open ---------------------------------------------------------------------------------
class OpenDialog(QDialog):
    """The recent files (those that still exist) and the built-in maps grouped by game
    (name, title), plus "Browse…" for any file. Double click or Enter opens the selected
    file; the most recent one is selected first."""

    def __init__(
        self, start: str, parent: QWidget | None = None, recent: Sequence[str] = ()
    ) -> None:
        super().__init__(parent)
        from tankmap.maps import builtin_maps

        self.start = start
        self.chosen: str | None = None
        self.setWindowTitle("Open scenario")
        self.resize(640, 440)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("<b>Recent files and built-in maps</b> — or Browse… for any file:"))
        self.list = QTreeWidget()
        self.list.setObjectName("open-maps")
        self.list.setHeaderLabels(["Map", "Title"])
        self.list.setRootIsDecorated(False)
        self.list.setAlternatingRowColors(True)
        first: QTreeWidgetItem | None = None
        self._recent_group: QTreeWidgetItem | None = None
        existing = [Path(r) for r in recent if Path(r).is_file()]
        if existing:
            self._recent_group = self._heading("Recent files")
            for path in existing:
                item = self._add_file(self._recent_group, path)
                first = first or item
        groups: dict[str, QTreeWidgetItem] = {}
        for path in builtin_maps():
            ruleset = path.parent.name
            if ruleset not in groups:
                try:
                    label = ruleset_title(get_ruleset(ruleset))
                except Exception:  # noqa: BLE001 - an unknown folder still lists its maps
                    label = ruleset
                groups[ruleset] = self._heading(label)
            item = self._add_file(groups[ruleset], path)
            first = first or item
        self.list.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.list.itemDoubleClicked.connect(self._pick_item)
        self.list.itemActivated.connect(self._pick_item)
        self.list.currentItemChanged.connect(self._skip_heading)
        if first is not None:
            self.list.setCurrentItem(first)
        layout.addWidget(self.list)
        row = QHBoxLayout()
        browse = QPushButton("Browse…")
        browse.setToolTip("Open any scenario file (*.json)")
        browse.clicked.connect(self._browse)
        row.addWidget(browse)
        row.addStretch()
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self._accept_selected)
        buttons.rejected.connect(self.reject)
        row.addWidget(buttons)
        layout.addLayout(row)
        self.list.setFocus()

    def _heading(self, label: str) -> QTreeWidgetItem:
        group = QTreeWidgetItem([label, ""])
        font = group.font(0)
        font.setBold(True)
        group.setFont(0, font)
        group.setFlags(Qt.ItemFlag.ItemIsEnabled)
        group.setFirstColumnSpanned(True)
        self.list.addTopLevelItem(group)
        group.setExpanded(True)
        return group

    def _add_file(self, group: QTreeWidgetItem, path: Path) -> QTreeWidgetItem:
        item = QTreeWidgetItem([path.stem, _title_of(path).removeprefix(" — ")])
        item.setData(0, Qt.ItemDataRole.UserRole, str(path))
        item.setToolTip(0, str(path))
        item.setToolTip(1, str(path))
        group.addChild(item)
        return item

    def recent(self) -> list[str]:
        """The listed recent files, most recent first."""
        return self._paths(recent=True)

    def maps(self) -> list[str]:
        """The listed built-in map paths, in order."""
        return self._paths(recent=False)

    def _paths(self, recent: bool) -> list[str]:
        found = []
        for i in range(self.list.topLevelItemCount()):
            group = self.list.topLevelItem(i)
            assert group is not None
            if (group is self._recent_group) != recent:
                continue
            for j in range(group.childCount()):
                child = group.child(j)
                if child is not None:
                    found.append(str(child.data(0, Qt.ItemDataRole.UserRole)))
        return found

    def select_map(self, path: str) -> None:
        for i in range(self.list.topLevelItemCount()):
            group = self.list.topLevelItem(i)
            assert group is not None
            for j in range(group.childCount()):
                child = group.child(j)
                if child is not None and child.data(0, Qt.ItemDataRole.UserRole) == path:
                    self.list.setCurrentItem(child)

    def _skip_heading(
        self, current: QTreeWidgetItem | None, previous: QTreeWidgetItem | None
    ) -> None:
        """Arrow keys never stop on a game heading: moving down enters its first map,
        moving up from its first map goes to the previous game's last map."""
        if current is None or current.parent() is not None or not current.childCount():
            return
        index = self.list.indexOfTopLevelItem(current)
        came_from_below = previous is not None and previous.parent() is current
        if came_from_below and index > 0:
            above = self.list.topLevelItem(index - 1)
            last = None if above is None else above.child(above.childCount() - 1)
            if last is not None:
                self.list.setCurrentItem(last)
                return
        first = current.child(0)
        if first is not None:
            self.list.setCurrentItem(first)

    def _pick_item(self, item: QTreeWidgetItem, *args: object) -> None:
        path = item.data(0, Qt.ItemDataRole.UserRole)
        if path is None:  # a group heading: go to its first map
            first = item.child(0)
            if first is not None:
                self.list.setCurrentItem(first)
            return
        self.chosen = str(path)
        self.accept()

    def _accept_selected(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self._pick_item(item)

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open scenario", self.start, FILE_FILTER)
        if path:
            self.chosen = path
            self.accept()


def _title_of(path: Path) -> str:
    """`` — <title>`` of a scenario file, or nothing if it cannot be read (through the
    input gate: a recent file that became a pipe or a huge file does not block the list)."""
    from tankmap.rules.errors import TankmapError
    from tankmap.rules.fileformat import MAX_FILE_BYTES
    from tankmap.rules.safeio import read_bounded, strict_json

    try:
        title = strict_json(read_bounded(path, MAX_FILE_BYTES), str(path)).get("title", "")
    except (TankmapError, AttributeError):
        return ""
    return f" — {title}" if isinstance(title, str) and title else ""


def default_dir(path: Path | None) -> str:
    return str(path.parent) if path is not None else str(Path.home())
