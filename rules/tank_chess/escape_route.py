"""One piece's shortest escape routes with every other piece blocking, for game play.

``turns_to_escape(state, p, pieces_block=True)`` of ``rules.tank_chess.reach`` answers how
many turns; ``escape_route`` answers the same on the bitboards of ``reach`` (its turn
step, layout and escape masks; about a tenth of a millisecond a turn searched) and also
*where* the shortest routes go: the states the piece can end its next turn in while
staying on one, and every cell such a route enters. A route is a sequence of turns
(docs/rules.md §2.3: up to ``speed`` rotations or forward steps into empty cells, or the lone
backward step) ending with the forward step off the enemy edge (§2.5), the other pieces
standing still. Answers are remembered per (start state, occupancy) up to a bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from tankmap.rules.tank_chess.reach import _Layout, _layout, _sh, _step_masks
from tankmap.rules.tank_chess.state import BLOCKED, EMPTY, GameState


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


class _Entry:
    """What is known of one (occupancy, start state, speed, side, corners) search: the
    fewest turns (``plain``, routes left out; ``_NONE`` if no escape within ``limit``
    turns) and, once asked for, the full ``route``. The turns found do not depend on how
    far the search was allowed to go, so one entry answers every ``limit``."""

    __slots__ = ("limit", "plain", "route")

    def __init__(self, limit: int, plain: EscapeRoute) -> None:
        self.limit = limit
        self.plain = plain
        self.route: EscapeRoute | None = None


_Key = tuple[int, int, int, int, bool, bool]
_MEMO: dict[_Key, _Entry] = {}
_MEMO_LIMIT = 1 << 15
# the levels of the last few searches that found an escape, for their routes if asked next
_LEVELS: dict[_Key, tuple[list[int], list[int], list[list[int]]]] = {}


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
    diagonal = state.tables.diagonal_escape
    if occ < 0:
        occ = int.from_bytes(bytes(v != EMPTY for v in state.grid), "little")
    key = (occ, s0, speed, side, strict, diagonal)
    entry = _MEMO.get(key)
    if entry is not None:
        turns = entry.plain.turns
        if turns is not None:
            if turns > limit:
                return _NONE
            if not routes:
                return entry.plain
            if entry.route is not None:
                return entry.route
        elif limit <= entry.limit:
            return _NONE
    columns, rows = state.columns, state.size // state.columns
    lay = _layout(columns, rows, 1, diagonal)
    esc = list(lay.escape[side])
    if entry is not None and entry.plain.turns is not None:  # found: the routes only
        turns = entry.plain.turns
        found = _LEVELS.get(key)
        if found is None:
            fwd_ok, back_ok = _step_masks(lay, _free(state, c0), strict)
            found = fwd_ok, back_ok, _forward(lay, fwd_ok, back_ok, s0, speed, esc, turns)[1]
        entry.route = _routes(lay, *found, s0, speed, esc, turns)
        return entry.route
    fwd_ok, back_ok = _step_masks(lay, _free(state, c0), strict)
    turns, levels = _forward(lay, fwd_ok, back_ok, s0, speed, esc, limit)
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    if not turns:
        _MEMO[key] = _Entry(limit, _NONE)
        return _NONE
    entry = _MEMO[key] = _Entry(limit, EscapeRoute(turns, 0, 0))
    if not routes:
        if len(_LEVELS) >= 4:
            _LEVELS.clear()
        _LEVELS[key] = fwd_ok, back_ok, levels
        return entry.plain
    entry.route = _routes(lay, fwd_ok, back_ok, levels, s0, speed, esc, turns)
    return entry.route


def _free(state: GameState, c0: int) -> int:
    """Block-0 bits of the cells free for the piece on ``c0`` (its own cell is free)."""
    bits = _cell_bits(state.columns, state.size // state.columns)
    free = _terrain_free(state)
    for c in state.cell:  # pieces and wrecks (terrain is cached per scenario)
        if c >= 0:
            free &= ~bits[c]
    return free | bits[c0]


def _routes(
    lay: _Layout,
    fwd_ok: list[int],
    back_ok: list[int],
    levels: list[list[int]],
    s0: int,
    speed: int,
    esc: list[int],
    turns: int,
) -> EscapeRoute:
    """The shortest routes of a search that escapes in ``turns``, walked back through its
    ``levels`` (``_forward``)."""
    walk = _Walk(lay, fwd_ok, back_ok, speed)
    back_ok_, sh = walk.back_ok, walk.sh
    # Level by level from the last: ``target`` = the states of level k + 1 on a shortest
    # route (the escape masks after the last level); chain[i] = the states reaching it in
    # i single steps; on_k = those of level k from which one turn ends in it.
    cells = 0
    on1: list[int] = []
    target = esc
    for k in range(turns - 1, -1, -1):
        last = k == turns - 1
        steps = speed - 1 if last else speed
        chain = [target]
        for _ in range(steps):
            chain.append(walk.back(chain[-1], 1))
        reach = chain[-1]
        if not last:  # or by the lone backward step
            reach = [reach[f] | (_sh(target[f], sh[f]) & back_ok_[f]) for f in range(8)]
            for x in target:  # which enters only its end cell
                cells |= x
        on_k = [a & b for a, b in zip(reach, levels[k], strict=True)]
        # the states on a path of up to ``steps`` single steps from on_k to target
        fwd = on_k
        for j in range(steps + 1):
            r = chain[steps - j]
            cells |= (
                fwd[0] & r[0] | fwd[1] & r[1] | fwd[2] & r[2] | fwd[3] & r[3]
                | fwd[4] & r[4] | fwd[5] & r[5] | fwd[6] & r[6] | fwd[7] & r[7]
            )  # fmt: skip
            if j < steps:
                fwd = walk.fwd(fwd)
        if k == 1:
            on1 = on_k
        target = on_k
    cells &= ~lay.bit(0, s0 >> 3)
    nxt = 0
    for f, x in enumerate(on1):
        if x:
            nxt |= _spread(lay, x) << f
    return EscapeRoute(turns, nxt, _spread(lay, cells))


# _BYTES[v]: the 8 bits of v as 8 bytes (0 or 1), lowest first
_BYTES = tuple(bytes((v >> i) & 1 for i in range(8)) for v in range(256))


def _spread(lay: _Layout, x: int) -> int:
    """A block-0 cell mask in the layout of ``movegen.occupancy`` (bit ``8 * cell``)."""
    w, cols = lay.width, lay.columns
    row_mask = (1 << cols) - 1
    out = bytearray(cols * lay.rows)
    base = 0
    while x:
        bits = x & row_mask
        i = 0
        while bits:
            v = bits & 0xFF
            if v:
                n = min(8, cols - i)
                out[base + i : base + i + n] = _BYTES[v][:n]
            bits >>= 8
            i += 8
        x >>= w
        base += cols
    return int.from_bytes(out, "little")


def _forward(
    lay: _Layout,
    fwd_ok: list[int],
    back_ok: list[int],
    s0: int,
    speed: int,
    esc: list[int],
    limit: int,
) -> tuple[int, list[list[int]]]:
    """Levels of a search in turns from state ``s0`` (level ``k``: the states first reached
    after ``k`` turns, per facing) and the turn that escapes (0 if none within ``limit``).
    ``reach._closure`` of one block at one speed, written out: the shifts of the layout
    (facings 0, 1, 2, 7 move to higher bits, 3 to 6 to lower ones) as plain operators."""
    sh = lay.shift
    u0, u1, u2, d3, d4, d5, d6, u7 = sh[0], sh[1], sh[2], -sh[3], -sh[4], -sh[5], -sh[6], sh[7]
    assert min(u0, u1, u2, d3, d4, d5, d6, u7) > 0
    o0, o1, o2, o3, o4, o5, o6, o7 = fwd_ok
    b0, b1, b2, b3, b4, b5, b6, b7 = back_ok
    e0, e1, e2, e3, e4, e5, e6, e7 = esc
    last = speed - 1
    frontier = [0] * 8
    frontier[s0 & 7] = lay.bit(0, s0 >> 3)
    v0, v1, v2, v3, v4, v5, v6, v7 = frontier
    levels = [frontier]
    for turn in range(1, limit + 1):
        f0, f1, f2, f3, f4, f5, f6, f7 = r0, r1, r2, r3, r4, r5, r6, r7 = frontier
        for k in range(speed):
            if k == last and (
                r0 & e0 | r1 & e1 | r2 & e2 | r3 & e3 | r4 & e4 | r5 & e5 | r6 & e6 | r7 & e7
            ):
                return turn, levels
            r0, r1, r2, r3, r4, r5, r6, r7 = (
                r0 | r7 | r1 | (r0 & o0) << u0,
                r1 | r0 | r2 | (r1 & o1) << u1,
                r2 | r1 | r3 | (r2 & o2) << u2,
                r3 | r2 | r4 | (r3 & o3) >> d3,
                r4 | r3 | r5 | (r4 & o4) >> d4,
                r5 | r4 | r6 | (r5 & o5) >> d5,
                r6 | r5 | r7 | (r6 & o6) >> d6,
                r7 | r6 | r0 | (r7 & o7) << u7,
            )
        # the lone backward step, then what is new
        n0 = (r0 | (f0 & b0) >> u0) & ~v0
        n1 = (r1 | (f1 & b1) >> u1) & ~v1
        n2 = (r2 | (f2 & b2) >> u2) & ~v2
        n3 = (r3 | (f3 & b3) << d3) & ~v3
        n4 = (r4 | (f4 & b4) << d4) & ~v4
        n5 = (r5 | (f5 & b5) << d5) & ~v5
        n6 = (r6 | (f6 & b6) << d6) & ~v6
        n7 = (r7 | (f7 & b7) >> u7) & ~v7
        if not (n0 | n1 | n2 | n3 | n4 | n5 | n6 | n7):
            return 0, levels
        v0, v1, v2, v3, v4, v5, v6, v7 = (
            v0 | n0,
            v1 | n1,
            v2 | n2,
            v3 | n3,
            v4 | n4,
            v5 | n5,
            v6 | n6,
            v7 | n7,
        )
        frontier = [n0, n1, n2, n3, n4, n5, n6, n7]
        levels.append(frontier)
    return 0, levels


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
    masks allow, as in ``reach._closure``; facings 0, 1, 2, 7 step to higher bits)."""

    def __init__(self, lay: _Layout, fwd_ok: list[int], back_ok: list[int], speed: int) -> None:
        self.sh = lay.shift
        self.fwd_ok = fwd_ok
        self.back_ok = back_ok
        self.speed = speed

    def fwd(self, r: list[int]) -> list[int]:
        """``r`` and every state one step (rotation or forward step) from it."""
        sh, ok = self.sh, self.fwd_ok
        r0, r1, r2, r3, r4, r5, r6, r7 = r
        return [
            r0 | r7 | r1 | (r0 & ok[0]) << sh[0],
            r1 | r0 | r2 | (r1 & ok[1]) << sh[1],
            r2 | r1 | r3 | (r2 & ok[2]) << sh[2],
            r3 | r2 | r4 | (r3 & ok[3]) >> -sh[3],
            r4 | r3 | r5 | (r4 & ok[4]) >> -sh[4],
            r5 | r4 | r6 | (r5 & ok[5]) >> -sh[5],
            r6 | r5 | r7 | (r6 & ok[6]) >> -sh[6],
            r7 | r6 | r0 | (r7 & ok[7]) << sh[7],
        ]

    def back(self, r: list[int], steps: int) -> list[int]:
        """Every state from which ``r`` can be reached by up to ``steps`` single steps."""
        sh, ok = self.sh, self.fwd_ok
        u0, u1, u2, d3, d4, d5, d6, u7 = sh[0], sh[1], sh[2], -sh[3], -sh[4], -sh[5], -sh[6], sh[7]
        o0, o1, o2, o3, o4, o5, o6, o7 = ok
        r0, r1, r2, r3, r4, r5, r6, r7 = r
        for _ in range(steps):
            r0, r1, r2, r3, r4, r5, r6, r7 = (
                r0 | r1 | r7 | (r0 >> u0) & o0,
                r1 | r2 | r0 | (r1 >> u1) & o1,
                r2 | r3 | r1 | (r2 >> u2) & o2,
                r3 | r4 | r2 | (r3 << d3) & o3,
                r4 | r5 | r3 | (r4 << d4) & o4,
                r5 | r6 | r4 | (r5 << d5) & o5,
                r6 | r7 | r5 | (r6 << d6) & o6,
                r7 | r0 | r6 | (r7 >> u7) & o7,
            )
        return [r0, r1, r2, r3, r4, r5, r6, r7]

    def back_turn(self, r: list[int]) -> list[int]:
        """Every state from which one turn can end in ``r``."""
        out = self.back(r, self.speed)
        sh, ok = self.sh, self.back_ok
        return [out[f] | (_sh(r[f], sh[f]) & ok[f]) for f in range(8)]


def terrain_escape_turns(state: GameState, side: int, speed: int) -> list[int]:
    """Per state id ``cell * 8 + facing``: fewest turns for a command tank of ``side`` and
    ``speed`` to escape from there over the terrain alone (obstacles and wrecks block,
    pieces do not), ``-1`` if it cannot: levels of turns walked back from the escape."""
    columns, rows = state.columns, state.size // state.columns
    lay = _layout(columns, rows, 1, state.tables.diagonal_escape)
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
