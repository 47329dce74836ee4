"""Two boards (or agents) compared on common seeds: the balance gained, with its interval.

Game ``i`` of a run seeded ``s`` draws the same random numbers whatever the board, so two
boards played on the same seeds and game numbers give *paired* outcomes: what differs
between game ``i`` on one board and on the other is mostly the board. ``outcomes`` turns a
``simulate`` table into +1 (south won), −1 (north won) or 0 (draw) per game;
``improvement`` estimates how much more even the second board is — ``balance(after) −
balance(before)`` with ``balance = 1 − |mean outcome|`` — and its interval by a seeded
paired bootstrap over the games (resampling game numbers, so each resample keeps the
pairs). ``p_improves`` is the bootstrap's one-sided p-value of "no improvement", and
``bonferroni`` the level that keeps the chance of any false "better" among ``m``
comparisons under 5 %.

>>> import numpy as np
>>> before = np.array([1] * 70 + [-1] * 30)      # south wins 70 of 100: balance 0.6
>>> after = np.array([1] * 52 + [-1] * 48)       # the same seeds on the edited board: 0.96
>>> gain = improvement(before, after)
>>> round(gain.estimate, 2), gain.lower > 0
(0.36, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

RESAMPLES = 4000
"""Bootstrap resamples: enough for the tails of a Bonferroni level over a few comparisons."""

Outcomes = npt.NDArray[np.int8]


def outcomes(df: Any) -> Outcomes:
    """+1 / −1 / 0 per game of a ``simulate`` table, in game order."""
    table = df.sort_values("game")
    winner = table["winner"].to_numpy()
    return np.where(winner == "south", 1, np.where(winner == "north", -1, 0)).astype(np.int8)


def balance_of(x: Outcomes) -> float:
    """``1 − |mean outcome|`` (1 for no games)."""
    return 1.0 - abs(float(x.mean())) if len(x) else 1.0


@dataclass(frozen=True)
class Gain:
    """The balance gained by the second board, its interval at ``level`` and the games."""

    estimate: float
    lower: float
    upper: float
    level: float
    games: int
    p_value: float

    def significant(self) -> bool:
        """Whether the interval excludes no change (``lower > 0`` or ``upper < 0``)."""
        return self.lower > 0 or self.upper < 0

    def to_json(self) -> dict[str, Any]:
        return {
            "estimate": round(self.estimate, 6),
            "ci": [round(self.lower, 6), round(self.upper, 6)],
            "level": self.level,
            "games": self.games,
            "p_value": round(self.p_value, 6),
        }


def improvement(before: Outcomes, after: Outcomes, level: float = 0.95, seed: int = 0) -> Gain:
    """``balance(after) − balance(before)`` on paired games, with a percentile bootstrap
    interval at ``level`` (``RESAMPLES`` resamples of the game pairs, seeded) and the
    one-sided p-value of "no improvement" (the share of resamples that gain nothing).
    Raises ``ValueError`` for unpaired runs (different lengths) or no games."""
    if len(before) != len(after):
        raise ValueError(f"unpaired runs: {len(before)} and {len(after)} games")
    n = len(before)
    if n == 0:
        raise ValueError("no games to compare")
    if not 0 < level < 1:
        raise ValueError(f"level {level} is not between 0 and 1")
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(n,)))
    # A resample of n game pairs only matters through how many pairs fall in each of the
    # nine (before, after) outcome combinations: draw those counts (multinomially, which is
    # exactly resampling the pairs) instead of n indices per resample.
    joint = (before.astype(np.int64) + 1) * 3 + (after.astype(np.int64) + 1)
    p = np.bincount(joint, minlength=9) / n
    counts = rng.multinomial(n, p, size=RESAMPLES).reshape(RESAMPLES, 3, 3)
    value = np.array([-1.0, 0.0, 1.0])
    b = (counts.sum(axis=2) @ value) / n  # mean outcome before, per resample
    a = (counts.sum(axis=1) @ value) / n
    gains = np.abs(b) - np.abs(a)  # balance(after) - balance(before) per resample
    tail = (1.0 - level) / 2.0
    lo, hi = np.quantile(gains, [tail, 1.0 - tail])
    estimate = balance_of(after) - balance_of(before)
    p_value = float((gains <= 0).mean())
    return Gain(estimate, float(lo), float(hi), level, n, p_value)


def bonferroni(m: int, level: float = 0.95) -> float:
    """The per-comparison level for ``m`` comparisons with a family level ``level``.

    >>> round(bonferroni(3), 4)
    0.9833
    """
    return 1.0 - (1.0 - level) / max(m, 1)
