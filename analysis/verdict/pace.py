"""When a verdict's runs stop: the pace of a run's batches of games as they finish
(``Pace``: would the next batch end past the deadline?) and the games it can still reach
(``Reach``: can it get the games a verdict needs before the deadline?). ``climb.run_verdict``
asks both after every batch."""

from __future__ import annotations

from collections.abc import Callable


class Pace:
    """When a run's batches finish: ``late(deadline)`` — asked as each one does — says
    whether a batch started now would finish past ``deadline``: the first as long as the
    run so far, a later one ``workers`` times the time since the last batch finished.
    With the workers' batches reported as they finish (a verdict's runs with two or more
    workers: the caller plays none, ``simulate``'s ``abort``), that is about one batch;
    with one worker, one batch. A batch that runs longer than that (one long game) is left
    unfinished at the deadline itself (with one worker, at its game's next decision)."""

    def __init__(self, clock: Callable[[], float], workers: int = 1) -> None:
        self.clock = clock
        self.workers = max(1, workers)
        self.last = clock()
        self.seen = 0

    def late(self, deadline: float) -> bool:
        now = self.clock()
        gap, self.last = now - self.last, now
        self.seen += 1
        return now + gap * (1 if self.seen == 1 else self.workers) > deadline


class Reach:
    """Whether a run can still reach ``need`` games by a deadline: ``seen(done)`` — told as
    its batches finish — records its pace after the first batch (which carries the start
    of the run); ``short(deadline)`` is true when the games done plus those that pace fits
    in the time left fall short of ``need`` (never before two batches have finished)."""

    def __init__(self, clock: Callable[[], float], need: int) -> None:
        self.clock = clock
        self.need = need
        self.first: tuple[int, float] | None = None  # games done, time at the first batch
        self.done = 0

    def seen(self, done: int) -> None:
        self.done = done
        if self.first is None:
            self.first = (done, self.clock())

    def short(self, deadline: float) -> bool:
        if self.first is None or self.done <= self.first[0]:
            return False
        now = self.clock()
        rate = (self.done - self.first[0]) / max(now - self.first[1], 1e-9)
        return self.done + rate * max(deadline - now, 0.0) < self.need
