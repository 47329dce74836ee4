"""The Tank Chess kernel's ground: numba decorators, the switch, and the arrays it reads.

``pack(st)`` turns a ``rules.tank_chess.state.GameState`` into ``Board`` (per-board tables
and per-piece constants, read only) and ``Position`` (the arrays a game changes). Options
the kernel models: ``strict_corners``, ``diagonal_escape`` (through the tables),
``backward_escape`` and ``max_turns``: every option of docs/rules.md §2.6.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.jit_cache import cache_folder
from tankmap.analysis.simulation.kernel_cache import guard_cache
from tankmap.analysis.simulation.kernel_switch import python_only
from tankmap.analysis.simulation.no_refcount import COUNTED, LEAF
from tankmap.analysis.simulation.tank_chess.ends import REASONS
from tankmap.analysis.simulation.unliteral import unliteral as unliteral
from tankmap.analysis.simulation.unliteral import unliteral_flag as unliteral_flag
from tankmap.rules.geometry import Facing
from tankmap.rules.tank_chess.state import GameState

_numba: Any
try:
    import numba as _numba
except ImportError:  # pragma: no cover - exercised only where numba cannot be installed
    _numba = None

F = TypeVar("F", bound=Callable[..., Any])

_HERE = Path(__file__).resolve().parent
KERNEL_SOURCES = (
    *sorted(_HERE.glob("*.py")),
    # constants compiled in
    _HERE.parents[3] / "rules" / "tank_chess" / "data.py",
    _HERE.parent / "prepared.py",
    _HERE.parent / "agents" / "scoring.py",
    _HERE.parent / "agents" / "defence.py",
    _HERE.parents[1] / "unliteral.py",  # inlined helpers
    _HERE.parents[1] / "no_refcount.py",  # compile options
)
"""The files whose text the compiled Tank Chess kernel depends on: every module of this
package and the constants it compiles in (``kernel_cache.guard_cache``)."""

# numba's cache folder, or a private temp one where the install is read-only (None: none)
CACHE = cache_folder(__file__) if _numba is not None else None
if CACHE is not None:  # numba checks only each function's own file (see guard_cache)
    guard_cache(CACHE, KERNEL_SOURCES, "tc_kernel", home=_HERE)


def jit(fn: F) -> F:
    """A compiled kernel function (numba, cached) that counts its arrays' references:
    one that may allocate an array or hand one back (``no_refcount``)."""
    if _numba is None:
        return fn
    return cast(
        F, _numba.njit(cache=CACHE is not None, nogil=True, error_model="numpy", **COUNTED)(fn)
    )


def leaf(fn: F) -> F:
    """A compiled kernel function without reference counting, for the hot paths (the
    search, the move generator, the evaluation): ``no_refcount`` says why and what a
    leaf must keep to."""
    if _numba is None:
        return fn
    return cast(
        F, _numba.njit(cache=CACHE is not None, nogil=True, error_model="numpy", **LEAF)(fn)
    )


def inline(fn: F) -> F:
    """A small helper compiled into its callers."""
    if _numba is None:
        return fn
    return cast(
        F,
        _numba.njit(cache=CACHE is not None, nogil=True, error_model="numpy", inline="always")(fn),
    )


def available() -> bool:
    """Whether Tank Chess games may run on the kernel: numba importable and
    ``TANKMAP_KERNEL`` is not ``python`` (the Python reference path;
    ``kernel_switch.python_only`` refuses unknown values)."""
    return _numba is not None and not python_only()


I64 = npt.NDArray[np.int64]


class Board(NamedTuple):
    """Read-only arrays (see ``rules.tank_chess.tables.Tables`` and ``GameState``):
    rays and mortar cells padded with -1 (``ray_len``/``mortar_len`` their lengths),
    each cell's column and row;
    ``flags`` = columns, size, strict_corners, backward_escape, max_turns."""

    fwd: I64
    back: I64
    side_a: I64
    side_b: I64
    escape: I64  # [side, state]
    back_escape: I64  # [side, state]
    ray_first: I64
    ray_rest: I64  # [d * size + c, k]
    ray_len: I64
    mortar: I64  # [d * size + c, k]
    mortar_len: I64
    dir_of: I64
    kind: I64
    side: I64
    speed: I64
    gun: I64
    fire: I64
    armour: I64  # [piece, front/side/rear]
    pieces: I64  # [side, k], padded with -1
    col: I64  # [cell]
    row: I64  # [cell]
    flags: I64


class Position(NamedTuple):
    """The arrays a game changes: ``grid``, ``cell``, ``facing``, ``alive`` (0/1) as in
    ``GameState``; ``meta`` = to_move, ply, winner, reason code (``REASONS``)."""

    grid: I64
    cell: I64
    facing: I64
    alive: I64
    meta: I64


def _padded(rows: Any, fill: int = -1) -> tuple[I64, I64]:
    width = max((len(r) for r in rows), default=0) or 1
    out = np.full((len(rows), width), fill, dtype=np.int64)
    lens = np.zeros(len(rows), dtype=np.int64)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
        lens[i] = len(r)
    return out, lens


_BOARDS: dict[int, tuple[GameState, Board]] = {}


def board_of(st: GameState) -> Board:
    """The kernel's tables for ``st``'s scenario (cached per start state object)."""
    found = _BOARDS.get(id(st))
    if found is not None and found[0] is st:
        return found[1]
    t = st.tables
    a = np.asarray
    rest, rest_len = _padded(t.ray_rest)
    mortar, mortar_len = _padded(t.mortar)
    dir_of = np.full(9, -1, dtype=np.int64)
    for f in Facing:
        dir_of[(f.dy + 1) * 3 + f.dx + 1] = int(f)
    n_side = max(len(st.pieces_of[0]), len(st.pieces_of[1]), 1)
    pieces = np.full((2, n_side), -1, dtype=np.int64)
    for s in (0, 1):
        pieces[s, : len(st.pieces_of[s])] = st.pieces_of[s]
    i64 = np.int64
    board = Board(
        fwd=a(t.fwd, dtype=i64),
        back=a(t.back, dtype=i64),
        side_a=a(t.side_a, dtype=i64),
        side_b=a(t.side_b, dtype=i64),
        escape=a(t.escape, dtype=i64),
        back_escape=a(t.back_escape, dtype=i64),
        ray_first=a(t.ray_first, dtype=i64),
        ray_rest=rest,
        ray_len=rest_len,
        mortar=mortar,
        mortar_len=mortar_len,
        dir_of=dir_of,
        kind=a(st.kind, dtype=i64),
        side=a(st.side, dtype=i64),
        speed=a(st.speed, dtype=i64),
        gun=a(st.gun, dtype=i64),
        fire=a(st.fire, dtype=i64),
        armour=a(st.armour, dtype=i64).reshape(len(st.kind), 3),
        pieces=pieces,
        col=np.arange(st.size, dtype=i64) % t.columns,
        row=np.arange(st.size, dtype=i64) // t.columns,
        flags=a(
            [t.columns, st.size, st.strict_corners, st.backward_escape, st.max_turns], dtype=i64
        ),
    )
    if len(_BOARDS) > 8:
        _BOARDS.clear()
    _BOARDS[id(st)] = (st, board)
    return board


def position_of(st: GameState) -> Position:
    """``st``'s position as fresh arrays."""
    i64 = np.int64
    return Position(
        grid=np.asarray(st.grid, dtype=i64),
        cell=np.asarray(st.cell, dtype=i64),
        facing=np.asarray(st.facing, dtype=i64),
        alive=np.asarray(st.alive, dtype=i64),
        meta=np.asarray([st.to_move, st.ply, st.winner, REASONS.index(st.reason)], dtype=i64),
    )


def scratch(board: Board, memo: bool = False) -> tuple[I64, ...]:
    """Work arrays of the move generator: set table, its scratch, ``mask/fill/used`` and
    a stamp counter, the sight map (``moves.sight``), the stamps of the states
    already in the set (``moves.end_states``), and, with ``memo``, the pool,
    table and counts of ``memo`` (empty without), and ``moves.end_states``' stack of
    frames."""
    size = int(board.flags[1])
    n = 16
    while n <= 4 * 8 * size + 16:
        n <<= 1
    e = np.empty
    z = np.zeros
    i64 = np.int64
    return (
        e(n, i64),
        e(n, i64),
        z(4, i64),
        e(8 * size, i64),
        z(8 * size, i64),
        e(MEMO_POOL if memo else 0, i64),
        np.full((MEMO_ENTRIES if memo else 0) * 7, -1, i64),
        z(2, i64),
        e((4, 8), i64),
    )


MEMO_ENTRIES = 1 << 15
"""Table slots of the end-state memo (filled to half at most)."""
MEMO_POOL = 1 << 20
"""States the memo holds at most (8 MB)."""
