"""The select tool: click to select (Ctrl toggles), drag a selected piece to move the whole
selection (one undo step, refused with its reason if illegal), drag on empty cells for a
rubber band."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Qt
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QMenu

from tankmap.editor import editing
from tankmap.editor.palette_data import Palette, piece_label
from tankmap.editor.pieces import Piece, all_pieces, cells_of, pieces_at, translate
from tankmap.editor.tools.base import CellEvent, Tool
from tankmap.rules.geometry import Side


def describe(
    piece: Piece, palette: Palette | None = None, sides: Mapping[Side, str] | None = None
) -> str:
    """``Tank C (South) facing N`` — the status bar's words for a piece, the side named as
    ``sides`` (the ruleset's ``side_names()``) says: ``Heavy tank (White) facing N``."""
    side = getattr(piece, "side", None)
    owner = "" if side is None else f" ({(sides or {}).get(side, side.value.capitalize())})"
    facing = getattr(piece, "facing", None)
    facing_text = f" facing {facing.name}" if facing is not None else ""
    if palette is not None:
        label = piece_label(palette, piece)
    else:
        label = getattr(piece, "label", None) or piece.kind
    return f"{label}{owner}{facing_text}"


class SelectTool(Tool):
    id = "select"
    label = "Select / move"
    shortcut = "S"

    def __init__(self, ctx: object) -> None:
        super().__init__(ctx)  # type: ignore[arg-type]
        self.drag_from: int | None = None
        self.band_from: int | None = None
        self.band_add = False

    def press(self, ev: CellEvent) -> None:
        doc = self.ctx.doc
        if ev.cell is not None and ev.button == Qt.MouseButton.RightButton:
            self.context_menu(ev.cell)
            return
        if ev.cell is None or ev.button != Qt.MouseButton.LeftButton:
            return
        found = pieces_at(doc.scenario, ev.cell)
        ctrl = bool(ev.modifiers & Qt.KeyboardModifier.ControlModifier)
        if found:
            top = found[0]
            if ctrl:
                sel = list(doc.selection)
                if top in sel:
                    sel.remove(top)
                else:
                    sel.append(top)
                doc.select(sel)
            elif top not in doc.selection:
                doc.select([top])
            self.drag_from = ev.cell if top in doc.selection else None
        else:
            if not ctrl:
                doc.select([])
            self.band_from = ev.cell
            self.band_add = ctrl

    def context_menu(self, cell: int) -> None:
        """Right click: select the piece under the cursor (unless it is already selected)
        and pop up the edit commands (non-blocking)."""
        doc = self.ctx.doc
        found = pieces_at(doc.scenario, cell)
        if found and found[0] not in doc.selection:
            doc.select([found[0]])
        if not self.ctx.context_actions:
            return
        menu = QMenu()
        menu.addActions(self.ctx.context_actions)
        self.ctx.context_menu = menu
        menu.popup(QCursor.pos())

    def _band_cells(self, a: int, b: int) -> list[int]:
        board = self.ctx.doc.scenario.board
        c0, c1 = sorted((board.col_of(a), board.col_of(b)))
        r0, r1 = sorted((board.row_of(a), board.row_of(b)))
        return [board.cell(c, r) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]

    def move(self, ev: CellEvent, dragging: bool) -> None:
        ctx = self.ctx
        doc = ctx.doc
        if self.drag_from is not None and ev.cell is not None:
            board = doc.scenario.board
            dx = board.col_of(ev.cell) - board.col_of(self.drag_from)
            dy = board.row_of(ev.cell) - board.row_of(self.drag_from)
            if dx or dy:
                moved = [translate(p, board, dx, dy) for p in doc.selection]
                cells = [c for m in moved if m is not None for c in cells_of(m)]
                outcome = editing.move(doc, doc.selection, dx, dy, dry_run=True)
                ctx.scene.set_preview(cells, outcome.ok)
                ctx.scene.set_ghosts([m for m in moved if m is not None])
                ctx.say("Drop to move" if outcome.ok else f"Refused: {outcome.reason}")
            else:
                ctx.scene.clear_preview()
            return
        if self.band_from is not None and ev.cell is not None:
            ctx.scene.band.set_cells(self._band_cells(self.band_from, ev.cell))
            return
        # what is under the cursor shows on the right of the status bar (hover label);
        # the message line keeps the last answer (a refusal, the unit view's counts)

    def release(self, ev: CellEvent) -> None:
        ctx = self.ctx
        doc = ctx.doc
        if self.drag_from is not None:
            start, self.drag_from = self.drag_from, None
            ctx.scene.clear_preview()
            if ev.cell is None:
                ctx.say("Refused: dropped off the board")
                return
            board = doc.scenario.board
            dx = board.col_of(ev.cell) - board.col_of(start)
            dy = board.row_of(ev.cell) - board.row_of(start)
            if dx or dy:
                sel = doc.selection
                what = piece_label(doc.palette, sel[0]) if len(sel) == 1 else f"{len(sel)} pieces"
                outcome = editing.move(doc, sel, dx, dy)
                where = board.cell_name(ev.cell)
                ctx.say(
                    f"Moved {what} to {where} (Ctrl+Z to undo)"
                    if outcome.ok
                    else f"Refused: {outcome.reason}"
                )
            return
        if self.band_from is not None:
            start, self.band_from = self.band_from, None
            ctx.scene.band.set_cells(())
            end = ev.cell if ev.cell is not None else start
            inside = set(self._band_cells(start, end))
            s = doc.scenario
            chosen = [p for p in all_pieces(s) if set(cells_of(p)) <= inside]
            doc.select(([*doc.selection] if self.band_add else []) + chosen)
            ctx.say(f"{len(doc.selection)} selected")

    def deactivate(self) -> None:
        super().deactivate()
        self.drag_from = self.band_from = None
        self.ctx.scene.band.set_cells(())
