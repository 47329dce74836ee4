"""Per-board precomputed tables for the Tank Chess move generator.

A *state id* packs a cell and a facing into one int: ``s = cell * 8 + facing`` (so
``s >> 3`` is the cell and ``s & 7`` the facing). Every table is a flat ``list``/``tuple``
indexed by state id or by ``direction * size + cell`` so the hot loops do plain indexing.
Tables are built once per board size (``tables_for``) and shared.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from tankmap.rules.geometry import Facing
from tankmap.rules.scenario import Terrain
from tankmap.rules.tank_chess.data import tank_chess_data

EMPTY = -1
"""``grid`` value of an empty cell (other values: ``BLOCKED`` or a live piece index)."""
BLOCKED = -2
"""``grid`` value of an obstacle or a wreck."""
ESCAPE = -1
"""Turn ``cell`` of a command tank's escape."""
NO_TARGET = -1
"""Turn ``target`` when the piece does not shoot."""

_DX = tuple(f.dx for f in Facing)
_DY = tuple(f.dy for f in Facing)


@dataclass(frozen=True, eq=False)
class Tables:
    """Movement and fire tables of one board size.

    - ``fwd[s]``: state id after one forward step from ``s`` (same facing), -1 off board.
    - ``back[s]``: state id after the backward step (one cell against the facing), or -1.
    - ``side_a[s]``/``side_b[s]``: for a diagonal facing, the two cells beside the forward
      step from ``s`` (the orthogonal neighbours it squeezes between), -1 if the step is
      orthogonal or one of them is off the board (the edge never blocks a corner).
    - ``escape[side][s]``: a forward step from ``s`` leaves the board through the enemy
      edge of ``side`` (0 = south escapes north) other than through a corner point (and,
      unless ``diagonal_escape``, straight: docs/rules.md §2.5).
    - ``back_escape[side][s]``: the same for the backward step (option
      ``backward_escape``).
    - ``ray_first[d * size + c]``: the neighbour of ``c`` in direction ``d`` (-1 if none);
      ``ray_rest[d * size + c]``: the cells after it along the ray, nearest first.
    - ``mortar[d * size + c]``: the on-board cells exactly 3..5 (data) cells from ``c`` in
      direction ``d``, nearest first.
    - ``fan3[f]``: ``d * size`` for the turret's fire directions ``f-1, f, f+1``;
      ``fan1[f]``: the same for a fixed gun (``f`` only).
    """

    columns: int
    rows: int
    size: int
    fwd: tuple[int, ...]
    back: tuple[int, ...]
    side_a: tuple[int, ...]
    side_b: tuple[int, ...]
    escape: tuple[tuple[bool, ...], tuple[bool, ...]]
    back_escape: tuple[tuple[bool, ...], tuple[bool, ...]]
    diagonal_escape: bool
    ray_first: tuple[int, ...]
    ray_rest: tuple[tuple[int, ...], ...]
    mortar: tuple[tuple[int, ...], ...]
    fan3: tuple[tuple[int, ...], ...]
    fan1: tuple[tuple[int, ...], ...]


@cache
def tables_for(columns: int, rows: int, diagonal_escape: bool = True) -> Tables:
    """The shared tables of a ``columns`` × ``rows`` board (escapes by a diagonal step
    allowed or not: option ``diagonal_escape``)."""
    size = columns * rows
    lo, hi = tank_chess_data().mortar_range

    def at(col: int, row: int) -> int:
        if 0 <= col < columns and 0 <= row < rows:
            return row * columns + col
        return -1

    fwd: list[int] = []
    back: list[int] = []
    side_a: list[int] = []
    side_b: list[int] = []
    esc_south: list[bool] = []
    esc_north: list[bool] = []
    back_south: list[bool] = []
    back_north: list[bool] = []

    def leaves(row: int, col: int, dx: int, dy: int, want_dy: int, edge: int) -> bool:
        """A step (dx, dy) from (col, row) crosses that enemy edge between two cells."""
        if dy != want_dy or row != edge or not 0 <= col + dx < columns:
            return False
        return diagonal_escape or dx == 0

    for c in range(size):
        col, row = c % columns, c // columns
        for f in range(8):
            dx, dy = _DX[f], _DY[f]
            n = at(col + dx, row + dy)
            fwd.append(-1 if n < 0 else n * 8 + f)
            b = at(col - dx, row - dy)
            back.append(-1 if b < 0 else b * 8 + f)
            if dx and dy:
                a1, a2 = at(col + dx, row), at(col, row + dy)
                ok = a1 >= 0 and a2 >= 0
                side_a.append(a1 if ok else -1)
                side_b.append(a2 if ok else -1)
            else:
                side_a.append(-1)
                side_b.append(-1)
            # south escapes across the top edge (row == rows - 1, dy == +1), north across
            # the bottom edge; a diagonal step must cross that edge between two cells, not
            # at the board's corner point (the new column must still be on the board).
            esc_south.append(leaves(row, col, dx, dy, 1, rows - 1))
            esc_north.append(leaves(row, col, dx, dy, -1, 0))
            back_south.append(leaves(row, col, -dx, -dy, 1, rows - 1))
            back_north.append(leaves(row, col, -dx, -dy, -1, 0))
    ray_first: list[int] = []
    ray_rest: list[tuple[int, ...]] = []
    mortar: list[tuple[int, ...]] = []
    for d in range(8):
        dx, dy = _DX[d], _DY[d]
        for c in range(size):
            col, row = c % columns, c // columns
            ray: list[int] = []
            k = 1
            while True:
                n = at(col + k * dx, row + k * dy)
                if n < 0:
                    break
                ray.append(n)
                k += 1
            ray_first.append(ray[0] if ray else -1)
            ray_rest.append(tuple(ray[1:]))
            mortar.append(tuple(ray[lo - 1 : hi]))
    return Tables(
        columns=columns,
        rows=rows,
        size=size,
        fwd=tuple(fwd),
        back=tuple(back),
        side_a=tuple(side_a),
        side_b=tuple(side_b),
        escape=(tuple(esc_south), tuple(esc_north)),
        back_escape=(tuple(back_south), tuple(back_north)),
        diagonal_escape=diagonal_escape,
        ray_first=tuple(ray_first),
        ray_rest=tuple(ray_rest),
        mortar=tuple(mortar),
        fan3=tuple(tuple(((f + k) & 7) * size for k in (-1, 0, 1)) for f in range(8)),
        fan1=tuple((f * size,) for f in range(8)),
    )


_GRIDS: dict[tuple[int, tuple[Terrain, ...]], tuple[int, ...]] = {}


def terrain_grid(size: int, terrain: tuple[Terrain, ...]) -> list[int]:
    """A fresh ``grid`` list: ``BLOCKED`` on every obstacle cell of ``terrain``, else
    ``EMPTY`` (cached per terrain: editors and analysis build many states over one map)."""
    key = (size, terrain)
    base = _GRIDS.get(key)
    if base is None:
        cells = [EMPTY] * size
        for t in terrain:
            for c in t.cells:
                cells[c] = BLOCKED
        base = tuple(cells)
        if len(_GRIDS) > 64:
            _GRIDS.clear()
        _GRIDS[key] = base
    return list(base)
