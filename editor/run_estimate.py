"""The balance dialog's estimate of a run's time, and its default number of games.

``RunEstimate`` watches the dialog's Games box and agent lists: it says how long a run of
those games and agents will take on the board, at the pace last measured for them there
(``analysis.simulation.pace``); when no pace is known it measures one in the background (a
few seeded games, ``ThreadJob``) and says so meanwhile. Until the user sets the number of
games, it sets the box to what takes about ``RUN_SECONDS`` on every CPU. A run that would
take ``pace.LONG_RUN_SECONDS`` or more in one process is played on every CPU (spawned
worker processes, which take a second or two to start: ``run_workers``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QComboBox, QLabel, QSpinBox

from tankmap.analysis.simulation.executors import available_cpus
from tankmap.analysis.simulation.pace import (
    games_for,
    known_pace,
    measure_pace,
    processes_for,
)
from tankmap.analysis.simulation.runner import require_legal
from tankmap.editor.balance_job import estimate_text
from tankmap.editor.jobs import ThreadJob
from tankmap.rules.errors import TankmapError
from tankmap.rules.scenario import Scenario

RUN_SECONDS = 60.0
"""The time a default run takes (its number of games follows the measured pace)."""
MEASURING = "Estimated time: measuring the agents' pace on this board…"


def run_workers(games: int, pace: float | None) -> int:
    """Processes for a balance run of ``games`` at ``pace``: ``pace.processes_for`` on
    every CPU."""
    return processes_for(games, pace, available_cpus())


class RunEstimate(QObject):
    """Keeps ``label`` saying how long a run will take (see the module docstring)."""

    def __init__(
        self,
        scenario: Callable[[], Scenario],
        games: QSpinBox,
        south: QComboBox,
        north: QComboBox,
        seed: QSpinBox,
    ) -> None:
        super().__init__(games)
        self._scenario = scenario
        self.games, self.south, self.north, self.seed = games, south, north, seed
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setStyleSheet("color: #555")
        self.games_set = False  # the user set the number of games: keep it
        self.pace: float | None = None
        self.job: ThreadJob | None = None
        self._setting = False
        self._stopped = False  # the dialog is going away: a late measurement is dropped
        games.valueChanged.connect(self._games_changed)
        for combo in (south, north):
            # a pace is measured (in the background) only for a dialog on screen
            combo.currentTextChanged.connect(lambda _t: self.update(self.games.isVisible()))

    def _games_changed(self, _n: int) -> None:
        if not self._setting:
            self.games_set = True
        self.update(measure=False)

    def update(self, measure: bool = True) -> None:
        """Say how long a run of the chosen games and agents takes (see the module
        docstring); measure the pace in the background when unknown and ``measure``."""
        policies = (self.south.currentText(), self.north.currentText())
        if not all(policies):
            self.label.setText("")
            return
        try:
            scenario = self._scenario()
            self.pace = known_pace(scenario, policies)
        except TankmapError:
            self.label.setText("")
            return
        if self.pace is None:
            if measure and not self.running():
                self._measure(scenario, policies)
            self.label.setText(MEASURING)
            return
        if not self.games_set:
            self._setting = True
            try:
                self.games.setValue(self.default_games(self.pace))
            finally:
                self._setting = False
        games = self.games.value()
        self.label.setText(estimate_text(games, self.pace, run_workers(games, self.pace)))

    @staticmethod
    def default_games(pace: float) -> int:
        """The games that take about ``RUN_SECONDS`` at ``pace``: on every CPU when that
        many games would take ``pace.LONG_RUN_SECONDS`` or more in one process."""
        games = games_for(RUN_SECONDS, pace)
        workers = run_workers(games, pace)
        return games if workers == 1 else games_for(RUN_SECONDS, pace, workers)

    def running(self) -> bool:
        return self.job is not None and self.job.running()

    def _measure(self, scenario: Scenario, policies: tuple[str, str]) -> None:
        try:
            require_legal(scenario)
        except TankmapError:
            return
        seed = self.seed.value()
        self._stopped = False

        def measure() -> float:
            return measure_pace(scenario, policies, seed=seed)

        job = ThreadJob(measure)
        job.finished.connect(lambda _pace: self._measured(True))
        job.failed.connect(lambda _message: self._measured(False))
        self.job = job
        job.start()

    def _measured(self, ok: bool) -> None:
        if self.job is not None:
            self.job.wait()
        if self._stopped:
            return
        # the agents may have changed meanwhile: measure theirs too (not after a failure)
        self.update(measure=ok)

    def stop(self) -> None:
        """Wait for a measurement in progress and drop its result (before the dialog goes
        away; the result's signal may still be on its way)."""
        self._stopped = True
        if self.job is not None:
            self.job.wait()
