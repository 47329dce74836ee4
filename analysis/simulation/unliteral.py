"""Arguments typed as numba's plain ``int64``/``boolean`` instead of a ``Literal``: shared by
the Tank Chess and Tank Wars kernels.

Where jitted code calls a jitted function with a constant (``f(a, 0)``) or with a counter
started at one, numba types that argument ``Literal[int]`` and compiles ``f``, and every
function ``f`` calls, once more for the literal. Passing it through ``unliteral`` keeps one
compiled version (``tests/simulation/test_kernel_signatures.py`` checks the cache index).
Both helpers are inlined into their callers, so a kernel that uses them lists this file
among its sources (``kernel_cache.guard_cache``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

_numba: Any
try:  # numba is a dependency; without it the kernels' plain-Python paths play
    import numba as _numba
except ImportError:  # pragma: no cover - exercised only where numba cannot be installed
    _numba = None


def _py_unliteral(x: int) -> int:
    """``x`` typed as numba's ``int64`` (see the module docstring)."""
    return int(np.int64(x))


def _py_unliteral_flag(x: bool) -> bool:
    """``x`` typed as numba's ``boolean``, not ``Literal[bool]``."""
    return bool(np.bool_(x))


if _numba is None:  # pragma: no cover
    unliteral = _py_unliteral
    unliteral_flag = _py_unliteral_flag
else:
    unliteral = _numba.njit(nogil=True, inline="always")(_py_unliteral)
    unliteral_flag = _numba.njit(nogil=True, inline="always")(_py_unliteral_flag)
