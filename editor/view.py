"""The board canvas: zoom (wheel, Ctrl +/−, fit), pan (middle button or Space + drag), and
mouse events translated to cells for the current tool. Shift+wheel rotates."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QWidget

from tankmap.editor.context import EditorContext
from tankmap.editor.tools.base import CellEvent

MIN_ZOOM, MAX_ZOOM = 0.2, 6.0
_ARROWS = {
    Qt.Key.Key_Left: (-1, 0),
    Qt.Key.Key_Right: (1, 0),
    Qt.Key.Key_Up: (0, 1),
    Qt.Key.Key_Down: (0, -1),
}


class BoardView(QGraphicsView):
    """Shows ``ctx.scene`` and feeds the current tool."""

    def __init__(self, ctx: EditorContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx.scene, parent)
        self.ctx = ctx
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setMouseTracking(True)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._pan_from: QPoint | None = None
        self._space = False
        self._dragging = False
        ctx.tool_changed.connect(self._update_cursor)
        ctx.document_replaced.connect(self.fit)

    # --- zoom -------------------------------------------------------------------------------
    @property
    def zoom(self) -> float:
        return self.transform().m11()

    def zoom_by(self, factor: float) -> None:
        target = max(MIN_ZOOM, min(MAX_ZOOM, self.zoom * factor))
        f = target / self.zoom
        self.scale(f, f)

    def zoom_in(self) -> None:
        self.zoom_by(1.25)

    def zoom_out(self) -> None:
        self.zoom_by(0.8)

    def fit(self) -> None:
        """Show the whole board (with its coordinates)."""
        self.resetTransform()
        self.fitInView(self.ctx.scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    def resizeEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)  # type: ignore[arg-type]
        if not getattr(self, "_zoomed_by_user", False):
            self.fit()

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt override
        delta = event.angleDelta().y() or event.angleDelta().x()
        if not delta:
            return
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.ctx.rotate(clockwise=delta < 0)
            event.accept()
            return
        self._zoomed_by_user = True
        self.zoom_by(1.15 if delta > 0 else 1 / 1.15)
        event.accept()

    # --- mouse -> tool --------------------------------------------------------------------
    def cell_event(self, event: QMouseEvent) -> CellEvent:
        pos = self.mapToScene(event.position().toPoint())
        return CellEvent(
            self.ctx.scene.geo.cell_at(pos), QPointF(pos), event.button(), event.modifiers()
        )

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if event.button() == Qt.MouseButton.MiddleButton or (
            self._space and event.button() == Qt.MouseButton.LeftButton
        ):
            self._pan_from = event.position().toPoint()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        self.setFocus()
        self._dragging = event.button() == Qt.MouseButton.LeftButton
        self.ctx.tool.press(self.cell_event(event))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if self._pan_from is not None:
            now = event.position().toPoint()
            d = now - self._pan_from
            self._pan_from = now
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - d.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - d.y())
            return
        ev = self.cell_event(event)
        self.ctx.set_hover(ev.cell)
        self.ctx.tool.move(ev, self._dragging)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if self._pan_from is not None:
            self._pan_from = None
            self._update_cursor()
            return
        self._dragging = False
        self.ctx.tool.release(self.cell_event(event))

    def leaveEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        self.ctx.set_hover(None)
        self.ctx.tool.leave()
        super().leaveEvent(event)  # type: ignore[arg-type]

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        step = _ARROWS.get(Qt.Key(event.key()))
        if step is not None and self.ctx.doc.selection and not event.modifiers():
            self.ctx.nudge(*step)  # arrow keys move the selection one cell
            event.accept()
            return
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self._update_cursor()
            return
        super().keyReleaseEvent(event)

    def _update_cursor(self, *args: object) -> None:
        if self.ctx.tool_id:
            self.viewport().setCursor(self.ctx.tool.cursor)

    # --- helpers for tests ----------------------------------------------------------------
    def cell_point(self, cell: int) -> QPoint:
        """The viewport pixel at the centre of ``cell`` (for simulated mouse events)."""
        return self.mapFromScene(self.ctx.scene.geo.centre(cell))
