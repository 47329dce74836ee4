"""The balance dialog's sample games (``SampleGames``, a part of ``editor.balance``'s
``BalanceDialog``): after a run, the games worth watching (``analysis.run_games.sample_games``:
the shortest and the longest win of each side, and of the draws). Watch records the game
again from the run's seed and game number (``runner.record_game``, in the background),
checks that it is the run's game (its table row must come out the same) and opens it in the
replay view (``editor.replay_view``); Where decided shows the run's heat maps."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pandas as pd
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from tankmap.analysis.replay import Replay
from tankmap.analysis.run_games import SampleGame
from tankmap.editor.balance_job import record_sample
from tankmap.editor.decided_view import DecidedWindow
from tankmap.editor.jobs import ThreadJob
from tankmap.editor.replay_view import show_replay
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario
from tankmap.rules.steps import step_word


class SampleGames:
    """The sample-games row of the balance dialog and what its buttons do (see the module
    docstring)."""

    samples: list[SampleGame]
    sample_job: ThreadJob | None
    sample_box: QComboBox
    watch_button: QPushButton
    decided_button: QPushButton

    if TYPE_CHECKING:
        last: tuple[Scenario, dict[str, Any], pd.DataFrame] | None
        last_run: tuple[tuple[str, str], int] | None
        results: QTextBrowser
        _watch: Callable[[Replay, str], object]

        def busy(self) -> bool: ...

        def parentWidget(self) -> QWidget | None: ...  # noqa: N802 - Qt's

    def _build_samples(self) -> QVBoxLayout:
        """The row: the games to choose from, Watch and Where decided."""
        self.sample_box = QComboBox()
        self.sample_box.setToolTip(
            "The shortest and the longest game of each outcome of the last run"
        )
        self.watch_button = QPushButton("&Watch")
        self.watch_button.setToolTip(
            "Replay this game of the run on the board, round by round (same seed and number)"
        )
        self.watch_button.clicked.connect(lambda: self.watch())
        self.decided_button = QPushButton("Where &decided")
        self.decided_button.setToolTip(
            "Heat maps of the last run on the board: where units were lost and games won"
        )
        self.decided_button.clicked.connect(lambda: self.show_decided())
        # the games' words ("South wins, shortest: game 1 (9 rounds, goal)") get a row of
        # their own: beside the buttons a narrow dialog cut them short
        samples = QVBoxLayout()
        chosen = QHBoxLayout()
        chosen.addWidget(QLabel("Sample games"))
        chosen.addWidget(self.sample_box, 1)
        samples.addLayout(chosen)
        actions = QHBoxLayout()
        actions.addStretch(1)
        actions.addWidget(self.watch_button)
        actions.addWidget(self.decided_button)
        samples.addLayout(actions)
        self._set_samples([])
        return samples

    # --- sample games ---------------------------------------------------------------------
    def _set_samples(self, samples: list[SampleGame]) -> None:
        self.samples = samples
        self.sample_box.clear()
        if samples and self.last is not None:
            scenario = self.last[0]
            names = get_ruleset(scenario.ruleset).side_names()
            word = step_word(scenario.ruleset)
            sides = (names[Side.SOUTH], names[Side.NORTH])
            self.sample_box.addItems([s.describe(sides, word) for s in samples])
        else:
            self.sample_box.addItem("(after a run)")
        self._sample_buttons()

    def _sample_buttons(self) -> None:
        recording = self.sample_job is not None and self.sample_job.running()
        self.sample_box.setEnabled(bool(self.samples))
        self.watch_button.setEnabled(bool(self.samples) and not recording)
        self.watch_button.setText("Recording…" if recording else "&Watch")
        self.decided_button.setEnabled(self.last is not None and not self.busy())

    def watch(self, index: int | None = None) -> ThreadJob | None:
        """Record sample ``index`` (default: the one chosen) again from the run's seed and
        game number, in the background, and show it; ``None`` without samples or while
        another one is being recorded."""
        if not self.samples or self.last is None or self.last_run is None:
            return None
        if self.sample_job is not None and self.sample_job.running():
            return None
        chosen = self.sample_box.currentIndex() if index is None else index
        sample, title = self.samples[chosen], self.sample_box.itemText(chosen)
        scenario, _doc, table = self.last
        policies, seed = self.last_run

        def record() -> tuple[Replay, str]:
            return record_sample(scenario, policies, seed, table, sample.game), title

        job = ThreadJob(record)
        job.finished.connect(self._sample_recorded)
        job.failed.connect(self._sample_failed)
        self.sample_job = job
        self._sample_buttons()
        job.start()
        return job

    def _sample_recorded(self, result: object) -> None:
        if self.sample_job is not None:
            self.sample_job.wait()
        self._sample_buttons()
        assert isinstance(result, tuple)
        replay, title = result
        self._watch(replay, title)

    def _sample_failed(self, message: str) -> None:
        if self.sample_job is not None:
            self.sample_job.wait()
        self._sample_buttons()
        self.results.append(
            f"<p style='color:#b00'>Cannot replay the sample game: {html.escape(message)}</p>"
        )

    def show_decided(self) -> DecidedWindow | None:
        """Where the last run's games were decided (``None`` before a run)."""
        if self.last is None:
            return None
        scenario, doc, table = self.last
        agents = " vs ".join(self.last_run[0]) if self.last_run is not None else "?"
        window = DecidedWindow(
            scenario,
            table,
            self.parentWidget() or self,  # type: ignore[arg-type]
            f": {doc['games']} games of {agents}, seed {doc['seed']}",
        )
        window.show()
        return window

    def _show_replay(self, replay: Replay, title: str) -> object:
        return show_replay(replay, self.parentWidget() or self, title)  # type: ignore[arg-type]
