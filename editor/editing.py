"""The edits tools and actions ask for: checked against the rules, mirrored in symmetry
mode, then pushed as undoable commands.

Every function returns an ``Outcome``: ``ok`` False means nothing was changed and
``reason`` says why (the ruleset's violation messages). Nothing here ever writes a
scenario that has an ``error`` violation the document did not already have.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from tankmap.editor import commands as cmd
from tankmap.editor.document import Document
from tankmap.editor.palette_data import piece_label
from tankmap.editor.pieces import (
    Piece,
    Symmetry,
    cells_of,
    mirror_shape,
    mirrored,
    new_errors,
    reason_text,
    rotate,
    translate,
)
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario, Terrain, Unit


@dataclass(frozen=True)
class Outcome:
    ok: bool
    reason: str = ""


REFUSED_OFF_BOARD = Outcome(False, "the piece would leave the board")


def _check(doc: Document, after: Scenario) -> Outcome:
    errors = new_errors(doc.ruleset, doc.violations, after, doc.check)
    return Outcome(not errors, reason_text(errors))


def free_name(doc: Document, scenario: Scenario, kind: str, side: Side) -> str | None:
    """The first name of the palette's list for ``kind`` not used by ``side``'s units."""
    try:
        names = doc.palette.entry(kind).names
    except KeyError:
        return None
    used = {u.name for u in scenario.units if u.side is side and u.kind == kind}
    return next((n for n in names if n not in used), None)


def _counterpart(doc: Document, piece: Piece) -> Piece | None:
    """The piece standing where ``piece``'s mirror image would be (same kind and owner as
    the image), or ``None``."""
    if doc.symmetry is Symmetry.OFF:
        return None
    image = mirrored(piece, doc.scenario.board, doc.symmetry)
    if isinstance(image, Unit):
        for u in doc.scenario.units:
            if (u.kind, u.side, u.cell) == (image.kind, image.side, image.cell) and u != piece:
                return u
        return None
    target = set(image.cells)
    for t in doc.scenario.terrain:
        if (t.kind, t.side) == (image.kind, image.side) and set(t.cells) == target:
            return None if t == piece else t
    return None


def _image(doc: Document, scenario: Scenario, piece: Piece, old: Piece | None) -> Piece | None:
    """The mirror image of ``piece`` for symmetry mode; a named unit keeps ``old``'s name or
    gets a free one. ``None`` if the image is the piece itself (a centred piece)."""
    image = mirrored(piece, scenario.board, doc.symmetry)
    if set(cells_of(image)) == set(cells_of(piece)) and getattr(image, "side", None) == getattr(
        piece, "side", None
    ):
        return None
    if isinstance(image, Unit) and image.name is not None:
        clash = any(
            u.side is image.side and u.name == image.name and u != old for u in scenario.units
        )
        if old is not None and isinstance(old, Unit):
            image = replace(image, name=old.name)
        elif clash:
            image = replace(image, name=free_name(doc, scenario, image.kind, image.side))
    return image


# --- placing ------------------------------------------------------------------------------
def preview(doc: Document, piece: Piece) -> Outcome:
    """Would ``place(doc, piece)`` succeed? (The place tool's green/red answer.)"""
    return _check(doc, _with_images(doc, [piece])[0])


def preview_with_images(doc: Document, piece: Piece) -> tuple[Outcome, list[Piece]]:
    """``preview`` plus the mirror images symmetry mode would add with ``piece`` (so the
    place tool can show both halves before the click)."""
    after, images = _with_images(doc, [piece])
    return _check(doc, after), images


def preview_pieces(doc: Document, pieces: Sequence[Piece]) -> tuple[Outcome, list[Piece]]:
    """Would ``add_pieces(doc, pieces)`` succeed, and the mirror images it would add (the
    stamp tool's green/red answer for a pasted group)."""
    after, images = _with_images(doc, pieces)
    return _check(doc, after), images


def _with_images(doc: Document, pieces: Sequence[Piece]) -> tuple[Scenario, list[Piece]]:
    after = doc.scenario
    for p in pieces:
        after = after.adding(p)
    images: list[Piece] = []
    if doc.symmetry is not Symmetry.OFF:
        for p in pieces:
            image = _image(doc, after, p, None)
            if image is not None:
                after = after.adding(image)
                images.append(image)
    return after, images


def place(doc: Document, piece: Piece, stroke: int = 0) -> Outcome:
    """Add ``piece`` (and its mirror image in symmetry mode) if the rules allow it.
    Placements with the same non-zero ``stroke`` merge into one undo step."""
    return add_pieces(doc, [piece], None, stroke)


def add_pieces(
    doc: Document, pieces: Sequence[Piece], text: str | None, stroke: int = 0
) -> Outcome:
    """Add several pieces in one undo step (paste), mirrored in symmetry mode."""
    if not pieces:
        return Outcome(False, "nothing to add")
    after, images = _with_images(doc, pieces)
    outcome = _check(doc, after)
    if not outcome.ok:
        return outcome
    if images:
        doc.undo_stack.beginMacro((text or f"Place {_name(doc, pieces)}") + " (symmetric)")
        doc.undo_stack.push(cmd.AddPieces(doc, pieces, text))
        doc.undo_stack.push(cmd.AddPieces(doc, images, text))
        doc.undo_stack.endMacro()
        doc.select(pieces)
    else:
        command = cmd.AddPieces(doc, pieces, text)
        command.stroke = stroke
        doc.undo_stack.push(command)
    return outcome


def _name(doc: Document, pieces: Sequence[Piece]) -> str:
    return piece_label(doc.palette, pieces[0]) if len(pieces) == 1 else f"{len(pieces)} pieces"


# --- erasing ------------------------------------------------------------------------------
def erase(doc: Document, pieces: Sequence[Piece], stroke: int = 0) -> Outcome:
    """Remove pieces (and their counterparts in symmetry mode). Never refused. Erasures
    with the same non-zero ``stroke`` merge into one undo step."""
    pieces = [p for p in dict.fromkeys(pieces)]
    if not pieces:
        return Outcome(False, "nothing selected")
    extra = [c for p in pieces if (c := _counterpart(doc, p)) is not None and c not in pieces]
    if extra:
        doc.undo_stack.beginMacro(f"Erase {_name(doc, pieces)} (symmetric)")
        doc.undo_stack.push(cmd.RemovePieces(doc, pieces))
        doc.undo_stack.push(cmd.RemovePieces(doc, list(dict.fromkeys(extra))))
        doc.undo_stack.endMacro()
    else:
        command = cmd.RemovePieces(doc, pieces)
        command.stroke = stroke
        doc.undo_stack.push(command)
    return Outcome(True)


# --- transforming -------------------------------------------------------------------------
Transform = Callable[[Piece], Piece | None]


def transform(
    doc: Document,
    pieces: Sequence[Piece],
    fn: Transform,
    command: type[cmd.ReplacePieces],
    dry_run: bool = False,
) -> Outcome:
    """Replace each piece by ``fn(piece)`` (refused if any is ``None``: off the board) and,
    in symmetry mode, each counterpart by the mirror image of the result."""
    pieces = [p for p in dict.fromkeys(pieces)]
    if not pieces:
        return Outcome(False, "nothing selected")
    pairs: list[tuple[Piece, Piece]] = []
    for p in pieces:
        new = fn(p)
        if new is None:
            return REFUSED_OFF_BOARD
        pairs.append((p, new))
    after = doc.scenario
    for old, new in pairs:
        after = after.replacing(old, new)
    extra: list[tuple[Piece, Piece]] = []
    for old, new in pairs:
        c = _counterpart(doc, old)
        if c is None or c in pieces or any(c == e[0] for e in extra):
            continue
        image = _image(doc, after, new, c)
        if image is not None:
            after = after.replacing(c, image)
            extra.append((c, image))
    if all(old == new for old, new in pairs + extra):
        return Outcome(True)
    outcome = _check(doc, after)
    if not outcome.ok or dry_run:
        return outcome
    if extra:
        doc.undo_stack.beginMacro(f"{command.verb} {_name(doc, pieces)} (symmetric)")
        doc.undo_stack.push(command(doc, pairs))
        doc.undo_stack.push(command(doc, extra))
        doc.undo_stack.endMacro()
        doc.select([new for _, new in pairs])
    else:
        doc.undo_stack.push(command(doc, pairs))
    return outcome


def move(
    doc: Document, pieces: Sequence[Piece], dx: int, dy: int, dry_run: bool = False
) -> Outcome:
    """Move pieces by ``(dx, dy)`` cells as one undo step (``dry_run``: only answer)."""
    if dx == 0 and dy == 0:
        return Outcome(True)
    board = doc.scenario.board
    return transform(doc, pieces, lambda p: translate(p, board, dx, dy), cmd.MovePieces, dry_run)


def rotate_pieces(doc: Document, pieces: Sequence[Piece], clockwise: bool = True) -> Outcome:
    """Turn units by one facing step (45° where the game has diagonal facings, else 90°) and
    terrain footprints by 90° about their anchor."""
    board = doc.scenario.board
    sign = 1 if clockwise else -1
    eighths = sign * (1 if doc.palette.facings == 8 else 2)
    return transform(
        doc, pieces, lambda p: rotate(p, board, sign, eighths=eighths), cmd.RotatePieces
    )


def mirror_pieces(doc: Document, pieces: Sequence[Piece]) -> Outcome:
    """Mirror terrain shapes left-right about their anchor (units: facing mirrored)."""
    board = doc.scenario.board
    return transform(doc, pieces, lambda p: mirror_shape(p, board), cmd.MirrorPieces)


def set_property(doc: Document, piece: Piece, **changes: object) -> Outcome:
    """Change fields of one piece (inspector edits), refused if that breaks a rule. In
    symmetry mode the counterpart gets the mirrored change (keeping its own name)."""
    try:
        new = replace(piece, **changes)  # type: ignore[arg-type]
    except TypeError as exc:
        return Outcome(False, str(exc))
    if new == piece:
        return Outcome(True)
    return transform(doc, [piece], lambda p: new if p == piece else p, cmd.SetProperties)


# --- whole-board commands -----------------------------------------------------------------
def swap(doc: Document) -> Outcome:
    command = cmd.SwapSides(doc)
    outcome = _check(doc, command.after)
    if outcome.ok:
        doc.undo_stack.push(command)
    return outcome


def copy_setup(doc: Document, source: Side = Side.SOUTH) -> Outcome:
    command = cmd.CopySide(doc, source)
    outcome = _check(doc, command.after)
    if outcome.ok:
        doc.undo_stack.push(command)
    return outcome


def make_piece(
    doc: Document,
    kind: str,
    side: Side,
    cells: tuple[int, ...],
    *,
    facing_ok: bool = True,
    shape: str | None = None,
    lane: int | None = None,
    arrow: object = None,
) -> Piece:
    """A new piece of palette ``kind`` for ``side`` on ``cells`` (units use ``cells[0]``):
    units face their side's forward (if the game has facings) and get the next free name."""
    entry = doc.palette.entry(kind)
    if entry.is_unit:
        return Unit(
            kind=kind,
            side=side,
            cell=cells[0],
            facing=side.forward if doc.palette.facings and facing_ok else None,
            name=free_name(doc, doc.scenario, kind, side),
        )
    return Terrain(
        kind=kind,
        cells=cells,
        side=side if entry.owned else None,
        lane=lane,
        arrow=arrow,  # type: ignore[arg-type]
        shape=shape,
    )
