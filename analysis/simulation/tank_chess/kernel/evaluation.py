"""The ``alphabeta`` agent's evaluation of a Tank Chess position, in numba (its plain-Python
twin: ``agents/alphabeta_ref.py``). It never asks the heuristic.

From the view of the side to move (``s``; the other side ``o``), in integer points:

- **a win now**: ``s`` has a legal turn that escapes or destroys ``o``'s command tank
  (``wins_now``): the position is won, ``WIN - ply - 1`` (a win one ply further down);
- **material**: ``MATERIAL`` × (the values of ``s``'s live pieces − ``o``'s), a piece's
  value being ``2 × gun + front + side + rear armour`` (``piece_values``; command tanks
  count nothing: losing one ends the game);
- **the race**: each command tank's fewest single steps to escape (``escape_steps``: 45°
  rotations and forward steps into empty cells, every other piece standing, the step off
  the enemy edge included; more than ``STEP_CAP`` counts as ``STEP_CAP + 1``) and its
  turns (steps over speed, rounded up). ``STEP`` points per step of lead, and ``RACE`` ×
  ``max(0, URGENT - turns)`` points, for or against, to the side that wins the race as
  things stand (``s`` moves first, so it wins it when its turns are no more than
  ``o``'s);
- **a threat**: ``THREAT`` points against ``s`` when ``o`` would have a win now if it
  were its turn.

The search's leaves ask ``evaluate_within`` its window, which checks for wins in hand
(most of the time of an evaluation) only where they could move the value across it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.tank_chess.kernel.base import Board, Position, leaf, unliteral
from tankmap.analysis.simulation.tank_chess.kernel.moves import hit_armour, piece_end_states
from tankmap.rules.tank_chess.data import COMMAND, FIRE_FIXED, FIRE_MORTAR

EMPTY = -1

WIN = 1_000_000
"""The score of a won position at the root; a win ``k`` plies down scores ``WIN - k``."""
WIN_BOUND = WIN - 10_000
"""Scores at or beyond ``±WIN_BOUND`` are proven wins and losses."""
UNBOUNDED = WIN + 1
"""Beyond every score: ``(-UNBOUNDED, UNBOUNDED)`` is the window of an exact value."""

MATERIAL = 10
STEP = 6
RACE = 40
URGENT = 6
THREAT = 60
STEP_CAP = 60


def piece_values(gun: Any, armour: Any, kind: Any) -> npt.NDArray[np.int64]:
    """Each piece's value (``2 × gun + front + side + rear``; 0 for a command tank)."""
    out = np.zeros(len(kind), dtype=np.int64)
    for p in range(len(kind)):
        if kind[p] != COMMAND:
            out[p] = 2 * int(gun[p]) + int(sum(int(a) for a in armour[p]))
    return out


class Scratch:
    """Names of the evaluation's work arrays (``eval_scratch``): per state the best steps
    found (``G``) and a stamp (``MARK``); a pool of queued states (``NODE_STATE``,
    ``NODE_G``, ``NODE_NEXT``); bucket heads per estimate (``HEAD``); marks per cell
    (``CELL``); the stamp counter (``COUNTER``)."""

    G, MARK, NODE_STATE, NODE_G, NODE_NEXT, HEAD, CELL, COUNTER = range(8)


def eval_scratch(size: int) -> tuple[npt.NDArray[np.int64], ...]:
    """Work arrays of ``escape_steps`` and ``wins_now`` for a board of ``size`` cells."""
    n = 8 * size
    i64 = np.int64
    return (
        np.zeros(n, i64),
        np.zeros(n, i64),
        np.zeros(3 * n + 8, i64),
        np.zeros(3 * n + 8, i64),
        np.zeros(3 * n + 8, i64),
        np.zeros(STEP_CAP + 8, i64),
        np.zeros(size, i64),
        np.zeros(1, i64),
    )


@leaf
def command_of(b: Board, pos: Position, side: int) -> int:
    """The first live command tank of ``side`` still on the board (-1 if none)."""
    for p in b.pieces[side]:
        if p >= 0 and b.kind[p] == COMMAND and pos.alive[p] and pos.cell[p] >= 0:
            return int(p)
    return -1


