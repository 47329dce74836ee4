"""A piece's fewest turns to escape, every other piece blocking, in numba: the number
``rules.tank_chess.escape_route.escape_route(st, p, limit, routes=False)`` finds on
bitboards, found here by the same level-by-level search over state ids (a building block
of a compiled heuristic: ``find_threat`` and ``delay`` ask it; not used by the driver yet).

A turn from the states first reached after the previous turn: up to ``speed`` single steps
(a 45° rotation, or a forward step into a free cell that strict corners do not squeeze),
escaping when a forward step from a state reached in ``speed - 1`` of them leaves through
the enemy edge (``Board.escape``; the backward escape of the option is not searched, as in
the reference), or the lone backward step. Free: empty, or the piece's own cell.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tankmap.analysis.simulation.drivers.tc_kernel_base import Board, Position, inline, jit

EMPTY = -1


@inline
def _free(grid: Any, c0: int, c: int) -> bool:
    return grid[c] == EMPTY or c == c0


@inline
def _step_ok(to: Any, side_a: Any, side_b: Any, grid: Any, c0: int, strict: bool,
             s: int, g: int) -> bool:  # fmt: skip
    """The step from state ``s`` to ``to[s]`` (forward, or backward with ``g = s ^ 4``, the
    state whose forward step mirrors it) enters a free cell and, under strict corners, is
    not squeezed between two blocked cells. Helpers called per state take single arrays,
    not the ``Board`` (passing the tuple costs a reference count per array)."""
    n = to[s]
    if n < 0 or not _free(grid, c0, n >> 3):
        return False
    if not strict or not s & 1:
        return True
    sa = side_a[g]
    return not (sa >= 0 and not _free(grid, c0, sa) and not _free(grid, c0, side_b[g]))


@jit
def escape_turns(b: Board, pos: Position, p: int, limit: int) -> int:
    """Fewest turns for live piece ``p`` to escape where it stands (0: not within
    ``limit`` turns)."""
    c0 = pos.cell[p]
    if c0 < 0 or not pos.alive[p] or limit < 1:
        return 0
    grid = pos.grid
    n_states = 8 * b.flags[1]
    strict = b.flags[2] != 0
    fwd, back, side_a, side_b = b.fwd, b.back, b.side_a, b.side_b
    esc = b.escape[b.side[p]]
    speed = b.speed[p]
    seen = np.zeros(n_states, np.bool_)
    mark = np.zeros(n_states, np.int64)  # == turn: in this turn's reach
    frontier = np.empty(n_states, np.int64)
    reach = np.empty(n_states, np.int64)
    frontier[0] = c0 * 8 + pos.facing[p]
    n_front = 1
    seen[frontier[0]] = True
    for turn in range(1, limit + 1):
        n_reach = 0
        for i in range(n_front):
            reach[n_reach] = frontier[i]
            mark[frontier[i]] = turn
            n_reach += 1
        for k in range(speed):
            if k == speed - 1:
                for i in range(n_reach):
                    if esc[reach[i]]:
                        return turn
            m = n_reach  # one single step from the states reached so far
            for i in range(m):
                s = reach[i]
                base = s & ~7
                for j in range(3):
                    if j == 2:
                        if not _step_ok(fwd, side_a, side_b, grid, c0, strict, s, s):
                            break
                        x = fwd[s]
                    else:
                        x = base | ((s + 2 * j + 7) & 7)  # s - 1, s + 1
                    if mark[x] != turn:
                        mark[x] = turn
                        reach[n_reach] = x
                        n_reach += 1
        n_new = 0
        for i in range(n_reach):
            s = reach[i]
            if not seen[s]:
                seen[s] = True
                reach[n_new] = s
                n_new += 1
        for i in range(n_front):  # the lone backward step
            s = frontier[i]
            if _step_ok(back, side_a, side_b, grid, c0, strict, s, s ^ 4):
                x = back[s]
                if not seen[x]:
                    seen[x] = True
                    reach[n_new] = x
                    n_new += 1
        if n_new == 0:
            return 0
        frontier[:n_new] = reach[:n_new]
        n_front = n_new
    return 0
