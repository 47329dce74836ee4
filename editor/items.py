"""The pieces of the board picture: cell geometry (``Geometry``, normal or turned 180°),
terrain and unit items, and the cell overlays (preview, problems, errors, unit view, heat
maps). ``editor.scene`` assembles them into the ``BoardScene``.
Scene coordinates: one cell is ``CELL`` units; row 1 is drawn at the bottom (unless flipped).
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Terrain, Unit

CELL = 48.0
MARGIN = 30.0
SIDE_COLOURS = {Side.SOUTH: QColor("#1e63b5"), Side.NORTH: QColor("#c0392b")}
LIGHT = QColor("#f4efe3")
DARK = QColor("#e8e0cc")
GRID = QColor("#b9ad8f")

Z_BOARD, Z_ZONES, Z_TERRAIN, Z_OVERLAY, Z_UNITS, Z_TOP = 0, 1, 2, 3, 4, 6


class Geometry:
    """Cell ↔ scene coordinate conversion for one board. ``flipped`` draws the board turned
    180° (north's own row 1 at the bottom: the north player's view from their seat)."""

    def __init__(self, board: Board, flipped: bool = False) -> None:
        self.board = board
        self.flipped = flipped

    def column_x(self, col: int) -> float:
        """Left edge of board column ``col`` (0-based) in scene units."""
        return (self.board.columns - 1 - col if self.flipped else col) * CELL

    def row_y(self, row: int) -> float:
        """Top edge of board row ``row`` (0-based) in scene units."""
        return (row if self.flipped else self.board.rows - 1 - row) * CELL

    def vector(self, facing: Facing) -> tuple[int, int]:
        """A facing as a scene direction (scene y grows downwards)."""
        dx, dy = facing.dx, -facing.dy
        return (-dx, -dy) if self.flipped else (dx, dy)

    def rect(self, cell: int) -> QRectF:
        b = self.board
        return QRectF(self.column_x(b.col_of(cell)), self.row_y(b.row_of(cell)), CELL, CELL)

    def centre(self, cell: int) -> QPointF:
        return self.rect(cell).center()

    def cell_at(self, pos: QPointF) -> int | None:
        """The cell under a scene point, ``None`` off the board."""
        b = self.board
        if pos.x() < 0 or pos.y() < 0:
            return None
        col = int(pos.x() // CELL)
        row = b.rows - 1 - int(pos.y() // CELL)
        if self.flipped:
            col, row = b.columns - 1 - col, b.rows - 1 - row
        if not b.on_board(col, row):
            return None
        return b.cell(col, row)

    def board_rect(self) -> QRectF:
        return QRectF(0, 0, self.board.columns * CELL, self.board.rows * CELL)

    def path(self, cells: Iterable[int], inset: float = 0.0) -> QPainterPath:
        path = QPainterPath()
        path.setFillRule(Qt.FillRule.WindingFill)
        for c in cells:
            path.addRect(self.rect(c).adjusted(inset, inset, -inset, -inset))
        return path.simplified()


def _terrain_brush(kind: str, colour: str) -> QBrush:
    c = QColor(colour)
    if kind == "swamp":
        return QBrush(c, Qt.BrushStyle.Dense4Pattern)
    return QBrush(c)


class TerrainItem(QGraphicsItem):
    """One terrain piece: its cells filled with the kind's colour, the owner's border, the
    minefield lane and arrow."""

    def __init__(self, geo: Geometry, piece: Terrain, colour: str) -> None:
        super().__init__()
        self.geo, self.piece, self.colour = geo, piece, colour
        self.path = geo.path(piece.cells)
        self.selected = False
        self.setZValue(Z_TERRAIN)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        return self.path.boundingRect().adjusted(-4, -4, 4, 4)

    def paint(
        self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        t = self.piece
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        border = SIDE_COLOURS[t.side] if t.side is not None else QColor("#3d352b")
        p.save()
        p.setClipPath(self.path)
        p.setPen(Qt.PenStyle.NoPen)
        if t.kind == "swamp":
            p.setBrush(QColor("#c9d8b6"))
            p.drawPath(self.path)
        p.setBrush(_terrain_brush(t.kind, self.colour))
        p.drawPath(self.path)
        p.setPen(QPen(border, 6 if t.side is not None else 3))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPath(self.path)
        p.restore()
        if t.kind.startswith("berm"):
            p.setPen(QPen(QColor(255, 255, 255, 90), 1.5))
            for c in t.cells:
                r = self.geo.rect(c).adjusted(10, 10, -10, -10)
                p.drawLine(r.topLeft(), r.bottomRight())
        if t.kind == "minefield":
            p.setPen(QPen(QColor(255, 230, 230), 2))
            for c in t.cells:
                if c == t.lane:
                    continue
                r = self.geo.rect(c).adjusted(15, 15, -15, -15)
                p.drawLine(r.topLeft(), r.bottomRight())
                p.drawLine(r.topRight(), r.bottomLeft())
        if t.kind == "crater":
            p.setBrush(QColor("#2c2017"))
            for c in t.cells:
                p.drawEllipse(self.geo.rect(c).adjusted(12, 12, -12, -12))
        if t.kind == "support":
            p.setPen(QPen(QColor("white"), 3))
            for c in t.cells:
                r = self.geo.rect(c)
                ctr = r.center()
                p.drawLine(QPointF(ctr.x() - 9, ctr.y()), QPointF(ctr.x() + 9, ctr.y()))
                p.drawLine(QPointF(ctr.x(), ctr.y() - 9), QPointF(ctr.x(), ctr.y() + 9))
        if t.lane is not None:
            r = self.geo.rect(t.lane).adjusted(4, 4, -4, -4)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor("#e9d8c4"))
            p.drawRect(r)
            if t.arrow is not None:
                _draw_arrow(p, r.center(), self.geo.vector(t.arrow), CELL * 0.34, QColor("#6b1d1d"))
        if self.selected:
            p.setPen(QPen(QColor("#ffb300"), 3, Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPath(self.geo.path(t.cells, 1))


def _round_pen(colour: QColor, width: float) -> QPen:
    pen = QPen(colour, width)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    return pen


def _draw_arrow(
    p: QPainter, centre: QPointF, vector: tuple[int, int], length: float, colour: QColor
) -> None:
    dx, dy = vector
    norm = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / norm, dy / norm
    tip = QPointF(centre.x() + ux * length, centre.y() + uy * length)
    tail = QPointF(centre.x() - ux * length, centre.y() - uy * length)
    p.setPen(_round_pen(colour, 3))
    p.drawLine(tail, tip)
    w = length * 0.5
    left = QPointF(tip.x() - ux * w - uy * w * 0.7, tip.y() - uy * w + ux * w * 0.7)
    right = QPointF(tip.x() - ux * w + uy * w * 0.7, tip.y() - uy * w - ux * w * 0.7)
    p.setBrush(colour)
    p.drawPolygon(QPolygonF([tip, left, right]))


class UnitItem(QGraphicsItem):
    """One unit: a disc in its side's colour with a barrel toward its facing and its name or
    kind letters; damaged units get a notch, wrecks are grey and crossed out."""

    def __init__(
        self,
        geo: Geometry,
        piece: Unit,
        text: str,
        offset: QPointF,
        look: tuple[str, str, str] | None = None,
    ) -> None:
        super().__init__()
        self.geo, self.piece, self.text = geo, piece, text
        # (fill, outline, text) — the reports' look (analysis.board_figure.side_look)
        self.look = look
        self.selected = False
        self.offset = offset
        self.centre = geo.centre(piece.cell) + offset
        self.radius = CELL * (0.36 if offset.isNull() else 0.24)
        self.setZValue(Z_UNITS)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        r = self.radius + CELL * 0.2
        return QRectF(self.centre.x() - r, self.centre.y() - r, 2 * r, 2 * r)

    def paint(
        self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        u = self.piece
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fill = SIDE_COLOURS[u.side] if self.look is None else QColor(self.look[0])
        colour = QColor("#7d7d7d") if u.wreck else fill
        outline = colour.darker(170) if self.look is None or u.wreck else QColor(self.look[1])
        text_colour = QColor("white") if self.look is None or u.wreck else QColor(self.look[2])
        ctr, rad = self.centre, self.radius
        if u.facing is not None:
            dx, dy = self.geo.vector(u.facing)
            norm = (dx * dx + dy * dy) ** 0.5
            tip = QPointF(ctr.x() + dx / norm * rad * 1.45, ctr.y() + dy / norm * rad * 1.45)
            p.setPen(_round_pen(outline, rad * 0.36))
            p.drawLine(ctr, tip)
            p.setPen(_round_pen(colour.darker(150) if self.look is None else colour, rad * 0.2))
            p.drawLine(ctr, tip)
        p.setPen(QPen(outline, 2))
        p.setBrush(colour)
        p.drawEllipse(ctr, rad, rad)
        if u.damage:
            p.setBrush(QColor("#ff9800"))
            p.setPen(Qt.PenStyle.NoPen)
            p.drawEllipse(QPointF(ctr.x() + rad * 0.7, ctr.y() - rad * 0.7), rad * 0.3, rad * 0.3)
        font = QFont()
        font.setBold(True)
        font.setPixelSize(int(rad * (0.9 if len(self.text) < 3 else 0.7)))
        p.setFont(font)
        p.setPen(text_colour)
        box = QRectF(ctr.x() - rad, ctr.y() - rad, 2 * rad, 2 * rad)
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, self.text)
        if u.wreck:
            p.setPen(QPen(QColor("#222"), 3))
            p.drawLine(box.topLeft(), box.bottomRight())
            p.drawLine(box.topRight(), box.bottomLeft())
        if self.selected:
            p.setPen(QPen(QColor("#ffb300"), 3))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(ctr, rad + 4, rad + 4)


class CellsOverlay(QGraphicsItem):
    """A set of cells drawn with one brush and pen (preview, problems, unit view...)."""

    def __init__(
        self,
        geo: Geometry,
        z: float,
        fill: QColor,
        pen: QPen | None = None,
        inset: float = 2.0,
        dots: bool = False,
    ) -> None:
        super().__init__()
        self.geo, self.fill, self.pen, self.inset, self.dots = geo, fill, pen, inset, dots
        self.cells: tuple[int, ...] = ()
        self.path = QPainterPath()
        self._bounds = QRectF()
        self.setZValue(z)

    def set_cells(self, cells: Iterable[int]) -> None:
        cells = tuple(cells)
        if cells == self.cells:
            return
        self.prepareGeometryChange()
        self.cells = cells
        self.path = QPainterPath() if self.dots else self.geo.path(cells, self.inset)
        self._bounds = self._compute_bounds()
        self.update()

    def boundingRect(self) -> QRectF:
        if not self.cells:
            return QRectF()
        return self._bounds

    def _compute_bounds(self) -> QRectF:
        """The cells' bounding box (so a change repaints only that part of the view)."""
        rect = QRectF()
        for c in self.cells:
            rect = rect.united(self.geo.rect(c))
        return rect.adjusted(-4, -4, 4, 4)

    def paint(
        self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if not self.cells:
            return
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(self.pen if self.pen is not None else Qt.PenStyle.NoPen)
        p.setBrush(self.fill)
        if self.dots:
            for c in self.cells:
                p.drawEllipse(self.geo.centre(c), CELL * 0.13, CELL * 0.13)
        else:
            p.drawPath(self.path)


class HeatOverlay(QGraphicsItem):
    """Per-cell numbers as a translucent heat map (live coverage / reach)."""

    def __init__(self, geo: Geometry) -> None:
        super().__init__()
        self.geo = geo
        self.values: dict[int, float] = {}
        self.labels: dict[int, str] = {}
        self.colour = QColor("#e65100")
        self.setZValue(Z_OVERLAY)

    def set_values(self, values: dict[int, float], labels: dict[int, str], colour: QColor) -> None:
        self.values, self.labels, self.colour = values, labels, colour
        self.prepareGeometryChange()
        self.update()

    def boundingRect(self) -> QRectF:
        return self.geo.board_rect() if self.values else QRectF()

    def paint(
        self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        font = QFont()
        font.setPixelSize(11)
        p.setFont(font)
        for cell, v in self.values.items():
            c = QColor(self.colour)
            c.setAlpha(int(40 + 150 * max(0.0, min(1.0, v))))
            r = self.geo.rect(cell)
            p.fillRect(r.adjusted(1, 1, -1, -1), c)
            text = self.labels.get(cell)
            if text:
                p.setPen(QColor("#1b1b1b"))
                p.drawText(
                    r.adjusted(3, 1, -3, -1),
                    Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom,
                    text,
                )


LANE_COLOURS = ("#d81b60", "#43a047", "#1e88e5", "#fb8c00", "#8e24aa", "#00897b", "#6d4c41")


class LanesOverlay(QGraphicsItem):
    """A side's cell-disjoint lanes as coloured lines through the cell centres, the choke
    point's cells outlined in black, and the least exposed route dashed."""

    def __init__(self, geo: Geometry) -> None:
        super().__init__()
        self.geo = geo
        self.lanes: tuple[tuple[int, ...], ...] = ()
        self.choke: tuple[int, ...] = ()
        self.safest: tuple[int, ...] = ()
        self.setZValue(Z_OVERLAY + 0.7)

    def set_lanes(
        self,
        lanes: Iterable[Iterable[int]],
        choke: Iterable[int] = (),
        safest: Iterable[int] = (),
    ) -> None:
        self.prepareGeometryChange()
        self.lanes = tuple(tuple(lane) for lane in lanes)
        self.choke, self.safest = tuple(choke), tuple(safest)
        self.update()

    def boundingRect(self) -> QRectF:
        if not (self.lanes or self.choke or self.safest):
            return QRectF()
        return self.geo.board_rect().adjusted(-4, -4, 4, 4)

    def _line(self, p: QPainter, cells: tuple[int, ...], pen: QPen) -> None:
        if len(cells) < 2:
            return
        p.setPen(pen)
        p.drawPolyline(QPolygonF([self.geo.centre(c) for c in cells]))

    def paint(
        self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setBrush(Qt.BrushStyle.NoBrush)
        for i, lane in enumerate(self.lanes):
            colour = QColor(LANE_COLOURS[i % len(LANE_COLOURS)])
            colour.setAlpha(200)
            pen = QPen(colour, 4)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            self._line(p, lane, pen)
            if lane:
                p.setBrush(colour)
                p.drawEllipse(self.geo.centre(lane[0]), 5, 5)
                p.setBrush(Qt.BrushStyle.NoBrush)
        self._line(p, self.safest, QPen(QColor("#212121"), 2, Qt.PenStyle.DashLine))
        p.setPen(QPen(QColor("#111111"), 3))
        for c in self.choke:
            p.drawRect(self.geo.rect(c).adjusted(3, 3, -3, -3))
