"""``tank_chess.kernel.rng`` draws what numpy's ``Generator(PCG64)`` draws: the seeded state of
``runner.game_rng(seed, game)`` (any seed and game number, large ones too), then
``integers(0, n)``, ``integers(0, n, size=k)`` and ``random(k)``, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from tankmap.analysis.simulation.runner import game_rng
from tankmap.analysis.simulation.tank_chess.kernel import base as kb
from tankmap.analysis.simulation.tank_chess.kernel import rng as kr

needs_numba = pytest.mark.skipif(kb._numba is None, reason="numba is not installed")
SEEDS = (0, 1, 3, 99, 2**32 - 1, 2**32, 2**64 + 5, 2**130 + 3, 987654321987654321)
GAMES = (0, 1, 19, 1000, 2**31, 2**32 - 1, 2**32, 2**33 + 5, 2**63 - 1)


@needs_numba
@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_state_is_game_rng(seed: int) -> None:
    words = kr.seed_words(seed)
    state = np.empty(6, np.uint64)
    for game in GAMES:
        kr.seeded(words, game, state)
        assert state.tolist() == kr.state_of(game_rng(seed, game)).tolist(), game


@needs_numba
def test_draws_are_the_generator_draws() -> None:
    ref = np.random.default_rng(7)
    state = kr.state_of(ref)
    sizes = np.random.default_rng(8)
    for trial in range(400):
        n = int(sizes.integers(1, 60)) if trial % 9 else int(sizes.integers(2**31, 2**32 - 1))
        k = trial % 7
        assert kr.integers(state, n, k).tolist() == ref.integers(0, n, size=k).tolist()
        got = kr.integer(state, n)
        assert isinstance(got, int) and got == ref.integers(0, n)
        assert kr.uniforms(state, k).tolist() == ref.random(k).tolist()
        assert kr.integer(state, 1) == ref.integers(0, 1)  # no draw
        assert state.tolist() == kr.state_of(ref).tolist()
    other = np.random.default_rng(0)
    kr.restore(other, state)
    assert other.random() == ref.random()


@needs_numba
def test_no_turns_raises() -> None:
    """(as numba's ``Generator.integers`` did in the kernel)"""
    state = kr.state_of(np.random.default_rng(0))
    with pytest.raises(ValueError):
        kr.integers(state, 0, 0)
    with pytest.raises(ValueError):
        kr.integer(state, 0)


def test_seed_words() -> None:
    assert kr.seed_words(0).tolist() == [0]
    assert kr.seed_words(2**32 + 3).tolist() == [3, 1]
    with pytest.raises(ValueError):
        kr.seed_words(-1)
