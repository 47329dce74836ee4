"""Pure geometry on pieces for the editor: translate, rotate, mirror, swap sides.

Nothing here knows Qt or a particular game: every function takes a ``Board`` and a piece
(``Terrain`` or ``Unit``) and returns a new piece, or ``None`` when the result would leave the
board. Legality is never decided here; the callers ask the ruleset (``new_errors``).

Footprints are tuples of ``(dx, dy)`` offsets from an anchor cell (the cell under the
cursor); ``dy`` grows toward north, as in ``rules.geometry``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from enum import StrEnum

from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.ruleset import Ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit
from tankmap.rules.violations import Severity, Violation

Piece = Terrain | Unit
Offsets = tuple[tuple[int, int], ...]


class Symmetry(StrEnum):
    """How symmetry mode mirrors an edit: off, 180° point rotation, or left-right."""

    OFF = "off"
    POINT = "point"
    LEFT_RIGHT = "left-right"


# --- footprints ---------------------------------------------------------------------------
def rotate_offsets(offsets: Offsets, quarter_turns: int) -> Offsets:
    """Rotate offsets about the anchor by ``quarter_turns`` × 90° clockwise.

    >>> rotate_offsets(((-1, 0), (0, 0), (1, 0)), 1)
    ((0, 1), (0, 0), (0, -1))
    """
    out = offsets
    for _ in range(quarter_turns % 4):
        out = tuple((dy, -dx) for dx, dy in out)
    return tuple((dx + 0, dy + 0) for dx, dy in out)


def mirror_offsets(offsets: Offsets) -> Offsets:
    """Mirror offsets left-right about the anchor column."""
    return tuple((-dx + 0, dy) for dx, dy in offsets)


def footprint_cells(board: Board, anchor: int, offsets: Offsets) -> tuple[int, ...] | None:
    """The cells of a footprint put at ``anchor``, or ``None`` if any falls off the board."""
    cells = []
    for dx, dy in offsets:
        c = board.offset(anchor, dx, dy)
        if c < 0:
            return None
        cells.append(c)
    return tuple(cells)


def footprint_cells_clipped(board: Board, anchor: int, offsets: Offsets) -> tuple[int, ...]:
    """The on-board cells of a footprint put at ``anchor`` (for drawing a preview)."""
    return tuple(c for dx, dy in offsets if (c := board.offset(anchor, dx, dy)) >= 0)


def rotate_facing(facing: Facing | None, quarter_turns: int) -> Facing | None:
    return None if facing is None else facing.turned(2 * quarter_turns)


# --- single pieces ------------------------------------------------------------------------
def anchor_of(piece: Piece) -> int:
    """The cell a piece is held by: a unit's cell, a terrain piece's lane or first cell."""
    if isinstance(piece, Unit):
        return piece.cell
    if piece.lane is not None:
        return piece.lane
    return piece.cells[len(piece.cells) // 2]


def cells_of(piece: Piece) -> tuple[int, ...]:
    return (piece.cell,) if isinstance(piece, Unit) else piece.cells


def translate(piece: Piece, board: Board, dx: int, dy: int) -> Piece | None:
    """``piece`` moved by ``(dx, dy)`` cells, or ``None`` if any cell leaves the board."""
    if isinstance(piece, Unit):
        c = board.offset(piece.cell, dx, dy)
        return None if c < 0 else replace(piece, cell=c)
    mapping = {}
    for c in piece.cells:
        t = board.offset(c, dx, dy)
        if t < 0:
            return None
        mapping[c] = t
    return piece.moved(mapping)


def _remap(piece: Terrain, board: Board, after: Offsets) -> Terrain | None:
    """``piece`` with its i-th cell sent to ``anchor + after[i]``; ``None`` if off board."""
    anchor = anchor_of(piece)
    mapping = {}
    for c, (dx, dy) in zip(piece.cells, after, strict=True):
        t = board.offset(anchor, dx, dy)
        if t < 0:
            return None
        mapping[c] = t
    return piece.moved(mapping)


def _offsets_of(piece: Terrain, board: Board) -> Offsets:
    anchor = anchor_of(piece)
    ac, ar = board.col_of(anchor), board.row_of(anchor)
    return tuple((board.col_of(c) - ac, board.row_of(c) - ar) for c in piece.cells)


def rotate(
    piece: Piece, board: Board, quarter_turns: int = 1, eighths: int | None = None
) -> Piece | None:
    """Rotate a piece clockwise: a unit turns its facing (by ``eighths`` if given, else by
    quarter turns); a terrain footprint turns about its anchor (arrow included).
    ``None`` if the footprint would leave the board."""
    if isinstance(piece, Unit):
        if piece.facing is None:
            return piece
        steps = eighths if eighths is not None else 2 * quarter_turns
        return replace(piece, facing=piece.facing.turned(steps))
    offs = _offsets_of(piece, board)
    moved = _remap(piece, board, rotate_offsets(offs, quarter_turns))
    if moved is None:
        return None
    return replace(moved, arrow=rotate_facing(piece.arrow, quarter_turns))


def mirror_shape(piece: Piece, board: Board) -> Piece | None:
    """Mirror a terrain footprint left-right about its anchor (units: facing mirrored)."""
    if isinstance(piece, Unit):
        return replace(piece, facing=None if piece.facing is None else piece.facing.mirrored_lr())
    offs = _offsets_of(piece, board)
    moved = _remap(piece, board, mirror_offsets(offs))
    if moved is None:
        return None
    return replace(moved, arrow=None if piece.arrow is None else piece.arrow.mirrored_lr())


def mirrored(piece: Piece, board: Board, symmetry: Symmetry) -> Piece:
    """The symmetric counterpart of ``piece``: 180° point rotation (owner swapped, facings
    and arrows reversed) or left-right mirror (same owner, east and west swapped)."""
    if symmetry is Symmetry.POINT:
        if isinstance(piece, Unit):
            return replace(
                piece,
                cell=board.mirror(piece.cell),
                side=piece.side.other,
                facing=None if piece.facing is None else piece.facing.opposite,
            )
        return replace(
            piece.moved({c: board.mirror(c) for c in piece.cells}),
            side=None if piece.side is None else piece.side.other,
            arrow=None if piece.arrow is None else piece.arrow.opposite,
        )
    if symmetry is Symmetry.LEFT_RIGHT:
        if isinstance(piece, Unit):
            return replace(
                piece,
                cell=board.mirror_lr(piece.cell),
                facing=None if piece.facing is None else piece.facing.mirrored_lr(),
            )
        return replace(
            piece.moved({c: board.mirror_lr(c) for c in piece.cells}),
            arrow=None if piece.arrow is None else piece.arrow.mirrored_lr(),
        )
    return piece


# --- whole scenarios ----------------------------------------------------------------------
def swap_sides(scenario: Scenario) -> Scenario:
    """South's pieces become north's and vice versa (each rotated 180° onto the other half);
    neutral terrain (no owner) stays where it is."""
    b = scenario.board
    terrain = [t if t.side is None else mirrored(t, b, Symmetry.POINT) for t in scenario.terrain]
    units = [mirrored(u, b, Symmetry.POINT) for u in scenario.units]
    return scenario.with_terrain(terrain).with_units(units)  # type: ignore[arg-type]


def copy_side(scenario: Scenario, source: Side = Side.SOUTH) -> Scenario:
    """Replace the other side's pieces by the 180° mirror of ``source``'s pieces.

    Neutral terrain is kept as it is."""
    b = scenario.board
    target = source.other
    terrain: list[Piece] = [t for t in scenario.terrain if t.side is not target]
    terrain += [mirrored(t, b, Symmetry.POINT) for t in scenario.terrain if t.side is source]
    units: list[Piece] = [u for u in scenario.units if u.side is not target]
    units += [mirrored(u, b, Symmetry.POINT) for u in scenario.units if u.side is source]
    return scenario.with_terrain(terrain).with_units(units)  # type: ignore[arg-type]


def all_pieces(scenario: Scenario) -> list[Piece]:
    """Every terrain piece, then every unit."""
    return [*scenario.terrain, *scenario.units]


def pieces_at(scenario: Scenario, cell: int) -> list[Piece]:
    """Pieces covering ``cell``: units first (topmost drawn last), then terrain."""
    found: list[Piece] = [u for u in reversed(scenario.units) if u.cell == cell]
    found += [t for t in reversed(scenario.terrain) if cell in t.cells]
    return found


def replace_pieces(scenario: Scenario, pairs: Iterable[tuple[Piece, Piece]]) -> Scenario:
    """Swap each ``old`` for ``new`` in place (order kept)."""
    out = scenario
    for old, new in pairs:
        out = out.replacing(old, new)
    return out


def remove_pieces(scenario: Scenario, pieces: Sequence[Piece]) -> Scenario:
    out = scenario
    for p in pieces:
        out = out.removing(p)
    return out


def new_errors(
    ruleset: Ruleset,
    before: Sequence[Violation],
    after_scenario: Scenario,
    check: Callable[[Scenario], list[Violation]] | None = None,
) -> list[Violation]:
    """The ``error`` violations of ``after_scenario`` that ``before`` did not have: an edit
    is refused iff this list is not empty (same rule as ``Ruleset.can_place``). ``check``
    replaces ``ruleset.check`` (a caching checker)."""
    old = set(before)
    after = (check or ruleset.check)(after_scenario)
    return [v for v in after if v.severity is Severity.ERROR and v not in old]


SECONDARY = frozenset({"too-many", "army-too-many", "duplicate-name", "obstacle-budget"})
"""Refusal reasons about a side's whole set of pieces (how many, which names): said after
the reasons about the spot itself, which are what moving the piece elsewhere can cure."""

NAMING = frozenset({"duplicate-name", "bad-name"})
"""Reasons about a piece's name: said last (a piece past the count has no name left)."""


