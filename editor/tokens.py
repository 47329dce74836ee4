"""The Qt side of the shared board look (``tankmap.analysis.board_style``): terrain fill,
hatching and outline, unit tokens (shape per kind, barrel, code, damage dot, wreck cross).
``tankmap.analysis.board_pieces`` draws the same things with matplotlib from the same
tables, so the editor's board and the reports' boards look alike.

Style lengths are in cells; here a cell is ``CELL`` scene units and y grows downwards.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF

from tankmap.analysis import board_style as st

CELL = 48.0
CELL_SIZE = CELL  # the name editor.items re-exports


def qcolour(name: str, alpha: float = 1.0) -> QColor:
    """``name`` as a ``QColor`` with ``alpha`` (0–1) opacity."""
    c = QColor(name)
    c.setAlphaF(alpha)
    return c


def pen(
    colour: str | QColor, width_cells: float, cap: Qt.PenCapStyle = Qt.PenCapStyle.FlatCap
) -> QPen:
    """A pen ``width_cells`` cells wide."""
    p = QPen(QColor(colour), width_cells * CELL)
    p.setCapStyle(cap)
    return p


def paint_hatch(p: QPainter, kind: str, centre: QPointF, sign: float = 1.0) -> None:
    """The hatch marks of one cell of terrain ``kind`` centred on ``centre`` (``sign`` -1:
    the board is drawn turned 180°)."""
    look = st.terrain_look(kind)
    lines, dots = st.hatch_marks(kind)
    cx, cy = centre.x(), centre.y()
    k = sign * CELL
    p.setPen(pen(look.hatch_colour, st.HATCH_WIDTH))
    for a, b, c, d in lines:
        p.drawLine(QPointF(cx + a * k, cy - b * k), QPointF(cx + c * k, cy - d * k))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(look.hatch_colour))
    for x, y, r in dots:
        p.drawEllipse(QPointF(cx + x * k, cy - y * k), r * CELL, r * CELL)


def token_path(shape: str, centre: QPointF, r: float) -> QPainterPath:
    """The outline of a token ``shape`` of radius ``r`` (scene units) around ``centre``."""
    path = QPainterPath()
    if shape == "circle":
        path.addEllipse(centre, r, r)
        return path
    corners = st.token_polygon(shape)
    if corners:
        path.addPolygon(
            QPolygonF([QPointF(centre.x() + a * r, centre.y() - b * r) for a, b in corners])
        )
        path.closeSubpath()
        return path
    box = QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r)
    path.addRoundedRect(box, st.ROUNDING * r, st.ROUNDING * r)
    return path


def paint_token(
    p: QPainter,
    kind: str,
    centre: QPointF,
    r: float,
    colours: tuple[str, str, str],
    text: str,
    vector: tuple[int, int] | None = None,
    damaged: bool = False,
    wreck: bool = False,
) -> None:
    """A unit token of ``kind``: radius ``r`` (scene units), ``(fill, outline, text)``
    ``colours``, a barrel along the scene direction ``vector`` if it has a facing."""
    look = st.token_look(kind)
    fill, outline, text_colour = colours
    if vector is not None:
        dx, dy = vector
        norm = (dx * dx + dy * dy) ** 0.5
        tip = QPointF(
            centre.x() + dx / norm * r * st.BARREL_LENGTH,
            centre.y() + dy / norm * r * st.BARREL_LENGTH,
        )
        for colour, width in ((outline, st.BARREL_WIDTH), (fill, st.BARREL_CORE)):
            q = QPen(QColor(colour), width * r)
            q.setCapStyle(Qt.PenCapStyle.RoundCap)
            p.setPen(q)
            p.drawLine(centre, tip)
    p.setPen(pen(outline, st.TOKEN_OUTLINE_WIDTH))
    p.setBrush(QColor(fill))
    p.drawPath(token_path(look.shape, centre, r))
    if look.cross:
        p.setPen(QPen(qcolour(text_colour, 0.55), st.CROSS_WIDTH * r))
        for a, b, c, d in st.cross_lines(look.shape):
            p.drawLine(
                QPointF(centre.x() + a * r, centre.y() - b * r),
                QPointF(centre.x() + c * r, centre.y() - d * r),
            )
    first = text.split("\n")[0]
    font = QFont()
    font.setBold(True)
    size = st.TEXT_SIZE[0 if len(first) < 3 else 1] * r * (0.8 if "\n" in text else 1.0)
    font.setPixelSize(max(1, round(size)))
    p.setFont(font)
    p.setPen(QColor(text_colour))
    drop = st.text_offset(look.shape) * r
    box = QRectF(centre.x() - 1.5 * r, centre.y() - r + drop, 3 * r, 2 * r)
    p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
    if damaged:
        a, b, rd = st.DAMAGE_DOT
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(st.DAMAGE_COLOUR))
        p.drawEllipse(QPointF(centre.x() + a * r, centre.y() - b * r), rd * r, rd * r)
    if wreck:
        p.setPen(pen(st.WRECK_CROSS, st.WRECK_CROSS_WIDTH))
        p.drawLine(QPointF(centre.x() - r, centre.y() - r), QPointF(centre.x() + r, centre.y() + r))
        p.drawLine(QPointF(centre.x() + r, centre.y() - r), QPointF(centre.x() - r, centre.y() + r))
