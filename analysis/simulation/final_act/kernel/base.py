"""The Final Act kernel's ground: numba decorators, the switch, and the counter-based noise
and numpy-order sums its decisions use (see ``kernel/__init__.py``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np

from tankmap.analysis.simulation.jit_cache import cache_folder
from tankmap.analysis.simulation.kernel_cache import guard_cache
from tankmap.analysis.simulation.noise import GOLDEN, MUL1, MUL2, STEP, UNIT

_numba: Any
try:  # numba is a dependency; without it the reference engine plays (see ``available``)
    import numba as _numba
except ImportError:  # pragma: no cover - exercised only where numba cannot be installed
    _numba = None

F = TypeVar("F", bound=Callable[..., Any])

_HERE = Path(__file__).resolve().parent
KERNEL_SOURCES = (
    *sorted(_HERE.glob("*.py")),
    _HERE.parents[1] / "noise.py",  # constants compiled in as globals
)
"""The files whose text the compiled kernel depends on: every module of this package and
the noise constants (``kernel_cache.guard_cache``)."""


# numba's cache folder, or a private temp one where the install is read-only (None: none)
CACHE = cache_folder(__file__) if _numba is not None else None
if CACHE is not None:
    guard_cache(CACHE, KERNEL_SOURCES, "fa_kernel", home=_HERE)

HEURISTIC, RANDOM = 0, 1  # the agents the kernel plays


def _jit(fn: F) -> F:
    if _numba is None:
        return fn
    return cast(F, _numba.njit(cache=CACHE is not None, nogil=True, error_model="numpy")(fn))


def _inline(fn: F) -> F:
    """A small helper compiled into its callers (numba-level inlining). Functions longer
    than about 40 lines (the rules' ``_apply``, ``_resolve``, the policies' sides, the
    round) take ``_jit`` instead: inlined into every caller they made the kernel compile in
    173 s of CPU from a clean clone (heuristic 56 s + look-ahead 117 s), called they compile
    in 53 s (32 s + 21 s) and ``search:9`` plays about 5 % slower (measured 2026-11-28)."""
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
    """Whether the compiled kernel can play: numba is importable (a dependency; where it
    cannot be installed, ``random``/``heuristic`` play on the reference engine instead:
    ``FinalActDriver.fallback_note``)."""
    return _numba is not None


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
