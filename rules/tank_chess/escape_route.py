"""One piece's shortest escape routes with every other piece blocking, for game play.

``turns_to_escape(state, p, pieces_block=True)`` of ``rules.tank_chess.reach`` answers how
many turns; ``escape_route`` answers the same on the bitboards of ``reach`` (its turn
step, layout and escape masks; about a tenth of a millisecond a turn searched) and also
*where* the shortest routes go: the states the piece can end its next turn in while
staying on one, and every cell such a route enters. A route is a sequence of turns
(RULES §2.3: up to ``speed`` rotations or forward steps into empty cells, or the lone
backward step) ending with the forward step off the enemy edge (§2.5), the other pieces
standing still. Answers are remembered per (start state, occupancy) up to a bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rules.tank_chess.reach import _closure, _Layout, _layout, _sh, _step_masks
from rules.tank_chess.state import BLOCKED, EMPTY, GameState


@dataclass(frozen=True)
class EscapeRoute:
    """``turns``: fewest turns for the piece to escape (the escaping turn counts), ``None``
    if it cannot within the search limit. ``next_states``: state ids ``cell * 8 +
    facing`` (as a bit mask, bit ``s``) the piece can end its next turn in and still
    escape in ``turns - 1`` (empty when ``turns`` is 1 or ``None``). ``cells``: the cells
    (bit ``8 * cell``, the layout of ``movegen.occupancy``) entered by some shortest route,
    the start cell excluded (empty without an escape)."""

    turns: int | None
    next_states: int
    cells: int


_NONE = EscapeRoute(None, 0, 0)
_MEMO: dict[tuple[int, int, int, int, bool, int], EscapeRoute] = {}
_MEMO_LIMIT = 1 << 15


@cache
def _cell_bits(columns: int, rows: int) -> tuple[int, ...]:
    """Bit of each cell in block 0 of the one-block layout."""
    lay = _layout(columns, rows, 1)
    return tuple(lay.bit(0, c) for c in range(columns * rows))


_TERRAIN: dict[int, tuple[object, int]] = {}


def _terrain_free(state: GameState) -> int:
    """Block-0 bits of the cells without an obstacle, per scenario (cached)."""
    sc = state.scenario
    entry = _TERRAIN.get(id(sc))
    if entry is None or entry[0] is not sc:
        if len(_TERRAIN) > 64:
            _TERRAIN.clear()
        bits = _cell_bits(state.columns, state.size // state.columns)
        blocked = {c for t in sc.terrain for c in t.cells}
        free = 0
        for c in range(state.size):
            if c not in blocked:
                free |= bits[c]
        entry = _TERRAIN[id(sc)] = (sc, free)
    return entry[1]


def escape_route(
    state: GameState, p: int, limit: int, occ: int = -1, routes: bool = True
) -> EscapeRoute:
    """``EscapeRoute`` of live piece ``p`` where it stands, every other piece and wreck
    blocking, searching at most ``limit`` turns (``turns`` is ``None`` beyond). ``occ``:
    ``movegen.state_occupancy(state)`` if the caller has it (the memo key). Without
    ``routes`` only ``turns`` is found (``next_states`` and ``cells`` are 0)."""
    c0 = state.cell[p]
    if c0 < 0 or not state.alive[p] or limit < 1:
        return _NONE
    s0 = c0 * 8 + state.facing[p]
    speed = state.speed[p]
    side = state.side[p]
    strict = state.strict_corners
    if occ < 0:
        occ = int.from_bytes(bytes(v != EMPTY for v in state.grid), "little")
    key = (occ, s0, speed, side * 2 + routes, strict, limit)
    found = _MEMO.get(key)
    if found is not None:
        return found
    columns, rows = state.columns, state.size // state.columns
    lay = _layout(columns, rows, 1)
    bits = _cell_bits(columns, rows)
    free = _terrain_free(state)
    for c in state.cell:  # pieces and wrecks (terrain is cached per scenario)
        if c >= 0:
            free &= ~bits[c]
    free |= bits[c0]
    found = _search(lay, free, strict, s0, speed, lay.escape[side], limit, routes)
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[key] = found
    return found


def _search(
    lay: _Layout,
    free: int,
    strict: bool,
    s0: int,
    speed: int,
    escape: tuple[int, ...],
    limit: int,
    routes: bool,
) -> EscapeRoute:
    """Forward search in turns from state ``s0`` until an escape (or ``limit`` turns), then
    the shortest routes walked back through the levels."""
    fwd_ok, back_ok = _step_masks(lay, free, strict)
    esc = list(escape)
    active: list[int | None] = [None] * speed
    escape_at: list[list[int] | None] = [None] * speed
    escape_at[-1] = esc
    frontier = [0] * 8
    frontier[s0 & 7] = lay.bit(0, s0 >> 3)
    visited = list(frontier)
    levels = [frontier]
    turns = 0
    for turn in range(1, limit + 1):
        reached, hits = _closure(lay, frontier, fwd_ok, back_ok, active, escape_at)
        if hits:
            turns = turn
            break
        new = [a & ~b for a, b in zip(reached, visited, strict=True)]
        if not any(new):
            return _NONE
        visited = [a | b for a, b in zip(visited, new, strict=True)]
        levels.append(new)
        frontier = new
    if not turns:
        return _NONE
    if not routes:
        return EscapeRoute(turns, 0, 0)
    walk = _Walk(lay, fwd_ok, back_ok, speed)
    # on[k]: the states of level k on a shortest route (the last one: one turn escapes)
    on = [[0] * 8 for _ in range(turns)]
    on[-1] = [a & b for a, b in zip(walk.back(esc, speed - 1), levels[turns - 1], strict=True)]
    for k in range(turns - 2, -1, -1):
        on[k] = [a & b for a, b in zip(walk.back_turn(on[k + 1]), levels[k], strict=True)]
    cells = 0
    for k in range(turns):
        target = on[k + 1] if k + 1 < turns else esc
        steps = speed if k + 1 < turns else speed - 1
        for x in walk.between(on[k], target, steps):
            cells |= x
        if k + 1 < turns:  # the lone backward step enters only its end cell
            for x in on[k + 1]:
                cells |= x
    cells &= ~lay.bit(0, s0 >> 3)
    nxt = 0
    if turns >= 2:
        for f, x in enumerate(on[1]):
            for c in _cells(lay, x):
                nxt |= 1 << (c * 8 + f)
    occ_cells = 0
    for c in _cells(lay, cells):
        occ_cells |= 1 << (8 * c)
    return EscapeRoute(turns, nxt, occ_cells)


def _cells(lay: _Layout, x: int) -> list[int]:
    """Cell ids of the set bits of a block-0 mask."""
    out = []
    w, cols = lay.width, lay.columns
    while x:
        low = x & -x
        pos = low.bit_length() - 1
        out.append((pos // w) * cols + pos % w)
        x ^= low
    return out


class _Walk:
    """Single steps forward and back on one block (rotations and forward steps as the
    masks allow, as in ``reach._closure``)."""

    def __init__(self, lay: _Layout, fwd_ok: list[int], back_ok: list[int], speed: int) -> None:
        self.sh = lay.shift
        self.fwd_ok = fwd_ok
        self.back_ok = back_ok
        self.speed = speed

    def fwd(self, r: list[int]) -> list[int]:
        """``r`` and every state one step (rotation or forward step) from it."""
        sh, ok = self.sh, self.fwd_ok
        return [r[f] | r[(f + 1) & 7] | r[(f + 7) & 7] | _sh(r[f] & ok[f], sh[f]) for f in range(8)]

    def back(self, r: list[int], steps: int) -> list[int]:
        """Every state from which ``r`` can be reached by up to ``steps`` single steps."""
        sh, ok = self.sh, self.fwd_ok
        for _ in range(steps):
            r = [
                r[f] | r[(f + 1) & 7] | r[(f + 7) & 7] | (_sh(r[f], -sh[f]) & ok[f])
                for f in range(8)
            ]
        return r

    def back_turn(self, r: list[int]) -> list[int]:
        """Every state from which one turn can end in ``r``."""
        out = self.back(r, self.speed)
        sh, ok = self.sh, self.back_ok
        return [out[f] | (_sh(r[f], sh[f]) & ok[f]) for f in range(8)]

    def between(self, a: list[int], b: list[int], steps: int) -> list[int]:
        """The states on some path of up to ``steps`` single steps from ``a`` to ``b``."""
        forward = [a]
        for _ in range(steps):
            forward.append(self.fwd(forward[-1]))
        out = [0] * 8
        r = b
        for j in range(steps, -1, -1):  # r: states reaching b within steps - j steps
            out = [o | (x & y) for o, x, y in zip(out, forward[j], r, strict=True)]
            if j:
                r = self.back(r, 1)
        return out


def terrain_escape_turns(state: GameState, side: int, speed: int) -> list[int]:
    """Per state id ``cell * 8 + facing``: fewest turns for a command tank of ``side`` and
    ``speed`` to escape from there over the terrain alone (obstacles and wrecks block,
    pieces do not), ``-1`` if it cannot: levels of turns walked back from the escape."""
    columns, rows = state.columns, state.size // state.columns
    lay = _layout(columns, rows, 1)
    bits = _cell_bits(columns, rows)
    free = 0
    for c, v in enumerate(state.grid):
        if v != BLOCKED:
            free |= bits[c]
    fwd_ok, back_ok = _step_masks(lay, free, state.strict_corners)
    walk = _Walk(lay, fwd_ok, back_ok, speed)
    board = [free] * 8
    level = [
        a & b for a, b in zip(walk.back(list(lay.escape[side]), speed - 1), board, strict=True)
    ]
    seen = list(level)
    out = [-1] * (state.size * 8)
    turns = 1
    while any(level):
        for f, x in enumerate(level):
            for c in _cells(lay, x):
                out[c * 8 + f] = turns
        turns += 1
        level = [a & b & ~s for a, b, s in zip(walk.back_turn(level), board, seen, strict=True)]
        seen = [a | b for a, b in zip(seen, level, strict=True)]
    return out
