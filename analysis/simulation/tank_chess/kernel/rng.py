"""numpy's ``Generator(PCG64)`` draws in numba, on a state array instead of a Generator.

A Tank Chess game is played with ``runner.game_rng(seed, game)``:
``default_rng(SeedSequence(seed, spawn_key=(game,)))``. ``seeded`` makes that generator's
state from the seed's words and the game number (numpy's ``SeedSequence`` mixing and
``PCG64`` seeding), so a kernel call can play many games without a Python Generator per
game (making one cost as much as a tenth of a short game, and passing one to a compiled
function as much again). ``integers`` and ``uniforms`` are ``Generator.integers(0, n,
size=k)`` and ``Generator.random(k)`` (numpy's and numba's algorithms: Lemire's bounded
draws on the buffered 32-bit outputs, doubles from the top 53 bits), ``state_of`` and
``restore`` move a state between an array and a Generator: the same draws, bit for bit.

A state is ``uint64[6]``: the 128-bit LCG state (high, low), its increment (high, low),
whether a 32-bit half is buffered and that half.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.tank_chess.kernel.base import inline, jit

U64 = npt.NDArray[np.uint64]

_M32 = np.uint64(0xFFFFFFFF)
_32 = np.uint64(32)
_MUL_HI = np.uint64(2549297995355413924)  # PCG's default 128-bit multiplier
_MUL_LO = np.uint64(4865540595714422341)
# SeedSequence's hash constants (numpy/random/bit_generator.pyx)
_INIT_A = np.uint64(0x43B0D7E5)
_MULT_A = np.uint64(0x931E8875)
_INIT_B = np.uint64(0x8B51F9DD)
_MULT_B = np.uint64(0x58F38DED)
_MIX_L = np.uint64(0xCA01F9DD)
_MIX_R = np.uint64(0x4973F715)
_XSHIFT = np.uint64(16)
_POOL = 4
_DOUBLE = 1.0 / 9007199254740992.0


def seed_words(seed: int) -> U64:
    """``seed`` as SeedSequence takes it: 32-bit words, least significant first (``[0]``
    for 0)."""
    if seed < 0:
        raise ValueError("a seed is not negative")
    words = []
    while True:
        words.append(seed & 0xFFFFFFFF)
        seed >>= 32
        if not seed:
            break
    return np.asarray(words, dtype=np.uint64)


@inline
def _hashmix(value: Any, h: Any) -> tuple[Any, Any]:
    """SeedSequence's ``hashmix``: the mixed value and the next hash constant."""
    value = (value ^ h) & _M32
    h = (h * _MULT_A) & _M32
    value = (value * h) & _M32
    return value ^ (value >> _XSHIFT), h


@inline
def _mix(x: Any, y: Any) -> Any:
    r = (_MIX_L * x - _MIX_R * y) & _M32
    return r ^ (r >> _XSHIFT)


