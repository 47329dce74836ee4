"""Paired comparisons (analysis.paired) against the textbook figures, and the live meter's
measurement (analysis.meter) on real boards."""

from __future__ import annotations

import numpy as np
import pytest

from tankmap.analysis.meter import BalanceMeter
from tankmap.analysis.paired import bonferroni, improvement, outcomes
from tankmap.analysis.simulation.runner import simulate
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario


def pairs(*groups: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """``(before, after, count)`` groups as two aligned outcome arrays."""
    b = np.concatenate([np.full(c, x, dtype=np.int8) for x, _y, c in groups])
    a = np.concatenate([np.full(c, y, dtype=np.int8) for _x, y, c in groups])
    return b, a


def test_gain_and_interval_agree_with_the_delta_method() -> None:
    # before: south 70, north 30 (mean 0.4); after on the same games: 60 / 40 (mean 0.2).
    # gain = 0.4 - 0.2 = 0.2; var = (0.84 + 0.96 - 2 * (0.8 - 0.08)) / 100 = 0.0036,
    # so the 95 % interval is about 0.2 +/- 1.96 * 0.06 = [0.082, 0.318]
    before, after = pairs((1, 1, 60), (1, -1, 10), (-1, -1, 30))
    gain = improvement(before, after)
    assert gain.estimate == pytest.approx(0.2)
    assert gain.lower == pytest.approx(0.082, abs=0.02)
    assert gain.upper == pytest.approx(0.318, abs=0.02)
    assert gain.significant() and gain.p_value < 0.01 and gain.games == 100


def test_the_same_games_on_both_sides_gain_nothing() -> None:
    before, after = pairs((1, 1, 40), (-1, -1, 35), (0, 0, 25))
    gain = improvement(before, after)
    assert gain.estimate == 0.0 and gain.lower == 0.0 and gain.upper == 0.0
    assert not gain.significant()


def test_unpaired_or_empty_runs_are_refused() -> None:
    with pytest.raises(ValueError):
        improvement(np.ones(3, dtype=np.int8), np.ones(4, dtype=np.int8))
    with pytest.raises(ValueError):
        improvement(np.zeros(0, dtype=np.int8), np.zeros(0, dtype=np.int8))


def test_bonferroni_level() -> None:
    assert bonferroni(1) == pytest.approx(0.95) and bonferroni(5) == pytest.approx(0.99)


MIRROR = read_scenario(map_path("final-act/mirror"))  # type: ignore[arg-type]
FLANKS = read_scenario(map_path("final-act/flanks-vs-centre"))  # type: ignore[arg-type]


def test_kept_outcomes_grow_with_the_games_a_longer_run_plays() -> None:
    meter = BalanceMeter(seed=4)
    first = meter.outcomes_of(MIRROR, 60).copy()
    more = meter.outcomes_of(MIRROR, 150)
    whole = outcomes(simulate(MIRROR, 150, "heuristic", seed=4))
    assert list(more) == list(whole) and list(first) == list(whole[:60])


def test_a_first_board_is_measured_at_the_first_step() -> None:
    reading = BalanceMeter(seed=0, steps=(120, 240)).measure(MIRROR)
    df = simulate(MIRROR, 120, "heuristic", seed=0)
    assert reading.final and reading.change is None
    assert reading.estimate.games == 120
    assert reading.estimate.wins_south == int((df["winner"] == "south").sum())
    assert reading.text().startswith("balance ") and "(heuristic, 120 games)" in reading.text()


def test_an_unchanged_board_plays_every_step_and_is_within_noise() -> None:
    seen = []
    meter = BalanceMeter(seed=0, steps=(100, 200))
    reading = meter.measure(MIRROR, previous=MIRROR, report=seen.append)
    assert reading.final and not reading.significant
    assert [r.estimate.games for r in seen] == [100, 200]
    assert "change within noise (±0.00)" in reading.text()


def test_a_different_board_is_compared_on_the_same_games() -> None:
    meter = BalanceMeter(seed=0, steps=(200, 400, 800))
    reading = meter.measure(MIRROR, previous=FLANKS)
    b = meter.outcomes_of(FLANKS, reading.estimate.games)
    a = meter.outcomes_of(MIRROR, reading.estimate.games)
    assert reading.change == improvement(b, a, bonferroni(3), seed=0)
    assert reading.final
    assert reading.significant or reading.estimate.games == 800