@leaf
def escape_steps(b: Board, pos: Position, p: int, cap: int, lower: Any, ws: Any) -> int:
    """Fewest single steps for piece ``p`` to escape off its enemy's edge (45° rotations,
    forward steps into empty cells — under strict corners not between two blocked cells —
    and the final step off the edge), every other piece standing; ``cap + 1`` when more
    than ``cap``. A* over states ``cell * 8 + facing`` with ``lower[s]``, the steps to
    escape through the terrain alone (``Prepared.escape``), as its estimate: exact, as
    pieces only ever add steps. ``ws``: ``eval_scratch``."""
    g_best, mark, n_state, n_g, n_next, head = ws[0], ws[1], ws[2], ws[3], ws[4], ws[5]
    ws[7][0] += 1
    stamp = ws[7][0]
    c0 = pos.cell[p]
    s0 = c0 * 8 + pos.facing[p]
    esc = b.escape[b.side[p]]
    h0 = lower[s0]
    if h0 > cap:
        return cap + 1
    grid = pos.grid
    strict = b.flags[2] != 0
    fwd, side_a, side_b = b.fwd, b.side_a, b.side_b
    head[: cap + 2] = -1
    n_state[0] = s0
    n_g[0] = 0
    n_next[0] = -1
    head[h0] = 0
    used = 1
    mark[s0] = stamp
    g_best[s0] = 0
    for f in range(h0, cap + 1):
        while head[f] >= 0:
            k = head[f]
            head[f] = n_next[k]
            s = n_state[k]
            g = n_g[k]
            if g > g_best[s]:
                continue  # a stale entry: reached cheaper since
            if esc[s]:
                return int(g + 1)
            base = s & ~7
            for j in range(3):
                if j == 2:
                    x = fwd[s]
                    if x < 0:
                        continue
                    c = x >> 3
                    if grid[c] != EMPTY and c != c0:
                        continue
                    if strict:
                        sa = side_a[s]
                        if sa >= 0:
                            sb = side_b[s]
                            if (grid[sa] != EMPTY and sa != c0) and (
                                grid[sb] != EMPTY and sb != c0
                            ):
                                continue
                else:
                    x = base | ((s + 2 * j + 7) & 7)  # s - 1, s + 1
                gx = g + 1
                if mark[x] == stamp and g_best[x] <= gx:
                    continue
                fx = gx + lower[x]
                if fx > cap:
                    continue
                mark[x] = stamp
                g_best[x] = gx
                n_state[used] = x
                n_g[used] = gx
                n_next[used] = head[fx]
                head[fx] = used
                used += 1
    return cap + 1


@leaf
def shot_hits(b: Board, pos: Position, p: int, c: int, f: int, target: int) -> bool:
    """Piece ``p`` ending on ``c`` facing ``f`` could shoot live enemy piece ``target``
    (the grid as it stands, ``p``'s start cell already emptied): direct fire along the
    line to it, within the gun's arc, the target not adjacent and the first piece on the
    line; a mortar facing it, the target 3 to 5 cells ahead (``Board.mortar``)."""
    size = b.flags[1]
    tc = pos.cell[target]
    dx = b.col[tc] - b.col[c]
    dy = b.row[tc] - b.row[c]
    if dx == 0 and dy == 0 or not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        return False
    d = b.dir_of[((dy > 0) - (dy < 0) + 1) * 3 + (dx > 0) - (dx < 0) + 1]
    mode = b.fire[p]
    if mode == FIRE_MORTAR:
        if f != d:
            return False
        j = f * size + c
        for k in range(b.mortar_len[j]):
            if b.mortar[j, k] == tc:
                return True
        return False
    if mode == FIRE_FIXED:
        if f != d:
            return False
    else:
        e = (d - f) & 7
        if not (e <= 1 or e == 7):
            return False
    i = d * size + c
    a = b.ray_first[i]
    if a < 0 or pos.grid[a] != EMPTY:
        return False  # adjacent, or something in the way at once
    for k in range(b.ray_len[i]):
        x = b.ray_rest[i, k]
        if x == tc:
            return True
        if pos.grid[x] != EMPTY:
            return False
    return False


@leaf
def _mark_lines(b: Board, pos: Position, me: int, target: int, near: Any, stamp: int) -> None:
    """``near[c] = stamp`` for every cell a piece of ``me`` might shoot ``target`` from:
    along each line from it, the empty cells from the second on up to the first thing in
    the way (a piece of ``me`` in the way does not end the line, as it may move off it:
    its own cell is marked too), and every cell from which a mortar facing the target
    reaches it (a mortar shoots over anything)."""
    size = b.flags[1]
    grid = pos.grid
    tc = pos.cell[target]
    for e in range(8):
        i = e * size + tc
        first = b.ray_first[i]
        if first < 0:
            continue
        back = (e + 4) & 7  # the direction a shooter on this line fires in
        v = grid[first]
        open_line = v == EMPTY or (v >= 0 and b.side[v] == me)
        if v >= 0 and b.side[v] == me:
            near[first] = stamp
        for k in range(b.ray_len[i]):
            x = b.ray_rest[i, k]
            j = back * size + x
            for m in range(b.mortar_len[j]):
                if b.mortar[j, m] == tc:
                    near[x] = stamp
            if not open_line:
                continue
            v = grid[x]
            if v == EMPTY or (v >= 0 and b.side[v] == me):
                near[x] = stamp
            else:
                open_line = False


