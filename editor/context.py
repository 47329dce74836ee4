"""What tools, actions and docks share: the current document, the scene, the active tool,
the palette choice, the clipboard and the status line.

The main window owns one ``EditorContext``; tests can build one without a window. When a
new document is opened, ``set_document`` swaps it everywhere and emits ``document_replaced``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from tankmap.editor import editing
from tankmap.editor.clipboard import Clipboard
from tankmap.editor.document import Document
from tankmap.editor.palette_data import piece_label
from tankmap.editor.pieces import cells_of
from tankmap.editor.scene import BoardScene
from tankmap.rules.geometry import Side

if TYPE_CHECKING:
    from tankmap.editor.tools.base import Tool


@dataclass
class PaletteChoice:
    """What the place tool puts down: a palette kind, its shape, turn, mirror and side."""

    kind: str | None = None
    shape: int = 0
    turns: int = 0  # quarter turns (terrain) or facing steps (units)
    mirrored: bool = False
    side: Side | None = None  # None = the side whose half the cursor is in


class EditorContext(QObject):
    """Shared editor state (see module docstring)."""

    document_replaced = Signal()
    status = Signal(str)
    tool_changed = Signal(str)
    choice_changed = Signal()
    hover_changed = Signal(object)  # cell or None

    def __init__(self, doc: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        doc.setParent(self)
        self.doc = doc
        self.scene = BoardScene(doc)
        self.choice = PaletteChoice()
        self.clipboard = Clipboard()
        self.hover: int | None = None
        self.last_status = ""
        from tankmap.editor.tools import make_tools

        self.tool_id = ""
        self.unit_view = True
        self.context_actions: list[QAction] = []  # the select tool's right-click menu
        self.context_menu: QMenu | None = None
        self.tools: dict[str, Tool] = make_tools(self)
        self.set_tool("select")

    def set_document(self, doc: Document) -> None:
        old = self.doc
        doc.setParent(self)
        self.doc = doc
        self.scene.set_document(doc)
        self.choice = PaletteChoice()
        self.document_replaced.emit()
        if old is not doc:
            old.deleteLater()

    def say(self, text: str) -> None:
        """Show one line in the status bar (tests read ``last_status``)."""
        self.last_status = text
        self.status.emit(text)

    def set_hover(self, cell: int | None) -> None:
        if cell != self.hover:
            self.hover = cell
            self.hover_changed.emit(cell)

    # --- tools ----------------------------------------------------------------------------
    @property
    def tool(self) -> Tool:
        return self.tools[self.tool_id]

    def set_tool(self, tool_id: str) -> None:
        """Make ``tool_id`` current (``KeyError`` if unknown)."""
        new = self.tools[tool_id]
        if tool_id == self.tool_id:
            return
        if self.tool_id:
            self.tool.deactivate()
        self.tool_id = tool_id
        new.activate()
        self.tool_changed.emit(tool_id)

    def rotate(self, clockwise: bool = True) -> editing.Outcome:
        """R / Shift+wheel: the tool's preview if it has one, else the selection."""
        if self.tool_id and self.tool.rotate(clockwise):
            return editing.Outcome(True)
        outcome = editing.rotate_pieces(self.doc, self.doc.selection, clockwise)
        return self._report(outcome, "Rotated")

    def mirror(self) -> editing.Outcome:
        """M: mirror the tool's preview shape if it has one, else the selection."""
        if self.tool_id and self.tool.mirror():
            return editing.Outcome(True)
        return self._report(editing.mirror_pieces(self.doc, self.doc.selection), "Mirrored")

    def nudge(self, dx: int, dy: int) -> editing.Outcome:
        """Move the selection one cell (arrow keys on the board)."""
        return self._report(editing.move(self.doc, self.doc.selection, dx, dy), "Moved")

    def _report(self, outcome: editing.Outcome, done: str = "") -> editing.Outcome:
        """Say why an edit was refused, or (``done``) what it did to the selection:
        ``Rotated Tank C: facing E at c2``."""
        if not outcome.ok:
            self.say(f"Refused: {outcome.reason}")
        elif done:
            sel = self.doc.selection
            if len(sel) == 1:
                piece = sel[0]
                board = self.doc.scenario.board
                text = f"{done} {piece_label(self.doc.palette, piece)}"
                facing = getattr(piece, "facing", None)
                if facing is not None:
                    text += f": facing {facing.name}"
                cells = cells_of(piece)
                text += f" at {board.cell_name(cells[0])}" if len(cells) == 1 else ""
                self.say(text)
            elif sel:
                self.say(f"{done} {len(sel)} pieces")
        return outcome

    def set_choice(self, **changes: object) -> None:
        for k, v in changes.items():
            setattr(self.choice, k, v)
        self.choice_changed.emit()
