"""The pieces of the board picture: cell geometry (``Geometry``, normal or turned 180°),
terrain and unit items, and the cell overlays (preview, problems, errors, unit view, heat
maps). ``editor.scene`` assembles them into the ``BoardScene``.
Scene coordinates: one cell is ``CELL`` units; row 1 is drawn at the bottom (unless flipped).
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from tankmap.analysis import board_style as st
from tankmap.editor.tokens import CELL_SIZE, paint_hatch, paint_token, pen
from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing
from tankmap.rules.scenario import Terrain, Unit

CELL = CELL_SIZE  # scene units per cell
MARGIN = 30.0
SIDE_COLOURS = {side: QColor(colour) for side, colour in st.SIDE_COLOURS.items()}
GRID = QColor(st.GRID)

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


class TerrainItem(QGraphicsItem):
    """One terrain piece in the shared look (``analysis.board_style``): its cells filled
    and hatched as the kind's look says, outlined in its owner's colour (or the neutral
    edge colour), the minefield lane and arrow."""

    def __init__(self, geo: Geometry, piece: Terrain) -> None:
        super().__init__()
        self.geo, self.piece = geo, piece
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
        look = st.terrain_look(t.kind)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(look.fill))
        p.drawPath(self.path)
        sign = -1.0 if self.geo.flipped else 1.0
        for c in t.cells:
            if c != t.lane:
                paint_hatch(p, t.kind, self.geo.centre(c), sign)
        if t.lane is not None:
            inset = st.LANE_INSET * CELL
            r = self.geo.rect(t.lane).adjusted(inset, inset, -inset, -inset)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(st.LANE_FILL))
            p.drawRect(r)
            if t.arrow is not None:
                _draw_arrow(
                    p,
                    r.center(),
                    self.geo.vector(t.arrow),
                    CELL * st.ARROW_LENGTH,
                    QColor(st.ARROW_COLOUR),
                )
        owned = t.side is not None
        edge = st.SIDE_COLOURS[t.side] if t.side is not None else st.TERRAIN_EDGE
        width = st.OWNER_EDGE_WIDTH if owned else st.TERRAIN_EDGE_WIDTH
        p.setPen(pen(edge, width, Qt.PenCapStyle.SquareCap))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPath(self.path)
        if self.selected:
            p.setPen(QPen(QColor("#ffb300"), 3, Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPath(self.geo.path(t.cells, 1))


def _draw_arrow(
    p: QPainter, centre: QPointF, vector: tuple[int, int], length: float, colour: QColor
) -> None:
    dx, dy = vector
    norm = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / norm, dy / norm
    tip = QPointF(centre.x() + ux * length, centre.y() + uy * length)
    w = length * 0.5
    base = QPointF(tip.x() - ux * w, tip.y() - uy * w)
    tail = QPointF(centre.x() - ux * length, centre.y() - uy * length)
    p.setPen(pen(colour, st.ARROW_WIDTH))
    p.drawLine(tail, base)
    left = QPointF(base.x() - uy * w, base.y() + ux * w)
    right = QPointF(base.x() + uy * w, base.y() - ux * w)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(colour)
    p.drawPolygon(QPolygonF([tip, left, right]))


class UnitItem(QGraphicsItem):
    """One unit as a token in the shared look (``analysis.board_style``): the kind's shape
    in its side's colours, a barrel toward its facing, its code; damaged units get an
    orange dot, wrecks are grey and crossed out."""

    def __init__(
        self,
        geo: Geometry,
        piece: Unit,
        text: str,
        offset: QPointF,
        look: tuple[str, str, str],
    ) -> None:
        super().__init__()
        self.geo, self.piece, self.text = geo, piece, text
        # (fill, outline, text): analysis.board_style.token_colours, as in the reports
        self.look = look
        self.selected = False
        self.offset = offset
        self.centre = geo.centre(piece.cell) + offset
        r = st.TOKEN_RADIUS if offset.isNull() else st.SHARED_RADIUS
        self.radius = CELL * r
        self.setZValue(Z_UNITS)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        r = self.radius * 1.6 + 4
        return QRectF(self.centre.x() - r, self.centre.y() - r, 2 * r, 2 * r)

    def paint(
        self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        u = self.piece
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        vector = self.geo.vector(u.facing) if u.facing is not None else None
        paint_token(
            p,
            u.kind,
            self.centre,
            self.radius,
            self.look,
            self.text,
            vector,
            damaged=bool(u.damage),
            wreck=u.wreck,
        )
        if self.selected:
            p.setPen(QPen(QColor("#ffb300"), 3))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(self.centre, self.radius * 1.3 + 4, self.radius * 1.3 + 4)


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
        font.setPixelSize(max(11, int(CELL / 3)))  # readable where the board is drawn small
        font.setBold(True)
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
