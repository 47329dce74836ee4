"""Cells and boards.

A cell is an ``int``: row-major with ``a1 = 0``, so on a board of ``C`` columns the cell
at 0-based column ``c`` and row ``r`` is ``r * C + c``. Cell names are chess-like (``"c3"``:
column letter, row number), case-insensitive on input, lower case on output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from tankmap.rules.errors import short
from tankmap.rules.geometry import Facing

MAX_COLUMNS = 26
MAX_ROWS = 26

_CELL_RE = re.compile(r"^([a-zA-Z])([1-9][0-9]?)$")


@dataclass(frozen=True)
class Board:
    """A rectangular board of ``columns`` × ``rows`` cells (at most 26 × 26).

    Build boards with ``Board.of(columns, rows)``: it caches one instance per size together
    with the tables the hot paths use (``step[facing][cell]`` = neighbour or -1).

    >>> b = Board.of(12, 12)
    >>> b.parse_cell("c3"), b.cell_name(26), b.cell(2, 2)
    (26, 'c3', 26)
    """

    columns: int
    rows: int
    step: tuple[tuple[int, ...], ...] = field(default=(), repr=False, compare=False, hash=False)

    @staticmethod
    def of(columns: int, rows: int) -> Board:
        """The shared board of this size; ``ValueError`` if a side is outside 1..26."""
        return _board_of(columns, rows)

    def __post_init__(self) -> None:
        if not (1 <= self.columns <= MAX_COLUMNS and 1 <= self.rows <= MAX_ROWS):
            raise ValueError(
                f"board {self.columns}x{self.rows} is outside 1x1..{MAX_COLUMNS}x{MAX_ROWS}"
            )
        if not self.step:
            table = tuple(tuple(self._neighbour(i, f) for i in range(self.size)) for f in Facing)
            object.__setattr__(self, "step", table)

    def __repr__(self) -> str:
        return f"Board.of({self.columns}, {self.rows})"

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.columns * self.rows

    def cell(self, col: int, row: int) -> int:
        """Cell at 0-based ``col``/``row`` (no bounds check: see ``on_board``)."""
        return row * self.columns + col

    def col_of(self, cell: int) -> int:
        return cell % self.columns

    def row_of(self, cell: int) -> int:
        return cell // self.columns

    def on_board(self, col: int, row: int) -> bool:
        return 0 <= col < self.columns and 0 <= row < self.rows

    def offset(self, cell: int, dx: int, dy: int) -> int:
        """The cell ``(dx, dy)`` away from ``cell``, or -1 if that is off the board."""
        col, row = cell % self.columns + dx, cell // self.columns + dy
        if 0 <= col < self.columns and 0 <= row < self.rows:
            return row * self.columns + col
        return -1

    def cell_name(self, cell: int) -> str:
        """``"c3"`` for the cell at column c, row 3."""
        return f"{chr(97 + cell % self.columns)}{cell // self.columns + 1}"

    def parse_cell(self, text: str) -> int:
        """Parse ``"c3"`` (any case). Raises ``ValueError`` if malformed or off this board."""
        if not isinstance(text, str):
            raise ValueError(f"a cell must be a name like 'c3', not {short(text)}")
        m = _CELL_RE.match(text.strip())
        if not m:
            raise ValueError(f"not a cell name: {short(text)} (expected like 'c3')")
        col = ord(m.group(1).lower()) - 97
        row = int(m.group(2)) - 1
        if not self.on_board(col, row):
            raise ValueError(
                f"cell {short(text)} is off the {self.columns}x{self.rows} board"
                f" (a1..{self.cell_name(self.size - 1)})"
            )
        return row * self.columns + col

    def own_row(self, cell: int, side_index: int) -> int:
        """1-based row of ``cell`` counted from the back edge of side 0 (south) or 1."""
        row = cell // self.columns
        return row + 1 if side_index == 0 else self.rows - row

    def mirror(self, cell: int) -> int:
        """180° point rotation of the board (docs/rules.md §0)."""
        return self.size - 1 - cell

    def mirror_lr(self, cell: int) -> int:
        """Left-right mirror: column c ↔ C+1-c, same row."""
        col, row = cell % self.columns, cell // self.columns
        return row * self.columns + (self.columns - 1 - col)

    def _neighbour(self, cell: int, facing: Facing) -> int:
        return self.offset(cell, facing.dx, facing.dy)


@cache
def _board_of(columns: int, rows: int) -> Board:
    return Board(columns, rows)
