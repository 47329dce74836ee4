"""The command tank's exposure checks of the Tank Chess heuristic, on bit masks.

``Threats`` holds the enemy's reachable states (what ``scoring.reachable``
lists) as one bit mask per enemy piece over state ids ``cell * 8 + facing``, merged per
armour value and fire mode, so that ``Threats.exposed`` gives the answer of the plain
``scoring.exposed`` with a few int operations per direction instead of a
dictionary walk. ``board_rays`` are the per-board cell masks it uses (bit ``8 * cell`` per
cell, the layout of ``movegen.occupancy``).
"""

from __future__ import annotations

from functools import cache

from tankmap.rules.tank_chess.data import FIRE_MORTAR, FIRE_TURRET
from tankmap.rules.tank_chess.movegen import cached_end_states, state_occupancy
from tankmap.rules.tank_chess.state import EMPTY, GameState
from tankmap.rules.tank_chess.tables import Tables

__all__ = ["Threats", "board_rays"]


@cache
def board_rays(
    t: Tables,
) -> tuple[tuple[int, ...], tuple[int, ...], int, tuple[bool, ...], tuple[int, ...]]:
    """Cell masks of a board, bit ``8 * cell`` per cell (as ``movegen.occupancy``):
    ``(rest, mortar, cells, rising, lines)``: ``rest[d * size + c]`` = the cells 2, 3, …
    away from ``c`` in direction ``d``; ``mortar[d * size + c]`` = those 3..5 away;
    ``cells`` = every cell; ``rising[d]``: cell numbers grow along direction ``d``;
    ``lines[c]`` = every cell on the eight rays from ``c``."""
    rest = []
    mortar = []
    lines = [0] * t.size
    for i in range(8 * t.size):
        ray = t.ray_rest[i]
        rest.append(sum(1 << (8 * x) for x in ray))
        mortar.append(sum(1 << (8 * x) for x in ray[1:4]))
        if t.ray_first[i] >= 0:
            lines[i % t.size] |= rest[-1] | (1 << (8 * t.ray_first[i]))
    rising = tuple(dy > 0 or (dy == 0 and dx > 0) for dx, dy in _DXY)
    cells = sum(1 << (8 * c) for c in range(t.size))
    return tuple(rest), tuple(mortar), cells, rising, tuple(lines)


_DXY = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
# direction of a unit step (sx, sy) in -1..1: _DIR_OF[(sy + 1) * 3 + sx + 1]
_DIR_OF = [-1] * 9
for _d, (_dx, _dy) in enumerate(_DXY):
    _DIR_OF[(_dy + 1) * 3 + _dx + 1] = _d


