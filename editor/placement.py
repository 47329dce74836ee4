"""Where a window of the editor opens: on the screen, whole (frame included), over the
window it was opened from."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QWidget


def place_window(window: QWidget, width: int, height: int, near: QWidget | None = None) -> QRect:
    """Size ``window`` to ``width`` × ``height`` (less where the screen is smaller) and put
    it over the middle of ``near`` (else of the screen), moved so that the whole window,
    frame included, lies on the screen's available area. Returns the frame's rectangle.
    Call it before ``show()``; the frame is estimated from the window's style until shown."""
    screen = (near.screen() if near is not None else None) or window.screen()
    available = screen.availableGeometry()
    frame_w, frame_h = _frame_margins(window)
    inner_w = min(width, max(200, available.width() - frame_w))
    inner_h = min(height, max(200, available.height() - frame_h))
    window.resize(inner_w, inner_h)
    frame = QRect(0, 0, inner_w + frame_w, inner_h + frame_h)
    centre = near.frameGeometry().center() if near is not None else available.center()
    frame.moveCenter(centre)
    frame.moveLeft(max(available.left(), min(frame.left(), available.right() - frame.width() + 1)))
    frame.moveTop(max(available.top(), min(frame.top(), available.bottom() - frame.height() + 1)))
    window.move(frame.topLeft())
    return frame


def _frame_margins(window: QWidget) -> tuple[int, int]:
    """Width and height the window manager's frame adds (a guess before the first show)."""
    if window.isVisible():
        outer, inner = window.frameGeometry(), window.geometry()
        return outer.width() - inner.width(), outer.height() - inner.height()
    return 16, 40
