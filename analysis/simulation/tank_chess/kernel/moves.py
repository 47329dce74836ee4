"""Tank Chess move generation, turns and outcome in numba (``rules.tank_chess.state`` and
``movegen`` over the arrays of ``base``).

``end_states`` walks the move tree of ``movegen.Tree`` depth first (the same pre-order,
the same blocking tests) and inserts each reached state into an emulated Python set in
the order ``movegen.end_states`` does (``set_order``), so ``legal_turns`` lists the
very turns of ``GameState.legal_turns`` in the very same order; ``push`` and ``outcome``
are ``GameState.push`` and ``GameState.outcome``.
"""

from __future__ import annotations

from typing import Any

from tankmap.analysis.simulation.tank_chess.kernel.base import (
    Board,
    Position,
    inline,
    leaf,
    unliteral,
)
from tankmap.analysis.simulation.tank_chess.kernel.memo import (
    RADIUS,
    lookup,
    recall,
    remember,
    window,
)
from tankmap.analysis.simulation.tank_chess.kernel.set_order import (
    set_add,
    set_clear,
    set_discard,
    set_items,
)
from tankmap.rules.tank_chess.data import COMMAND, FIRE_MORTAR, FIRE_TURRET

EMPTY = -1
BLOCKED = -2
R_ESCAPE, R_COMMAND, R_LIMIT, R_NO_MOVE = 1, 2, 3, 4


@inline
def _near(g: int, f: int, k: int) -> bool:
    """Facing ``g`` is within ``k`` 45° turns of ``f``."""
    d = (g - f) & 7
    return d <= k or 8 - d <= k


@inline
def _add_rotations(tab: Any, tmp: Any, meta: Any, seen: Any, s: int, steps: int,
                   skip: int) -> None:  # fmt: skip
    """Insert ``movegen._rotations(s, steps)`` (ascending) except state ``skip``; a state
    already inserted (``seen[x] == meta[3]``) is passed over: adding a present key leaves
    a set as it is."""
    base = s & ~7
    f = s & 7
    k = min(steps, 4)
    stamp = meta[3]
    for g in range(8):
        x = base + g
        if _near(g, f, k) and x != skip and seen[x] != stamp:
            seen[x] = stamp
            set_add(tab, tmp, meta, x)


@inline
def _escapes(esc: Any, s: int, steps: int) -> bool:
    """``movegen._escapes`` for one side's escape row ``esc``."""
    if steps < 1:
        return False
    base = s & ~7
    f = s & 7
    k = min(steps - 1, 4)
    for g in range(8):
        if _near(g, f, k) and esc[base + g]:
            return True
    return False


@leaf
def end_states(b: Board, grid: Any, p: int, c0: int, f0: int, tab: Any, tmp: Any, meta: Any,
               seen: Any, frames: Any, out: Any) -> tuple[int, bool]:  # fmt: skip
    """``movegen.end_states`` (``c0`` already emptied): the states in set order in
    ``out`` (their count is returned) and whether ``p`` can escape. ``frames``: room
    for the walk's stack (4 x 8)."""
    strict = b.flags[2] != 0
    s0 = c0 * 8 + f0
    speed = b.speed[p]
    command = b.kind[p] == COMMAND
    side = b.side[p]
    esc = b.escape[side]
    set_clear(tab, meta)
    meta[3] += 1  # a new stamp: no state is in the set
    _add_rotations(tab, tmp, meta, seen, s0, speed, s0)
    escaped = False
    if command:
        escaped = _escapes(esc, s0, speed) or (b.flags[3] != 0 and b.back_escape[side, s0] != 0)
    # depth-first walk of the move tree: frame = (state, steps left, next turn a, max a)
    fs, fl, fa, fk = frames[0], frames[1], frames[2], frames[3]
    top = -1
    if speed >= 1:
        top = 0
        fs[0] = s0
        fl[0] = speed
        fk[0] = min(speed - 1, 4)
        fa[0] = -fk[0]
    while top >= 0:
        a = fa[top]
        if a > fk[top]:
            top -= 1
            continue
        fa[top] = a + 1
        if a == -4:
            continue
        s = fs[top]
        s1 = (s & ~7) | ((s + a) & 7)
        n = b.fwd[s1]
        if n < 0:
            continue
        if grid[n >> 3] != EMPTY:
            continue
        if strict:
            sa = b.side_a[s1]
            if sa >= 0 and grid[sa] != EMPTY and grid[b.side_b[s1]] != EMPTY:
                continue
        rest = fl[top] - abs(a) - 1
        _add_rotations(tab, tmp, meta, seen, n, rest, -1)
        if command and not escaped and _escapes(esc, n, rest):
            escaped = True
        if rest >= 1:
            top += 1
            fs[top] = n
            fl[top] = rest
            fk[top] = min(rest - 1, 4)
            fa[top] = -fk[top]
    set_discard(tab, meta, s0)
    bs = b.back[s0]
    if bs >= 0 and grid[bs >> 3] == EMPTY:
        ok = True
        if strict and f0 & 1:
            rs = s0 ^ 4
            sa = b.side_a[rs]
            ok = not (sa >= 0 and grid[sa] != EMPTY and grid[b.side_b[rs]] != EMPTY)
        if ok and seen[bs] != meta[3]:
            set_add(tab, tmp, meta, bs)
    return set_items(tab, meta, out), escaped