@leaf
def wins_now(b: Board, pos: Position, me: int, steps: int, banned: int, ws: Any, work: Any,
             states: Any) -> bool:  # fmt: skip
    """Side ``me`` (to move or not) has a turn that wins: its command tank escapes
    (``steps``: its ``escape_steps``, or the backward step off the edge where
    ``backward_escape`` allows it) or a piece's shot destroys the enemy command tank.
    Pieces of the kinds in ``banned`` (bits) do not move unless no other piece can, as
    in ``moves.legal_turns``. Only pieces within reach (speed, king moves) of a cell
    marked by ``_mark_lines`` have their moves listed (``moves.piece_end_states``), and
    only their end states on a marked cell are tried."""
    keep = False
    for p in b.pieces[me]:
        if p >= 0 and pos.alive[p] and pos.cell[p] >= 0 and not banned >> b.kind[p] & 1:
            keep = True
    if not keep:
        banned = 0
    mine = command_of(b, pos, me)
    if mine >= 0 and not banned >> COMMAND & 1:
        if steps <= b.speed[mine]:
            return True
        if b.flags[3] != 0 and b.back_escape[me, pos.cell[mine] * 8 + pos.facing[mine]]:
            return True
    target = command_of(b, pos, 1 - me)
    if target < 0:
        return False
    near = ws[6]
    ws[7][0] += 1
    stamp = ws[7][0]
    _mark_lines(b, pos, me, target, near, stamp)
    cols = b.flags[0]
    rows = b.flags[1] // cols
    grid = pos.grid
    for p in b.pieces[me]:
        if p < 0 or not pos.alive[p] or pos.cell[p] < 0 or banned >> b.kind[p] & 1:
            continue
        c0 = pos.cell[p]
        v = b.speed[p]
        x0, y0 = c0 % cols, c0 // cols
        close = False
        for y in range(max(0, y0 - v), min(rows, y0 + v + 1)):
            for x in range(max(0, x0 - v), min(cols, x0 + v + 1)):
                if near[y * cols + x] == stamp:
                    close = True
                    break
            if close:
                break
        if not close:
            continue
        grid[c0] = EMPTY
        ns, _ = piece_end_states(b, pos, p, work, states)
        hit = False
        for i in range(ns):
            s = states[i]
            c = s >> 3
            if (
                near[c] == stamp
                and shot_hits(b, pos, p, c, s & 7, target)
                and b.gun[p] > hit_armour(b, pos, c, target)
            ):
                hit = True
                break
        grid[c0] = p
        if hit:
            return True
    return False


@leaf
def evaluate(b: Board, pos: Position, ply: int, values: Any, lower: Any, banned: Any,
             ws: Any, work: Any, states: Any) -> int:  # fmt: skip
    """The position's value for the side to move, ``ply`` plies below the root (module
    docstring). ``lower``: ``Prepared.escape`` as an array per side; ``banned[side]``:
    the kinds each side does not move (bits)."""
    return evaluate_within(
        b, pos, ply, unliteral(-UNBOUNDED), unliteral(UNBOUNDED), values, lower, banned, ws,
        work, states,
    )  # fmt: skip


@leaf
def evaluate_within(b: Board, pos: Position, ply: int, alpha: int, beta: int, values: Any,
                    lower: Any, banned: Any, ws: Any, work: Any, states: Any) -> int:  # fmt: skip
    """``evaluate`` for a leaf of a fail-soft alpha-beta search with the window
    ``(alpha, beta)``, where only how the value stands against the window matters: a
    lower bound of the value
    when that bound is already at or above ``beta``, an upper bound when it is at or
    below ``alpha``, else the exact value. The win-in-hand checks (``wins_now``, most
    of the evaluation's time) are left out when the rest decides it: the enemy's threat
    only ever takes ``THREAT`` points off, and a win in hand only raises the value."""
    me = pos.meta[0]
    mine = command_of(b, pos, me)
    theirs = command_of(b, pos, 1 - me)
    cap = STEP_CAP
    sm = cap + 1 if mine < 0 else escape_steps(b, pos, mine, cap, lower[me], ws)
    so = cap + 1 if theirs < 0 else escape_steps(b, pos, theirs, cap, lower[1 - me], ws)
    material = 0
    for p in range(b.kind.shape[0]):
        if pos.alive[p] and pos.cell[p] >= 0:
            material += values[p] if b.side[p] == me else -values[p]
    points = MATERIAL * material + STEP * (so - sm)
    tm = (sm + b.speed[mine] - 1) // b.speed[mine] if mine >= 0 else cap + 1
    to = (so + b.speed[theirs] - 1) // b.speed[theirs] if theirs >= 0 else cap + 1
    if tm <= to:
        points += RACE * max(0, URGENT - tm)
    else:
        points -= RACE * max(0, URGENT - to)
    if points - THREAT >= beta:
        return int(points - THREAT)  # at least this, a win in hand or not
    if wins_now(b, pos, me, sm, banned[me], ws, work, states):
        return WIN - ply - 1
    if points <= alpha:
        return int(points)  # at most this, threatened or not
    if wins_now(b, pos, 1 - me, so, banned[1 - me], ws, work, states):
        points -= THREAT
    return int(points)
