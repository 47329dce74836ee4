"""The palette dock: one button per piece kind with what is left per side ("5/7"), the
side new pieces go to, and the footprint shape."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from editor.context import EditorContext
from editor.palette_data import limit, shapes_for
from rules.geometry import Side


def counts_text(ctx: EditorContext, kind: str) -> str:
    """``"S 5/7 · N 7/7"``: pieces still available per side out of the limit."""
    doc = ctx.doc
    s = doc.scenario
    entry = doc.palette.entry(kind)
    n = limit(doc.palette, kind, doc.ruleset, s)
    pieces = s.units if entry.is_unit else s.terrain
    if not entry.owned and not entry.is_unit:
        placed = sum(1 for p in pieces if p.kind == kind)
        return f"{placed} placed"
    parts = []
    for side in Side:
        placed = sum(1 for p in pieces if p.kind == kind and p.side is side)
        letter = side.value[0].upper()
        parts.append(f"{letter} {placed}" if n is None else f"{letter} {n - placed}/{n}")
    return " · ".join(parts)


class PaletteDock(QWidget):
    """Lists the document's palette; choosing an entry switches to the place tool."""

    def __init__(self, ctx: EditorContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.list = QListWidget()
        self.list.setObjectName("palette-list")
        self.list.currentItemChanged.connect(self._picked)
        self.list.itemClicked.connect(self._picked)
        layout.addWidget(self.list)
        side_row = QHBoxLayout()
        side_row.addWidget(QLabel("Side:"))
        self.side_group = QButtonGroup(self)
        for i, (text, tip) in enumerate(
            (
                ("Auto", "the side whose half the cursor is in"),
                ("South", "south / side 0"),
                ("North", "north / side 1"),
            )
        ):
            b = QRadioButton(text)
            b.setToolTip(tip)
            self.side_group.addButton(b, i)
            side_row.addWidget(b)
        self.side_group.button(0).setChecked(True)
        self.side_group.idClicked.connect(self._side)
        layout.addLayout(side_row)
        shape_row = QHBoxLayout()
        shape_row.addWidget(QLabel("Shape:"))
        self.shape_box = QComboBox()
        self.shape_box.currentIndexChanged.connect(self._shape)
        shape_row.addWidget(self.shape_box, 1)
        layout.addLayout(shape_row)
        hint = QLabel("R / Shift+wheel: rotate · M: mirror · right click: rotate")
        hint.setWordWrap(True)
        hint.setStyleSheet("color: #666")
        layout.addWidget(hint)
        ctx.document_replaced.connect(self.rebuild)
        ctx.choice_changed.connect(self._choice_changed)
        self._doc = None
        self.rebuild()

    def rebuild(self) -> None:
        if self._doc is not None:
            try:
                self._doc.changed.disconnect(self.refresh)
            except (RuntimeError, TypeError):
                pass
        self._doc = self.ctx.doc
        self.ctx.doc.changed.connect(self.refresh)
        self.list.blockSignals(True)
        self.list.clear()
        for entry in self.ctx.doc.palette.entries:
            item = QListWidgetItem()
            item.setData(Qt.ItemDataRole.UserRole, entry.kind)
            self.list.addItem(item)
        self.list.blockSignals(False)
        self.refresh()
        self._choice_changed()

    def refresh(self) -> None:
        """Update the counts (after every edit)."""
        for i in range(self.list.count()):
            item = self.list.item(i)
            kind = str(item.data(Qt.ItemDataRole.UserRole))
            entry = self.ctx.doc.palette.entry(kind)
            group = "unit" if entry.is_unit else "terrain"
            item.setText(f"{entry.label}\t{counts_text(self.ctx, kind)}")
            item.setToolTip(f"{group} kind '{kind}'")

    def _picked(self, item: QListWidgetItem | None, *args: object) -> None:
        if item is None:
            return
        kind = str(item.data(Qt.ItemDataRole.UserRole))
        if kind != self.ctx.choice.kind:
            self.ctx.set_choice(kind=kind, shape=0, turns=0, mirrored=False)
        self.ctx.set_tool("place")

    def _side(self, index: int) -> None:
        self.ctx.set_choice(side=(None, Side.SOUTH, Side.NORTH)[index])

    def _shape(self, index: int) -> None:
        if index >= 0 and index != self.ctx.choice.shape:
            self.ctx.set_choice(shape=index)

    def _choice_changed(self) -> None:
        ch = self.ctx.choice
        self.shape_box.blockSignals(True)
        self.shape_box.clear()
        if ch.kind is not None:
            doc = self.ctx.doc
            entry = doc.palette.entry(ch.kind)
            if not entry.is_unit:
                for shape in shapes_for(doc.palette, ch.kind, doc.ruleset, doc.scenario):
                    self.shape_box.addItem(shape.label)
                self.shape_box.setCurrentIndex(ch.shape % max(1, self.shape_box.count()))
            for i in range(self.list.count()):
                if self.list.item(i).data(Qt.ItemDataRole.UserRole) == ch.kind:
                    self.list.blockSignals(True)
                    self.list.setCurrentRow(i)
                    self.list.blockSignals(False)
        self.shape_box.setEnabled(self.shape_box.count() > 1)
        self.shape_box.blockSignals(False)
        index = {None: 0, Side.SOUTH: 1, Side.NORTH: 2}[ch.side]
        self.side_group.button(index).setChecked(True)
