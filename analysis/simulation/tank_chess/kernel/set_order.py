"""CPython's ``set`` of small non-negative ints, in numba (for ``moves``).

``movegen.end_states`` answers with a Python ``set`` and the turn lists follow its
iteration order, which depends on the order of insertions, the removals and the table's
resizes. To list turns in the very same order the kernel replays those operations on the
same open-addressing table: CPython 3.11 ``Objects/setobject.c`` (``set_add_entry`` with
its 9 linear probes and perturbed jumps, a removed key left as a dummy, the last dummy
passed on the way to a free slot reused, a resize to the
smallest power of two above ``4 * used`` once ``5 * fill >= 3 * mask``). An int hashes to
itself. ``tab`` holds the keys (``FREE`` or ``DUMMY`` for empty slots) and ``meta`` the
``mask, fill, used`` counters (and, for callers, a fourth slot the set leaves alone);
``tmp`` is scratch space of the same length.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from tankmap.analysis.simulation.tank_chess.kernel.base import inline, jit

FREE = -1
DUMMY = -2
LINEAR_PROBES = 9
MINSIZE = 8


@inline
def set_clear(tab: Any, meta: Any) -> None:
    """Make the set empty (the 8-slot table of a new set)."""
    for i in range(MINSIZE):
        tab[i] = FREE
    meta[0] = MINSIZE - 1
    meta[1] = 0
    meta[2] = 0


@inline
def _insert_clean(tab: Any, mask: int, key: int) -> None:
    i = key & mask
    perturb = key
    while True:
        if tab[i] == FREE:
            tab[i] = key
            return
        if i + LINEAR_PROBES <= mask:
            for j in range(i + 1, i + LINEAR_PROBES + 1):
                if tab[j] == FREE:
                    tab[j] = key
                    return
        perturb >>= 5
        i = (i * 5 + 1 + perturb) & mask


@jit  # rare (the table grows): called, not copied into each set_add
def _resize(tab: Any, tmp: Any, meta: Any, minused: int) -> None:
    size = MINSIZE
    while size <= minused:
        size <<= 1
    n = 0
    for i in range(meta[0] + 1):
        if tab[i] >= 0:
            tmp[n] = tab[i]
            n += 1
    for i in range(size):
        tab[i] = FREE
    mask = size - 1
    for i in range(n):
        _insert_clean(tab, mask, tmp[i])
    meta[0] = mask
    meta[1] = n
    meta[2] = n


@inline
def set_add(tab: Any, tmp: Any, meta: Any, key: int) -> None:
    """``s.add(key)``."""
    mask = meta[0]
    i = key & mask
    perturb = key
    free = -1
    while True:
        probes = LINEAR_PROBES if i + LINEAR_PROBES <= mask else 0
        j = i
        while True:
            v = tab[j]
            if v == DUMMY:
                free = j
            elif v == FREE:
                if free >= 0:  # the last dummy met on the way takes the key
                    tab[free] = key
                    meta[2] += 1
                    return
                tab[j] = key
                meta[1] += 1
                meta[2] += 1
                if meta[1] * 5 >= mask * 3:
                    used = meta[2]
                    _resize(tab, tmp, meta, used * 2 if used > 50000 else used * 4)
                return
            if v == key:
                return
            if probes == 0:
                break
            probes -= 1
            j += 1
        perturb >>= 5
        i = (i * 5 + 1 + perturb) & mask


@inline
def set_discard(tab: Any, meta: Any, key: int) -> None:
    """``s.discard(key)``."""
    mask = meta[0]
    i = key & mask
    perturb = key
    while True:
        probes = LINEAR_PROBES if i + LINEAR_PROBES <= mask else 0
        j = i
        while True:
            v = tab[j]
            if v == FREE:
                return
            if v == key:
                tab[j] = DUMMY
                meta[2] -= 1
                return
            if probes == 0:
                break
            probes -= 1
            j += 1
        perturb >>= 5
        i = (i * 5 + 1 + perturb) & mask


@inline
def set_items(tab: Any, meta: Any, out: Any) -> int:
    """Write the keys to ``out`` in iteration order; return how many."""
    n = 0
    for i in range(meta[0] + 1):
        if tab[i] >= 0:
            out[n] = tab[i]
            n += 1
    return n


@jit
def replay(ops: Any, tab: Any, tmp: Any, meta: Any, out: Any) -> int:
    """Apply ``ops`` (``k``: add ``k``; ``-k - 1``: discard ``k``) to an empty set, write its
    items to ``out`` in iteration order and return how many."""
    set_clear(tab, meta)
    for k in ops:
        if k >= 0:
            set_add(tab, tmp, meta, k)
        else:
            set_discard(tab, meta, -k - 1)
    return set_items(tab, meta, out)


@cache
def agrees() -> bool:
    """Whether this interpreter's ``set`` iterates as the emulation does (checked once on
    seeded add/discard sequences; another Python version may order sets differently, and
    then the kernel must not be used)."""
    rng = np.random.default_rng(12)
    tab, tmp, out = (np.empty(1 << 12, np.int64) for _ in range(3))
    meta = np.zeros(4, np.int64)
    for top in (16, 300, 2048, 16, 300, 2048):
        ops = rng.integers(0, top, 300)
        drop = rng.random(300) < 0.15
        ops[drop] = -ops[drop] - 1
        ref: set[int] = set()
        for k in ops.tolist():
            if k >= 0:
                ref.add(k)
            else:
                ref.discard(-k - 1)
        n = replay(ops, tab, tmp, meta, out)
        if out[:n].tolist() != list(ref):
            return False
    return True