class Threats:
    """Where the pieces of ``side`` can stand after one move (their current state
    included) as bit masks over state ids (bit ``s = cell * 8 + facing``), for
    ``exposed`` checks of an enemy piece whose armour values are ``armours``.

    A state mask shifted right by ``f`` and cut to the cell bits (``8 * cell``) is the
    mask of the cells where a piece can stand facing ``f``: the same bit layout as
    ``movegen.occupancy``, so rays, blockers and shooters meet in plain int operations."""

    __slots__ = ("st", "pieces", "armours", "union", "memo", "rays")

    def __init__(
        self, st: GameState, side: int, armours: tuple[int, int, int], occ: int = -1
    ) -> None:
        self.st = st
        if occ < 0:
            occ = state_occupancy(st)
        alive, cell, facing = st.alive, st.cell, st.facing
        gun, fire = st.gun, st.fire
        self.pieces = tuple(
            (
                e,
                gun[e],
                fire[e],
                cached_end_states(st, e, occ).mask() | (1 << (cell[e] * 8 + facing[e])),
            )
            for e in st.pieces_of[side]
            if alive[e] and cell[e] >= 0
        )
        self.armours = armours
        self.union = self._merge(-1)
        self.memo: dict[int, tuple[int, int]] = {}
        self.rays: dict[int, bool] = {}

    def _merge(self, skip: int) -> dict[int, tuple[int, int, int]]:
        """Armour value → (turret, fixed, mortar) masks of the pieces whose gun beats it."""
        out: dict[int, tuple[int, int, int]] = {}
        for a in self.armours:
            if a in out:
                continue
            tu = fx = mo = 0
            for e, g, mode, m in self.pieces:
                if g <= a or e == skip:
                    continue
                if mode == FIRE_TURRET:
                    tu |= m
                elif mode == FIRE_MORTAR:
                    mo |= m
                else:
                    fx |= m
            out[a] = (tu, fx, mo)
        return out

    def _shooters(
        self, union: dict[int, tuple[int, int, int]], armour: int, back: int, cells: int
    ) -> tuple[int, int]:
        """(direct, mortar) cell masks: where a piece beating ``armour`` can stand so as
        to fire in direction ``back`` (a turret within 45° of it, a fixed gun or a mortar
        exactly along it)."""
        tu, fx, mo = union[armour]
        direct = (fx >> back) & cells
        if tu:
            direct |= ((tu >> ((back + 7) & 7)) | (tu >> back) | (tu >> ((back + 1) & 7))) & cells
        return direct, (mo >> back) & cells

    def lines(self, c: int) -> int:
        """The cells on the eight rays from cell ``c`` (``exposed`` of a piece on ``c``
        only looks at those cells of the grid)."""
        return board_rays(self.st.tables)[4][c]

    def exposed(self, p: int, skip: int = -1, occ: int = -1, moved_from: int = -1) -> bool:
        """``scoring.exposed(st, reachable(st, side), p, skip)`` (same answer)
        in the current position of ``st`` (the masks stay those of the position ``Threats``
        was built in): could a piece of ``side`` move and then destroy piece ``p``?
        ``occ``: ``movegen.occupancy`` of the current position if the caller has it.

        ``moved_from`` (with ``skip`` -1) promises that the current position is the one
        ``Threats`` was built in except that ``p`` moved from that cell to where it is now
        (or turned there): then the verdict along each ray that does not pass through
        ``moved_from`` is remembered and reused by later such calls."""
        st = self.st
        t = st.tables
        size = st.size
        first = t.ray_first
        if occ < 0:
            occ = state_occupancy(st)
        c0 = st.cell[p]
        f0 = st.facing[p]
        front, side_armour, rear = st.armour[p]
        memo = self.memo
        union = self.union if skip < 0 else self._merge(skip)
        through = -1  # the direction from c0 whose ray passes through ``moved_from``
        rays: dict[int, bool] | None = None
        if moved_from >= 0 and skip < 0:
            rays = self.rays
            cols = st.columns
            dx = moved_from % cols - c0 % cols
            dy = moved_from // cols - c0 // cols
            if dx == 0 or dy == 0 or dx == dy or dx == -dy:
                through = _DIR_OF[((dy > 0) - (dy < 0) + 1) * 3 + (dx > 0) - (dx < 0) + 1]
        for d in range(8):
            i = d * size + c0
            a = first[i]
            if a < 0:
                continue
            armour = front if d == f0 else rear if d == (f0 + 4) & 7 else side_armour
            if rays is not None and d != through:
                key = i * 8 + armour
                hit = rays.get(key)
                if hit is None:
                    hit = rays[key] = self._ray(i, d, a, armour, occ, union, memo)
                if hit:
                    return True
            elif self._ray(i, d, a, armour, occ, union, memo if skip < 0 else None):
                return True
        return False

    def _ray(
        self,
        i: int,
        d: int,
        a: int,
        armour: int,
        occ: int,
        union: dict[int, tuple[int, int, int]],
        memo: dict[int, tuple[int, int]] | None,
    ) -> bool:
        """Can a shooter hit armour ``armour`` along ray ``i = d * size + cell`` (first
        cell ``a``), the grid occupied as ``occ``?"""
        rest, mortar, cells, rising, _ = board_rays(self.st.tables)
        back = (d + 4) & 7
        if memo is not None:
            key = armour * 8 + back
            found = memo.get(key)
            if found is None:
                found = memo[key] = self._shooters(union, armour, back, cells)
            direct, lobbed = found
        else:
            direct, lobbed = self._shooters(union, armour, back, cells)
        if lobbed & mortar[i]:
            return True
        if not direct or self.st.grid[a] != EMPTY:
            return False
        r = rest[i]
        m = r & occ
        if m:  # the ray up to and including its first occupied cell
            if rising[d]:
                r &= ((m & -m) << 1) - 1
            else:
                r &= -(1 << (m.bit_length() - 1))
        return bool(direct & r)
