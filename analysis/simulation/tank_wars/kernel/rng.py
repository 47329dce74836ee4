"""The search's random numbers: SplitMix64, in numba and in plain Python (``SplitMix``).

A search draws one 64-bit seed from the game's Generator per decision and everything else
from this stream, so the compiled search and its plain-Python reference draw the very same
numbers: ``below(st, n)`` is ``(top 32 bits × n) >> 32`` (0..n-1; bias under n / 2^32),
``unit(st)`` the top 53 bits as a float in [0, 1). ``st`` is a ``uint64[1]`` array.
"""

from __future__ import annotations

import numpy as np

from tankmap.analysis.simulation.tank_wars.kernel.base import leaf

_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_MASK = (1 << 64) - 1


@leaf
def next_u64(st: np.ndarray) -> np.uint64:
    z = st[0] + np.uint64(_GAMMA)
    st[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX2)
    return np.uint64(z ^ (z >> np.uint64(31)))


@leaf
def below(st: np.ndarray, n: int) -> int:
    """A uniform integer ``0..n-1`` (``n`` ≥ 1)."""
    return int(np.int64(((next_u64(st) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32)))


@leaf
def unit(st: np.ndarray) -> float:
    """A uniform float in [0, 1)."""
    return float(next_u64(st) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def state(seed: int) -> np.ndarray:
    """A fresh stream's state array for ``seed`` (0 ≤ seed < 2^64)."""
    return np.array([seed & _MASK], dtype=np.uint64)


class SplitMix:
    """The same stream in plain Python (the reference search's)."""

    def __init__(self, seed: int) -> None:
        self.s = seed & _MASK

    def next_u64(self) -> int:
        self.s = (self.s + _GAMMA) & _MASK
        z = self.s
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return ((self.next_u64() >> 32) * n) >> 32

    def unit(self) -> float:
        return float(self.next_u64() >> 11) * (1.0 / 9007199254740992.0)
