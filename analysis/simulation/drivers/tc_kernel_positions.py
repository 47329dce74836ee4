"""A memo of the heuristic's position facts across games (``tc_kernel_heuristic``).

Self-play meets the same positions again and again (about three plies in four on
basic-16). What ``heuristic_choice`` finds before its first draw-dependent step is a pure
function of the position and the banned kinds: the allowed legal turns (in order) and the
threat of the enemy command tank (its turns to escape, whether it races ours, the cells
its shortest routes enter and its next route states). Those are kept here under the exact
key (side to move, banned kinds, each piece's cell, facing and alive flag), from a
position's second sight on (a table of hashes remembers the first). Arrays
(``positions_memo``): the entry table (``width`` ints each: key, then turn count, pool
offset, threat flag, escape turns, route cell count, next state count), the pool (turns
as four ints, then route cells, then next states), the seen hashes, counts, and the key
being looked up. When the pool or table fills up, everything is forgotten at once:
answers never depend on what was remembered.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.drivers.tc_kernel_base import Board, Position, jit

HEAD = 6
"""Ints after the key in an entry."""


def positions_memo(
    b: Board, entries: int = 1 << 13, pool: int = 1 << 21
) -> tuple[npt.NDArray[np.int64], ...]:
    """Arrays of an empty memo with ``entries`` slots (0: nothing is remembered)."""
    width = len(b.kind) + 2 + HEAD
    i64 = np.int64
    return (
        np.full(entries * width, -1, i64),
        np.empty(pool if entries else 0, i64),
        np.zeros(4 * entries, i64),
        np.zeros(3, i64),
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
    """The entry (its first int's index) holding the key ``memo[4]`` (hash ``h``), or -1."""
    table, key = memo[0], memo[4]
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
def seen_before(memo: Any, h: int) -> bool:
    """Whether hash ``h`` was met before (it is marked met now); always False without a
    memo. A hash collision only stores a position one sight early."""
    seen = memo[2]
    m = seen.shape[0]
    if m == 0:
        return False
    i = h & (m - 1)
    while True:
        v = seen[i]
        if v == h + 1:
            return True
        if v == 0:
            counts = memo[3]
            if 2 * (counts[2] + 1) > m:
                seen[:] = 0
                counts[2] = 0
                i = h & (m - 1)
            seen[i] = h + 1
            counts[2] += 1
            return False
        i = (i + 1) & (m - 1)


@jit
def recall_turns(memo: Any, j: int, buf: Any) -> int:
    """Copy entry ``j``'s turns to ``buf``; their count."""
    table, pool = memo[0], memo[1]
    k = memo[4].shape[0]
    n = table[j + k]
    at = table[j + k + 1]
    for t in range(n):
        for q in range(4):
            buf[t, q] = pool[at + 4 * t + q]
    return int(n)


@jit
def recall_threat(memo: Any, j: int, route: Any, nxt: Any) -> tuple[bool, int, int]:
    """Entry ``j``'s threat: sets its ``route`` cells and ``nxt`` states (arrays all
    False on entry); returns the threat flag, the escape turns and the next state count."""
    table, pool = memo[0], memo[1]
    k = memo[4].shape[0]
    at = table[j + k + 1] + 4 * table[j + k]
    n_route = table[j + k + 4]
    n_next = table[j + k + 5]
    for i in range(n_route):
        route[pool[at + i]] = True
    for i in range(n_next):
        nxt[pool[at + n_route + i]] = True
    return bool(table[j + k + 2] != 0), int(table[j + k + 3]), int(n_next)


@jit
def store(memo: Any, h: int, buf: Any, n: int, threat: bool, e_turns: int, route: Any,
          nxt: Any, n_next: int) -> None:  # fmt: skip
    """Remember the key ``memo[4]`` (hash ``h``) with its ``n`` turns in ``buf`` and its
    threat (``route``/``nxt`` read only when ``threat``)."""
    table, pool, counts, key = memo[0], memo[1], memo[3], memo[4]
    k = key.shape[0]
    width = k + HEAD
    entries = table.shape[0] // width
    n_route = 0
    if threat:
        for c in range(route.shape[0]):
            n_route += route[c]
    need = 4 * n + (n_route + n_next if threat else 0)
    if need > pool.shape[0]:
        return
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
    for t in range(n):
        for q in range(4):
            pool[at + 4 * t + q] = buf[t, q]
    at += 4 * n
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