@leaf
def piece_end_states(b: Board, pos: Position, p: int, work: Any, states: Any) -> tuple[int, bool]:
    """``end_states`` of live piece ``p`` where it stands (its cell already emptied by the
    caller), remembered across positions and games in ``work`` when it has a memo
    (``base.scratch``; ``memo``): the answer depends only on the
    piece's state, speed and side (for a command tank's escape) and on which cells within
    its speed are occupied, as ``movegen.cached_end_states`` has it."""
    c0 = pos.cell[p]
    f0 = pos.facing[p]
    if work[6].shape[0] == 0 or b.speed[p] > RADIUS:
        return end_states(
            b, pos.grid, p, c0, f0, work[0], work[1], work[2], work[4], work[8], states
        )
    flag = b.speed[p] * 4 + (2 + b.side[p] if b.kind[p] == COMMAND else 0)
    w0, w1 = window(b, pos.grid, c0)
    slot = lookup(work, c0 * 8 + f0, flag, w0, w1)
    if slot >= 0:
        return recall(work, slot, states)
    n, escaped = end_states(
        b, pos.grid, p, c0, f0, work[0], work[1], work[2], work[4], work[8], states
    )
    remember(work, c0 * 8 + f0, flag, w0, w1, states, n, escaped)
    return n, escaped


@inline
def ray_target(first: Any, rest: Any, rest_len: Any, pside: Any, grid: Any, i: int,
               me: int) -> int:  # fmt: skip
    """The enemy piece direct fire along ray ``i = d * size + c`` hits, or -1 (the arrays
    are ``Board.ray_first/ray_rest/ray_len/side``: passed one by one, as helpers called
    per state should not take the whole ``Board``)."""
    a = first[i]
    if a < 0 or grid[a] != EMPTY:
        return -1
    for k in range(rest_len[i]):
        v = grid[rest[i, k]]
        if v != EMPTY:
            if v >= 0 and pside[v] != me:
                return int(v)
            return -1
    return -1


@inline
def _put(out: Any, n: int, p: int, c: int, f: int, target: int) -> int:
    out[n, 0] = p
    out[n, 1] = c
    out[n, 2] = f
    out[n, 3] = target
    return n + 1


@leaf
def sight(b: Board, pos: Position, me: int, sees: Any) -> None:
    """``movegen.sight_map`` of side ``me`` (every piece in place) into ``sees``: the
    enemy piece a shooter on cell ``x`` firing in direction ``d`` hits, ``sees[x*8+d]``
    (-1: none; cells that are not empty are left out as in the reference)."""
    size = b.flags[1]
    grid = pos.grid
    sees[: 8 * size] = -1
    for e in b.pieces[1 - me]:
        if e < 0 or not pos.alive[e] or pos.cell[e] < 0:
            continue
        ce = pos.cell[e]
        for d in range(8):
            i = ((d + 4) & 7) * size + ce
            a = b.ray_first[i]
            if a < 0 or grid[a] != EMPTY:
                continue
            for k in range(b.ray_len[i]):
                x = b.ray_rest[i, k]
                if grid[x] != EMPTY:
                    break
                sees[x * 8 + d] = e


@inline
def _toward(dir_of: Any, col: Any, row: Any, c: int, c0: int) -> int:
    """The direction from cell ``c`` along which cell ``c0`` lies (-1: none, or c0 == c)."""
    dx = col[c0] - col[c]
    dy = row[c0] - row[c]
    if dx == 0 and dy == 0 or not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        return -1
    return int(dir_of[((dy > 0) - (dy < 0) + 1) * 3 + (dx > 0) - (dx < 0) + 1])


@leaf
def piece_turns(b: Board, pos: Position, p: int, work: Any, states: Any, out: Any,
                n: int) -> int:  # fmt: skip
    """Append ``GameState.piece_turns(p)`` to ``out`` from row ``n``; the new row count.
    ``work[3]`` must hold the ``sight`` of ``p``'s side for the current position."""
    grid = pos.grid
    c0 = pos.cell[p]
    me = b.side[p]
    mode = b.fire[p]
    size = b.flags[1]
    sees = work[3]
    first, rest, rest_len, pside = b.ray_first, b.ray_rest, b.ray_len, b.side
    dir_of, col, row = b.dir_of, b.col, b.row
    lo, hi = (7, 10) if mode == FIRE_TURRET else (8, 9)
    grid[c0] = EMPTY
    ns, escaped = piece_end_states(b, pos, p, work, states)
    if escaped:
        n = _put(out, n, p, -1, -1, -1)
    for i in range(ns):
        s = states[i]
        c = s >> 3
        f = s & 7
        n = _put(out, n, p, c, f, -1)
        if mode == FIRE_MORTAR:
            j = f * size + c
            for k in range(b.mortar_len[j]):
                v = grid[b.mortar[j, k]]
                if v >= 0 and pside[v] != me:
                    n = _put(out, n, p, c, f, v)
            continue
        via = _toward(dir_of, col, row, c, c0)
        for dd in range(lo, hi):  # turret: f - 1, f, f + 1; fixed gun: f
            d = (f + dd) & 7
            if c == c0 or d == via:  # the ray starts on or crosses the emptied cell
                v = ray_target(first, rest, rest_len, pside, grid, d * size + c, me)
            else:
                v = sees[c * 8 + d]
            if v >= 0:
                n = _put(out, n, p, c, f, v)
    grid[c0] = p
    return n


