"""The obstacle-piece catalogue (rules §2.2): the physical shapes with rotations and mirrors.

Shapes come from the data file (``obstacle_pieces``): monomino, domino, I-tromino,
L-tromino, N-pentomino, P-pentomino and the 7-cell ``heptomino`` (a bar of 5 with a 2-cell
bump; the printed 16 × 16 layout uses it at f6-j6 + h5 i5). A shape is a set of ``(x, y)``
offsets; its *variants* are the distinct normalised rotations and mirrors.

>>> sorted(shape_variants("domino"))
[((0, 0), (0, 1)), ((0, 0), (1, 0))]
"""

from __future__ import annotations

from functools import cache

from tankmap.rules.board import Board
from tankmap.rules.tank_chess.data import tank_chess_data

Offsets = tuple[tuple[int, int], ...]


def shape_names() -> tuple[str, ...]:
    """Catalogue names, in data order."""
    return tuple(tank_chess_data().obstacle_pieces)


def _normalise(cells: set[tuple[int, int]] | list[tuple[int, int]]) -> Offsets:
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return tuple(sorted((x - mx, y - my) for x, y in cells))


@cache
def shape_variants(name: str) -> frozenset[Offsets]:
    """Every distinct rotation/mirror of catalogue shape ``name`` (``KeyError`` if unknown)."""
    base = tank_chess_data().obstacle_pieces[name]
    out: set[Offsets] = set()
    for mirror in (False, True):
        cells = [(-x, y) if mirror else (x, y) for x, y in base]
        for _ in range(4):
            cells = [(y, -x) for x, y in cells]
            out.add(_normalise(cells))
    return frozenset(out)


def offsets_of(board: Board, cells: tuple[int, ...] | list[int]) -> Offsets:
    """The normalised offsets of a set of board cells."""
    return _normalise([(board.col_of(c), board.row_of(c)) for c in cells])


def identify_shape(board: Board, cells: tuple[int, ...] | list[int]) -> str | None:
    """The catalogue name whose some rotation/mirror covers exactly ``cells``, or ``None``."""
    if not cells:
        return None
    key = offsets_of(board, cells)
    for name in shape_names():
        if key in shape_variants(name):
            return name
    return None


def matches_shape(board: Board, cells: tuple[int, ...] | list[int], name: str) -> bool:
    """True if ``cells`` are exactly one rotation/mirror of catalogue shape ``name``."""
    if not cells or name not in tank_chess_data().obstacle_pieces:
        return False
    return offsets_of(board, cells) in shape_variants(name)


def place_shape(board: Board, name: str, variant: int, anchor: int) -> tuple[int, ...] | None:
    """Cells of variant number ``variant`` (index into the sorted variants) of ``name`` with
    its normalised origin on ``anchor``; ``None`` if a cell falls off the board."""
    variants = sorted(shape_variants(name))
    offs = variants[variant % len(variants)]
    out = []
    for dx, dy in offs:
        c = board.offset(anchor, dx, dy)
        if c < 0:
            return None
        out.append(c)
    return tuple(out)