@jit
def seeded(words: Any, game: int, out: Any) -> None:
    """``out`` = the state of ``default_rng(SeedSequence(seed, spawn_key=(game,)))`` for
    ``words = seed_words(seed)`` and ``game >= 0``."""
    n_run = max(words.shape[0], _POOL)
    entropy = np.zeros(n_run + 2, np.uint64)
    entropy[: words.shape[0]] = words
    n = n_run
    g = np.uint64(game)
    while True:  # the spawn key's words
        entropy[n] = g & _M32
        n += 1
        g >>= _32
        if g == 0:
            break
    pool = np.empty(_POOL, np.uint64)
    h = _INIT_A
    for i in range(_POOL):
        pool[i], h = _hashmix(entropy[i], h)
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                v, h = _hashmix(pool[src], h)
                pool[dst] = _mix(pool[dst], v)
    for src in range(_POOL, n):
        for dst in range(_POOL):
            v, h = _hashmix(entropy[src], h)
            pool[dst] = _mix(pool[dst], v)
    h = _INIT_B
    state = np.empty(4, np.uint64)  # generate_state(4, uint64): 8 words, little end first
    for i in range(8):
        v = (pool[i % _POOL] ^ h) & _M32
        h = (h * _MULT_B) & _M32
        v = (v * h) & _M32
        v ^= v >> _XSHIFT
        if i % 2:
            state[i // 2] |= v << _32
        else:
            state[i // 2] = v
    # pcg64_srandom_r(initstate = state[0:2], initseq = state[2:4])
    out[2] = (state[2] << np.uint64(1)) | (state[3] >> np.uint64(63))
    out[3] = (state[3] << np.uint64(1)) | np.uint64(1)
    out[0] = np.uint64(0)
    out[1] = np.uint64(0)
    _step(out)
    lo = out[1] + state[1]
    out[0] = out[0] + state[0] + np.uint64(lo < out[1])
    out[1] = lo
    _step(out)
    out[4] = np.uint64(0)
    out[5] = np.uint64(0)


@inline
def _step(s: Any) -> None:
    """The LCG step: ``state = state * MUL + inc`` modulo 2**128."""
    s_hi, s_lo = s[0], s[1]
    a0, a1 = s_lo & _M32, s_lo >> _32
    b0, b1 = _MUL_LO & _M32, _MUL_LO >> _32
    w0 = a0 * b0
    t = a1 * b0 + (w0 >> _32)
    w1 = (t & _M32) + a0 * b1
    hi = a1 * b1 + (t >> _32) + (w1 >> _32)  # high word of s_lo * MUL_LO
    hi += s_hi * _MUL_LO + s_lo * _MUL_HI
    lo = s_lo * _MUL_LO
    new_lo = lo + s[3]
    s[0] = hi + s[2] + np.uint64(new_lo < lo)
    s[1] = new_lo


@inline
def _next64(s: Any) -> Any:
    """PCG64's next output (XSL-RR of the stepped state)."""
    _step(s)
    hi = s[0]
    x = hi ^ s[1]
    rot = hi >> np.uint64(58)
    return (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))


@inline
def _next32(s: Any) -> Any:
    """PCG64's next 32 bits: the buffered high half of the last output, else the low half
    of a new one."""
    if s[4]:
        s[4] = np.uint64(0)
        return s[5]
    x = _next64(s)
    s[4] = np.uint64(1)
    s[5] = x >> _32
    return x & _M32


@jit
def integer(s: Any, n: int) -> int:
    """``Generator.integers(0, n)`` for ``n < 2**32`` (no draw when ``n == 1``; ``n < 1``
    raises ``ValueError``)."""
    if n < 1:
        raise ValueError("high <= 0")
    if n == 1:
        return 0
    rng = np.uint64(n - 1)
    excl = rng + np.uint64(1)
    m = _next32(s) * excl
    left = m & _M32
    if left < excl:
        threshold = (_M32 - rng) % excl
        while left < threshold:
            m = _next32(s) * excl
            left = m & _M32
    return int(np.int64(m >> _32))  # (int64 on both returns: a uint64 would unify to float)


@jit
def integers(s: Any, n: int, k: int) -> Any:
    """``Generator.integers(0, n, size=k)`` (int64) for ``n < 2**32`` (``n < 1`` raises
    ``ValueError``, even for ``k == 0``, as numba's ``integers`` does)."""
    if n < 1:
        raise ValueError("high <= 0")
    out = np.empty(k, np.int64)
    for i in range(k):
        out[i] = integer(s, n)
    return out


@jit
def uniforms(s: Any, k: int) -> Any:
    """``Generator.random(k)``."""
    out = np.empty(k, np.float64)
    for i in range(k):
        out[i] = float(_next64(s) >> np.uint64(11)) * _DOUBLE
    return out


def state_of(rng: np.random.Generator) -> U64:
    """A PCG64 Generator's state as an array."""
    st = rng.bit_generator.state
    if st["bit_generator"] != "PCG64":
        raise ValueError(f"the kernel draws as PCG64, not {st['bit_generator']}")
    m = (1 << 64) - 1
    s, inc = st["state"]["state"], st["state"]["inc"]
    words = [s >> 64, s & m, inc >> 64, inc & m, st["has_uint32"], st["uinteger"]]
    return np.asarray(words, dtype=np.uint64)


def restore(rng: np.random.Generator, s: U64) -> None:
    """Set a PCG64 Generator's state to ``s`` (it then draws on as the array would)."""
    w = [int(x) for x in s.tolist()]
    rng.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": (w[0] << 64) | w[1], "inc": (w[2] << 64) | w[3]},
        "has_uint32": w[4],
        "uinteger": w[5],
    }
