"""What the Tank Chess heuristic asks of the enemy's fire, in numba (``agents.heuristic``
``attack_map``/``killers``, ``agents.threats.Threats.exposed`` and
``agents.defence.coverage``), over the arrays of ``base``.

``reach_masks`` records, per armour of our command tank (front, side, rear) and fire mode,
the states enemy pieces whose gun beats it can stand in after one move (current states
included), in the position they were built in; ``exposed`` then answers in the current
position (the masks kept, as ``Threats`` keeps them) whether a piece could destroy our
command tank there.
"""

from __future__ import annotations

from typing import Any

from tankmap.analysis.simulation.tank_chess.kernel.base import Board, Position, jit
from tankmap.analysis.simulation.tank_chess.kernel.moves import piece_end_states
from tankmap.rules.tank_chess.data import FIRE_FIXED, FIRE_MORTAR, FIRE_TURRET

EMPTY = -1
BLOCKED = -2


@jit
def attack_cells(b: Board, pos: Position, side: int, att: Any, n_att: Any) -> None:
    """``attack_map(st, side)``: ``att[c, k]`` = piece * 8 + direction from ``c`` back to
    it, for the ``n_att[c]`` pieces of ``side`` that could shoot at cell ``c``."""
    size = b.flags[1]
    grid = pos.grid
    n_att[:size] = 0
    for e in b.pieces[side]:
        if e < 0 or not pos.alive[e] or pos.cell[e] < 0:
            continue
        c = pos.cell[e]
        f = pos.facing[e]
        if b.fire[e] == FIRE_MORTAR:
            j = f * size + c
            for k in range(b.mortar_len[j]):
                x = b.mortar[j, k]
                att[x, n_att[x]] = e * 8 + ((f + 4) & 7)
                n_att[x] += 1
            continue
        lo, hi = (7, 10) if b.fire[e] == FIRE_TURRET else (8, 9)
        for dd in range(lo, hi):
            d = (f + dd) & 7
            i = d * size + c
            a = b.ray_first[i]
            if a < 0 or grid[a] != EMPTY:
                continue
            for k in range(b.ray_len[i]):
                x = b.ray_rest[i, k]
                v = grid[x]
                if v == BLOCKED:
                    break
                att[x, n_att[x]] = e * 8 + ((d + 4) & 7)
                n_att[x] += 1
                if v != EMPTY:
                    break


@jit
def killers(b: Board, att: Any, n_att: Any, p: int, c: int, f: int) -> bool:
    """``bool(killers(st, attacks, p, c, f))``: a piece of ``att`` destroys ``p`` on ``c``
    facing ``f``."""
    for k in range(n_att[c]):
        e = att[c, k] >> 3
        d = att[c, k] & 7
        i = 0 if d == f else 2 if d == (f + 4) & 7 else 1
        if b.gun[e] > b.armour[p, i]:
            return True
    return False


@jit
def reach_masks(b: Board, pos: Position, side: int, target: int, work: Any, states: Any,
                reach: Any, masks: Any) -> None:  # fmt: skip
    """``Threats(st, side, st.armour[target])``: ``reach[k, s]`` for the ``k``-th piece of
    ``side`` (``Board.pieces`` order; live pieces only), ``masks[a, mode, s]`` their union
    over the pieces whose gun beats armour ``a`` (0 front, 1 side, 2 rear of ``target``)."""
    n = 8 * b.flags[1]
    reach[:, :n] = False
    masks[:, :, :n] = False
    grid = pos.grid
    row = b.pieces[side]
    for k in range(row.shape[0]):
        e = row[k]
        if e < 0 or not pos.alive[e] or pos.cell[e] < 0:
            continue
        c0 = pos.cell[e]
        grid[c0] = EMPTY
        ns, _ = piece_end_states(b, pos, e, work, states)
        grid[c0] = e
        here = c0 * 8 + pos.facing[e]
        for i in range(ns):
            reach[k, states[i]] = True
        reach[k, here] = True
        for a in range(3):
            if b.gun[e] > b.armour[target, a]:
                m = masks[a, b.fire[e]]
                for i in range(ns):
                    m[states[i]] = True
                m[here] = True


