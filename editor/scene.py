"""The board as a ``QGraphicsScene`` that mirrors a ``Document``.

The scene never changes the model: it redraws when the document says ``changed`` (only the
pieces that changed get new items) and shows overlays the tools and docks hand it (placement
preview, selection, problem cells, a unit's moves and fire zone, live analysis maps).
Scene coordinates: one cell is ``CELL`` units; row 1 is drawn at the bottom.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QStyleOptionGraphicsItem,
    QWidget,
)

from editor.document import Document
from editor.palette_data import Palette
from editor.pieces import Piece
from rules.board import Board
from rules.geometry import Facing, Side
from rules.scenario import Scenario, Terrain, Unit
from rules.violations import Severity

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


class BoardItem(QGraphicsItem):
    """Checkered cells, side halves and setup zones, coordinates, Final Act range colours."""

    def __init__(
        self, geo: Geometry, scenario: Scenario, zones: dict[Side, frozenset[int]], palette: Palette
    ) -> None:
        super().__init__()
        self.geo, self.scenario, self.zones, self.palette = geo, scenario, zones, palette
        self.zone_paths = {side: geo.path(cells) for side, cells in zones.items()}
        self.setZValue(Z_BOARD)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        m = MARGIN + 16
        return self.geo.board_rect().adjusted(-m, -MARGIN, m, MARGIN)

    def paint(
        self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        b = self.geo.board
        p.setPen(Qt.PenStyle.NoPen)
        for cell in range(b.size):
            p.setBrush(LIGHT if (b.col_of(cell) + b.row_of(cell)) % 2 else DARK)
            p.drawRect(self.geo.rect(cell))
        for side, path in self.zone_paths.items():
            tint = QColor(SIDE_COLOURS[side])
            tint.setAlpha(34)
            p.setBrush(tint)
            p.drawPath(path)
        p.setPen(QPen(GRID, 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        for col in range(b.columns + 1):
            p.drawLine(QPointF(col * CELL, 0), QPointF(col * CELL, b.rows * CELL))
        for row in range(b.rows + 1):
            p.drawLine(QPointF(0, row * CELL), QPointF(b.columns * CELL, row * CELL))
        if b.rows % 2 == 0:  # the line between the two halves
            p.setPen(QPen(QColor("#5a4e36"), 2.5))
            y = b.rows / 2 * CELL
            p.drawLine(QPointF(0, y), QPointF(b.columns * CELL, y))
        p.setPen(QPen(QColor("#5a4e36"), 2))
        p.drawRect(self.geo.board_rect())
        self._paint_edges(p, b)

    def _paint_edges(self, p: QPainter, b: Board) -> None:
        colours = self.palette.range_colours
        if colours:
            p.setPen(Qt.PenStyle.NoPen)
            for row in range(b.rows):
                p.setBrush(QColor(colours[row % len(colours)]))
                y = self.geo.row_y(row)
                p.drawRect(QRectF(-9, y + 2, 6, CELL - 4))
                p.drawRect(QRectF(b.columns * CELL + 3, y + 2, 6, CELL - 4))
        font = QFont()
        font.setPixelSize(13)
        p.setFont(font)
        p.setPen(QColor("#4a4030"))
        off = 12 if colours else 0
        for col in range(b.columns):
            letter = chr(97 + col)
            x = self.geo.column_x(col)
            for y in (-MARGIN, b.rows * CELL):
                p.drawText(QRectF(x, y, CELL, MARGIN), Qt.AlignmentFlag.AlignCenter, letter)
        for row in range(b.rows):
            y = self.geo.row_y(row)
            for x in (-MARGIN - off, b.columns * CELL + off):
                p.drawText(QRectF(x, y, MARGIN, CELL), Qt.AlignmentFlag.AlignCenter, str(row + 1))


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

    def __init__(self, geo: Geometry, piece: Unit, text: str, offset: QPointF) -> None:
        super().__init__()
        self.geo, self.piece, self.text = geo, piece, text
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
        colour = QColor("#7d7d7d") if u.wreck else SIDE_COLOURS[u.side]
        ctr, rad = self.centre, self.radius
        if u.facing is not None:
            dx, dy = self.geo.vector(u.facing)
            norm = (dx * dx + dy * dy) ** 0.5
            tip = QPointF(ctr.x() + dx / norm * rad * 1.45, ctr.y() + dy / norm * rad * 1.45)
            p.setPen(_round_pen(colour.darker(150), rad * 0.32))
            p.drawLine(ctr, tip)
        p.setPen(QPen(colour.darker(170), 2))
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
        p.setPen(QColor("white"))
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


class BoardScene(QGraphicsScene):
    """Mirrors ``doc``: rebuild the board when its size or ruleset changes, diff the piece
    items on every ``changed`` signal, highlight the selection."""

    def __init__(self, doc: Document, parent: object | None = None, flipped: bool = False) -> None:
        super().__init__()
        self.flipped = flipped
        self.setBackgroundBrush(QColor("#d8d2c4"))
        self.doc: Document | None = None
        self.items_by_piece: dict[PieceKey, QGraphicsItem] = {}
        self.board_item: BoardItem | None = None
        self.set_document(doc)

    # --- documents ------------------------------------------------------------------------
    def set_document(self, doc: Document) -> None:
        if self.doc is not None:
            self.doc.changed.disconnect(self.sync)
            self.doc.selection_changed.disconnect(self.sync_selection)
        self.doc = doc
        self.clear()
        self.board_item = None
        self.items_by_piece = {}
        self.geo = Geometry(doc.scenario.board, self.flipped)
        self._board_key: object = None
        self.preview = CellsOverlay(
            self.geo, Z_TOP, QColor(67, 160, 71, 120), QPen(QColor("#2e7d32"), 2)
        )
        self.problems = CellsOverlay(
            self.geo,
            Z_TOP,
            QColor(229, 57, 53, 60),
            QPen(QColor("#c62828"), 3, Qt.PenStyle.DashLine),
            1,
        )
        # every cell named by an error, always visible while editing (hidden in exports)
        self.errors = CellsOverlay(
            self.geo, Z_OVERLAY - 0.5, QColor(229, 57, 53, 55), QPen(QColor(198, 40, 40), 2), 3
        )
        self.fire = CellsOverlay(
            self.geo, Z_OVERLAY, QColor(255, 111, 0, 70), QPen(QColor(230, 81, 0, 160), 1), 4
        )
        self.moves = CellsOverlay(self.geo, Z_OVERLAY + 0.5, QColor("#2e7d32"), None, dots=True)
        self.band = CellsOverlay(
            self.geo,
            Z_TOP,
            QColor(255, 179, 0, 50),
            QPen(QColor("#ffb300"), 1.5, Qt.PenStyle.DashLine),
            0,
        )
        self.heat = HeatOverlay(self.geo)
        self.ghosts: list[QGraphicsItem] = []
        self._ghost_pieces: tuple[Piece, ...] = ()
        for item in (
            self.preview,
            self.problems,
            self.errors,
            self.fire,
            self.moves,
            self.band,
            self.heat,
        ):
            self.addItem(item)
        doc.changed.connect(self.sync)
        doc.selection_changed.connect(self.sync_selection)
        self.sync()

    def set_preview(self, cells: Sequence[int], ok: bool) -> None:
        colour = QColor(67, 160, 71, 120) if ok else QColor(229, 57, 53, 130)
        self.preview.fill = colour
        self.preview.pen = QPen(QColor("#2e7d32" if ok else "#b71c1c"), 2)
        self.preview.cells = ()  # force a repaint with the new colours
        self.preview.set_cells(cells)

    def clear_preview(self) -> None:
        self.preview.set_cells(())
        self.set_ghost(None)

    def set_ghost(self, piece: Piece | None) -> None:
        """Draw ``piece`` half-transparent (the place tool's piece under the cursor, so its
        facing, lane and arrow show before the click); ``None`` removes it."""
        self.set_ghosts(() if piece is None else (piece,))

    def set_ghosts(self, pieces: Sequence[Piece]) -> None:
        """Draw several pieces half-transparent (a selection being dragged)."""
        pieces = tuple(pieces)
        if pieces == self._ghost_pieces:
            return
        for item in self.ghosts:
            self.removeItem(item)
        self.ghosts = []
        self._ghost_pieces = pieces
        for piece in pieces:
            item = self._make_item((piece, 0), {})
            item.setOpacity(0.6)
            item.setZValue(Z_TOP + 1)
            self.addItem(item)
            self.ghosts.append(item)

    @property
    def _ghost_piece(self) -> Piece | None:
        return self._ghost_pieces[0] if len(self._ghost_pieces) == 1 else None

    def set_unit_view(self, moves: Iterable[int], fire: Iterable[int]) -> None:
        self.moves.set_cells(moves)
        self.fire.set_cells(fire)

    # --- syncing --------------------------------------------------------------------------
    def sync(self) -> None:
        """Bring the items in line with the document (only changed pieces are rebuilt)."""
        doc = self.doc
        assert doc is not None
        s = doc.scenario
        board_key = (s.board, s.ruleset, dict(s.options).__repr__())
        if board_key != self._board_key:
            self._board_key = board_key
            if self.board_item is not None and self.board_item.scene() is self:
                self.removeItem(self.board_item)
            zones = {side: doc.ruleset.setup_cells(s, side) for side in Side}
            self.board_item = BoardItem(self.geo, s, zones, doc.palette)
            self.addItem(self.board_item)
            self.setSceneRect(self.board_item.boundingRect().adjusted(-20, -20, 20, 20))
        wanted = _keys((*s.terrain, *s.units))
        for key in [k for k in self.items_by_piece if k not in wanted]:
            self.removeItem(self.items_by_piece.pop(key))
        shared = self._shared_cells(s)
        for key in wanted:
            piece = key[0]
            item = self.items_by_piece.get(key)
            if isinstance(item, UnitItem) and isinstance(piece, Unit):
                if item.offset != self._offset(key, shared):
                    self.removeItem(self.items_by_piece.pop(key))
                    item = None
            if item is None:
                item = self._make_item(key, shared)
                self.items_by_piece[key] = item
                self.addItem(item)
        self.errors.set_cells(
            sorted({c for v in doc.violations if v.severity is Severity.ERROR for c in v.cells})
        )
        self.sync_selection()

    def _shared_cells(self, s: Scenario) -> dict[int, list[PieceKey]]:
        by_cell: dict[int, list[PieceKey]] = {}
        for key in _keys(s.units):
            by_cell.setdefault(key[0].cell, []).append(key)  # type: ignore[union-attr]
        return {c: keys for c, keys in by_cell.items() if len(keys) > 1}

    @staticmethod
    def _offset(key: PieceKey, shared: dict[int, list[PieceKey]]) -> QPointF:
        """Where a unit sits inside its cell: centred, or in a corner when units share."""
        cell = key[0].cell  # type: ignore[union-attr]
        if cell not in shared:
            return QPointF()
        k = shared[cell].index(key)
        return QPointF((-0.2 + 0.4 * (k % 2)) * CELL, (-0.2 + 0.4 * (k // 2)) * CELL)

    def _make_item(self, key: PieceKey, shared: dict[int, list[PieceKey]]) -> QGraphicsItem:
        assert self.doc is not None
        piece = key[0]
        palette = self.doc.palette
        if isinstance(piece, Unit):
            try:
                entry = palette.entry(piece.kind)
                text = piece.name or entry.short
            except KeyError:
                text = piece.name or piece.kind[:2]
            return UnitItem(self.geo, piece, text, self._offset(key, shared))
        try:
            colour = palette.entry(piece.kind).colour
        except KeyError:
            colour = "#777777"
        return TerrainItem(self.geo, piece, colour)

    def sync_selection(self) -> None:
        assert self.doc is not None
        chosen = set(self.doc.selection)
        for (piece, _), item in self.items_by_piece.items():
            sel = piece in chosen
            if getattr(item, "selected", False) != sel:
                item.selected = sel  # type: ignore[attr-defined]
                item.update()

    def piece_items(self) -> dict[PieceKey, QGraphicsItem]:
        """The item of each piece, keyed by (piece, n): the n-th equal copy (two identical
        AT units may share a cell)."""
        return self.items_by_piece


PieceKey = tuple[Piece, int]


def _keys(pieces: Iterable[Piece]) -> dict[PieceKey, None]:
    seen: dict[Piece, int] = {}
    keys: dict[PieceKey, None] = {}
    for p in pieces:
        n = seen.get(p, 0)
        seen[p] = n + 1
        keys[(p, n)] = None
    return keys
