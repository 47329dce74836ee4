"""The play window's board view: always the whole board, and a click names a cell."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QMouseEvent, QPainter
from PySide6.QtWidgets import QGraphicsView

from tankmap.editor.scene import BoardScene


class PlayView(QGraphicsView):
    """Shows ``scene`` fitted to the view; ``clicked(cell, right)`` on a press on a cell."""

    clicked = Signal(int, bool)

    def __init__(self, scene: BoardScene) -> None:
        super().__init__(scene)
        self.board_scene = scene
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setMinimumSize(360, 360)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        cell = self.board_scene.geo.cell_at(self.mapToScene(event.position().toPoint()))
        if cell is None:
            super().mousePressEvent(event)
            return
        self.clicked.emit(cell, event.button() == Qt.MouseButton.RightButton)
        event.accept()

    def resizeEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)  # type: ignore[arg-type]
        self.fit()

    def fit(self) -> None:
        self.fitInView(self.board_scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    def cell_point(self, cell: int) -> QPoint:
        """The viewport pixel at the centre of ``cell`` (for simulated clicks)."""
        return self.mapFromScene(self.board_scene.geo.centre(cell))
