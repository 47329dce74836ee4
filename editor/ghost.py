"""A proposed board drawn over the real one: the Suggest dock's preview of an edit.

``board_diff(before, after)`` says which pieces an edit removes and which it adds (as
multisets: a piece moved is one removed and one added). ``GhostOverlay`` draws that
difference on the board scene without touching the document:

- every **added** piece drawn half-transparent, its cells outlined in green on white;
- every **removed** piece's cells outlined in dashed red, and crossed out where no added
  piece stands.

The overlay is one ``QGraphicsItem`` (with the ghost pieces as its children), above the
pieces; ``remove`` takes it off the scene again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QStyleOptionGraphicsItem, QWidget

from tankmap.analysis import board_style as st
from tankmap.editor.items import Z_TOP, Geometry, TerrainItem, UnitItem
from tankmap.editor.palette_data import Palette
from tankmap.editor.pieces import Piece, cells_of
from tankmap.rules.scenario import Scenario, Unit

GHOST_OPACITY = 0.55
ADDED = QColor("#2e7d32")
REMOVED = QColor("#c62828")


@dataclass(frozen=True)
class BoardDiff:
    """The pieces of ``before`` that ``after`` lacks, and those it adds (board order)."""

    removed: tuple[Piece, ...]
    added: tuple[Piece, ...]

    @property
    def empty(self) -> bool:
        return not (self.removed or self.added)


def _pieces(s: Scenario) -> list[Piece]:
    return [*s.terrain, *s.units]


def _minus(a: Iterable[Piece], b: Iterable[Piece]) -> tuple[Piece, ...]:
    left = Counter(b)
    out = []
    for p in a:
        if left[p]:
            left[p] -= 1
        else:
            out.append(p)
    return tuple(out)


def board_diff(before: Scenario, after: Scenario) -> BoardDiff:
    """What turns ``before``'s pieces into ``after``'s (pieces compared as values)."""
    old, new = _pieces(before), _pieces(after)
    return BoardDiff(removed=_minus(old, new), added=_minus(new, old))


def piece_item(geo: Geometry, piece: Piece, palette: Palette, ruleset: str) -> QGraphicsItem:
    """A board item for ``piece`` drawn as the scene draws it (colour and side look)."""
    if isinstance(piece, Unit):
        text = st.token_text(ruleset, piece)
        return UnitItem(geo, piece, text, QPointF(), st.token_colours(ruleset, piece))
    return TerrainItem(geo, piece)


class GhostOverlay(QGraphicsItem):
    """``diff`` drawn on ``scene`` (added pieces as ghosts, removed ones crossed out)."""

    def __init__(
        self, scene: QGraphicsScene, geo: Geometry, diff: BoardDiff, palette: Palette, ruleset: str
    ) -> None:
        super().__init__()
        self.geo, self.diff = geo, diff
        self.added_cells = tuple(dict.fromkeys(c for p in diff.added for c in cells_of(p)))
        self.removed_cells = tuple(dict.fromkeys(c for p in diff.removed for c in cells_of(p)))
        self.setZValue(Z_TOP + 2)
        self.ghosts: list[QGraphicsItem] = []
        for piece in diff.added:
            item = piece_item(geo, piece, palette, ruleset)
            item.setParentItem(self)
            item.setOpacity(GHOST_OPACITY)
            item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemStacksBehindParent)  # outlines on top
            self.ghosts.append(item)
        scene.addItem(self)

    def boundingRect(self) -> QRectF:
        rect = QRectF()
        for c in (*self.added_cells, *self.removed_cells):
            rect = rect.united(self.geo.rect(c))
        return rect.adjusted(-4, -4, 4, 4) if not rect.isNull() else QRectF()

    def paint(
        self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(REMOVED, 3, Qt.PenStyle.DashLine))
        p.drawPath(self.geo.path(self.removed_cells, 3))
        p.setPen(QPen(QColor(198, 40, 40, 200), 2.5))
        for c in self.removed_cells:
            if c in self.added_cells:
                continue  # the ghost stands there: its outline says enough
            r = self.geo.rect(c).adjusted(9, 9, -9, -9)
            p.drawLine(r.topLeft(), r.bottomRight())
            p.drawLine(r.topRight(), r.bottomLeft())
        added = self.geo.path(self.added_cells, 1)
        p.setPen(QPen(QColor(255, 255, 255, 230), 7))  # reads on dark terrain too
        p.drawPath(added)
        p.setPen(QPen(ADDED, 3.5))
        p.drawPath(added)

    def remove(self) -> None:
        """Take the overlay (and its ghosts) off its scene; safe to call twice."""
        scene = self.scene()
        if scene is not None:
            scene.removeItem(self)
