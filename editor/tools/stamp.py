"""The stamp tool (Edit ▸ Paste, Ctrl+V, as in Tiled): the clipboard follows the cursor as
a translucent ghost — with its mirror images in symmetry mode — over cells shown green
where the rules allow it there and red where not (the reason in the status bar); a click
pastes it there as one undo step, and the stamp stays for the next click. Esc or another
tool puts it away."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from tankmap.editor import clipboard, editing
from tankmap.editor.pieces import Piece, cells_of
from tankmap.editor.tools.base import CellEvent, Tool

if TYPE_CHECKING:
    from tankmap.editor.context import EditorContext


def start_stamp(ctx: EditorContext) -> editing.Outcome:
    """Ctrl+V: the stamp tool with the clipboard (refused while the clipboard is empty)."""
    if not ctx.clipboard.pieces:
        return editing.Outcome(False, "the clipboard is empty (copy pieces first)")
    if ctx.tool_id == "stamp":
        ctx.tool.activate()
    else:
        ctx.set_tool("stamp")
    return editing.Outcome(True)


class StampTool(Tool):
    id = "stamp"
    label = "Stamp"
    shortcut = ""
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, ctx: object) -> None:
        super().__init__(ctx)  # type: ignore[arg-type]
        self._last: tuple[object, ...] | None = None
        self.ok = False  # the last preview's answer (for tests)

    def activate(self) -> None:
        self._last = None
        n = len(self.ctx.clipboard.pieces)
        self.ctx.say(f"Stamp: {n} piece(s) — click to paste, Esc to stop")
        self.show(self.ctx.hover)

    def show(self, cell: int | None) -> None:
        """Ghost the clipboard at ``cell`` over green (legal) or red (refused) cells."""
        ctx = self.ctx
        if cell is None:
            ctx.scene.clear_preview()
            return
        key = (cell, ctx.doc.scenario, ctx.doc.symmetry)
        if key == self._last:
            return
        self._last = key
        pieces, reason = clipboard.arranged(ctx, cell)
        where = ctx.doc.scenario.board.cell_name(cell)
        images: list[Piece] = []
        if not pieces:
            self.ok = False
            shown = self._clipped(cell)
        else:
            outcome, images = editing.preview_pieces(ctx.doc, pieces)
            self.ok, reason = outcome.ok, outcome.reason
            shown = [c for p in [*pieces, *images] for c in cells_of(p)]
        ctx.scene.set_preview(shown, self.ok)
        ctx.scene.set_ghosts([*pieces, *images])
        n = len(ctx.clipboard.pieces)
        if self.ok:
            ctx.say(f"Paste {n} piece(s) at {where}: click to place")
        else:
            ctx.say(f"Paste {n} piece(s) at {where}: refused: {reason}")

    def _clipped(self, cell: int) -> list[int]:
        """The on-board cells the clipboard would cover at ``cell`` (to show in red)."""
        ctx = self.ctx
        board = ctx.doc.scenario.board
        clip = ctx.clipboard
        if not clip.pieces or clip.board != (board.columns, board.rows):
            return [cell]
        dx = board.col_of(cell) - board.col_of(clip.origin)
        dy = board.row_of(cell) - board.row_of(clip.origin)
        out = []
        for p in clip.pieces:
            for c in cells_of(p):
                col, row = board.col_of(c) + dx, board.row_of(c) + dy
                if board.on_board(col, row):
                    out.append(board.cell(col, row))
        return out

    def press(self, ev: CellEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton or ev.cell is None:
            return
        outcome = clipboard.paste(self.ctx, ev.cell)
        if not outcome.ok:
            self.ctx.say(f"Refused: {outcome.reason}")  # the red preview stays as it is
            return
        self._last = None
        self.show(ev.cell)  # the cell is taken now: red
        where = self.ctx.doc.scenario.board.cell_name(ev.cell)
        self.ctx.say(f"Pasted at {where} (Ctrl+Z to undo) — click again to paste more")

    def move(self, ev: CellEvent, dragging: bool) -> None:
        self.show(ev.cell)
