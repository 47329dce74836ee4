"""``ElidedLabel``: a one-line label that, when its text is wider than the room it has,
shows it cut with "…" (the whole text in its tooltip) instead of clipping it mid-word
behind its neighbours. ``text()`` stays the whole text."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QLabel


class ElidedLabel(QLabel):
    """A plain-text ``QLabel`` drawn elided on the right when it does not fit (see the
    module docstring); it never asks for more width than nothing, so that it gives way to
    the widgets beside it."""

    def setText(self, text: str) -> None:  # noqa: N802 - Qt override
        super().setText(text)
        self.setToolTip(text if self.elided() else "")

    def elided(self) -> bool:
        """Whether the text is wider than the label."""
        return self.fontMetrics().horizontalAdvance(self.text()) > self.contentsRect().width()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(0, super().minimumSizeHint().height())

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self.setToolTip(self.text() if self.elided() else "")

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        rect = self.contentsRect()
        shown = self.fontMetrics().elidedText(
            self.text(), Qt.TextElideMode.ElideRight, rect.width()
        )
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(
            rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), shown
        )
        painter.end()