@jit
def merge_without(b: Board, side: int, target: int, reach: Any, skip: int, out: Any) -> None:
    """``masks`` of ``reach_masks`` leaving piece ``skip`` out (it is being destroyed)."""
    n = reach.shape[1]
    out[:, :, :] = False
    row = b.pieces[side]
    for k in range(row.shape[0]):
        e = row[k]
        if e < 0 or e == skip:
            continue
        for a in range(3):
            if b.gun[e] > b.armour[target, a]:
                m = out[a, b.fire[e]]
                for s in range(n):
                    if reach[k, s]:
                        m[s] = True


@jit
def exposed(b: Board, pos: Position, p: int, masks: Any) -> bool:
    """``Threats.exposed(p, ...)`` in the current position with the union ``masks``."""
    size = b.flags[1]
    grid = pos.grid
    c0 = pos.cell[p]
    f0 = pos.facing[p]
    tur = masks[0:3, FIRE_TURRET]
    mor = masks[0:3, FIRE_MORTAR]
    fix = masks[0:3, FIRE_FIXED]
    for d in range(8):
        i = d * size + c0
        a = b.ray_first[i]
        if a < 0:
            continue
        ai = 0 if d == f0 else 2 if d == (f0 + 4) & 7 else 1
        back = (d + 4) & 7
        n = b.ray_len[i]
        for k in range(1, min(n, 4)):  # mortars 3 to 5 cells away, over anything
            if mor[ai, b.ray_rest[i, k] * 8 + back]:
                return True
        if grid[a] != EMPTY:
            continue
        left = (back + 7) & 7
        right = (back + 1) & 7
        for k in range(n):
            x = b.ray_rest[i, k] * 8
            if fix[ai, x + back] or tur[ai, x + back] or tur[ai, x + left] or tur[ai, x + right]:
                return True
            if grid[x >> 3] != EMPTY:
                break
    return False


@jit
def covered(b: Board, pos: Position, q: int, enemy: int, nxt: Any) -> int:
    """``agents.defence._covered``: how many of the next route states ``nxt`` of
    ``enemy`` piece ``q`` could destroy it in from where it stands."""
    size = b.flags[1]
    grid = pos.grid
    c = pos.cell[q]
    f = pos.facing[q]
    gun = b.gun[q]
    ec = pos.cell[enemy]
    front, side_armour, rear = b.armour[enemy, 0], b.armour[enemy, 1], b.armour[enemy, 2]
    hit = 0
    if b.fire[q] == FIRE_MORTAR:
        j = f * size + c
        d = (f + 4) & 7
        for k in range(b.mortar_len[j]):
            x = b.mortar[j, k]
            for g in range(8):
                if nxt[x * 8 + g]:
                    armour = front if g == d else rear if g == f else side_armour
                    hit += gun > armour
        return hit
    lo, hi = (7, 10) if b.fire[q] == FIRE_TURRET else (8, 9)
    for dd in range(lo, hi):
        d = (f + dd) & 7
        i = d * size + c
        a = b.ray_first[i]
        if a < 0 or (grid[a] != EMPTY and a != ec):
            continue
        back = (d + 4) & 7
        for k in range(b.ray_len[i]):
            x = b.ray_rest[i, k]
            for g in range(8):
                if nxt[x * 8 + g]:
                    armour = front if g == back else rear if g == d else side_armour
                    hit += gun > armour
            if grid[x] != EMPTY and x != ec:
                break
    return hit


def masks_shape(b: Board) -> tuple[int, int, int]:
    """The shape of ``reach_masks``'s ``masks`` (armour, fire mode, state)."""
    return 3, 3, 8 * int(b.flags[1])
