"""The problems dock: the ruleset's ``check`` results, live. Clicking one selects the
pieces on its cells and outlines the cells on the board."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from tankmap.editor.context import EditorContext
from tankmap.editor.document import Document
from tankmap.editor.pieces import all_pieces, cells_of
from tankmap.rules.violations import Severity, Violation, is_complete, is_legal

EMPTY_TEXT = (
    "Every rule of the game is satisfied: nothing to fix.\n"
    "Save with Ctrl+S; File ▸ Export setup sheets prints a sheet per side."
)
"""The list's only line when there is no problem (not a problem: no data, not selectable)."""

COLOURS = {Severity.ERROR: "#c62828", Severity.INCOMPLETE: "#1565c0", Severity.WARNING: "#ef6c00"}
ORDER = {Severity.ERROR: 0, Severity.INCOMPLETE: 1, Severity.WARNING: 2}


def summary(violations: list[Violation]) -> str:
    """The dock's headline: "Legal and complete", "Legal so far — 10 things still to place",
    "Illegal: 2 errors — 3 things still to place", with ", 1 warning" when there are any."""
    errors = sum(v.severity is Severity.ERROR for v in violations)
    missing = sum(v.severity is Severity.INCOMPLETE for v in violations)
    warnings = sum(v.severity is Severity.WARNING for v in violations)
    if is_legal(violations):
        head = "Legal and complete" if not missing else "Legal so far"
    else:
        head = f"Illegal: {_plural(errors, 'error')}"
    if missing:
        head += f" — {_plural(missing, 'thing')} still to place"
    return head + (f", {_plural(warnings, 'warning')}" if warnings else "")


KIND_WORDS = {
    Severity.ERROR: "Error",
    Severity.INCOMPLETE: "Still to place",
    Severity.WARNING: "Warning",
}


def problem_line(index: int, violations: list[Violation]) -> str:
    """The status line of a problem shown (F8 / a click), in words — never the rule's
    internal code: ``Problem 2 of 5 (error): South tank 1B at b5 stands on a swamp``."""
    v = violations[index]
    kind = KIND_WORDS[v.severity].lower()
    return f"Problem {index + 1} of {len(violations)} ({kind}): {sentence(v.message)}"


def sentence(message: str) -> str:
    """A rule message as the list shows it: first letter capitalised ("South still has…")."""
    return message[:1].upper() + message[1:]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def summary_colour(violations: list[Violation]) -> str:
    """Red when illegal, blue while legal but incomplete, green when legal and complete."""
    if not is_legal(violations):
        return COLOURS[Severity.ERROR]
    return "#2e7d32" if is_complete(violations) else COLOURS[Severity.INCOMPLETE]


class WrappedLines(QStyledItemDelegate):
    """Word-wrapped list lines measured at one width, the list's (its viewport less the
    spacing), whatever width Qt asks with, so the layout and the painting agree."""

    def __init__(self, view: QListView) -> None:
        super().__init__(view)
        self.view = view

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:  # noqa: N802 - Qt override
        width = max(40, self.view.viewport().width() - 2 * self.view.spacing())
        measured = QStyleOptionViewItem(option)
        measured.rect = QRect(0, 0, width, 100_000)
        return QSize(width, super().sizeHint(measured, index).height())


