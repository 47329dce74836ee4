"""The erase tool: a click (or a drag) removes the topmost piece under the cursor."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tankmap.editor import editing
from tankmap.editor.commands import new_stroke
from tankmap.editor.palette_data import piece_label
from tankmap.editor.pieces import cells_of, pieces_at
from tankmap.editor.tools.base import CellEvent, Tool


class EraseTool(Tool):
    id = "erase"
    label = "Erase"
    shortcut = "E"
    cursor = Qt.CursorShape.PointingHandCursor

    stroke = 0

    def erase_at(self, cell: int) -> bool:
        """Erase the topmost piece on ``cell``; False if there was none."""
        found = pieces_at(self.ctx.doc.scenario, cell)
        if not found:
            return False
        editing.erase(self.ctx.doc, [found[0]], self.stroke)
        self.ctx.say(f"Erased {piece_label(self.ctx.doc.palette, found[0])} (Ctrl+Z to undo)")
        return True

    def press(self, ev: CellEvent) -> None:
        self.stroke = new_stroke()  # a drag erases in one undo step
        if ev.cell is not None:
            self.erase_at(ev.cell)
        self.move(ev, False)

    def move(self, ev: CellEvent, dragging: bool) -> None:
        if dragging and ev.cell is not None:
            self.erase_at(ev.cell)
        found = [] if ev.cell is None else pieces_at(self.ctx.doc.scenario, ev.cell)
        self.ctx.scene.set_preview(cells_of(found[0]) if found else (), False)
