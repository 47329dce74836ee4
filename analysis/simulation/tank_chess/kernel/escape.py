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

from tankmap.analysis.simulation.tank_chess.kernel.base import Board, Position, inline, jit

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
def escape_turns(b: Board, pos: Position, p: int, limit: int, bound: Any) -> int:
    """Fewest turns for live piece ``p`` to escape where it stands (0: not within
    ``limit`` turns). ``bound[s]``: a lower bound of the turns to escape from state ``s``
    (-1: never), such as ``Prepared.turns`` (over the terrain alone) or zeros."""
    return escape_search(b, pos, p, limit, np.empty(8 * b.flags[1], np.int64), bound)


@jit
def escape_search(b: Board, pos: Position, p: int, limit: int, level: Any, bound: Any) -> int:
    """``escape_turns``, leaving in ``level[s]`` the turn state ``s`` was first reached
    in (-1: not reached; the levels of ``escape_route._forward``) for ``escape_routes``.

    A state reached in turn ``t`` with ``t + bound[s] > limit`` is not searched on, nor
    one met within turn ``t`` with ``t - 1 + bound[s] > limit`` (a whole turn from it can
    end anywhere its rest of this turn can): every state on a shortest route within
    ``limit`` keeps its level, so the turns and the routes are those of the full search."""
    level[:] = -1
    c0 = pos.cell[p]
    if c0 < 0 or not pos.alive[p] or limit < 1:
        return 0
    grid = pos.grid
    n_states = 8 * b.flags[1]
    strict = b.flags[2] != 0
    fwd, back, side_a, side_b = b.fwd, b.back, b.side_a, b.side_b
    esc = b.escape[b.side[p]]
    speed = b.speed[p]
    mark = np.zeros(n_states, np.int64)  # == turn: in this turn's reach
    frontier = np.empty(n_states, np.int64)
    reach = np.empty(n_states, np.int64)
    frontier[0] = c0 * 8 + pos.facing[p]
    n_front = 1
    level[frontier[0]] = 0
    for turn in range(1, limit + 1):
        n_reach = 0
        for i in range(n_front):
            reach[n_reach] = frontier[i]
            mark[frontier[i]] = turn
            n_reach += 1
        done = 0
        for k in range(speed):
            if k == speed - 1:
                for i in range(n_reach):
                    if esc[reach[i]]:
                        return turn
            m = n_reach  # one single step from the states the last step added (the
            for i in range(done, m):  # older ones' steps are in already)
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
                        if 0 <= bound[x] <= limit - turn + 1:
                            reach[n_reach] = x
                            n_reach += 1
            done = m
        n_new = 0
        for i in range(n_reach):
            s = reach[i]
            if level[s] < 0:
                level[s] = turn
                if 0 <= bound[s] <= limit - turn:
                    reach[n_new] = s
                    n_new += 1
        for i in range(n_front):  # the lone backward step
            s = frontier[i]
            if _step_ok(back, side_a, side_b, grid, c0, strict, s, s ^ 4):
                x = back[s]
                if level[x] < 0:
                    level[x] = turn
                    if 0 <= bound[x] <= limit - turn:
                        reach[n_new] = x
                        n_new += 1
        if n_new == 0:
            return 0
        frontier[:n_new] = reach[:n_new]
        n_front = n_new
    return 0


@jit
def escape_routes(b: Board, pos: Position, p: int, turns: int, level: Any, nxt: Any,
                  cells: Any) -> int:  # fmt: skip
    """``escape_route``'s routes of a search (``escape_search`` with its ``level``) that
    escaped in ``turns``: ``nxt[s]`` the states the piece can end its next turn in on a
    shortest route, ``cells[c]`` the cells such routes enter (start cell excluded);
    returns how many ``nxt`` states there are.

    ``escape_route._routes`` on sparse state lists: level by level from the last,
    ``chain`` = the states reaching ``target`` (the next level's route states; the escape
    states after the last level) within ``j`` single steps (``depth[s] <= j``, grown from
    the states the previous step added), ``on`` = those of this level from which one turn
    ends in ``target``; the cells of route states are collected walking ``on`` forward."""
    n = 8 * b.flags[1]
    grid = pos.grid
    c0 = pos.cell[p]
    strict = b.flags[2] != 0
    fwd, back, side_a, side_b = b.fwd, b.back, b.side_a, b.side_b
    speed = b.speed[p]
    esc = b.escape[b.side[p]]
    nxt[:n] = False
    cells[: b.flags[1]] = False
    big = speed + 9
    depth = np.full(n, big, np.int64)  # chain depth of a state in this level's search
    chain = np.empty(n, np.int64)
    target = np.empty(n, np.int64)
    n_target = 0
    for s in range(n):
        if esc[s]:
            target[n_target] = s
            n_target += 1
    in_reach = np.zeros(n, np.bool_)
    on = np.empty(n, np.int64)
    walked = np.zeros(n, np.bool_)
    walk = np.empty(n, np.int64)
    for k in range(turns - 1, -1, -1):
        last = k == turns - 1
        steps = speed - 1 if last else speed
        n_chain = 0
        for i in range(n_target):
            depth[target[i]] = 0
            chain[n_chain] = target[i]
            n_chain += 1
        done = 0
        for j in range(1, steps + 1):  # the states one single step before (older added)
            m = n_chain
            for i in range(done, m):
                x = chain[i]
                base = x & ~7
                for q in range(3):
                    if q == 2:
                        y = back[x]  # the state whose forward step enters x
                        if y < 0 or not _step_ok(fwd, side_a, side_b, grid, c0, strict, y, y):
                            break
                    else:
                        y = base | ((x + 2 * q + 7) & 7)
                    if depth[y] > j:
                        if depth[y] == big:
                            chain[n_chain] = y
                            n_chain += 1
                        depth[y] = j
            done = m
        n_on = 0
        for i in range(n_chain):
            s = chain[i]
            in_reach[s] = True
            if level[s] == k:
                on[n_on] = s
                n_on += 1
        if not last:  # or by the lone backward step, which enters only its end cell
            for i in range(n_target):
                x = target[i]
                cells[x >> 3] = True
                y = fwd[x]  # the state whose backward step enters x
                if y >= 0 and not in_reach[y] and level[y] == k:
                    if _step_ok(back, side_a, side_b, grid, c0, strict, y, y ^ 4):
                        in_reach[y] = True
                        on[n_on] = y
                        n_on += 1
        # the cells of the states on a path of up to ``steps`` single steps from on to target
        n_walk = 0
        for i in range(n_on):
            walked[on[i]] = True
            walk[n_walk] = on[i]
            n_walk += 1
        done = 0
        for j in range(steps + 1):
            for i in range(n_walk):
                s = walk[i]
                if depth[s] <= steps - j:
                    cells[s >> 3] = True
            if j < steps:
                m = n_walk
                for i in range(done, m):
                    s = walk[i]
                    base = s & ~7
                    for q in range(3):
                        if q == 2:
                            if not _step_ok(fwd, side_a, side_b, grid, c0, strict, s, s):
                                break
                            y = fwd[s]
                        else:
                            y = base | ((s + 2 * q + 7) & 7)
                        if not walked[y]:
                            walked[y] = True
                            walk[n_walk] = y
                            n_walk += 1
                done = m
        for i in range(n_walk):
            walked[walk[i]] = False
        for i in range(n_chain):
            depth[chain[i]] = big
            in_reach[chain[i]] = False
        for i in range(n_on):
            in_reach[on[i]] = False
            target[i] = on[i]
            if k == 1:
                nxt[on[i]] = True
        n_target = n_on
    cells[c0] = False
    return int(nxt[:n].sum())
