"""The ``alphabeta`` agent's position hashes and transposition table, in numba (the
plain-Python twin is ``agents/alphabeta_ref.py``, which reads the same keys).

**Zobrist hash**: the XOR of one random 64-bit key per live piece and state
(``live[p, cell * 8 + facing]``), per wreck and cell (``wreck[p, cell]``) and, when
Black is to move, ``side``. The keys come from a fixed seed, so a position hashes the same
in every process. ``make`` (``alphabeta``) updates it with two or three XORs.

**Table**: ``TT_SIZE`` slots indexed by the hash's low bits, each the full hash, the best
turn found (``encode``), the score and ``stamp << 8 | depth << 2 | bound``. A slot whose
stamp is not the current search's is empty, so each decision starts from an empty table
without clearing it (answers never depend on earlier decisions). A store always replaces
the slot's entry.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.tank_chess.kernel.base import Board, Position, inline, leaf

I64 = npt.NDArray[np.int64]

TT_SIZE = 1 << 15
"""Slots of the transposition table."""
EXACT, LOWER, UPPER = 0, 1, 2
"""Bound kinds of a stored score: exact, at least (a cut-off), at most (all moves failed low)."""
ZOBRIST_SEED = 20_260_429


class Keys(NamedTuple):
    """Zobrist keys of a board: ``live[p, state]``, ``wreck[p, cell]`` and ``side[0]``."""

    live: I64
    wreck: I64
    side: I64


def zobrist_keys(pieces: int, size: int) -> Keys:
    """The keys for ``pieces`` pieces on a board of ``size`` cells (fixed seed)."""
    rng = np.random.default_rng(ZOBRIST_SEED)
    lo, hi = np.iinfo(np.int64).min, np.iinfo(np.int64).max
    live = rng.integers(lo, hi, size=(pieces, 8 * size), dtype=np.int64, endpoint=True)
    wreck = rng.integers(lo, hi, size=(pieces, size), dtype=np.int64, endpoint=True)
    side = rng.integers(lo, hi, size=1, dtype=np.int64, endpoint=True)
    return Keys(live, wreck, side)


class Table(NamedTuple):
    """The transposition table's arrays (see the module docstring)."""

    key: I64
    move: I64
    score: I64
    info: I64


def new_table() -> Table:
    z = np.zeros
    i64 = np.int64
    return Table(z(TT_SIZE, i64), z(TT_SIZE, i64), z(TT_SIZE, i64), np.full(TT_SIZE, -1, i64))


@leaf
def position_hash(b: Board, pos: Position, keys: Keys) -> int:
    """The Zobrist hash of ``pos``."""
    h = 0
    for p in range(b.kind.shape[0]):
        c = pos.cell[p]
        if c < 0:
            continue
        if pos.alive[p]:
            h ^= keys.live[p, c * 8 + pos.facing[p]]
        else:
            h ^= keys.wreck[p, c]
    if pos.meta[0] == 1:
        h ^= keys.side[0]
    return int(h)


@inline
def encode(p: int, c: int, f: int, target: int) -> int:
    """A turn as one int (piece, cell + 1, facing + 1, target + 1 in bit fields); 0 is no
    turn."""
    return p + 1 | (c + 1) << 9 | (f + 1) << 22 | (target + 1) << 26


@leaf
def probe(tt: Table, h: int, stamp: int) -> int:
    """The slot holding ``h`` in this search (``stamp``), or -1."""
    i = h & (TT_SIZE - 1)
    if tt.info[i] >= 0 and tt.info[i] >> 8 == stamp and tt.key[i] == h:
        return int(i)
    return -1


@leaf
def store(tt: Table, h: int, stamp: int, depth: int, bound: int, score: int, move: int) -> None:
    """Put an entry in ``h``'s slot (replacing what was there)."""
    i = h & (TT_SIZE - 1)
    tt.key[i] = h
    tt.move[i] = move
    tt.score[i] = score
    tt.info[i] = stamp << 8 | depth << 2 | bound
