"""Copy, cut and paste of board pieces (Ctrl+C / Ctrl+X / Ctrl+V).

The clipboard lives in the ``EditorContext`` (pieces, the cell they were copied from, the
board size); pasting moves them so the first piece's anchor lands on the target cell and
renames units whose name is already taken; it is refused (with its reason) if a piece
would leave the board, the board size differs, or the rules forbid the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from tankmap.editor import editing
from tankmap.editor.pieces import Piece, anchor_of, translate
from tankmap.rules.scenario import Unit

if TYPE_CHECKING:  # (the context holds the clipboard: a type only, no import at run time)
    from tankmap.editor.context import EditorContext


@dataclass
class Clipboard:
    pieces: tuple[Piece, ...] = ()
    origin: int = 0  # the cell pasting puts under the cursor
    board: tuple[int, int] = field(default=(0, 0))


def copy(ctx: EditorContext) -> int:
    """Copy the selection; returns the number of pieces copied (0: nothing selected)."""
    doc = ctx.doc
    sel = doc.selection
    if not sel:
        ctx.say("Nothing selected to copy")
        return 0
    s = doc.scenario
    ctx.clipboard = Clipboard(sel, anchor_of(sel[0]), (s.board.columns, s.board.rows))
    ctx.say(f"Copied {len(sel)} piece(s)")
    return len(sel)


def arranged(ctx: EditorContext, target: int | None) -> tuple[list[Piece], str]:
    """The clipboard's pieces moved so the first piece's anchor lands on ``target`` (where
    they were copied from if ``None``), units renamed where their name is taken; or no
    pieces and the reason they cannot go there."""
    doc = ctx.doc
    clip = ctx.clipboard
    if not clip.pieces:
        return [], "the clipboard is empty"
    board = doc.scenario.board
    if clip.board != (board.columns, board.rows):
        return [], "the clipboard holds pieces of another board size"
    dx = dy = 0
    if target is not None:
        dx = board.col_of(target) - board.col_of(clip.origin)
        dy = board.row_of(target) - board.row_of(clip.origin)
    pieces: list[Piece] = []
    scenario = doc.scenario
    for p in clip.pieces:
        moved = translate(p, board, dx, dy)
        if moved is None:
            return [], "the pasted pieces would leave the board"
        if (
            isinstance(moved, Unit)
            and moved.name is not None
            and any(u.side is moved.side and u.name == moved.name for u in scenario.units)
        ):
            moved = replace(moved, name=editing.free_name(doc, scenario, moved.kind, moved.side))
        scenario = scenario.adding(moved)
        pieces.append(moved)
    return pieces, ""


def paste(ctx: EditorContext, at: int | None = None) -> editing.Outcome:
    """Paste the clipboard with its first piece's anchor on ``at`` (default: the cell
    under the cursor, else where the pieces were copied from), as one undoable step."""
    pieces, reason = arranged(ctx, at if at is not None else ctx.hover)
    if not pieces:
        return editing.Outcome(False, reason)
    return editing.add_pieces(ctx.doc, pieces, f"Paste {len(pieces)} piece(s)")
