"""The palette dock: one button per piece kind with what is left per side ("5/7"), the
side new pieces go to, and the footprint shape."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QRadioButton,
    QSizePolicy,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tankmap.analysis import board_style as st
from tankmap.editor.context import EditorContext
from tankmap.editor.document import Document
from tankmap.editor.palette_data import Entry, limit, shapes_for, terrain_budget
from tankmap.editor.tokens import CELL, paint_hatch, paint_token
from tankmap.rules.geometry import Side


def counts_text(ctx: EditorContext, kind: str) -> str:
    """``"S 5/7 · N 7/7"`` (Tank Chess ``"W 1/1 · B 0/1"``): pieces still available per
    side out of the limit."""
    return " · ".join(side_counts(ctx, kind))


def side_counts(ctx: EditorContext, kind: str) -> list[str]:
    """Per side ``"S 5/7"`` (left of the limit), ``"S 3"`` (no limit); one item
    ``"12 placed"`` for neutral terrain."""
    doc = ctx.doc
    s = doc.scenario
    entry = doc.palette.entry(kind)
    n = limit(doc.palette, kind, doc.ruleset, s)
    pieces = s.units if entry.is_unit else s.terrain
    if not entry.owned and not entry.is_unit:
        placed = sum(1 for p in pieces if p.kind == kind)
        budget = terrain_budget(doc.ruleset)
        return [f"{placed} placed" + (f" (budget {budget})" if budget else "")]
    parts = []
    names = doc.ruleset.side_names()
    for side in Side:
        placed = sum(1 for p in pieces if p.kind == kind and p.side is side)
        letter = names[side][0].upper()
        parts.append(f"{letter} {placed}" if n is None else f"{letter} {n - placed}/{n}")
    return parts


def shared_count(ctx: EditorContext, kind: str) -> tuple[str, str]:
    """Neutral terrain (shared by both sides): ``("10/26", tooltip)`` with the pieces left
    of the box's budget, or ``("16", tooltip)`` placed when the game has no budget."""
    s = ctx.doc.scenario
    placed = sum(1 for t in s.terrain if t.kind == kind)
    budget = terrain_budget(ctx.doc.ruleset)
    if budget is None:  # nothing counts down: say what is placed, not a number "left"
        return (
            f"{placed} placed",
            f"{placed} placed, no limit (neutral terrain, shared by both sides)",
        )
    tip = (
        f"{placed} placed of the {budget} pieces in the box (neutral terrain, shared by both sides)"
    )
    if placed > budget:
        tip += f" — {placed - budget} more than the box holds"
    return f"{budget - placed}/{budget}", tip


def entry_icon(entry: Entry) -> QIcon:
    """A small swatch in the board's look: a grey token of the kind's shape with a barrel
    for units, a hatched cell of the kind for terrain (drawn at board scale, shrunk)."""
    pix = QPixmap(22, 22)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.scale(22 / CELL, 22 / CELL)
    centre = QPointF(CELL / 2, CELL / 2)
    if entry.is_unit:
        colours = ("#90a4ae", "#37474f", "#37474f")
        paint_token(p, entry.kind, centre + QPointF(0, 4), CELL * 0.36, colours, "", (0, -1))
    else:
        p.setPen(QPen(QColor(st.TERRAIN_EDGE), 2))
        p.setBrush(QBrush(QColor(entry.colour)))
        p.drawRect(QRectF(1, 1, CELL - 2, CELL - 2))
        paint_hatch(p, entry.kind, centre)
    p.end()
    return QIcon(pix)


