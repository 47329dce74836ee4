"""View ▸ Live balance meter: the board's balance, and whether the last edit changed it
beyond noise, in the status bar after every edit.

``LiveBalance(ctx, label)`` (off until ``set_enabled(True)``) measures the board with the
fast ``heuristic`` agent on a fixed seed (``analysis.meter.BalanceMeter``), in a background
``ThreadJob``, once the edits have paused for ``DELAY_MS``, and shows e.g.
``balance 0.91 [0.86, 0.95] (heuristic, 800 games) · change +0.06 [+0.02, +0.10]``: the
balance with its 95 % interval, and its change from the board measured before on the very
same games, played in growing steps until the change is significant or is "within noise".

Promises:

- The figure shown is always the figure of the board on screen: a result that arrives for
  an older board is dropped, and a newer edit cancels the run in progress (at its next
  batch of games) and starts one for the new board. One run at a time.
- The same board always gives the same balance for the same games (fixed seed): the games
  of a board are those of ``tankmap simulate FILE --policy heuristic --seed 0``.
- An illegal, incomplete or finished board shows a short note instead; a game without the
  agent shows nothing. Off, the label is empty and nothing runs.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QLabel

from tankmap.analysis.meter import STEPS, BalanceMeter, Reading
from tankmap.editor.context import EditorContext
from tankmap.editor.document import Document
from tankmap.editor.jobs import ThreadJob
from tankmap.rules.errors import TankmapError
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario
from tankmap.rules.violations import Severity

AGENT = "heuristic"
SEED = 0
DELAY_MS = 300


def board_note(scenario: Scenario) -> str | None:
    """A short note when ``scenario`` cannot be measured, else ``None``; ``""`` when the
    game has no ``AGENT`` to play it (nothing to show)."""
    from tankmap.analysis.simulation.games import get_driver

    try:
        if AGENT not in get_driver(scenario.ruleset).policy_names():
            return ""
    except TankmapError:
        return ""
    rs = get_ruleset(scenario.ruleset)
    severities = {v.severity for v in rs.check(scenario)}
    if Severity.ERROR in severities:
        return "balance: illegal board"
    if Severity.INCOMPLETE in severities:
        return "balance: set-up incomplete"
    if rs.finished(scenario) is not None:
        return "balance: game over"
    return None


class _MeterJob(ThreadJob):
    """``meter.measure(scenario, previous)``: ``reading(Reading)`` at each look, then
    ``finished(Reading)`` or, after ``cancel``, ``cancelled()``."""

    reading = Signal(object)

    def __init__(self, meter: BalanceMeter, scenario: Scenario, previous: Scenario | None) -> None:
        super().__init__(self._measure)
        self.meter = meter
        self.scenario = scenario
        self.previous = previous

    def _measure(self) -> Reading:
        self.interrupt()
        return self.meter.measure(
            self.scenario, self.previous, self.interrupt, lambda r: self.reading.emit(r)
        )


class LiveBalance(QObject):
    """Keeps ``label`` showing the balance of ``ctx``'s board (see the module docstring)."""

    def __init__(self, ctx: EditorContext, label: QLabel) -> None:
        super().__init__(ctx)
        self.ctx = ctx
        self.label = label
        self.enabled = False
        self.job: _MeterJob | None = None
        self.shown_for: Scenario | None = None  # the board the label's figure belongs to
        self.measured: Scenario | None = None  # the last board measured (compared with next)
        self.meter = BalanceMeter(AGENT, SEED)
        self._doc: Document | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DELAY_MS)
        self._timer.timeout.connect(self.refresh)
        label.setToolTip(
            f"Live balance meter: the {AGENT} agent against itself after each edit, seed "
            f"{SEED} (1 = even; the 95 % interval in brackets), and the change from the board "
            f"before on the same games — {STEPS[0]} to {STEPS[-1]} games, until the change is "
            "beyond noise or shown to be within it. View ▸ Live balance meter."
        )
        ctx.document_replaced.connect(self._attach)
        self._attach()

    def _attach(self) -> None:
        if self._doc is not None:
            try:
                self._doc.changed.disconnect(self._changed)
            except (RuntimeError, TypeError):
                pass
        self._doc = self.ctx.doc
        self._doc.changed.connect(self._changed)
        self._changed()

    def set_enabled(self, on: bool) -> None:
        self.enabled = on
        if on:
            self.refresh()
        else:
            self._timer.stop()
            if self.job is not None:
                self.job.cancel()
            self._show("", None)

    def _changed(self) -> None:
        if self.enabled:
            if self.shown_for is not None:
                self.label.setStyleSheet("color: #9e9e9e")  # the figure of an older board
            self._timer.start()

    def busy(self) -> bool:
        """True from a run's start until its end has been handled."""
        return self.job is not None

    def refresh(self) -> None:
        """Measure the board as it is now (unless a run is going: it is cancelled and its
        end starts the run for the newest board)."""
        if not self.enabled:
            return
        if self.busy():
            assert self.job is not None
            if self.job.scenario != self.ctx.doc.scenario:
                self.job.cancel()
            return
        scenario = self.ctx.doc.scenario
        if scenario == self.shown_for:
            self.label.setStyleSheet("")
            return
        note = board_note(scenario)
        if note is not None:
            self._show(note, scenario)
            return
        job = _MeterJob(self.meter, scenario, self.measured)
        job.reading.connect(lambda r, job=job: self._progress(job, r))
        job.finished.connect(lambda r, job=job: self._finished(job, r))
        job.failed.connect(lambda message, job=job: self._failed(job, message))
        job.cancelled.connect(lambda job=job: self._ended(job))
        self.job = job
        job.start()

    def _show(self, text: str, scenario: Scenario | None) -> None:
        self.label.setText(text)
        self.label.setStyleSheet("color: #616161" if text.startswith("balance:") else "")
        self.shown_for = scenario

    def _end(self, job: _MeterJob) -> bool:
        """Forget the ended ``job``; True if its board is still the one on screen."""
        job.wait()
        if self.job is job:
            self.job = None
        return self.enabled and job.scenario == self.ctx.doc.scenario

    def _progress(self, job: _MeterJob, reading: Reading) -> None:
        if self.job is job and job.scenario == self.ctx.doc.scenario and not reading.final:
            self.label.setText(reading.text())
            self.label.setStyleSheet("")

    def _finished(self, job: _MeterJob, reading: Reading) -> None:
        if self._end(job):
            self._show(reading.text(), job.scenario)
            self.measured = job.scenario
        self.refresh()  # a newer board, if any

    def _failed(self, job: _MeterJob, message: str) -> None:
        if self._end(job):
            self._show("balance: " + (message.splitlines() or ["failed"])[0][:60], job.scenario)
        self.refresh()

    def _ended(self, job: _MeterJob) -> None:
        self._end(job)
        self.refresh()

    def stop(self) -> None:
        """Cancel a run and wait for its thread (before the window goes away)."""
        self._timer.stop()
        if self.job is not None:
            self.job.cancel()
            self.job.wait()
