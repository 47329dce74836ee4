"""The tool protocol: mouse events in board cells, one edit per gesture."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt

if TYPE_CHECKING:  # (the context builds the tools: a type only, no import at run time)
    from tankmap.editor.context import EditorContext


@dataclass(frozen=True)
class CellEvent:
    """A mouse event translated to the board: ``cell`` is ``None`` off the board."""

    cell: int | None
    pos: QPointF
    button: Qt.MouseButton = Qt.MouseButton.LeftButton
    modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier


class Tool:
    """Base tool: ignores everything. Subclasses override what they need."""

    id = "tool"
    label = "Tool"
    shortcut = ""
    cursor = Qt.CursorShape.ArrowCursor

    def __init__(self, ctx: EditorContext) -> None:
        self.ctx = ctx

    def activate(self) -> None:
        """Called when the tool becomes current."""

    def deactivate(self) -> None:
        """Called when another tool becomes current: clear previews."""
        self.ctx.scene.clear_preview()

    def press(self, ev: CellEvent) -> None:
        pass

    def move(self, ev: CellEvent, dragging: bool) -> None:
        pass

    def release(self, ev: CellEvent) -> None:
        pass

    def leave(self) -> None:
        self.ctx.scene.clear_preview()

    def rotate(self, clockwise: bool) -> bool:
        """R / Shift+wheel: return True if the tool handled it (else the selection turns)."""
        return False

    def mirror(self) -> bool:
        """M: return True if the tool handled it."""
        return False
