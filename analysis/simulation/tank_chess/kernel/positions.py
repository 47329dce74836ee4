"""A memo of the heuristic's position facts across games (``heuristic``).

Self-play meets the same positions again and again (about three plies in four on
basic-16). Kept under the exact key (side to move, banned kinds, each piece's cell,
facing and alive flag), from a position's first sight on, are pure functions of the
position: the allowed legal turns (in order), the threat of the enemy command tank (its
turns to escape, whether it races ours, the cells its shortest routes enter and its next
route states), the exposure of our command tank (``still``) and, per turn, facts found
on first use (``fact``): the exposure after the turn, the turns a blocking move delays
the enemy, the route states a move covers.

Arrays (``positions_memo``): the entry table (``width`` ints each: key, then turn count,
pool offset, threat flag, escape turns, route cell count, next state count, still), the
pool (turns, each an int with its facts in the upper half, route cells, next states),
the counts, and the key being looked up. When the pool or table fills up, everything is
forgotten at once: answers never depend on what was remembered.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.tank_chess.kernel.base import Board, Position, jit

HEAD = 7
"""Ints after the key in an entry."""


def positions_memo(
    b: Board, entries: int = 1 << 13, pool: int = 1 << 21
) -> tuple[npt.NDArray[np.int64], ...]:
    """Arrays of an empty memo with ``entries`` slots (0, or a board too large for a
    turn in 32 bits: nothing is remembered)."""
    if len(b.kind) > 254 or int(b.flags[1]) > 4094:
        entries = 0
    width = len(b.kind) + 2 + HEAD
    i64 = np.int64
    return (
        np.full(entries * width, -1, i64),
        np.empty(pool if entries else 0, i64),
        np.zeros(2, i64),
        np.empty(len(b.kind) + 2, i64),
    )


@jit
def make_key(b: Board, pos: Position, banned: int, key: Any) -> int:
    """Fill ``key`` for the position and return its hash."""
    key[0] = pos.meta[0]
    key[1] = banned
    h = pos.meta[0] * 31 + banned * 1000003
    for p in range(b.kind.shape[0]):
        v = (pos.cell[p] + 1) * 16 + pos.facing[p] * 2 + pos.alive[p]
        key[p + 2] = v
        h = h * 1000003 + v
    h ^= h >> 29
    return int(h & 0x3FFFFFFFFFFFFFFF)


@jit
def find(memo: Any, h: int) -> int:
    """The entry (its first int's index) holding the key ``memo[3]`` (hash ``h``), or -1."""
    table, key = memo[0], memo[3]
    k = key.shape[0]
    width = k + HEAD
    entries = table.shape[0] // width
    if entries == 0:
        return -1
    i = h & (entries - 1)
    while True:
        j = i * width
        if table[j] == -1:
            return -1
        same = True
        for q in range(k):
            if table[j + q] != key[q]:
                same = False
                break
        if same:
            return int(j)
        i = (i + 1) & (entries - 1)


@jit
def recall_turns(memo: Any, j: int, buf: Any) -> int:
    """Copy entry ``j``'s turns to ``buf``; their count."""
    table, pool = memo[0], memo[1]
    k = memo[3].shape[0]
    n = table[j + k]
    at = table[j + k + 1]
    for t in range(n):
        v = pool[at + t]
        buf[t, 0] = v & 255
        buf[t, 1] = (v >> 8 & 4095) - 1
        buf[t, 2] = (v >> 20 & 15) - 1
        buf[t, 3] = (v >> 24 & 255) - 1
    return int(n)


@jit
def recall_threat(memo: Any, j: int, route: Any, nxt: Any) -> tuple[bool, int, int]:
    """Entry ``j``'s threat: sets its ``route`` cells and ``nxt`` states (arrays all
    False on entry); returns the threat flag, the escape turns and the next state count."""
    table, pool = memo[0], memo[1]
    k = memo[3].shape[0]
    at = table[j + k + 1] + table[j + k]
    n_route = table[j + k + 4]
    n_next = table[j + k + 5]
    for i in range(n_route):
        route[pool[at + i]] = True
    for i in range(n_next):
        nxt[pool[at + n_route + i]] = True
    return bool(table[j + k + 2] != 0), int(table[j + k + 3]), int(n_next)


@jit
def store(memo: Any, h: int, buf: Any, n: int, threat: bool, e_turns: int, route: Any,
          nxt: Any, n_next: int) -> int:  # fmt: skip
    """Remember the key ``memo[3]`` (hash ``h``) with its ``n`` turns in ``buf`` and its
    threat (``route``/``nxt`` read only when ``threat``); the new entry (-1: too big)."""
    table, pool, counts, key = memo[0], memo[1], memo[2], memo[3]
    k = key.shape[0]
    width = k + HEAD
    entries = table.shape[0] // width
    n_route = 0
    if threat:
        for c in range(route.shape[0]):
            n_route += route[c]
    need = n + (n_route + n_next if threat else 0)
    if need > pool.shape[0]:
        return -1
    if counts[0] + need > pool.shape[0] or 2 * (counts[1] + 1) > entries:
        for i in range(entries):
            table[i * width] = -1
        counts[0] = 0
        counts[1] = 0
    i = h & (entries - 1)
    while table[i * width] != -1:
        i = (i + 1) & (entries - 1)
    j = i * width
    at = counts[0]
    table[j : j + k] = key
    table[j + k] = n
    table[j + k + 1] = at
    table[j + k + 2] = threat
    table[j + k + 3] = e_turns
    table[j + k + 4] = n_route if threat else 0
    table[j + k + 5] = n_next if threat else 0
    table[j + k + 6] = -1
    for t in range(n):
        pool[at + t] = (
            buf[t, 0] | (buf[t, 1] + 1) << 8 | (buf[t, 2] + 1) << 20 | (buf[t, 3] + 1) << 24
        )
    at += n
    if threat:
        for c in range(route.shape[0]):
            if route[c]:
                pool[at] = c
                at += 1
        for s in range(nxt.shape[0]):
            if nxt[s]:
                pool[at] = s
                at += 1
    counts[0] = at
    counts[1] += 1
    return int(j)


VERDICT, DELAY, COVERS = 32, 34, 38
"""Bit offsets of a turn's facts, above the turn: exposure verdict + 1 (2 bits), delay + 8
(4 bits), covered states + 1 (the rest); 0 = not known yet."""
UNKNOWN = -99


@jit
def fact(memo: Any, j: int, t: int, what: int) -> int:
    """Fact ``what`` (``VERDICT``/``DELAY``/``COVERS``) of turn ``t`` of entry ``j`` (-1:
    no entry), or ``UNKNOWN``."""
    if j < 0:
        return UNKNOWN
    table, pool = memo[0], memo[1]
    k = memo[3].shape[0]
    v = pool[table[j + k + 1] + t] >> what
    if what == VERDICT:
        v &= 3
    elif what == DELAY:
        v &= 15
    if v == 0:
        return UNKNOWN
    return int(v - (8 if what == DELAY else 1))


@jit
def set_fact(memo: Any, j: int, t: int, what: int, value: int) -> None:
    """Remember fact ``what`` of turn ``t`` of entry ``j`` (nothing when ``j`` < 0)."""
    if j < 0:
        return
    table, pool = memo[0], memo[1]
    k = memo[3].shape[0]
    at = table[j + k + 1] + t
    pool[at] |= (value + (8 if what == DELAY else 1)) << what


@jit
def still(memo: Any, j: int) -> int:
    """The remembered exposure of entry ``j``'s position (-1: not known, or no entry)."""
    if j < 0:
        return -1
    return int(memo[0][j + memo[3].shape[0] + 6])


@jit
def set_still(memo: Any, j: int, value: int) -> None:
    if j >= 0:
        memo[0][j + memo[3].shape[0] + 6] = value
