"""The board as a ``QGraphicsScene`` that mirrors a ``Document``.

The scene never changes the model: it redraws when the document says ``changed`` (only the
pieces that changed get new items) and shows overlays the tools and docks hand it (placement
preview, selection, problem cells, a unit's moves and fire zone, live analysis maps).
Scene coordinates: one cell is ``CELL`` units; row 1 is drawn at the bottom.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QStyleOptionGraphicsItem,
    QWidget,
)

from tankmap.analysis import board_style as st
from tankmap.editor.document import Document
from tankmap.editor.items import (
    CELL,
    GRID,
    MARGIN,
    SIDE_COLOURS,
    Z_BOARD,
    Z_OVERLAY,
    Z_TOP,
    CellsOverlay,
    Geometry,
    HeatOverlay,
    LanesOverlay,
    TerrainItem,
    UnitItem,
)
from tankmap.editor.palette_data import Palette
from tankmap.editor.pieces import Piece
from tankmap.rules.board import Board
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario, Unit
from tankmap.rules.violations import Severity, Violation

__all__ = ["CELL", "MARGIN", "BoardItem", "BoardScene", "Geometry"]


PREVIEW_LEGAL = "#1b5e20"  # a legal preview's outline: dark green, never a side's colour
PREVIEW_REFUSED = "#b71c1c"


def preview_look(ok: bool) -> tuple[QColor, QPen]:
    """Fill and outline of the place tool's preview: legal = a light green tint under a
    solid dark-green outline; refused = a red tint under a dashed dark-red outline (dashed,
    so a refusal never looks like a legal piece of a side drawn in red)."""
    if ok:
        return QColor(67, 160, 71, 70), QPen(QColor(PREVIEW_LEGAL), 4)
    return QColor(229, 57, 53, 130), QPen(QColor(PREVIEW_REFUSED), 3, Qt.PenStyle.DashLine)


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
            p.setBrush(QColor(st.cell_colour(b.col_of(cell), b.row_of(cell))))
            p.drawRect(self.geo.rect(cell))
        for side, path in self.zone_paths.items():
            tint = QColor(SIDE_COLOURS[side])
            tint.setAlphaF(st.ZONE_ALPHA)
            p.setBrush(tint)
            p.drawPath(path)
        p.setPen(QPen(GRID, st.GRID_WIDTH * CELL))
        p.setBrush(Qt.BrushStyle.NoBrush)
        for col in range(b.columns + 1):
            p.drawLine(QPointF(col * CELL, 0), QPointF(col * CELL, b.rows * CELL))
        for row in range(b.rows + 1):
            p.drawLine(QPointF(0, row * CELL), QPointF(b.columns * CELL, row * CELL))
        if b.rows % 2 == 0:  # the line between the two halves
            p.setPen(QPen(QColor(st.BORDER), st.BORDER_WIDTH * CELL))
            y = b.rows / 2 * CELL
            p.drawLine(QPointF(0, y), QPointF(b.columns * CELL, y))
        p.setPen(QPen(QColor(st.BORDER), st.BORDER_WIDTH * CELL))
        p.drawRect(self.geo.board_rect())
        self._paint_edges(p, b)

    def _paint_edges(self, p: QPainter, b: Board) -> None:
        colours = self.palette.range_colours
        if colours:
            gap, width, inset = (v * CELL for v in st.RANGE_BAR)
            p.setPen(Qt.PenStyle.NoPen)
            for row in range(b.rows):
                p.setBrush(QColor(colours[row % len(colours)]))
                y = self.geo.row_y(row) + inset / 2
                p.drawRect(QRectF(-gap - width, y, width, CELL - inset))
                p.drawRect(QRectF(b.columns * CELL + gap, y, width, CELL - inset))
        font = QFont()
        font.setPixelSize(13)
        p.setFont(font)
        p.setPen(QColor(st.COORDINATE_TEXT))
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
        # above the ghost piece (Z_TOP + 1): a legal piece of the side drawn in red (Final
        # Act's north) must still read as legal, so the verdict's outline is drawn last
        self.preview = CellsOverlay(self.geo, Z_TOP + 2, *preview_look(True))
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
        # cells named by warnings: an orange dashed outline only (legal, worth a look)
        self.warnings = CellsOverlay(
            self.geo,
            Z_OVERLAY - 0.6,
            QColor(0, 0, 0, 0),
            QPen(QColor(239, 108, 0), 2, Qt.PenStyle.DashLine),
            5,
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
        self.lanes = LanesOverlay(self.geo)
        self.ghosts: list[QGraphicsItem] = []
        self._ghost_pieces: tuple[Piece, ...] = ()
        for item in (
            self.preview,
            self.problems,
            self.errors,
            self.warnings,
            self.fire,
            self.moves,
            self.band,
            self.heat,
            self.lanes,
        ):
            self.addItem(item)
        doc.changed.connect(self.sync)
        doc.selection_changed.connect(self.sync_selection)
        self.sync()

    def set_preview(self, cells: Sequence[int], ok: bool) -> None:
        self.preview.fill, self.preview.pen = preview_look(ok)
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
        if s.board != self.geo.board:  # resized: new geometry, every item anew
            self.set_document(doc)
            return
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
        self.errors.set_cells(_cells(doc.violations, Severity.ERROR))
        self.warnings.set_cells(_cells(doc.violations, Severity.WARNING))
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
        dx, dy = st.slot_offset(shared[cell].index(key), len(shared[cell]))
        return QPointF(dx * CELL, -dy * CELL)

    def _make_item(self, key: PieceKey, shared: dict[int, list[PieceKey]]) -> QGraphicsItem:
        assert self.doc is not None
        piece = key[0]
        ruleset = self.doc.scenario.ruleset
        if isinstance(piece, Unit):
            text = st.token_text(ruleset, piece)
            look = st.token_colours(ruleset, piece)
            return UnitItem(self.geo, piece, text, self._offset(key, shared), look)
        return TerrainItem(self.geo, piece)

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


def _cells(violations: Iterable[Violation], severity: Severity) -> list[int]:
    """Every cell named by a violation of ``severity``, sorted."""
    return sorted({c for v in violations if v.severity is severity for c in v.cells})
