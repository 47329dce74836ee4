"""The place tool: a live green/red preview of the palette piece under the cursor, with the
rule that refuses it in the status bar; a click places it if (and only if) it is legal."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt

from tankmap.editor import editing
from tankmap.editor.commands import new_stroke
from tankmap.editor.palette_data import piece_label, shapes_for
from tankmap.editor.pieces import (
    Piece,
    Symmetry,
    cells_of,
    footprint_cells,
    footprint_cells_clipped,
    mirror_offsets,
    rotate_facing,
    rotate_offsets,
)
from tankmap.editor.tools.base import CellEvent, Tool
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Unit


class PlaceTool(Tool):
    id = "place"
    label = "Place"
    shortcut = "P"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, ctx: object) -> None:
        super().__init__(ctx)  # type: ignore[arg-type]
        self._last: tuple[object, ...] | None = None
        self._painted: int | None = None
        self._stroke = 0
        self._placed_at: int | None = None
        self._placed_in: object = None

    # --- the piece under the cursor -------------------------------------------------------
    def side_for(self, cell: int, cells: tuple[int, ...] = ()) -> Side:
        """The palette's side, or on Auto the side whose half the piece lies in: the half
        holding most of its ``cells`` (a piece across the middle line), else ``cell``'s.
        The side is chosen before the rules judge the piece, so a refusal names that
        side's reasons."""
        chosen = self.ctx.choice.side
        if chosen is not None:
            return chosen
        board = self.ctx.doc.scenario.board

        def half(c: int) -> Side:
            return Side.SOUTH if board.row_of(c) < board.rows / 2 else Side.NORTH

        north = sum(half(c) is Side.NORTH for c in cells)
        if 2 * north != len(cells):
            return Side.NORTH if 2 * north > len(cells) else Side.SOUTH
        return half(cell)

    def candidate(self, cell: int) -> tuple[Piece | None, tuple[int, ...]]:
        """The piece the tool would place at ``cell`` (``None`` if its footprint leaves the
        board) and the on-board cells to preview."""
        doc, choice = self.ctx.doc, self.ctx.choice
        if choice.kind is None:
            return None, ()
        entry = doc.palette.entry(choice.kind)
        board = doc.scenario.board
        if entry.is_unit:
            side = self.side_for(cell)
            piece = editing.make_piece(doc, entry.kind, side, (cell,))
            if isinstance(piece, Unit) and piece.facing is not None:
                step = 1 if doc.palette.facings == 8 else 2
                piece = replace(piece, facing=piece.facing.turned(step * choice.turns))
            return piece, (cell,)
        shapes = shapes_for(doc.palette, entry.kind, doc.ruleset, doc.scenario)
        shape = shapes[choice.shape % len(shapes)]
        offsets = shape.offsets
        if choice.mirrored:
            offsets = mirror_offsets(offsets)
        offsets = rotate_offsets(offsets, choice.turns)
        cells = footprint_cells(board, cell, offsets)
        if cells is None:
            return None, footprint_cells_clipped(board, cell, offsets)
        side = self.side_for(cell, cells)
        arrow = None
        if entry.arrow:
            arrow = rotate_facing(side.forward, choice.turns)
            if choice.mirrored and arrow is not None:
                arrow = arrow.mirrored_lr()
        lane = None if shape.lane is None else cells[shape.lane]
        piece = editing.make_piece(
            doc, entry.kind, side, cells, shape=shape.name, lane=lane, arrow=arrow
        )
        return piece, cells

    # --- events ---------------------------------------------------------------------------
    def refresh(self) -> None:
        self._last = None
        self.show(self.ctx.hover)

    def show(self, cell: int | None) -> None:
        """Update the preview and the status line for the cursor at ``cell``."""
        ctx = self.ctx
        if cell is None or ctx.choice.kind is None:
            ctx.scene.clear_preview()
            if ctx.choice.kind is None and cell is not None:
                ctx.say("Pick a piece in the palette to place it")
            return
        key = (cell, ctx.doc.scenario, ctx.doc.symmetry, tuple(vars(ctx.choice).values()))
        if key == self._last:
            return
        if cell == self._placed_at and ctx.doc.scenario is self._placed_in:
            # just placed here: show the new piece, not a red "occupied" preview over it
            ctx.scene.clear_preview()
            return
        self._placed_at = None
        self._last = key
        piece, cells = self.candidate(cell)
        board = ctx.doc.scenario.board
        what = ctx.doc.palette.entry(ctx.choice.kind).label
        if piece is None:
            ctx.scene.set_ghost(None)
            ctx.scene.set_preview(cells, False)
            ctx.say(f"{what} at {board.cell_name(cell)}: refused: the piece would leave the board")
            return
        side = getattr(piece, "side", None)
        if side is not None:  # on Auto the side comes from the cursor's half: say which
            what += f" ({ctx.doc.ruleset.side_names()[side]})"
        outcome, images = editing.preview_with_images(ctx.doc, piece)
        shown = list(cells)
        for image in images:  # symmetry mode: preview the mirrored piece too
            shown.extend(cells_of(image))
        ctx.scene.set_preview(shown, outcome.ok)
        ctx.scene.set_ghosts([piece, *images])
        mirrored = " (and its mirror image)" if images else ""
        if outcome.ok:
            ctx.say(f"{what} at {board.cell_name(cell)}{mirrored}: legal — click to place")
        else:
            ctx.say(f"{what} at {board.cell_name(cell)}{mirrored}: refused: {outcome.reason}")

    def place_at(self, cell: int, stroke: int = 0) -> editing.Outcome:
        """Place the current palette piece at ``cell`` (what a click does)."""
        ctx = self.ctx
        piece: Piece | None = None
        if ctx.choice.kind is None:
            outcome = editing.Outcome(False, "no piece chosen in the palette")
        else:
            piece, _ = self.candidate(cell)
            outcome = (
                editing.REFUSED_OFF_BOARD
                if piece is None
                else editing.place(ctx.doc, piece, stroke)
            )
        board = ctx.doc.scenario.board
        if outcome.ok:
            self._placed_at, self._placed_in = cell, ctx.doc.scenario
        self.refresh()
        if outcome.ok:
            mirrored = " (and its mirror image)" if ctx.doc.symmetry is not Symmetry.OFF else ""
            what = piece_label(ctx.doc.palette, piece) if piece is not None else "piece"
            ctx.say(f"Placed {what} at {board.cell_name(cell)}{mirrored}")
        else:
            ctx.say(f"Refused at {board.cell_name(cell)}: {outcome.reason}")
        return outcome

    def press(self, ev: CellEvent) -> None:
        if ev.cell is None:
            return
        if ev.button == Qt.MouseButton.RightButton:
            self.rotate(True)
            return
        self._painted = ev.cell
        self._stroke = new_stroke()
        self.place_at(ev.cell, self._stroke)

    def move(self, ev: CellEvent, dragging: bool) -> None:
        if dragging and ev.cell is not None and ev.cell != self._painted:
            self._painted = ev.cell
            kind = self.ctx.choice.kind
            entry = None if kind is None else self.ctx.doc.palette.entry(kind)
            if entry is not None and not entry.is_unit and len(entry.shapes[0].offsets) == 1:
                self.place_at(ev.cell, self._stroke)  # painting single cells: one step
        self.show(ev.cell)

    def release(self, ev: CellEvent) -> None:
        self._painted = None

    def rotate(self, clockwise: bool) -> bool:
        self.ctx.set_choice(turns=self.ctx.choice.turns + (1 if clockwise else -1))
        self.refresh()
        return True

    def mirror(self) -> bool:
        self.ctx.set_choice(mirrored=not self.ctx.choice.mirrored)
        self.refresh()
        return True

    def activate(self) -> None:
        self.refresh()
