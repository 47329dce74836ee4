"""Counter-based random numbers for the Final Act batch playouts.

Every game of a run gets a 64-bit key (``game_key(seed, game)``); the ``i``-th number of
round ``r`` of that game is ``uniform(key, r * width + i)``, a pure function of the key and
the counter (the SplitMix64 finaliser, the same bits in numpy, in plain Python and in the
compiled kernel). So a game's course depends only on the run's seed and its number, never
on which games share its batch or its worker, and a number nobody reads costs nothing
(the compiled kernel computes only the ones a decision uses).

Deriving a key costs about a microsecond; a numpy ``Generator`` per game (``SeedSequence``
spawning) costs about twenty, which alone would cap a core at ~45,000 games per second.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
STEP = 0xD1B54A32D192ED03  # the counter's stride (an odd constant, not GOLDEN)
MUL1 = 0xBF58476D1CE4E5B9
MUL2 = 0x94D049BB133111EB
UNIT = 2.0**-53


def mix64(z: int) -> int:
    """SplitMix64: a well-mixed 64-bit value of ``z`` (taken modulo 2**64)."""
    z = (z + GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * MUL1) & MASK
    z = ((z ^ (z >> 27)) * MUL2) & MASK
    return z ^ (z >> 31)


def game_key(seed: int, game: int) -> int:
    """The key of game number ``game`` of a run seeded ``seed`` (both >= 0; a seed is
    folded 64 bits at a time, so every seed gives its own keys)."""
    if seed < 0 or game < 0:
        raise ValueError("seed and game numbers are not negative")
    z = mix64(0)
    while True:
        z = mix64(z ^ (seed & MASK))
        seed >>= 64
        if not seed:
            break
    return mix64(z ^ game)


def game_keys(seed: int, games: Sequence[int]) -> list[int]:
    """``[game_key(seed, g) for g in games]``, the seed folded once and the games mixed as
    one numpy array (a microsecond per game less: a twentieth of a Final Act playout)."""
    if seed < 0 or any(g < 0 for g in games):
        raise ValueError("seed and game numbers are not negative")
    z = mix64(0)
    while True:
        z = mix64(z ^ (seed & MASK))
        seed >>= 64
        if not seed:
            break
    with np.errstate(over="ignore"):
        x = np.asarray(games, dtype=np.uint64) ^ np.uint64(z)
        x += np.uint64(GOLDEN)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(MUL1)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(MUL2)
        x ^= x >> np.uint64(31)
    keys: list[int] = x.tolist()
    return keys


def key_of(rng: np.random.Generator) -> int:
    """A game key drawn from a Generator (for callers that hold one, e.g. a search)."""
    return int(rng.integers(0, 2**63))


def uniform(key: int, counter: int) -> float:
    """The number ``counter`` of the stream ``key``, in [0, 1) (plain Python)."""
    return (mix64((key + counter * STEP) & MASK) >> 11) * UNIT


def uniforms(keys: npt.NDArray[np.uint64], first: int, width: int) -> npt.NDArray[np.float64]:
    """``out[g, i] = uniform(keys[g], first + i)`` for every game (numpy, vectorised)."""
    with np.errstate(over="ignore"):
        counters = (np.arange(width, dtype=np.uint64) + np.uint64(first)) * np.uint64(STEP)
        z = keys[:, None] + counters[None, :]
        z += np.uint64(GOLDEN)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(MUL1)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(MUL2)
        z ^= z >> np.uint64(31)
    out: npt.NDArray[np.float64] = (z >> np.uint64(11)).astype(np.float64) * UNIT
    return out
