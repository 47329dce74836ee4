"""The Final Act kernel's ground: numba decorators, its view of the batch tables, and the
counter-based noise and numpy-order sums its decisions use (see ``final_act_kernel``)."""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.jit_cache import cache_folder
from tankmap.analysis.simulation.noise import GOLDEN, MUL1, MUL2, STEP, UNIT
from tankmap.analysis.simulation.policies.final_act_batch import (
    NOISE_PER_UNIT,
    BatchTables,
    pack_bits,
)

_numba: Any
try:  # numba is a dependency; without it (an unsupported platform) numpy plays the games
    import numba as _numba
except ImportError:  # pragma: no cover - exercised only where numba cannot be installed
    _numba = None

F = TypeVar("F", bound=Callable[..., Any])

_HERE = Path(__file__).resolve().parent
KERNEL_SOURCES = (
    *sorted(_HERE.glob("fa_kernel_*.py")),
    _HERE / "final_act_kernel.py",
    _HERE.parent / "noise.py",  # constants compiled in as globals
    _HERE.parent / "policies" / "final_act_batch.py",
)
"""The files whose text the compiled kernel depends on."""


def guard_cache(
    folder: Path = _HERE / "__pycache__",
    sources: tuple[Path, ...] | None = None,
    name: str = "fa_kernel",
) -> bool:
    """Drop numba's cached kernel in ``folder`` when any of ``KERNEL_SOURCES`` (or
    ``sources``: another kernel's, fingerprinted as ``name.sources``) changed
    since it was written, and return whether it did. numba checks only the file of each
    compiled function, not those of the functions it calls or the constants it reads, so a
    kernel module changed under an unchanged caller (an update, a checkout) would otherwise
    run the caller's stale machine code with the old rules. A fingerprint of all the
    sources is kept beside the cache (``fa_kernel.sources``). An unwritable folder (an
    installed package: updates rewrite every file, which numba notices) is left alone."""
    files = KERNEL_SOURCES if sources is None else sources
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0")
        with contextlib.suppress(OSError):
            digest.update(path.read_bytes())
    stamp = folder / f"{name}.sources"
    try:
        if stamp.read_text(encoding="ascii") == digest.hexdigest():
            return False
    except (OSError, UnicodeDecodeError):
        pass
    stems = tuple(f"{p.stem}." for p in files if p.parent == _HERE)
    try:
        folder.mkdir(exist_ok=True)
        for cached in folder.iterdir():
            if cached.suffix in (".nbi", ".nbc") and cached.name.startswith(stems):
                cached.unlink(missing_ok=True)
        temp = folder / f"{name}.sources.{os.getpid()}"
        temp.write_text(digest.hexdigest(), encoding="ascii")
        os.replace(temp, stamp)
    except OSError:
        return False
    return True


# numba's cache folder, or a private temp one where the install is read-only (None: none)
CACHE = cache_folder(__file__) if _numba is not None else None
if CACHE is not None:
    guard_cache(CACHE)

TANK, AT, RM = 0, 1, 2
HEURISTIC, RANDOM = 0, 1


def _jit(fn: F) -> F:
    if _numba is None:
        return fn
    return cast(F, _numba.njit(cache=CACHE is not None, nogil=True, error_model="numpy")(fn))


def _inline(fn: F) -> F:
    """A small helper compiled into its callers (numba-level inlining)."""
    if _numba is None:
        return fn
    return cast(
        F,
        _numba.njit(cache=CACHE is not None, nogil=True, error_model="numpy", inline="always")(fn),
    )


def _unowned_codegen(context: Any, builder: Any, ty: Any, val: Any) -> Any:
    """``val`` (an array, or a tuple holding arrays) with null memory owners: numba skips
    the reference counting of such arrays (see ``unowned``)."""
    from numba.core import cgutils as _cgutils
    from numba.core import types as _types

    cgutils: Any = _cgutils
    types: Any = _types
    if isinstance(ty, types.Array):
        ary = context.make_array(ty)(context, builder, value=val)
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
        ary.parent = cgutils.get_null_value(ary.parent.type)
        return ary._getvalue()
    if isinstance(ty, types.BaseTuple):
        for i, item in enumerate(ty.types):
            if isinstance(item, (types.Array, types.BaseTuple)):
                inner = _unowned_codegen(context, builder, item, builder.extract_value(val, i))
                val = builder.insert_value(val, inner, i)
    return val


