"""Analysis ▸ Simulate balance: seeded playouts of the board being edited, off the GUI thread.

The run itself, its progress text and the result text live in ``editor.balance_job``.
``BalanceDialog`` asks for games, policies and seed, shows a progress bar with Cancel and
then the win rates with their Wilson 95 % intervals, the balance, game lengths and, on
request, the full HTML report (the one ``tankmap simulate --out`` writes). The same seed
gives the same numbers as ``tankmap simulate FILE --seed S``.

After a run the dialog offers sample games to watch and the run's heat maps
(``editor.balance_samples``).
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from tankmap.analysis.replay import Replay
from tankmap.analysis.run_games import sample_games
from tankmap.analysis.simulation.agent_info import (
    agents_entry,
    default_agent,
    describe,
)
from tankmap.analysis.simulation.batching import time_left
from tankmap.analysis.simulation.games import get_driver
from tankmap.analysis.simulation.pace import known_pace
from tankmap.analysis.simulation.runner import (
    fallback_note,
    require_legal,
)
from tankmap.editor.balance_job import (
    SimulationJob,
    progress_text,
    result_html,
)
from tankmap.editor.balance_samples import SampleGames
from tankmap.editor.jobs import ThreadJob
from tankmap.editor.run_estimate import RunEstimate, run_workers
from tankmap.editor.verdict_panel import VerdictPanel
from tankmap.rules.errors import TankmapError
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario
from tankmap.rules.violations import Severity

DEFAULT_GAMES = 200
"""The number of games until the agents' pace on the board is known."""


