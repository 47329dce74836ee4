"""The live balance meter's measurement: a board's balance with its interval, and whether
an edit changed it beyond noise.

``BalanceMeter`` plays boards one after another with one agent on the same seed, so that
game ``i`` of every board draws the same random numbers: each board's outcomes are kept
(``outcomes_of``, extended on demand with the very games a longer run would play) and a new
board is compared with the previous one game for game (``analysis.paired``). The games grow
in steps (``STEPS``: 200, 400, … 3,200) until the change is significant — its interval, at
a Bonferroni level over the steps (a 5 % chance at most that noise is called a change),
excludes 0 — or the last step says the change is **within noise**. A board without a
previous one is measured at the first step.

>>> # reading = BalanceMeter().measure(board, previous_board)
>>> # reading.text() -> "balance 0.91 [0.86, 0.95] (heuristic, 800 games) · change +0.06 ..."
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tankmap.analysis.estimates import BalanceEstimate, games_text
from tankmap.analysis.paired import Gain, Outcomes, bonferroni, improvement, outcomes
from tankmap.analysis.simulation.runner import simulate
from tankmap.rules.fileformat import dumps_scenario
from tankmap.rules.scenario import Scenario

STEPS = (200, 400, 800, 1600, 3200)
"""Games per board at each look; the comparison stops at the first significant look."""
KEEP = 8
"""Boards whose outcomes are kept (the oldest are forgotten first)."""


@dataclass(frozen=True)
class Reading:
    """A board's balance after ``estimate.games`` games, and its change from the previous
    board on the same games (``None`` without a previous board); ``final`` once the meter
    has stopped adding games for this board."""

    estimate: BalanceEstimate
    change: Gain | None
    final: bool

    @property
    def significant(self) -> bool:
        return self.change is not None and self.change.significant()

    def text(self) -> str:
        """``"balance 0.91 [0.86, 0.95] (heuristic, 800 games) · change +0.06 [+0.02,
        +0.10]"``, ``"· within noise (±0.04)"`` or, while still playing, ``"· comparing…"``."""
        lo, hi = self.estimate.balance_ci95()
        head = (
            f"balance {self.estimate.balance:.2f} [{lo:.2f}, {hi:.2f}] "
            f"({self.estimate.agent}, {games_text(self.estimate.games)})"
        )
        c = self.change
        if c is None:
            return head
        if c.significant():
            return f"{head} · change {c.estimate:+.2f} [{c.lower:+.2f}, {c.upper:+.2f}]"
        if not self.final:
            return f"{head} · comparing with the previous board…"
        half = max(abs(c.lower), abs(c.upper))
        return f"{head} · change within noise (±{half:.2f})"


class BalanceMeter:
    """Measures boards with ``agent`` on ``seed`` (see the module docstring)."""

    def __init__(self, agent: str = "heuristic", seed: int = 0, steps: tuple[int, ...] = STEPS):
        self.agent = agent
        self.seed = seed
        self.steps = steps
        self._outcomes: dict[str, Outcomes] = {}

    def outcomes_of(
        self, scenario: Scenario, games: int, interrupt: Callable[[], None] | None = None
    ) -> Outcomes:
        """The first ``games`` outcomes of ``scenario`` (played now where not kept)."""
        key = dumps_scenario(scenario)
        have = self._outcomes.pop(key, np.zeros(0, dtype=np.int8))
        if len(have) < games:
            tick = None if interrupt is None else (lambda _d, _t: interrupt())
            df = simulate(
                scenario,
                games - len(have),
                self.agent,
                seed=self.seed,
                progress=tick,
                first_game=len(have),
            )
            have = np.concatenate([have, outcomes(df)])
        self._outcomes[key] = have
        while len(self._outcomes) > KEEP:
            self._outcomes.pop(next(iter(self._outcomes)))
        return have[:games]

    def measure(
        self,
        scenario: Scenario,
        previous: Scenario | None = None,
        interrupt: Callable[[], None] | None = None,
        report: Callable[[Reading], None] | None = None,
    ) -> Reading:
        """Measure ``scenario`` and its change from ``previous`` (see the module docstring);
        ``report`` receives each look's reading, ``interrupt`` is called between batches of
        games (raise from it to stop)."""
        level = bonferroni(len(self.steps))
        reading: Reading | None = None
        for k, n in enumerate(self.steps):
            x = self.outcomes_of(scenario, n, interrupt)
            est = self._estimate(x)
            if previous is None:
                reading = Reading(est, None, True)
                break
            before = self.outcomes_of(previous, n, interrupt)
            change = improvement(before, x, level, seed=self.seed)
            last = k == len(self.steps) - 1
            reading = Reading(est, change, last or change.significant())
            if reading.final:
                break
            if report is not None:
                report(reading)
        assert reading is not None
        if report is not None:
            report(reading)
        return reading

    def _estimate(self, x: Outcomes) -> BalanceEstimate:
        return BalanceEstimate(
            int((x == 1).sum()), int((x == -1).sum()), len(x), self.agent, self.seed
        )
