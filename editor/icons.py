"""Toolbar and menu icons, drawn with ``QPainter`` (no image files, no icon theme needed, so
the editor looks the same on every desktop and under Xvfb).

``action_icon(action_id)`` → a ``QIcon`` (16, 24, 32 and 48 px renderings), or an empty icon
for an action without one. Every drawing uses a 24 × 24 design grid and the editor's side
colours: dark slate strokes, blue for south / "add", red for north / "remove".
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap, QPolygonF

INK = QColor("#37474f")
BLUE = QColor("#1e63b5")
RED = QColor("#c0392b")
GREEN = QColor("#2e7d32")
PAPER = QColor("#ffffff")
BOARD = QColor("#efe6cf")
SIZES = (16, 24, 32, 48)

Draw = Callable[[QPainter], None]


def _pen(colour: QColor = INK, width: float = 1.8, dash: bool = False) -> QPen:
    pen = QPen(colour, width)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    if dash:
        pen.setStyle(Qt.PenStyle.DashLine)
    return pen


def _arrow_head(p: QPainter, tip: QPointF, angle: float, colour: QColor, size: float = 4.5) -> None:
    """A filled triangle pointing along ``angle`` (radians, screen coordinates)."""
    back = angle + math.pi
    left = QPointF(tip.x() + size * math.cos(back - 0.5), tip.y() + size * math.sin(back - 0.5))
    right = QPointF(tip.x() + size * math.cos(back + 0.5), tip.y() + size * math.sin(back + 0.5))
    p.setPen(_pen(colour, 1.2))
    p.setBrush(colour)
    p.drawPolygon(QPolygonF([tip, left, right]))


def _new(p: QPainter) -> None:
    path = QPainterPath()
    path.moveTo(5, 2.5)
    path.lineTo(14, 2.5)
    path.lineTo(19, 7.5)
    path.lineTo(19, 21.5)
    path.lineTo(5, 21.5)
    path.closeSubpath()
    p.setPen(_pen())
    p.setBrush(PAPER)
    p.drawPath(path)
    p.drawPolyline(QPolygonF([QPointF(14, 2.5), QPointF(14, 7.5), QPointF(19, 7.5)]))
    p.setPen(_pen(BLUE, 2.2))
    p.drawLine(QPointF(12, 11), QPointF(12, 18))
    p.drawLine(QPointF(8.5, 14.5), QPointF(15.5, 14.5))


def _open(p: QPainter) -> None:
    p.setPen(_pen())
    p.setBrush(QColor("#f2c76e"))
    back = QPainterPath()
    back.moveTo(2.5, 19.5)
    back.lineTo(2.5, 5)
    back.lineTo(8.5, 5)
    back.lineTo(10.5, 7.5)
    back.lineTo(19, 7.5)
    back.lineTo(19, 10)
    p.drawPath(back)
    front = QPainterPath()
    front.moveTo(2.5, 19.5)
    front.lineTo(6, 10.5)
    front.lineTo(22, 10.5)
    front.lineTo(18.5, 19.5)
    front.closeSubpath()
    p.setBrush(QColor("#f8d98f"))
    p.drawPath(front)


def _save(p: QPainter) -> None:
    p.setPen(_pen())
    p.setBrush(BLUE)
    body = QPainterPath()
    body.moveTo(3, 3)
    body.lineTo(18, 3)
    body.lineTo(21, 6)
    body.lineTo(21, 21)
    body.lineTo(3, 21)
    body.closeSubpath()
    p.drawPath(body)
    p.setBrush(PAPER)
    p.drawRect(QRectF(7, 3, 9, 6))
    p.drawRect(QRectF(6, 13, 12, 8))
    p.setPen(_pen(BLUE, 1.4))
    p.drawLine(QPointF(8.5, 16), QPointF(15.5, 16))
    p.drawLine(QPointF(8.5, 18.5), QPointF(15.5, 18.5))


def _turn_arrow(p: QPainter, mirrored: bool) -> None:
    if mirrored:
        p.translate(24, 0)
        p.scale(-1, 1)
    path = QPainterPath()
    path.moveTo(19, 19)
    path.cubicTo(20.5, 11, 15, 7.5, 9, 8)
    path.lineTo(7, 8)
    p.setPen(_pen(INK, 2.2))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawPath(path)
    _arrow_head(p, QPointF(3, 8), math.pi, INK, 5.5)


def _undo(p: QPainter) -> None:
    _turn_arrow(p, False)


def _redo(p: QPainter) -> None:
    _turn_arrow(p, True)


def _select(p: QPainter) -> None:
    pointer = QPolygonF(
        [
            QPointF(6, 2.5),
            QPointF(6, 19),
            QPointF(10, 15.5),
            QPointF(13, 21.5),
            QPointF(15.5, 20.5),
            QPointF(12.7, 14.5),
            QPointF(18, 14.5),
        ]
    )
    p.setPen(_pen(INK, 1.5))
    p.setBrush(PAPER)
    p.drawPolygon(pointer)


def _place(p: QPainter) -> None:
    p.setPen(_pen(INK, 1.4))
    p.setBrush(BOARD)
    p.drawRect(QRectF(2.5, 9.5, 12, 12))
    p.setPen(_pen(INK, 1.0))
    p.drawLine(QPointF(8.5, 9.5), QPointF(8.5, 21.5))
    p.drawLine(QPointF(2.5, 15.5), QPointF(14.5, 15.5))
    p.setPen(_pen(GREEN.darker(130), 1.3))
    p.setBrush(QColor(67, 160, 71, 170))
    p.drawRect(QRectF(8.5, 15.5, 6, 6))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(GREEN)
    p.drawEllipse(QPointF(17, 7), 6, 6)
    p.setPen(_pen(PAPER, 2.2))
    p.drawLine(QPointF(17, 4), QPointF(17, 10))
    p.drawLine(QPointF(14, 7), QPointF(20, 7))


def _erase(p: QPainter) -> None:
    p.translate(12, 12)
    p.rotate(-40)
    p.setPen(_pen(INK, 1.5))
    p.setBrush(QColor("#f48fb1"))
    p.drawRoundedRect(QRectF(-9, -5, 10, 10), 1.5, 1.5)
    p.setBrush(PAPER)
    p.drawRoundedRect(QRectF(1, -5, 8, 10), 1.5, 1.5)
    p.resetTransform()
    p.setPen(_pen(INK, 1.5))
    p.drawLine(QPointF(10, 21.5), QPointF(21, 21.5))


def _rotate(p: QPainter) -> None:
    p.setPen(_pen(INK, 2.2))
    p.setBrush(Qt.BrushStyle.NoBrush)
    rect = QRectF(4, 4, 16, 16)
    p.drawArc(rect, 100 * 16, 280 * 16)  # counter-clockwise from 100°, ending near the top
    start = math.radians(100)
    tip = QPointF(12 + 8 * math.cos(start), 12 - 8 * math.sin(start))
    _arrow_head(p, QPointF(tip.x() + 1.5, tip.y()), 0.0, INK, 5.0)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(BLUE)
    p.drawEllipse(QPointF(12, 12), 2.4, 2.4)


def _mirror(p: QPainter) -> None:
    p.setPen(_pen(INK, 1.3, dash=True))
    p.drawLine(QPointF(12, 2), QPointF(12, 22))
    p.setPen(_pen(INK, 1.4))
    p.setBrush(BLUE)
    p.drawPolygon(QPolygonF([QPointF(10, 5), QPointF(10, 19), QPointF(2.5, 19)]))
    p.setBrush(PAPER)
    p.drawPolygon(QPolygonF([QPointF(14, 5), QPointF(14, 19), QPointF(21.5, 19)]))


def _board(p: QPainter, horizontal_split: bool, vertical_split: bool) -> None:
    p.setPen(_pen(INK, 1.4))
    p.setBrush(BOARD)
    p.drawRect(QRectF(2.5, 2.5, 19, 19))
    p.setPen(_pen(INK, 1.1, dash=True))
    if horizontal_split:
        p.drawLine(QPointF(2.5, 12), QPointF(21.5, 12))
    if vertical_split:
        p.drawLine(QPointF(12, 2.5), QPointF(12, 21.5))


def _dot(p: QPainter, x: float, y: float, colour: QColor) -> None:
    p.setPen(_pen(colour.darker(150), 1.0))
    p.setBrush(colour)
    p.drawEllipse(QPointF(x, y), 3.2, 3.2)


def _symmetry_off(p: QPainter) -> None:
    _board(p, True, False)
    _dot(p, 7.5, 16.5, BLUE)


def _symmetry_point(p: QPainter) -> None:
    _board(p, True, False)
    _dot(p, 7.5, 16.5, BLUE)
    _dot(p, 16.5, 7.5, RED)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(INK)
    p.drawEllipse(QPointF(12, 12), 1.4, 1.4)


def _symmetry_lr(p: QPainter) -> None:
    _board(p, False, True)
    _dot(p, 6.5, 16.5, BLUE)
    _dot(p, 17.5, 16.5, BLUE)


def _fit(p: QPainter) -> None:
    p.setPen(_pen(INK, 1.4))
    p.setBrush(BOARD)
    p.drawRect(QRectF(7, 7, 10, 10))
    p.setPen(_pen(INK, 2.0))
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        cx, cy = 12 + sx * 9.5, 12 + sy * 9.5
        p.drawLine(QPointF(cx, cy), QPointF(cx - sx * 5, cy))
        p.drawLine(QPointF(cx, cy), QPointF(cx, cy - sy * 5))


def _zoom(sign: int) -> Draw:
    def draw(p: QPainter) -> None:
        p.setPen(_pen(INK, 2.0))
        p.setBrush(PAPER)
        p.drawEllipse(QPointF(10, 10), 6.5, 6.5)
        p.setPen(_pen(INK, 3.0))
        p.drawLine(QPointF(15, 15), QPointF(21, 21))
        p.setPen(_pen(INK, 1.8))
        p.drawLine(QPointF(7, 10), QPointF(13, 10))
        if sign > 0:
            p.drawLine(QPointF(10, 7), QPointF(10, 13))

    return draw


def _delete(p: QPainter) -> None:
    p.setPen(_pen(RED, 2.6))
    p.drawLine(QPointF(6, 6), QPointF(18, 18))
    p.drawLine(QPointF(18, 6), QPointF(6, 18))


def _export(p: QPainter) -> None:
    p.setPen(_pen(INK, 1.4))
    p.setBrush(BOARD)
    p.drawRect(QRectF(2.5, 6.5, 14, 14))
    p.setPen(_pen(BLUE, 2.2))
    p.drawLine(QPointF(11, 13), QPointF(20, 4))
    _arrow_head(p, QPointF(21.5, 2.5), -math.pi / 4, BLUE, 5.5)


def _help(p: QPainter) -> None:
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(BLUE)
    p.drawEllipse(QPointF(12, 12), 10, 10)
    p.setPen(_pen(PAPER, 2.4))
    path = QPainterPath()
    path.moveTo(8.5, 9.5)
    path.cubicTo(8.5, 5, 15.5, 5, 15.5, 9.5)
    path.cubicTo(15.5, 12, 12, 12, 12, 14.5)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawPath(path)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(PAPER)
    p.drawEllipse(QPointF(12, 18), 1.5, 1.5)


def _play(p: QPainter) -> None:
    """A board with a blue and a red token and the "play" triangle."""
    p.setPen(_pen(INK, 1.4))
    p.setBrush(BOARD)
    p.drawRect(QRectF(2.5, 2.5, 15, 15))
    _dot(p, 6.5, 13.5, BLUE)
    _dot(p, 13.5, 6.5, RED)
    p.setPen(_pen(GREEN, 1.2))
    p.setBrush(GREEN)
    p.drawPolygon(QPolygonF([QPointF(12.5, 11.5), QPointF(22, 16.75), QPointF(12.5, 22)]))


DRAWINGS: dict[str, Draw] = {
    "file.new": _new,
    "file.open": _open,
    "file.save": _save,
    "file.save_as": _save,
    "file.export_png": _export,
    "file.export_svg": _export,
    "file.export_pdf": _export,
    "edit.undo": _undo,
    "edit.redo": _redo,
    "edit.delete": _delete,
    "edit.rotate": _rotate,
    "edit.mirror": _mirror,
    "tools.select": _select,
    "tools.place": _place,
    "tools.erase": _erase,
    "symmetry.off": _symmetry_off,
    "symmetry.point": _symmetry_point,
    "symmetry.lr": _symmetry_lr,
    "view.fit": _fit,
    "view.zoom_in": _zoom(1),
    "view.zoom_out": _zoom(-1),
    "help.shortcuts": _help,
    "game.play": _play,
    "game.resume": _play,
}


def render(draw: Draw, size: int) -> QPixmap:
    """One drawing as a ``size`` × ``size`` pixmap (the style greys it out when disabled)."""
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.scale(size / 24, size / 24)
    draw(p)
    p.end()
    return pix


def action_icon(action_id: str) -> QIcon:
    """The icon of a declared action (``editor.actions``), empty if it has none."""
    draw = DRAWINGS.get(action_id)
    icon = QIcon()
    if draw is None:
        return icon
    for size in SIZES:
        icon.addPixmap(render(draw, size))
    return icon
