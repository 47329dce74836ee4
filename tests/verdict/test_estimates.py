"""The one balance estimate (analysis.estimates), on counts checked by hand."""

from __future__ import annotations

import math

import pytest

from tankmap.analysis.estimates import (
    BalanceEstimate,
    balance_of_difference,
    difference_ci95,
    score_interval,
)

Z = 1.959963984540054


def agresti_caffo(ws: int, wn: int, n: int) -> tuple[float, float]:
    """The interval written out from its definition (one virtual win per side)."""
    ps, pn = (ws + 1) / (n + 2), (wn + 1) / (n + 2)
    d = ps - pn
    half = Z * math.sqrt((ps + pn - d * d) / (n + 2))
    return d - half, d + half


@pytest.mark.parametrize(
    ("ws", "wn", "n", "lo", "hi"),
    [
        # 10 wins each of 20: ps = pn = 11/22, variance 1/22, half-width 1.96 * 0.2132
        (10, 10, 20, -0.4179, 0.4179),
        # a clean sweep of 20: ps = 21/22, pn = 1/22, d = 0.9091, var = (1 - 0.8264) / 22
        (20, 0, 20, 0.7350, 1.0),
        # 120 : 70 with 10 draws of 200: d = 50/202, var = (192/202 - d^2) / 202
        (120, 70, 200, 0.1175, 0.3776),
    ],
)
def test_difference_interval_by_hand(ws: int, wn: int, n: int, lo: float, hi: float) -> None:
    got = difference_ci95(ws, wn, n)
    assert got == pytest.approx((lo, hi), abs=5e-4)
    raw_lo, raw_hi = agresti_caffo(ws, wn, n)
    assert got[0] == pytest.approx(max(-1.0, raw_lo)) and got[1] == pytest.approx(min(1.0, raw_hi))


def test_no_games_is_the_widest_interval() -> None:
    assert difference_ci95(0, 0, 0) == (-1.0, 1.0)
    assert BalanceEstimate(0, 0, 0, "x").balance_ci95() == (0.0, 1.0)


def test_bad_counts_are_refused() -> None:
    with pytest.raises(ValueError):
        difference_ci95(15, 10, 20)
    with pytest.raises(ValueError):
        BalanceEstimate(15, 10, 20, "x")
    with pytest.raises(ValueError):
        score_interval(30, 20)


@pytest.mark.parametrize(
    ("lo", "hi", "want"),
    [
        (-0.1, 0.2, (0.8, 1.0)),  # covers 0: the balance can be 1
        (0.1, 0.3, (0.7, 0.9)),
        (-0.4, -0.25, (0.6, 0.75)),
    ],
)
def test_balance_interval_is_the_image_of_the_difference(
    lo: float, hi: float, want: tuple[float, float]
) -> None:
    assert balance_of_difference(lo, hi) == pytest.approx(want)


@pytest.mark.parametrize(
    ("ws", "wn", "n", "favoured"),
    [
        (120, 70, 200, "south"),  # interval [0.12, 0.38] excludes 0
        (70, 120, 200, "north"),
        (100, 95, 200, "even"),  # interval covers 0
        (40, 10, 60, "undecided"),  # lopsided, but under 100 games: no verdict
        (30, 30, 60, "undecided"),  # never "even" on few games
    ],
)
def test_favoured_side(ws: int, wn: int, n: int, favoured: str) -> None:
    assert BalanceEstimate(ws, wn, n, "a").favoured() == favoured


def test_the_minimum_games_is_a_parameter() -> None:
    assert BalanceEstimate(40, 10, 60, "a").favoured(min_games=50) == "south"


def test_score_interval_counts_draws_as_half() -> None:
    # 55 wins and 10 draws of 100 = 60 points: Wilson's interval of 0.6 at n = 100
    assert score_interval(60.0, 100) == pytest.approx((0.5020, 0.6906), abs=5e-4)


def test_json_keys() -> None:
    doc = BalanceEstimate(120, 70, 200, "search", seed=3).to_json()
    assert doc["balance"] == pytest.approx(0.75)
    assert doc["balance_ci95"] == pytest.approx([0.6224, 0.8825], abs=5e-4)
    assert doc["favoured"] == "south" and doc["draws"] == 10 and doc["seed"] == 3
    assert "White 0.60" in BalanceEstimate(120, 70, 200, "s").text(("White", "Black"))