class BalanceDialog(SampleGames, QDialog):
    """Games, policies and seed; Run / Cancel with a progress bar; the results; the report.

    ``scenario`` is called when Run is pressed (the board as it is then is simulated; later
    edits do not change a running job). ``open_url`` opens the written report (tests pass a
    recorder instead of the desktop's browser); ``watch(replay, title)`` shows a sample game
    (default: a replay window over the dialog's parent)."""

    def __init__(
        self,
        scenario: Callable[[], Scenario],
        parent: QWidget | None = None,
        open_url: Callable[[QUrl], object] = QDesktopServices.openUrl,
        watch: Callable[[Replay, str], object] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Simulate balance")
        self._scenario = scenario
        self._open_url = open_url
        self._watch = watch or self._show_replay
        self.job: SimulationJob | None = None
        self.report_job: ThreadJob | None = None
        self.sample_job = None
        self.last: tuple[Scenario, dict[str, Any], pd.DataFrame] | None = None
        self.last_run: tuple[tuple[str, str], int] | None = None  # policies, seed of ``last``
        self.last_notes: tuple[str | None, str | None] = (None, None)  # of ``last``'s words
        self.discard = False  # the run going on is another board's: drop what it ends with
        self.samples = []
        self.incomplete_note: str | None = None
        self.clock: Callable[[], float] = time.monotonic  # tests pass their own
        self.started = 0.0
        self.first_done: tuple[float, int] | None = None  # time and count of the first batch

        self.games = QSpinBox()
        self.games.setRange(1, 200_000)
        self.games.setSingleStep(100)
        self.games.setValue(DEFAULT_GAMES)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(0)  # tankmap simulate's default seed: the same numbers
        self.south = QComboBox()
        self.north = QComboBox()
        self.south_label = QLabel("South plays")
        self.north_label = QLabel("North plays")
        # what the chosen agent does, in words, under each list (not only on hover)
        self.south_about = QLabel()
        self.north_about = QLabel()
        for about, combo in ((self.south_about, self.south), (self.north_about, self.north)):
            about.setWordWrap(True)
            about.setStyleSheet("color: #555")
            combo.currentTextChanged.connect(self._describe_agents)
        # Until the user picks an agent (in either list), both lists follow ``simulate``'s
        # default: the strongest agent that finishes the asked-for games in about a minute.
        # Any change of a list made outside ``refresh_policies``/``follow_default_agent``
        # (the user's pick, or a caller's ``setCurrentText``) is kept.
        self.picked = False
        self._filling = False
        for combo in (self.south, self.north):
            combo.currentTextChanged.connect(self._mark_picked)
        self.default_note = QLabel()
        self.default_note.setWordWrap(True)
        self.default_note.setStyleSheet("color: #555")
        # Until the user sets the number of games, it follows the agents' pace on this board
        # so that a run takes about a minute; the estimate under it stays current.
        self.estimator = RunEstimate(scenario, self.games, self.south, self.north, self.seed)
        self.estimate = self.estimator.label
        form = QFormLayout()
        form.addRow("Games", self.games)
        form.addRow("", self.estimate)
        for label, combo, about in (
            (self.south_label, self.south, self.south_about),
            (self.north_label, self.north, self.north_about),
        ):
            # the words in a row of their own: a form row gives a wrapped label the height
            # its lines need (nested in a column with the list, the lines overlapped it)
            form.addRow(label, combo)
            form.addRow("", about)
        form.addRow("Seed", self.seed)
        form.addRow("", self.default_note)

        self.bar = QProgressBar()
        self.bar.setRange(0, 1)
        self.bar.setValue(0)
        self.results = QTextBrowser()
        self.results.setMinimumSize(420, 100)
        self.run_button = QPushButton("&Run")
        self.run_button.setDefault(True)
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton("&Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.report_button = QPushButton("Open &report")
        self.report_button.setEnabled(False)
        self.report_button.setToolTip("Write the HTML report (charts, heat maps, CSV) and open it")
        self.report_button.clicked.connect(self.open_report)
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        buttons = QHBoxLayout()
        for b in (self.run_button, self.cancel_button, self.report_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(close)

        samples = self._build_samples()

        self.verdict = VerdictPanel(scenario, self.seed.value)
        self.seed.valueChanged.connect(lambda _v: self.verdict.refresh())  # Go on judging?
        self.verdict.judged.connect(lambda _doc: self._show_result())  # its verdict line
        box = QVBoxLayout(self)
        box.addWidget(self.verdict)
        box.addLayout(form)
        box.addWidget(self.bar)
        box.addWidget(self.results, 1)
        box.addLayout(samples)
        box.addLayout(buttons)
        self.refresh_policies()

    # --- set-up ---------------------------------------------------------------------------
    def refresh_policies(self) -> None:
        """Fill the policy lists with the current game's policies (heuristic first), then
        the heuristic with each restriction (``heuristic+no-berms``: what is a feature
        worth? Play one side without it and compare the win rates)."""
        scenario = self._scenario()
        self.verdict.refresh()
        names_of = get_ruleset(scenario.ruleset).side_names()
        self.south_label.setText(f"{names_of[Side.SOUTH]} plays")
        self.north_label.setText(f"{names_of[Side.NORTH]} plays")
        try:
            driver = get_driver(scenario.ruleset)
            names: tuple[str, ...] = driver.policy_names()
            limits: tuple[str, ...] = tuple(getattr(driver, "restrictions", tuple)())
        except TankmapError as exc:
            names, limits = (), ()
            self.results.setHtml(f"<p style='color:#b00'>{html.escape(str(exc))}</p>")
        ordered = sorted(names, key=lambda n: (n != "heuristic", n.endswith("-ref"), n))
        if "heuristic" in names:
            present = {u.kind for u in scenario.units} | {"berms"}
            ordered += [f"heuristic+{r}" for r in limits if r[3:] in present]
        self._filling = True
        try:
            for combo in (self.south, self.north):
                keep = combo.currentText()
                combo.clear()
                combo.addItems(ordered)
                for i, name in enumerate(ordered):  # what each agent does, on hover
                    tip = describe(scenario.ruleset, name)
                    combo.setItemData(i, tip, Qt.ItemDataRole.ToolTipRole)
                if keep in ordered:
                    combo.setCurrentText(keep)
        finally:
            self._filling = False
        self.follow_default_agent()
        self.run_button.setEnabled(bool(ordered) and not self.busy())

    def follow_default_agent(self) -> None:
        """Unless the user has picked an agent, set both lists to ``simulate``'s default
        agent for this board (``agent_info.default_agent``, whatever the number of games);
        say why."""
        scenario = self._scenario()
        try:
            name, why = default_agent(scenario)
        except TankmapError:
            self.default_note.setText("")
            return
        self._filling = True
        try:
            for combo in (self.south, self.north):
                if not self.picked and combo.findText(name) >= 0:
                    combo.setCurrentText(name)
        finally:
            self._filling = False
        self.default_note.setText(f"Default agent: {name} — {why}.")

    def update_estimate(self, measure: bool = True) -> None:
        """Say how long a run will take (``editor.run_estimate.RunEstimate.update``)."""
        self.estimator.update(measure)

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self.verdict.refresh()
        self.update_estimate()
        self.fit_words()

    def fit_words(self) -> None:
        """Grow the dialog (never shrink it) to the height its words need, up to the
        screen's: wrapped labels set after it was sized (the estimate, what each agent
        does) were squeezed into lines too low for them, clipped or over the lists above."""
        self._hold_wrapped_heights()
        layout = self.layout()
        if layout is not None:
            layout.activate()
        need = self.sizeHint().height()
        screen = self.screen()
        if screen is not None:  # no taller than the screen (less its title bar)
            need = min(need, screen.availableGeometry().height() - 40)
        if self.isVisible() and self.height() < need:
            self.resize(self.width(), need)

    def _hold_wrapped_heights(self) -> None:
        """Keep each wrapped label as high as its lines need at its width (a form row does
        not ask it), so that a low dialog squeezes the results box, never the words."""
        for label in (self.estimate, self.south_about, self.north_about, self.default_note):
            if label.isVisible() and label.width() > 100:
                label.setMinimumHeight(label.heightForWidth(label.width()))

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._hold_wrapped_heights()

    def _mark_picked(self, _text: str) -> None:
        if not self._filling:
            self.picked = True

    def _describe_agents(self, *args: object) -> None:
        ruleset = self._scenario().ruleset
        for about, combo in ((self.south_about, self.south), (self.north_about, self.north)):
            name = combo.currentText()
            about.setText(describe(ruleset, name) if name else "")
        self.fit_words()

    def busy(self) -> bool:
        return self.job is not None and self.job.running()

    # --- running --------------------------------------------------------------------------
    def run(self) -> bool:
        """Start a run on the board as it is now; ``False`` (with the reason shown) when the
        set-up breaks a rule or a run is already going."""
        if self.busy():
            return False
        scenario = self._scenario()
        try:
            require_legal(scenario)
        except TankmapError as exc:
            self.results.setHtml(
                f"<p style='color:#b00'>{html.escape(str(exc)).capitalize()}.</p>"
                "<p>The Problems dock lists everything that must be fixed first.</p>"
            )
            return False
        missing = [
            v.message
            for v in get_ruleset(scenario.ruleset).check(scenario)
            if v.severity is Severity.INCOMPLETE
        ]
        self.incomplete_note = (
            f"Incomplete set-up ({missing[0]}"
            + (f" and {len(missing) - 1} more" if len(missing) > 1 else "")
            + "): these numbers are for the board as it stands, not for a full game."
            if missing
            else None
        )
        policies = (self.south.currentText(), self.north.currentText())
        games = self.games.value()
        # every CPU for a run that takes a while (at these agents' pace here, when known)
        workers = run_workers(games, known_pace(scenario, policies))
        job = SimulationJob(scenario, games, policies, self.seed.value(), workers)
        job.progress.connect(self._progress)
        job.finished.connect(self._finished)
        job.failed.connect(self._failed)
        job.cancelled.connect(self._cancelled)
        self.job = job
        self.last = None
        self.last_run = None
        self._set_samples([])
        self.bar.setRange(0, self.games.value())
        self.bar.setValue(0)
        self.bar.setFormat(progress_text(0, self.games.value(), None))
        self.started = self.clock()
        self.first_done = None
        warn = self.incomplete_note
        self.results.setHtml(
            "<p>Playing…</p>"
            + (f"<p style='color:#a60'><b>{html.escape(warn)}</b></p>" if warn else "")
        )
        self._set_running(True)
        job.start()
        return True

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()

    def _set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.report_button.setEnabled(not running and self.last is not None)
        for w in (self.games, self.seed, self.south, self.north):
            w.setEnabled(not running)

    def _progress(self, done: int, total: int) -> None:
        self.bar.setRange(0, total)
        self.bar.setValue(done)
        now = self.clock()
        left = time_left(done, total, now, self.started, self.first_done)
        if self.first_done is None and done > 0:
            self.first_done = (now, done)
        self.bar.setFormat(progress_text(done, total, left))

    def _finished(self, result: tuple[dict[str, Any], pd.DataFrame]) -> None:
        assert self.job is not None
        if self._discarded():
            return
        doc, table = result
        stopped = bool(table.attrs.get("stopped"))
        if stopped:
            self.bar.setFormat(f"cancelled after {len(table)} of {self.job.games} games")
        scenario = self.job.scenario
        self.job.wait()
        self.last = (scenario, doc, table)
        self.last_run = (self.job.policies, self.job.seed)
        note = fallback_note(scenario, self.job.policies)
        if get_ruleset(scenario.ruleset).provisional:
            note = " ".join(filter(None, [note, "Provisional ruleset: numbers are tentative."]))
        note = " ".join(filter(None, [self.incomplete_note, note])) or None
        partial = (
            f"Cancelled after {len(table)} of {self.job.games} games: a partial result, "
            "its intervals wider than the full run's would be."
            if stopped
            else None
        )
        self.last_notes = (note, partial)
        self._show_result()
        self._set_samples(sample_games(table))
        self._set_running(False)
        self.update_estimate(measure=False)  # from the pace this run left

    def _show_result(self) -> None:
        """Show the last run's results, with the verdict remembered for its board now (a
        climb may have judged it since the run)."""
        if self.last is None or self.last_run is None or self.busy():
            return
        scenario, doc, _table = self.last
        doc["agents"] = agents_entry(scenario, self.last_run[0], "press Judge board above")
        names = get_ruleset(scenario.ruleset).side_names()
        self.results.setHtml(result_html(doc, names, *self.last_notes))

    def board_replaced(self) -> None:
        """Another board is open (File ▸ New, Open, Revert, a recovered autosave): the last
        run's results, sample games and report were the old board's and go; a run still
        going is cancelled and what it ends with is dropped."""
        if self.busy():
            assert self.job is not None
            self.discard = True
            self.job.cancel()
        self.last = None
        self.last_run = None
        self.last_notes = (None, None)
        self.incomplete_note = None
        self._set_samples([])
        self.results.setHtml(
            "<p>Cancelled: the run was on the board open before.</p>" if self.discard else ""
        )
        if not self.discard:
            self.bar.setRange(0, 1)
            self.bar.setValue(0)
            self.bar.resetFormat()
            self.report_button.setEnabled(False)

    def _discarded(self) -> bool:
        """The run that just ended was cancelled by ``board_replaced``: forget it."""
        if not self.discard:
            return False
        if self.job is not None:
            self.job.wait()
        self.discard = False
        self.bar.setRange(0, 1)
        self.bar.setValue(0)
        self.bar.resetFormat()
        self._set_running(False)
        return True

    def _failed(self, message: str) -> None:
        if self._discarded():
            return
        if self.job is not None:
            self.job.wait()
        self.results.setHtml(f"<p style='color:#b00'>{html.escape(message)}</p>")
        self._set_running(False)

    def _cancelled(self) -> None:
        if self._discarded():
            return
        if self.job is not None:
            self.job.wait()
        self.results.setHtml("<p>Cancelled before any game was finished.</p>")
        self.bar.setFormat("cancelled")
        self._set_running(False)

    def stop(self) -> None:
        """Cancel a running job and wait for its thread, and for a report being written
        (before the dialog goes away)."""
        if self.job is not None and self.job.running():
            self.job.cancel()
            self.job.wait()
        if self.report_job is not None:
            self.report_job.wait()
        if self.sample_job is not None:
            self.sample_job.wait()
        self.estimator.stop()
        self.verdict.stop()

    # --- report ---------------------------------------------------------------------------
    def open_report(self) -> ThreadJob | None:
        """Write the last run's HTML report into this editor's balance report folder (in the
        background; the previous report there is replaced) and open it when written, its
        path shown under the results; ``None`` without a finished run or while writing."""
        if self.last is None or (self.report_job is not None and self.report_job.running()):
            return None
        scenario, doc, table = self.last

        def write() -> Path:
            from tankmap.analysis.simulation.report import write_report
            from tankmap.editor.report_dirs import report_dir

            return write_report(table, scenario, doc, report_dir("balance"))

        job = ThreadJob(write)
        job.finished.connect(self._report_written)
        job.failed.connect(self._report_failed)
        self.report_job = job
        self.report_button.setEnabled(False)
        self.report_button.setText("Writing report…")
        job.start()
        return job

    def _report_done(self) -> None:
        if self.report_job is not None:
            self.report_job.wait()
        self.report_button.setText("Open &report")
        self.report_button.setEnabled(self.last is not None and not self.busy())

    def _report_written(self, path: object) -> None:
        self._report_done()
        url = QUrl.fromLocalFile(str(path))
        opened = self._open_url(url) is not False
        # the path is always said here: without a browser it is all the user gets
        note = "" if opened else " — no browser could be started: open it by hand"
        self.results.append(
            f"<p>Report: <a href='{html.escape(url.toString(), quote=True)}'>"
            f"{html.escape(str(path))}</a>{note}</p>"
        )

    def _report_failed(self, message: str) -> None:
        self._report_done()
        self.results.append(
            f"<p style='color:#b00'>Cannot write the report: {html.escape(message)}</p>"
        )

    def closeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        self.stop()
        super().closeEvent(event)

    def keyPressEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        if event.key() == Qt.Key.Key_Escape and self.busy():
            self.cancel()  # Esc cancels a run first; a second Esc closes
            return
        super().keyPressEvent(event)
