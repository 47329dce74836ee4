"""The problems dock: the ruleset's ``check`` results, live. Clicking one selects the
pieces on its cells and outlines the cells on the board."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from editor.context import EditorContext
from editor.pieces import cells_of
from rules.violations import Severity, Violation, is_complete, is_legal

COLOURS = {Severity.ERROR: "#c62828", Severity.INCOMPLETE: "#1565c0", Severity.WARNING: "#ef6c00"}
ORDER = {Severity.ERROR: 0, Severity.INCOMPLETE: 1, Severity.WARNING: 2}


def summary(violations: list[Violation]) -> str:
    """ "Legal and complete", "Illegal: 2 errors" ..."""
    errors = sum(v.severity is Severity.ERROR for v in violations)
    missing = sum(v.severity is Severity.INCOMPLETE for v in violations)
    warnings = sum(v.severity is Severity.WARNING for v in violations)
    head = "Legal" if is_legal(violations) else f"Illegal: {errors} error(s)"
    head += " and complete" if is_complete(violations) else f", {missing} piece(s) missing"
    return head + (f", {warnings} warning(s)" if warnings else "")


class ProblemsDock(QWidget):
    """Lists violations (errors first); ``shown(cells)`` is emitted when one is clicked."""

    shown = Signal(object)

    def __init__(self, ctx: EditorContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.tree = QTreeWidget()
        self.tree.setObjectName("problems-list")
        self.tree.setHeaderLabels(["", "Problem", "Side"])
        self.tree.setRootIsDecorated(False)
        self.tree.setWordWrap(True)
        self.tree.setColumnWidth(0, 80)
        self.tree.itemClicked.connect(self._clicked)
        layout.addWidget(self.tree)
        self.violations: list[Violation] = []
        self._doc = None
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
        if ordered == self.violations and self.tree.topLevelItemCount() == len(ordered):
            return
        self.violations = ordered
        self.tree.clear()
        items = []
        for i, v in enumerate(self.violations):
            side = v.side.value if v.side is not None else ""
            item = QTreeWidgetItem([v.severity.value, v.message, side])
            item.setForeground(0, QBrush(QColor(COLOURS[v.severity])))
            item.setData(0, Qt.ItemDataRole.UserRole, i)
            item.setToolTip(1, f"{v.code}: {v.message}")
            items.append(item)
        self.tree.addTopLevelItems(items)
        self.summary.setText(summary(doc.violations))
        colour = "#2e7d32" if is_legal(doc.violations) else "#c62828"
        self.summary.setStyleSheet(f"color: {colour}; font-weight: bold")
        self.ctx.scene.problems.set_cells(())

    def show_problem(self, index: int) -> None:
        """Select the pieces on problem ``index``'s cells and outline its cells."""
        v = self.violations[index]
        cells = set(v.cells)
        s = self.ctx.doc.scenario
        pieces = [p for p in (*s.terrain, *s.units) if cells & set(cells_of(p))]
        self.ctx.doc.select(pieces)
        self.ctx.scene.problems.set_cells(v.cells)
        self.ctx.say(f"{v.code}: {v.message}")
        self.shown.emit(v.cells)

    def _clicked(self, item: QTreeWidgetItem, column: int) -> None:
        self.show_problem(int(item.data(0, Qt.ItemDataRole.UserRole)))