class PaletteDock(QWidget):
    """Lists the document's palette; choosing an entry switches to the place tool."""

    def __init__(self, ctx: EditorContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.setMinimumWidth(290)
        self.list = QTreeWidget()
        self.list.setObjectName("palette-list")
        self.list.setHeaderLabels(["Piece", "South", "North"])
        self.list.setRootIsDecorated(False)
        self.list.setIndentation(0)
        self.list.setUniformRowHeights(True)
        self.list.setMinimumHeight(80)
        header = self.list.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.list.setToolTip("Pieces still available per side (left / allowed)")
        self.list.currentItemChanged.connect(self._picked)
        self.list.itemClicked.connect(self._picked)
        layout.addWidget(self.list)
        side_row = QHBoxLayout()
        side_row.addWidget(QLabel("Side:"))
        self.side_group = QButtonGroup(self)
        for i, (text, tip) in enumerate(
            (
                ("Auto", "the side whose half the piece is in"),
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
        # two fixed lines, no word wrap: a wrapping label has no reliable minimum height and
        # a restored dock split could then squeeze the rows onto each other
        hint = QLabel("R / Shift+wheel / right click: rotate\nM: mirror · [ and ]: shape")
        hint.setStyleSheet("color: #666")
        layout.addWidget(hint)
        layout.addStretch(1)
        # the dock area gives spare height to the inspector below, not to the palette
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        ctx.document_replaced.connect(self.rebuild)
        ctx.choice_changed.connect(self._choice_changed)
        self._doc: Document | None = None
        self._fitted: tuple[int, ...] = ()
        self.rebuild()

    def rebuild(self) -> None:
        if self._doc is not None:
            try:
                self._doc.changed.disconnect(self.refresh)
            except (RuntimeError, TypeError):
                pass
        self._doc = self.ctx.doc
        self.ctx.doc.changed.connect(self.refresh)
        names = self.ctx.doc.ruleset.side_names()
        self.list.setHeaderLabels(
            ["Piece", f"{names[Side.SOUTH]} left", f"{names[Side.NORTH]} left"]
        )
        for index, side in ((1, Side.SOUTH), (2, Side.NORTH)):
            button = self.side_group.button(index)
            button.setText(names[side])
            button.setToolTip(f'new pieces go to {names[side]} ("{side.value}" in files)')
        self._fitted = ()
        self.list.blockSignals(True)
        self.list.clear()
        for entry in self.ctx.doc.palette.entries:
            item = QTreeWidgetItem([entry.label, "", ""])
            item.setIcon(0, entry_icon(entry))
            item.setData(0, Qt.ItemDataRole.UserRole, entry.kind)
            self.list.addTopLevelItem(item)
        self.list.blockSignals(False)
        self.fit_height()
        self.refresh()
        self._choice_changed()

    def refresh(self) -> None:
        """Update the counts (after every edit)."""
        doc = self.ctx.doc
        for i in range(self.list.topLevelItemCount()):
            item = self.list.topLevelItem(i)
            assert item is not None
            kind = str(item.data(0, Qt.ItemDataRole.UserRole))
            entry = doc.palette.entry(kind)
            counts = side_counts(self.ctx, kind)
            allowed = limit(doc.palette, kind, doc.ruleset, doc.scenario)
            off = allowed == 0
            grey = QBrush(QColor("#9e9e9e" if off else "#000000"))
            for col in range(3):
                item.setForeground(col, grey)
            group = "unit" if entry.is_unit else "terrain"
            why = " — not in this game's options / board size" if off else ""
            item.setToolTip(0, f"{entry.label}: {group} kind '{kind}'{why}")
            if len(counts) == 2:
                unlimited = allowed is None  # the counts are of pieces placed, not left
                for col, count in ((1, counts[0]), (2, counts[1])):
                    number = count.split(" ", 1)[-1]
                    item.setText(col, f"{number} placed" if unlimited else number)
                tip = (
                    "Pieces placed per side (no limit)"
                    if unlimited
                    else "Pieces still available per side (left / allowed)"
                )
            else:  # neutral terrain: one shared count
                text, tip = shared_count(self.ctx, kind)
                item.setText(1, text)
                if text.startswith("-"):  # over the box's budget (a warning in the rules)
                    item.setForeground(1, QBrush(QColor("#e65100")))
                item.setText(2, "shared")
                item.setForeground(2, QBrush(QColor("#757575")))
            for col in (1, 2):
                item.setToolTip(col, tip)
        lengths = tuple(
            max(
                (len(self._item(i).text(col)) for i in range(self.list.topLevelItemCount())),
                default=0,
            )
            for col in range(3)
        )
        if lengths != self._fitted:  # sizing columns is slow: only when texts change length
            self._fitted = lengths
            self.fit_columns()

    def _item(self, index: int) -> QTreeWidgetItem:
        item = self.list.topLevelItem(index)
        assert item is not None
        return item

    def fit_height(self, most: int = 12) -> None:
        """Make the list as tall as its rows (up to ``most`` rows, then it scrolls), so no
        empty box sits between the pieces and the side / shape choices."""
        rows = self.list.topLevelItemCount()
        row_h = self.list.sizeHintForRow(0) if rows else 18
        height = (
            self.list.header().sizeHint().height()
            + row_h * min(max(rows, 3), most)
            + 2 * self.list.frameWidth()
            + 4
        )
        self.list.setFixedHeight(height)

    def fit_columns(self) -> None:
        """Size every column to its contents (full piece names, never "Comma…") and make the
        list at least that wide, so the dock grows instead of eliding."""
        header = self.list.header()
        needed = sum(
            max(self.list.sizeHintForColumn(i), header.sectionSizeHint(i)) + 8
            for i in range(header.count())
        )
        frame = 2 * self.list.frameWidth() + self.list.verticalScrollBar().sizeHint().width()
        self.list.setMinimumWidth(needed + frame + 4)

    def _picked(self, item: QTreeWidgetItem | None, *args: object) -> None:
        if item is None:
            return
        kind = str(item.data(0, Qt.ItemDataRole.UserRole))
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
            for i in range(self.list.topLevelItemCount()):
                item = self.list.topLevelItem(i)
                if item is not None and item.data(0, Qt.ItemDataRole.UserRole) == ch.kind:
                    self.list.blockSignals(True)
                    self.list.setCurrentItem(item)
                    self.list.blockSignals(False)
        self.shape_box.setEnabled(self.shape_box.count() > 1)
        self.shape_box.blockSignals(False)
        index = {None: 0, Side.SOUTH: 1, Side.NORTH: 2}[ch.side]
        self.side_group.button(index).setChecked(True)