class ProblemsDock(QWidget):
    """Lists violations (errors first); ``shown(cells)`` is emitted when one is clicked."""

    shown = Signal(object)

    def __init__(self, ctx: EditorContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.setMinimumWidth(250)  # problem messages stay readable (two lines at most)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.tree = QListWidget()
        self.tree.setObjectName("problems-list")
        self.tree.setWordWrap(True)
        self.tree.setUniformItemSizes(False)
        # every line is measured at the width it is drawn at, again whenever the list's
        # width changes (a scroll bar appearing, the dock resized): Qt measured a line at
        # two widths, so one that just fits on one line was drawn one line high and cut
        # short ("…") in a two-line slot, leaving a blank line under it
        self.tree.setResizeMode(QListView.ResizeMode.Adjust)
        self.tree.setItemDelegate(WrappedLines(self.tree))
        self.tree.setSpacing(2)
        self.tree.itemClicked.connect(self._clicked)
        self.tree.itemActivated.connect(self._clicked)
        self.tree.currentItemChanged.connect(self._current_changed)
        layout.addWidget(self.tree, 1)
        self.violations: list[Violation] = []
        self._shown_doc: object = None
        self._doc: Document | None = None
        ctx.document_replaced.connect(self.attach)
        self.attach()

    def attach(self) -> None:
        if self._doc is not None:
            try:
                self._doc.changed.disconnect(self.refresh)
            except (RuntimeError, TypeError):
                pass
        self._doc = self.ctx.doc
        self.ctx.doc.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        doc = self.ctx.doc
        ordered = sorted(doc.violations, key=lambda v: ORDER[v.severity])
        if self._shown_doc is doc and ordered == self.violations:
            return
        self._shown_doc = doc
        self.violations = ordered
        self.tree.clear()
        names = doc.ruleset.side_names()
        for i, v in enumerate(self.violations):
            item = QListWidgetItem(_icon(v.severity), sentence(v.message))
            item.setForeground(QBrush(QColor(COLOURS[v.severity]).darker(130)))
            item.setData(Qt.ItemDataRole.UserRole, i)
            side = f" ({names[v.side]})" if v.side is not None else ""
            item.setToolTip(f"{KIND_WORDS[v.severity]}{side}: {sentence(v.message)}")
            self.tree.addItem(item)
        self.summary.setText(summary(doc.violations))
        colour = summary_colour(doc.violations)
        self.summary.setStyleSheet(f"color: {colour}; font-weight: bold")
        self.summary.setToolTip(
            "Red: errors (illegal) · blue: pieces still to place · orange: warnings. "
            "Click a problem to see its cells."
        )
        if not self.violations:  # one grey, inert line instead of an empty box
            item = QListWidgetItem(EMPTY_TEXT)
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            item.setForeground(QBrush(QColor("#616161")))
            self.tree.addItem(item)
        self.ctx.scene.problems.set_cells(())

    def show_problem(self, index: int) -> None:
        """Select the pieces on problem ``index``'s cells and outline its cells."""
        v = self.violations[index]
        cells = set(v.cells)
        s = self.ctx.doc.scenario
        pieces = [p for p in all_pieces(s) if cells & set(cells_of(p))]
        self.ctx.doc.select(pieces)
        self.ctx.scene.problems.set_cells(v.cells)
        self.ctx.say(problem_line(index, self.violations))
        self.shown.emit(v.cells)

    def step(self, delta: int) -> int | None:
        """Show the next (``delta`` 1) or previous (-1) problem, wrapping around (F8 /
        Shift+F8); returns its index, ``None`` when there is no problem."""
        if not self.violations:
            self.ctx.say("No problems: every rule is satisfied")
            return None
        row = self.tree.currentRow()
        index = (row + delta) % len(self.violations) if row >= 0 else (0 if delta > 0 else -1)
        index %= len(self.violations)
        self.tree.blockSignals(True)
        self.tree.setCurrentRow(index)
        self.tree.blockSignals(False)
        self.show_problem(index)
        return index

    def _current_changed(self, item: QListWidgetItem | None, *args: object) -> None:
        if item is not None and self.tree.hasFocus():  # arrow keys in the list
            self._clicked(item)

    def _clicked(self, item: QListWidgetItem) -> None:
        index = item.data(Qt.ItemDataRole.UserRole)
        if index is not None:  # not the "nothing to fix" line
            self.show_problem(int(index))


_ICONS: dict[Severity, QIcon] = {}


def _icon(severity: Severity) -> QIcon:
    """A coloured dot per severity (red error, blue incomplete, orange warning)."""
    if severity not in _ICONS:
        pix = QPixmap(14, 14)
        pix.fill(Qt.GlobalColor.transparent)
        p = QPainter(pix)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(COLOURS[severity]))
        p.drawEllipse(2, 2, 10, 10)
        p.end()
        _ICONS[severity] = QIcon(pix)
    return _ICONS[severity]