def _unowned_typer(typingctx: Any, value: Any) -> Any:
    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return _unowned_codegen(context, builder, sig.args[0], args[0])

    return value(value), codegen


def _identity(value: Any) -> Any:
    return value


unowned: Callable[..., Any] = _identity
if _numba is not None:
    from numba.extending import intrinsic

    unowned = intrinsic(_unowned_typer)
"""``unowned(x)``: the arrays of ``x`` (an array, or a tuple of arrays and scalars) as views
that numba does not reference-count. numba updates an array's count with an atomic
instruction each time it is passed to a function or taken out of a tuple, several
hundred times a round, which cost about a sixth of a game's time; the kernel's entry
points take such views once per call. Only for arrays that outlive every use of the
views (the entry point's arguments): never return or store them."""


def available() -> bool:
    """Whether the compiled kernel plays the vectorised games (numba importable and
    ``TANKMAP_KERNEL`` is not ``numpy``)."""
    return _numba is not None and os.environ.get("TANKMAP_KERNEL", "") != "numpy"


class Tables(NamedTuple):
    """The per-scenario arrays the kernel reads (from ``BatchTables``; see there)."""

    n: int
    k: int
    k_move: int
    width: int
    ord_dest: npt.NDArray[np.int64]
    ord_fac: npt.NDArray[np.int64]
    ord_d: npt.NDArray[np.float64]
    dist: npt.NDArray[np.float64]
    lik_cell: npt.NDArray[np.int64]
    lik_p: npt.NDArray[np.float64]
    tgt: npt.NDArray[np.int64]
    bet_words: npt.NDArray[np.uint64]
    zone_words: npt.NDArray[np.uint64]
    n_tgt: npt.NDArray[np.int64]
    n_elev: npt.NDArray[np.int64]
    elev: npt.NDArray[np.int64]
    berm_words: npt.NDArray[np.uint64]
    elevating: npt.NDArray[np.bool_]
    ks: npt.NDArray[np.int64]
    value: npt.NDArray[np.float64]
    fires: npt.NDArray[np.bool_]
    elevates: npt.NDArray[np.bool_]
    kind: npt.NDArray[np.int64]
    side: npt.NDArray[np.int64]
    hits: npt.NDArray[np.int64]
    blocks: npt.NDArray[np.bool_]
    no_swap: npt.NDArray[np.bool_]
    goal: npt.NDArray[np.bool_]
    had_tanks: npt.NDArray[np.bool_]
    wrecks: bool
    max_rounds: int
    max_units: int
    max_kind: npt.NDArray[np.int64]
    forbid_tank_rm: bool
    repair_on: bool
    col: npt.NDArray[np.int64]
    row: npt.NDArray[np.int64]
    n_move: npt.NDArray[np.int64]
    """``[ks, idx]``: past the last usable move order (``ord_dest >= 0``) of the first
    ``k_move``; the loops over move orders stop there (only padding follows)."""
    adv: npt.NDArray[Any]
    """``[ks, idx, :n_adv[ks, idx]]``: the orders ``j`` that leave the cell (``ord_dest``
    not -1 and not the cell of ``idx``), by ``ord_d`` and then ``j`` (``advance_order``)."""
    n_adv: npt.NDArray[Any]
    """``[ks, idx]``: how many orders ``adv[ks, idx]`` lists."""