@leaf
def legal_turns(b: Board, pos: Position, banned: int, work: Any, states: Any, out: Any) -> int:
    """``allowed(st, st.legal_turns(), banned)`` into ``out`` (``banned``: a bit per kind
    code); the number of turns."""
    meta = pos.meta
    if meta[2] >= 0 or meta[3] != 0:
        return 0
    me = meta[0]
    row = b.pieces[me]
    keep = False
    for p in row:
        if p >= 0 and pos.alive[p] and pos.cell[p] >= 0 and not banned >> b.kind[p] & 1:
            keep = True
    sight(b, pos, me, work[3])
    n = 0
    for p in row:
        if p < 0 or not pos.alive[p] or pos.cell[p] < 0:
            continue
        if keep and banned >> b.kind[p] & 1:
            continue
        n = piece_turns(b, pos, p, work, states, out, unliteral(n))
    return n


@inline
def hit_armour(b: Board, pos: Position, shooter_cell: int, target: int) -> int:
    """``GameState.hit_armour``."""
    tc = pos.cell[target]
    dx = b.col[shooter_cell] - b.col[tc]
    dy = b.row[shooter_cell] - b.row[tc]
    d = b.dir_of[((dy > 0) - (dy < 0) + 1) * 3 + (dx > 0) - (dx < 0) + 1]
    tf = pos.facing[target]
    if d == tf:
        return int(b.armour[target, 0])
    if d == (tf + 4) & 7:
        return int(b.armour[target, 2])
    return int(b.armour[target, 1])


@leaf
def push(b: Board, pos: Position, p: int, c: int, f: int, target: int) -> bool:
    """``GameState.push((p, c, f, target))`` (history not kept); whether it destroyed."""
    grid = pos.grid
    meta = pos.meta
    me = b.side[p]
    destroyed = False
    grid[pos.cell[p]] = EMPTY
    if c < 0:
        pos.cell[p] = -1
        meta[2] = me
        meta[3] = R_ESCAPE
    else:
        grid[c] = p
        pos.cell[p] = c
        pos.facing[p] = f
        if target >= 0 and b.gun[p] > hit_armour(b, pos, c, target):
            destroyed = True
            pos.alive[target] = 0
            grid[pos.cell[target]] = BLOCKED
            if b.kind[target] == COMMAND:
                meta[2] = me
                meta[3] = R_COMMAND
    meta[0] ^= 1
    meta[1] += 1
    return destroyed


@leaf
def pop(pos: Position, t: Any, save: Any) -> None:
    """Take back ``push`` of turn ``t`` (``GameState.pop()``): ``save`` holds the mover's
    cell and facing, ``meta[2]``/``meta[3]`` and whether the turn destroyed, from before
    the push."""
    p, c, target = t[0], t[1], t[3]
    grid = pos.grid
    if c >= 0:
        grid[c] = EMPTY
    grid[save[0]] = p
    pos.cell[p] = save[0]
    pos.facing[p] = save[1]
    if save[4]:
        pos.alive[target] = 1
        grid[pos.cell[target]] = target
    pos.meta[2] = save[2]
    pos.meta[3] = save[3]
    pos.meta[0] ^= 1
    pos.meta[1] -= 1


@leaf
def outcome(b: Board, pos: Position) -> int:
    """-1 while the game goes on, else the ``REASONS`` code of ``GameState.outcome``."""
    meta = pos.meta
    if meta[2] >= 0 or meta[3] != 0:
        return int(meta[3])
    limit = b.flags[4]
    if 0 < limit <= meta[1]:
        return R_LIMIT
    for p in b.pieces[meta[0]]:
        if p >= 0 and pos.alive[p] and pos.cell[p] >= 0:
            return -1
    return R_NO_MOVE


def turn_rows(b: Board) -> int:
    """Rows ``legal_turns`` may need: per piece of a side at most one escape and four
    turns (a move and three shots) per reachable state."""
    size = int(b.flags[1])
    reach = min(8 * size, 8 * (2 * int(b.speed.max(initial=0)) + 1) ** 2)
    return int(b.pieces.shape[1]) * (1 + 4 * reach)