COUNTS = frozenset({"too-many", "army-too-many"})
"""Reasons that a side has all the pieces of a kind it may have."""


def _unnamed(v: Violation) -> bool:
    """A name reason about a piece that has no name at all (the editor names a new piece
    from the free names of its kind: none is free only past the count)."""
    return v.code in NAMING and " has no name" in v.message


def reason_text(violations: Sequence[Violation]) -> str:
    """One status-bar line from refusal reasons: the reasons about the spot first, then
    counts, then names; each said once, and a piece named at the start of a reason is not
    named again at the start of the next (``south tank 1B at b5: units set up in south rows
    1-3 · stands on a swamp``)."""
    if any(v.code in COUNTS for v in violations):  # a piece past the count gets no name:
        violations = [v for v in violations if not _unnamed(v)]  # the count is the reason
    ordered = sorted(  # stable: rule order within spot, count and name reasons
        violations, key=lambda v: (v.code in SECONDARY or v.code in NAMING, v.code in NAMING)
    )
    said: list[str] = []
    seen: set[str] = set()
    for v in ordered:
        text = v.message
        if text in seen:
            continue
        seen.add(text)
        for before in said:
            words = _shared_subject(before, text)
            if words:
                text = " ".join(text.split(" ")[words:]).lstrip(":").strip()
                break
        said.append(text)
    return " · ".join(said)


def _shared_subject(first: str, second: str) -> int:
    """How many leading words ``second`` shares with ``first`` when they name the same piece
    (at least three words, e.g. ``south tank 1B at b5``); 0 otherwise."""
    a, b = first.split(" "), second.split(" ")
    n = 0
    while n < min(len(a), len(b)) - 1 and a[n].rstrip(":") == b[n].rstrip(":"):
        n += 1
        if b[n - 1].endswith(":") or a[n - 1].endswith(":"):
            break
    return n if n >= 3 else 0
