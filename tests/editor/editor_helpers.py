"""Mouse helpers for the editor tests (imported by name: pytest puts this folder on
sys.path because tests/editor has no __init__.py)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tankmap.editor.mainwindow import MainWindow


def move_mouse(
    w: MainWindow, point: QPoint, buttons: Qt.MouseButton = Qt.MouseButton.NoButton
) -> None:
    """A mouse move event on the viewport (QTest.mouseMove does not deliver one offscreen)."""
    vp = w.view.viewport()
    event = QMouseEvent(
        QEvent.Type.MouseMove,
        QPointF(point),
        QPointF(vp.mapToGlobal(point)),
        Qt.MouseButton.NoButton,
        buttons,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(vp, event)


def hover(w: MainWindow, cell: str) -> None:
    move_mouse(w, w.view.cell_point(w.doc.scenario.board.parse_cell(cell)))


def click(
    w: MainWindow,
    cell: str,
    button: Qt.MouseButton = Qt.MouseButton.LeftButton,
    mods: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
) -> None:
    c = w.doc.scenario.board.parse_cell(cell)
    hover(w, cell)
    QTest.mouseClick(w.view.viewport(), button, mods, w.view.cell_point(c))


def drag(w: MainWindow, start: str, end: str) -> None:
    b = w.doc.scenario.board
    a, z = w.view.cell_point(b.parse_cell(start)), w.view.cell_point(b.parse_cell(end))
    vp = w.view.viewport()
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, a)
    move_mouse(w, QPoint((a.x() + z.x()) // 2, (a.y() + z.y()) // 2), Qt.MouseButton.LeftButton)
    move_mouse(w, z, Qt.MouseButton.LeftButton)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, z)


def choose(w: MainWindow, kind: str) -> None:
    w.ctx.set_choice(kind=kind, shape=0, turns=0, mirrored=False)
    w.run_action("tools.place")
