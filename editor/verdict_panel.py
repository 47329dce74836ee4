"""The balance dialog's verdict line: the board's remembered verdict (``tankmap verdict``),
and a button that judges the board now.

``VerdictPanel(scenario)`` shows the verdict remembered for the board as it is
(``analysis.verdict.cache``: favoured side, converged or not, balance with its interval,
agent, games, seed), or says that there is none yet. **Judge board** climbs the game's
default agent family on the board in the background (``analysis.verdict.climb.run_verdict``
in a ``ThreadJob``, the command's default time limit), on one spawned worker process per
CPU as ``tankmap verdict`` uses, kept for the whole climb (this process has a Qt window
and must not fork), with a progress line naming the rung being played; **Cancel** stops it
at once, the workers' games in progress left unfinished. The result is
remembered for the board, as ``tankmap verdict`` does, and shown with why it is (not)
converged. The games played are kept (``analysis.verdict.played``): judging the board
again with the same seed, after the time limit or Cancel, goes on where the climb stopped
(the button then reads **Go on judging**). The same seed gives the same trace as
``tankmap verdict FILE --seed S``.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from tankmap.analysis.verdict.cache import (
    save_verdict,
    shown_verdict,
    stronger_kept,
    verdict_line,
)
from tankmap.editor.jobs import JobCancelled, ThreadJob, gui_executor
from tankmap.rules.errors import TankmapError
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario

TIME_LIMIT = 180.0
"""Seconds a climb may take (``tankmap verdict``'s default)."""
JUDGE = "&Judge board"
GO_ON = "Go on &judging"
"""The button's label when the remembered verdict is not converged (same seed)."""


class VerdictJob(ThreadJob):
    """One climb: ``progress(stage, done, total)`` as games finish, then
    ``finished(doc)`` (the ``verdict --json`` document), ``failed`` or ``cancelled``."""

    progress = Signal(str, int, int)

    def __init__(
        self,
        scenario: Scenario,
        seed: int,
        time_limit: float = TIME_LIMIT,
        workers: int | None = None,
    ) -> None:
        super().__init__(self._climb)
        self.scenario = scenario
        self.seed = seed
        self.time_limit = time_limit
        self.workers = workers  # (None: every CPU)

    def _tick(self, stage: str, done: int, total: int) -> None:
        self.progress.emit(stage, done, total)

    def _climb(self) -> dict[str, Any]:
        from tankmap.analysis.verdict.climb import ClimbCancelled, run_verdict
        from tankmap.analysis.verdict.played import PlayedGames

        # every CPU, as ``tankmap verdict``, on one set of spawned workers for the climb
        try:
            with gui_executor(self.workers, abortable=True) as executor:
                result = run_verdict(
                    self.scenario,
                    seed=self.seed,
                    time_limit=self.time_limit,
                    progress=self._tick,
                    store=PlayedGames.of(self.scenario),
                    cancelled=self.cancel_asked,
                    executor=executor,
                )
        except ClimbCancelled:
            raise JobCancelled from None  # the games finished are kept
        doc = {"ruleset": self.scenario.ruleset, **result.to_json()}
        save_verdict(self.scenario, doc)
        return doc


class VerdictPanel(QWidget):
    """The verdict line with Judge board / Cancel (see the module docstring); ``seed()``
    gives the seed a climb uses."""

    judged = Signal(object)

    def __init__(self, scenario: Callable[[], Scenario], seed: Callable[[], int]) -> None:
        super().__init__()
        self._scenario = scenario
        self._seed = seed
        self.job: VerdictJob | None = None
        self.clock: Callable[[], float] = time.monotonic  # tests pass their own
        self.started = 0.0
        self.time_limit = TIME_LIMIT
        self._stopped = False  # the dialog is going away: late signals are dropped
        self.line = QLabel()
        self.line.setWordWrap(True)
        self.line.setTextFormat(self.line.textFormat().RichText)
        self.button = QPushButton(JUDGE)
        self.button.setToolTip(
            "Climb the game's strongest agent's budgets on this board until a stronger agent "
            "no longer changes the balance (tankmap verdict; up to 3 minutes, every CPU). "
            "The games played are kept: judging again goes on where the last climb stopped"
        )
        self.button.clicked.connect(lambda: self.toggle())
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.line, 1)
        row.addWidget(self.button)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(row)
        self.refresh()

    def _sides(self, scenario: Scenario) -> tuple[str, str]:
        names = get_ruleset(scenario.ruleset).side_names()
        return names[Side.SOUTH], names[Side.NORTH]

    def refresh(self) -> None:
        """Show the verdict remembered for the board as it is now (unless a climb runs)."""
        if self.busy():
            return
        try:
            scenario = self._scenario()
            doc, text = shown_verdict(scenario, self._sides(scenario), "press Judge board")
        except TankmapError as exc:
            text = f"verdict: {exc}"
            doc = None
        self._show(text, doc)

    def _show(self, text: str, doc: dict[str, Any] | None) -> None:
        self.button.setText(self._label(doc))
        body = html.escape(text[:1].upper() + text[1:])
        if doc is not None and not doc.get("converged"):
            body = f"<span style='color:#a60'>{body}</span>"
        reason = f"<br><small>{html.escape(str(doc['reason']))}</small>" if doc else ""
        self.line.setText(f"<b>{body}</b>{reason}")

    def _label(self, doc: dict[str, Any] | None) -> str:
        """``GO_ON`` when the board's remembered verdict is not converged and has the seed a
        climb would use now (its games are kept: a climb goes on from them), else
        ``JUDGE``."""
        if doc is not None and not doc.get("converged") and doc.get("seed") == self._seed():
            return GO_ON
        return JUDGE

    def busy(self) -> bool:
        return self.job is not None and self.job.running()

    def toggle(self) -> VerdictJob | None:
        """Judge the board now, or cancel the climb in progress."""
        if self.busy():
            assert self.job is not None
            self.job.cancel()
            return None
        return self.judge()

    def judge(self, time_limit: float = TIME_LIMIT) -> VerdictJob | None:
        """Start a climb on the board as it is now; ``None`` (the reason shown) for a board
        that cannot be played."""
        from tankmap.analysis.simulation.runner import require_legal

        scenario = self._scenario()
        try:
            require_legal(scenario)
        except TankmapError as exc:
            self.line.setText(f"<span style='color:#b00'>{html.escape(str(exc))}</span>")
            return None
        self._stopped = False
        job = VerdictJob(scenario, self._seed(), time_limit)
        job.progress.connect(self._progress)
        job.finished.connect(self._finished)
        job.failed.connect(self._failed)
        job.cancelled.connect(self._cancelled)
        self.job = job
        self.time_limit = time_limit
        self.started = self.clock()
        self.button.setText("Cancel &judging")
        self.line.setText(f"Judging the board ({self._elapsed()}): starting the climb…")
        job.start()
        return job

    def _elapsed(self) -> str:
        """``"1:05 of up to 3:00"``: how long the climb has run, and may run."""

        def clock(seconds: float) -> str:
            whole = int(seconds)
            return f"{whole // 60}:{whole % 60:02d}"

        return f"{clock(self.clock() - self.started)} of up to {clock(self.time_limit)}"

    def _progress(self, stage: str, done: int, total: int) -> None:
        self.line.setText(
            f"Judging the board ({self._elapsed()}): {html.escape(stage)}, {done} of {total} games…"
        )

    def _end(self) -> bool:
        """Forget the ended climb; ``False`` when the panel was stopped meanwhile."""
        if self.job is not None:
            self.job.wait()
        if self._stopped:
            return False
        self.button.setText(JUDGE)
        return True

    def _finished(self, doc: object) -> None:
        if not self._end():
            return
        assert self.job is not None and isinstance(doc, dict)
        sides = self._sides(self.job.scenario)
        kept = stronger_kept(self.job.scenario, doc)
        if kept is None:
            self._show(verdict_line(doc, sides), doc)
        else:  # the board's figure stays the one with more evidence, as everywhere
            self._show(verdict_line(kept, sides), kept)
            mine = html.escape(verdict_line(doc, sides).removeprefix("verdict: "))
            self.line.setText(
                f"{self.line.text()}<br><small>This climb ({mine}) rested on less than the "
                "verdict kept for the board, which stays.</small>"
            )
        self.judged.emit(doc)

    def _failed(self, message: str) -> None:
        if not self._end():
            return
        self.line.setText(f"<span style='color:#b00'>{html.escape(message)}</span>")

    def _cancelled(self) -> None:
        if self._end():
            self.refresh()

    def stop(self) -> None:
        """Cancel a climb and wait for its thread (before the dialog goes away)."""
        if self.job is not None and self.job.running():
            self._stopped = True
            self.job.cancel()
            self.job.wait()