def last_used(dest: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    """``[ks, idx]``: 1 + the position of the last ``dest >= 0`` along the last axis (0
    when there is none)."""
    used = dest >= 0
    width = used.shape[-1]
    past = width - np.argmax(used[..., ::-1], axis=-1)
    return np.ascontiguousarray(np.where(used.any(axis=-1), past, 0).astype(np.int64))


def spare_cells(
    cells: npt.NDArray[np.int64], p: npt.NDArray[np.float64], n: int
) -> npt.NDArray[np.int64]:
    """``cells`` with each entry worth 0 (``p == 0``: padding, mostly) moved to a spare
    cell past the board and its padding cell, ``n + 1 + j`` for entry ``j``: ``_view``
    adds every entry, and the zeros, all added to one cell, made one long chain of
    dependent additions; the maps it fills have ``n + 1 + cells.shape[-1]`` columns."""
    spare = n + 1 + np.arange(cells.shape[-1])
    return np.ascontiguousarray(np.where(np.asarray(p) == 0.0, spare, cells).astype(np.int64))


def advance_order(
    ord_dest: npt.NDArray[Any], ord_d: npt.NDArray[Any]
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """``Tables.adv`` and ``Tables.n_adv``: for each ``[ks, idx]``, the orders that move
    (``ord_dest`` not -1 and not the cell ``idx // 8``) sorted by ``ord_d`` (a lower bound
    of their scores, which add danger and noise that are never negative), ties in order
    number; the other orders after them."""
    dest = np.asarray(ord_dest, dtype=np.int64)
    here = (np.arange(dest.shape[1]) // 8)[None, :, None]
    moves = (dest >= 0) & (dest != here)
    first = np.argsort(np.asarray(ord_d, dtype=np.float64), axis=-1, kind="stable")
    second = np.argsort(~np.take_along_axis(moves, first, axis=-1), axis=-1, kind="stable")
    adv = np.take_along_axis(first, second, axis=-1)  # (moves first, even at an inf ord_d)
    fits = adv.shape[-1] <= 256
    adv = np.ascontiguousarray(adv, dtype=np.uint8) if fits else small(adv)
    return adv, small(moves.sum(axis=-1).astype(np.int64))


_PACKED: dict[int, tuple[BatchTables, Tables]] = {}


def small(a: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
    """``a`` as 16-bit integers when its values fit (cells, facings, the units' kinds,
    sides and table rows): the tables a game reads per round then span a quarter of the
    cache lines; the values are the same.
    Unsigned (uint16) when no value is negative: an index read from it then needs no
    wrap-around of negative indices in the compiled code."""
    lo, hi = (int(a.min()), int(a.max())) if a.size else (0, 0)
    if lo >= 0 and hi <= 65535:
        return np.ascontiguousarray(a, dtype=np.uint16)
    fits = lo >= -32768 and hi <= 32767
    return np.ascontiguousarray(a, dtype=np.int16 if fits else np.int64)


def compact(a: npt.NDArray[np.float64]) -> npt.NDArray[Any]:
    """``a`` as float32 when that is exact for every value (rounds to goal are whole
    numbers), else unchanged: arithmetic reads them back as the same float64."""
    b = a.astype(np.float32)
    exact = bool(np.array_equal(b.astype(np.float64), a))
    return np.ascontiguousarray(b if exact else a)


def tables(tb: BatchTables) -> Tables:
    """The kernel's view of ``tb`` (built once per tables object)."""
    found = _PACKED.get(id(tb))
    if found is not None and found[0] is tb:
        return found[1]
    b = tb.batch
    c = np.ascontiguousarray
    bet_words = np.stack(tb.bet_words, axis=-1)  # [kc, idx, target, word]
    # an order's destination and facing side by side (views of one array): the facing of
    # the order chosen is then read from a cache line that choosing it loaded already
    dest = small(tb.ord_dest)
    orders = np.stack([dest, np.asarray(tb.ord_fac).astype(dest.dtype)], axis=-1)
    adv, n_adv = advance_order(tb.ord_dest, tb.ord_d)
    packed = Tables(
        n=int(tb.size),
        k=int(tb.k),
        k_move=int(tb.k_move),
        width=int(b.n_units * NOISE_PER_UNIT + tb.size + 1),
        ord_dest=orders[..., 0],
        ord_fac=orders[..., 1],
        ord_d=compact(tb.ord_d),
        dist=compact(tb.dist),
        lik_cell=small(spare_cells(tb.lik_cell, tb.lik_p, int(tb.size))),
        lik_p=c(tb.lik_p),
        tgt=small(tb.tgt),
        bet_words=c(bet_words),
        zone_words=c(np.bitwise_or.reduce(bet_words, axis=2)),
        n_tgt=small((tb.tgt < tb.size).sum(axis=2).astype(np.int64)),
        n_elev=small((tb.elev < tb.size).sum(axis=2).astype(np.int64)),
        elev=small(tb.elev),
        berm_words=c(pack_bits(tb.berm[None, : tb.size], bet_words.shape[-1])[0]),
        elevating=c(tb.elevating),
        ks=small(tb.ks.astype(np.int64)),
        value=c(tb.value),
        fires=c(tb.fires),
        elevates=c(tb.elevates),
        kind=small(b.kind),
        side=small(b.side),
        hits=c(b.hits),
        blocks=c(b.blocks),
        no_swap=c(b.no_swap),
        goal=c(b.goal),
        had_tanks=c(b.had_tanks),
        wrecks=bool(b.wrecks),
        max_rounds=int(b.max_rounds),
        max_units=int(b.max_units),
        max_kind=c(b.max_kind),
        forbid_tank_rm=bool(b.forbid_tank_rm),
        repair_on=bool(b.repair_on),
        col=c(tb.col),
        row=c(tb.row),
        n_move=small(last_used(np.asarray(tb.ord_dest)[:, :, : int(tb.k_move)])),
        adv=adv,
        n_adv=n_adv,
    )
    if len(_PACKED) > 8:
        _PACKED.clear()
    _PACKED[id(tb)] = (tb, packed)
    return packed


# --- random numbers (analysis.simulation.noise, as uint64 arithmetic) -----------------------
_GOLDEN = np.uint64(GOLDEN)
_STEP = np.uint64(STEP)
_MUL1 = np.uint64(MUL1)
_MUL2 = np.uint64(MUL2)
_S11 = np.uint64(11)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)


@_inline
def _noise(key: np.uint64, counter: int) -> float:
    z = key + np.uint64(counter) * _STEP + _GOLDEN
    z = (z ^ (z >> _S30)) * _MUL1
    z = (z ^ (z >> _S27)) * _MUL2
    z = z ^ (z >> _S31)
    out: float = float(np.int64(z >> _S11)) * UNIT  # (< 2**53: a signed conversion is exact)
    return out


@_inline
def _pairwise_short(a: Any, n: int) -> float:
    """``_pairwise`` for ``n <= 128`` (numpy's unrolled block, no recursion)."""
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[i]
        return res
    if n <= 128:
        r0, r1, r2, r3 = a[0], a[1], a[2], a[3]
        r4, r5, r6, r7 = a[4], a[5], a[6], a[7]
        i = 8
        stop = n - (n % 8)
        while i < stop:
            r0 += a[i]
            r1 += a[i + 1]
            r2 += a[i + 2]
            r3 += a[i + 3]
            r4 += a[i + 4]
            r5 += a[i + 5]
            r6 += a[i + 6]
            r7 += a[i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < n:
            res += a[i]
            i += 1
        return float(res)
    return 0.0  # (not reached: n <= 128)


@_jit
def _pairwise(a: Any, n: int) -> float:
    """numpy's pairwise summation of ``a[:n]`` (so sums round exactly as numpy's)."""
    if n <= 128:
        return _pairwise_short(a, n)
    n2 = n // 2
    n2 -= n2 % 8
    return _pairwise(a, n2) + _pairwise(a[n2:], n - n2)


@_inline
def _psum(a: Any, n: int) -> float:
    """``_pairwise(a, n)``, compiled into its caller when no recursion is needed."""
    return _pairwise_short(a, n) if n <= 128 else _pairwise(a, n)
