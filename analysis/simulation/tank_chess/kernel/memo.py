"""A memo of the kernel's end states across positions and games (``moves``).

``movegen.end_states`` of a piece depends only on its state, its speed, its side (a
command tank's escape) and which cells the walk of its move tree looks at are occupied:
all of them lie within ``speed`` cells (king moves) of the start, so the occupancy of the
11 x 11 window around it (``window``, two 64-bit words) completes the key. Entries live
in an open-addressing table over ``work[6]`` (``ENTRY`` ints each: state, flag, the two
words, offset and count of the states in the pool ``work[5]``, escape); ``work[7]`` holds
the pool and entry counts. When either fills up, everything is forgotten at once.

``escape_recall``/``escape_remember`` do the same for the turns to escape of
``escape.escape_turns``, keyed by the whole board's occupancy (``occupancy``).
"""

from __future__ import annotations

from typing import Any

from tankmap.analysis.simulation.tank_chess.kernel.base import inline, jit, leaf

RADIUS = 5
"""Window half-width: pieces faster than this are not remembered."""
ENTRY = 7
EMPTY = -1


@leaf
def window(b: Any, grid: Any, c0: int) -> tuple[int, int]:
    """Bit ``(dy + 5) * 11 + dx + 5`` (the first 63 in the first word, the rest in the
    second) set for each occupied cell ``(dx, dy)`` from ``c0`` within ``RADIUS``."""
    cols = b.flags[0]
    rows = b.flags[1] // cols
    col, row = c0 % cols, c0 // cols
    w0 = 0
    w1 = 0
    for y in range(max(0, row - RADIUS), min(rows, row + RADIUS + 1)):
        base = (y - row + RADIUS) * 11 - col + RADIUS
        for x in range(max(0, col - RADIUS), min(cols, col + RADIUS + 1)):
            if grid[y * cols + x] != EMPTY:
                k = base + x
                if k < 63:
                    w0 |= 1 << k
                else:
                    w1 |= 1 << (k - 63)
    return w0, w1


@inline
def _slot(entries: int, s0: int, flag: int, w0: int, w1: int) -> int:
    h = s0 * 40503 + flag * 977 + (w0 ^ (w0 >> 17)) * 2654435761 + (w1 ^ (w1 >> 13)) * 97
    return (h ^ (h >> 15)) & (entries - 1)


@leaf
def lookup(work: Any, s0: int, flag: int, w0: int, w1: int) -> int:
    """The table entry (its first int's index) remembered for this key, or -1."""
    table = work[6]
    entries = table.shape[0] // ENTRY
    i = _slot(entries, s0, flag, w0, w1)
    while True:
        j = i * ENTRY
        if table[j] == -1:
            return -1
        if table[j] == s0 and table[j + 1] == flag and table[j + 2] == w0 and table[j + 3] == w1:
            return j
        i = (i + 1) & (entries - 1)


@leaf
def recall(work: Any, j: int, states: Any) -> tuple[int, bool]:
    """Copy entry ``j``'s states to ``states``; their count and the escape."""
    table = work[6]
    pool = work[5]
    at = table[j + 4]
    n = table[j + 5]
    for k in range(n):
        states[k] = pool[at + k]
    return int(n), bool(table[j + 6] != 0)


@leaf
def remember(work: Any, s0: int, flag: int, w0: int, w1: int, states: Any, n: int,
             escaped: bool) -> None:  # fmt: skip
    """Add an entry (forgetting everything first when the table or pool is full)."""
    table = work[6]
    pool = work[5]
    used = work[7]
    entries = table.shape[0] // ENTRY
    if used[0] + n > pool.shape[0] or 2 * (used[1] + 1) > entries:
        for i in range(entries):
            table[i * ENTRY] = -1
        used[0] = 0
        used[1] = 0
    i = _slot(entries, s0, flag, w0, w1)
    while table[i * ENTRY] != -1:
        i = (i + 1) & (entries - 1)
    j = i * ENTRY
    table[j] = s0
    table[j + 1] = flag
    table[j + 2] = w0
    table[j + 3] = w1
    table[j + 4] = used[0]
    table[j + 5] = n
    table[j + 6] = escaped
    at = used[0]
    for k in range(n):
        pool[at + k] = states[k]
    used[0] += n
    used[1] += 1


@jit
def occupancy(grid: Any, words: Any) -> None:
    """``words``: bit ``c & 63`` of word ``c >> 6`` set for each occupied cell ``c``."""
    words[:] = 0
    for c in range(grid.shape[0]):
        if grid[c] != EMPTY:
            words[c >> 6] |= 1 << (c & 63)


@jit
def escape_recall(table: Any, head: Any, words: Any) -> int:
    """The answer remembered in ``table`` for the key ``head`` (piece state, flag, limit)
    and ``words`` (the board's occupancy), or -2. An entry is ``4 + len(words)`` ints:
    the head, the answer, the words."""
    width = 4 + words.shape[0]
    entries = table.shape[0] // width
    h = head[0] * 40503 + head[1] * 977 + head[2] * 31
    for w in words:
        h = h * 1000003 + (w ^ (w >> 23))
    i = (h ^ (h >> 15)) & (entries - 1)
    while True:
        j = i * width
        if table[j] == -1:
            return -2
        if table[j] == head[0] and table[j + 1] == head[1] and table[j + 2] == head[2]:
            same = True
            for k in range(words.shape[0]):
                if table[j + 4 + k] != words[k]:
                    same = False
                    break
            if same:
                return int(table[j + 3])
        i = (i + 1) & (entries - 1)


@jit
def escape_remember(table: Any, used: Any, head: Any, words: Any, answer: int) -> None:
    """Remember ``answer`` for the key (``escape_recall``); forget everything when the
    table is half full."""
    width = 4 + words.shape[0]
    entries = table.shape[0] // width
    if 2 * (used[0] + 1) > entries:
        for i in range(entries):
            table[i * width] = -1
        used[0] = 0
    h = head[0] * 40503 + head[1] * 977 + head[2] * 31
    for w in words:
        h = h * 1000003 + (w ^ (w >> 23))
    i = (h ^ (h >> 15)) & (entries - 1)
    while table[i * width] != -1:
        i = (i + 1) & (entries - 1)
    j = i * width
    table[j] = head[0]
    table[j + 1] = head[1]
    table[j + 2] = head[2]
    table[j + 3] = answer
    table[j + 4 : j + 4 + words.shape[0]] = words
    used[0] += 1
