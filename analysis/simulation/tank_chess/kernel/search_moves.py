"""Turns as the ``alphabeta`` search handles them, in numba: make with the Zobrist hash
(``moves.pop`` takes a turn back), the order a node tries its turns in, and whether a
remembered turn (the transposition table's, a killer) is legal in the position at hand.

The plain-Python twin of each is in ``agents/alphabeta_ref.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tankmap.analysis.simulation.tank_chess.kernel.base import Board, Position, inline, jit, leaf
from tankmap.analysis.simulation.tank_chess.kernel.evaluation import shot_hits
from tankmap.analysis.simulation.tank_chess.kernel.moves import (
    EMPTY,
    hit_armour,
    piece_end_states,
    push,
)
from tankmap.analysis.simulation.tank_chess.kernel.transposition import Keys, encode
from tankmap.rules.tank_chess.data import COMMAND

TT_FIRST = 1 << 40
WINNING = 1 << 39
DESTROYS = 1 << 30
KILLER_1 = 1 << 29
KILLER_2 = 1 << 28
HISTORY_CAP = (1 << 28) - 1
"""Priorities of the turns of a node (``order_keys``); a history score counts up to
``HISTORY_CAP``."""
RANK_BITS = 20
"""A turn's rank among those of equal priority takes the low bits of its key."""
LAZY = 4
"""A node picks its first ``LAZY`` turns one by one and sorts the rest only when it
needs one more (most nodes are cut off before)."""


@leaf
def make(b: Board, pos: Position, z: Keys, h: int, t: Any, save: Any) -> int:
    """Play turn ``t`` (``moves.push``), keeping in ``save`` what ``moves.pop`` needs to
    take it back; the new hash of the position (``h`` before)."""
    p, c, f, target = t[0], t[1], t[2], t[3]
    oc, of = pos.cell[p], pos.facing[p]
    save[0] = oc
    save[1] = of
    save[2] = pos.meta[2]
    save[3] = pos.meta[3]
    h ^= z.live[p, oc * 8 + of] ^ z.side[0]
    destroyed = push(b, pos, p, c, f, target)
    save[4] = destroyed
    if c >= 0:
        h ^= z.live[p, c * 8 + f]
    if destroyed:
        tc = pos.cell[target]
        h ^= z.live[target, tc * 8 + pos.facing[target]] ^ z.wreck[target, tc]
    return int(h)


@inline
def destroys(b: Board, pos: Position, t: Any) -> bool:
    """Turn ``t`` (not an escape) shoots and destroys its target."""
    return bool(t[3] >= 0 and b.gun[t[0]] > hit_armour(b, pos, t[1], t[3]))


@leaf
def quiet(b: Board, pos: Position, t: Any) -> bool:
    """A turn that neither escapes nor destroys."""
    return t[1] >= 0 and not destroys(b, pos, t)


@leaf
def order_keys(b: Board, pos: Position, moves: Any, n: int, tt_move: int, killers: Any,
               history: Any, values: Any, rank: Any, keys: Any, order: Any) -> None:  # fmt: skip
    """Prepare to try ``moves[:n]`` in priority order, highest first: the transposition
    table's turn, wins (an escape, a shot destroying the command tank), other destroying
    shots (the most valuable target first, then the cheapest shooter), the ply's two
    ``killers``, then the ``history`` score; turns of equal priority by ``rank`` (or by
    their index when ``rank`` is empty). ``keys[i]`` = ``-(priority << RANK_BITS) +
    rank`` (all distinct: the smallest is tried first); ``order[:n]`` = 0..n-1, arranged
    by ``pick``."""
    ranked = rank.shape[0] > 0
    for i in range(n):
        t = moves[i]
        p, c, f, target = t[0], t[1], t[2], t[3]
        e = encode(p, c, f, target)
        if e == tt_move:
            k = TT_FIRST
        elif c < 0:
            k = WINNING
        elif destroys(b, pos, t):
            k = WINNING if b.kind[target] == COMMAND else DESTROYS + values[target] * 64 - values[p]
        elif e == killers[0]:
            k = KILLER_1
        elif e == killers[1]:
            k = KILLER_2
        else:
            k = min(history[p, c * 8 + f], HISTORY_CAP)
        keys[i] = -(k << RANK_BITS) + (rank[i] if ranked else i)
        order[i] = i


@jit
def pick(keys: Any, order: Any, k: int, n: int) -> int:
    """The index of the ``k``-th turn to try (``k`` = 0, 1, … in turn): the smallest key
    left, found by a scan for the first ``LAZY`` turns; at the next one the rest of
    ``order`` is sorted once."""
    if k < LAZY:
        j = k
        for m in range(k + 1, n):
            if keys[order[m]] < keys[order[j]]:
                j = m
        order[k], order[j] = order[j], order[k]
    elif k == LAZY:
        rest = order[LAZY:n]
        order[LAZY:n] = rest[np.argsort(keys[rest])]
    return int(order[k])


@leaf
def decode(e: int, out: Any) -> None:
    """``transposition.encode`` undone into ``out`` (piece, cell, facing, target)."""
    out[0] = (e & 511) - 1
    out[1] = ((e >> 9) & 8191) - 1
    out[2] = ((e >> 22) & 15) - 1
    out[3] = ((e >> 26) & 511) - 1


@leaf
def legal_move(b: Board, pos: Position, t: Any, banned: int, work: Any, states: Any) -> bool:
    """Turn ``t`` (not an escape) is one of ``moves.legal_turns(banned)`` in this
    position: a live piece of the side to move that may move (``banned`` kinds only when
    nothing else can), an end state it reaches, and a shot only at a live enemy its
    gun reaches from there."""
    p, c, f, target = t[0], t[1], t[2], t[3]
    me = pos.meta[0]
    if p < 0 or p >= b.kind.shape[0] or c < 0:
        return False
    if b.side[p] != me or not pos.alive[p] or pos.cell[p] < 0:
        return False
    if banned >> b.kind[p] & 1:
        for q in b.pieces[me]:
            if q >= 0 and pos.alive[q] and pos.cell[q] >= 0 and not banned >> b.kind[q] & 1:
                return False
    if target >= 0 and (b.side[target] == me or not pos.alive[target] or pos.cell[target] < 0):
        return False
    grid = pos.grid
    c0 = pos.cell[p]
    grid[c0] = EMPTY
    ns, _ = piece_end_states(b, pos, p, work, states)
    ok = False
    s = c * 8 + f
    for i in range(ns):
        if states[i] == s:
            ok = True
            break
    if ok and target >= 0:
        ok = shot_hits(b, pos, p, c, f, target)
    grid[c0] = p
    return ok
