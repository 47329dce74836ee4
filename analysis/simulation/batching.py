"""How many games a task of a run plays, so that progress moves and the numbers do not care,
and how long the rest of a run will take at its pace so far.

A run's numbers never depend on its batches (each game's randomness comes from the seed and
its number); the batches decide how often a progress bar moves and how promptly a cancel
is honoured, and, for the vectorised Final Act agents, the speed (big batches amortise).
``progress_batch`` is shared by ``tankmap simulate`` and the editor's balance dialog;
``time_left`` is the dialog's estimate.
"""

from __future__ import annotations

from tankmap.analysis.simulation.runner import fallback_note
from tankmap.rules.scenario import Scenario

PROGRESS_STEPS = 20
"""A run is cut into about this many batches, so the bar moves and Cancel is prompt."""
MIN_BATCH = 250
"""Unless the driver's own batches are smaller (one-game drivers use theirs)."""
FAST_AGENTS = frozenset({"random", "heuristic"})
"""Agents played thousands of games a second in big vectorised batches; every other agent
(``search``, ``uct``, the ``-ref`` engines) plays one game in a second or so, so its run is
cut into batches of a game or a few (``SLOW_STEPS`` at most) and the bar moves per game."""
SLOW_STEPS = 200


def progress_batch(scenario: Scenario, games: int, policies: tuple[str, str], most: int) -> int:
    """Games per batch of a run (a progress bar moves once a batch; the numbers do not
    depend on it): about ``PROGRESS_STEPS`` big batches for fast agents, one game (or
    ``games / SLOW_STEPS``) per batch for slow ones or when a slower reference engine
    plays (``fallback_note``)."""
    agents = {p.split("+")[0].split(":")[0] for p in policies}
    if agents <= FAST_AGENTS and not fallback_note(scenario, policies):
        # not so small that a vectorised driver slows down (Final Act: 250-game batches
        # run ~3x faster than 50-game ones)
        return min(most, max(-(-games // PROGRESS_STEPS), MIN_BATCH))
    return max(1, min(most, -(-games // SLOW_STEPS)))


def time_left(
    done: int, total: int, now: float, started: float, first: tuple[float, int] | None
) -> float | None:
    """Seconds left at the pace so far: measured from the first batch done (``first`` =
    its time and count; the first games also pay for warming up), or from the start while
    only one batch is done; ``None`` before any game is done."""
    if done <= 0:
        return None
    if first is not None and done > first[1] and now > first[0]:
        return (now - first[0]) * (total - done) / (done - first[1])
    return max(0.0, now - started) * (total - done) / done
