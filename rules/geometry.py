"""Sides, facings and the exact line-of-fire geometry shared by every game.

Directions use board coordinates: ``dx`` grows toward higher columns (east), ``dy`` toward
higher rows (north). ``N`` points at the north edge.
"""

from __future__ import annotations

from enum import Enum, StrEnum
from fractions import Fraction
from functools import cache

from tankmap.rules.errors import short


class Side(StrEnum):
    """The two sides: ``south`` sits at rows 1, 2, ...; ``north`` at the top."""

    SOUTH = "south"
    NORTH = "north"

    @property
    def index(self) -> int:  # type: ignore[override]  # shadows str.index on purpose
        """0 for south, 1 for north."""
        return 0 if self is Side.SOUTH else 1

    @property
    def other(self) -> Side:
        return Side.NORTH if self is Side.SOUTH else Side.SOUTH

    @property
    def forward(self) -> Facing:
        """The facing that points at the enemy edge."""
        return Facing.N if self is Side.SOUTH else Facing.S

    @classmethod
    def parse(cls, text: str) -> Side:
        """``Side.parse("north") -> Side.NORTH``; raises ``ValueError`` on anything else."""
        return cls(text.lower())

    def __str__(self) -> str:
        return self.value


class Facing(int, Enum):
    """The 8 compass facings, numbered clockwise from north (a 45° step is +1)."""

    N = 0
    NE = 1
    E = 2
    SE = 3
    S = 4
    SW = 5
    W = 6
    NW = 7

    @property
    def dx(self) -> int:
        return _DX[self.value]

    @property
    def dy(self) -> int:
        return _DY[self.value]

    @property
    def is_orthogonal(self) -> bool:
        return self.value % 2 == 0

    @property
    def opposite(self) -> Facing:
        return Facing((self.value + 4) % 8)

    def turned(self, eighths: int) -> Facing:
        """Rotate clockwise by ``eighths`` × 45° (negative = counter-clockwise)."""
        return Facing((self.value + eighths) % 8)

    @property
    def left(self) -> Facing:
        """90° counter-clockwise."""
        return self.turned(-2)

    @property
    def right(self) -> Facing:
        """90° clockwise."""
        return self.turned(2)

    def mirrored_lr(self) -> Facing:
        """Facing after a left-right mirror (east and west swap)."""
        return Facing((8 - self.value) % 8)

    @classmethod
    def parse(cls, text: str) -> Facing:
        """``Facing.parse("ne") -> Facing.NE``; raises ``ValueError`` on anything else."""
        try:
            return cls[text.upper()]
        except KeyError:
            raise ValueError(f"not a facing: {short(text)} (use N NE E SE S SW W NW)") from None

    @classmethod
    def from_delta(cls, dx: int, dy: int) -> Facing:
        """The facing of a unit step ``(dx, dy)`` with each in -1..1, not both 0."""
        return _FROM_DELTA[(dx, dy)]

    def __str__(self) -> str:
        return self.name


_DX = (0, 1, 1, 1, 0, -1, -1, -1)
_DY = (1, 1, 0, -1, -1, -1, 0, 1)
_FROM_DELTA = {(_DX[i], _DY[i]): Facing(i) for i in range(8)}


def relative_offset(facing: Facing, forward: int, sideways: int) -> tuple[int, int]:
    """Board offset ``(dx, dy)`` of the cell ``forward`` ahead and ``sideways`` to the right.

    Only orthogonal facings are meaningful here (cones are defined for them).

    >>> relative_offset(Facing.N, 2, 1)
    (1, 2)
    >>> relative_offset(Facing.E, 1, 0)
    (1, 0)
    """
    right = facing.right
    return (
        facing.dx * forward + right.dx * sideways,
        facing.dy * forward + right.dy * sideways,
    )


@cache
def between_offsets(dx: int, dy: int, strict: bool = False) -> tuple[tuple[int, int], ...]:
    """Cells crossed by the segment from the centre of ``(0, 0)`` to the centre of ``(dx, dy)``.

    Returns offsets of every cell other than the two end cells whose **open interior** the
    segment passes through (``strict=False``, rules §1.6), or whose closed square it touches at
    all, corners included (``strict=True``, option ``strict_line_of_fire``). Exact rational
    arithmetic: a segment running along an edge or through a corner point never counts as
    passing through a cell's interior.

    >>> between_offsets(0, 3)
    ((0, 1), (0, 2))
    >>> between_offsets(-2, 2)
    ((-1, 1),)
    >>> between_offsets(-1, 1)
    ()
    >>> sorted(between_offsets(-1, 1, strict=True))
    [(-1, 0), (0, 1)]
    """
    half = Fraction(1, 2)
    found: list[tuple[int, int]] = []
    for cx in range(min(0, dx), max(0, dx) + 1):
        for cy in range(min(0, dy), max(0, dy) + 1):
            if (cx, cy) in ((0, 0), (dx, dy)):
                continue
            x_lo, x_hi = _param_interval(cx, dx, half)
            y_lo, y_hi = _param_interval(cy, dy, half)
            lo = max(x_lo, y_lo, Fraction(0))
            hi = min(x_hi, y_hi, Fraction(1))
            if lo < hi or (strict and lo == hi):
                found.append((cx, cy))
    return tuple(found)


def _param_interval(c: int, d: int, half: Fraction) -> tuple[Fraction, Fraction]:
    """Parameters t with ``|t*d - c| < 1/2`` (as an interval; open or closed at the ends).

    For ``d == 0`` the condition does not depend on t: all of ``(-inf, inf)`` if ``c == 0``
    (for integer ``c`` the closed and open conditions then agree), else empty.
    """
    if d == 0:
        big = Fraction(10**9)
        return (-big, big) if c == 0 else (big, -big)
    a = (c - half) / d
    b = (c + half) / d
    return (a, b) if a < b else (b, a)
