"""The Suggestions dock (Analysis ▸ Suggest edits): the design assistant on the board being
edited (``analysis.suggest.suggest``, docs/design-assistant.md).

Promises:

- A run searches a snapshot of the board taken when Suggest is pressed, in a ``SuggestJob``
  (``editor.suggest_job``): the bar counts the candidates played, Cancel stops the search at its
  next step (one batch of games at most), and only one run goes at a time.
- An illegal, incomplete or finished board is refused before anything runs, and every
  failure is one line in the dock — never a traceback.
- The run is **stale** as soon as the document's board differs from the snapshot (an edit,
  another file): the dock says so, hides the preview and disables Apply. Undoing back to the
  snapshot makes it current again.
- Selecting a suggestion of a current run previews it on the board as a ``GhostOverlay``.
- Apply replaces the document's scenario by the suggestion's as **one** undoable command, so
  one Ctrl+Z restores the board exactly.
- Only edits whose gain's interval excludes 0 are listed (``analysis.suggest``); an empty
  run says so and what was tried. Suggestions resting on the heuristic alone say so, and
  *Confirm with …* re-measures them with the game's strongest agent (paired, 95 %).
- Once the board has changed, the run's "Now" figure is labelled as the board before.
"""

from __future__ import annotations

import contextlib

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from tankmap.analysis.simulation.agent_info import describe, verdict_entry
from tankmap.analysis.suggest import Edit, SuggestResult
from tankmap.editor.commands import ScenarioCommand
from tankmap.editor.context import EditorContext
from tankmap.editor.document import Document
from tankmap.editor.ghost import GhostOverlay, board_diff
from tankmap.editor.jobs import ThreadJob, gui_executor
from tankmap.editor.suggest_job import (
    SuggestJob,
    SuggestSettings,
    agent_names,
    before_text,
    refusal,
    sentence,
    suggestion_text,
)
from tankmap.rules.errors import TankmapError
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario

RED, ORANGE, GREY = "#b71c1c", "#e65100", "#616161"
STALE_TEXT = "The board changed since this run: its suggestions cannot be applied."
STARTED_STALE_TEXT = "The board changed since this run started: its suggestions will not apply."
CHOOSE_TEXT = "Select a suggestion to see it on the board; Apply adopts it."
PLAYED_TEXT = "%v of %m candidates played"
AUTO = "automatic"
"""The agent entry that lets the search pick the strongest agent that fits the budget."""


JUDGE = "press Judge board in Analysis ▸ Simulate balance"
"""How the editor gets a board's verdict (its line when there is none)."""


def _summary(result: SuggestResult, verdict: str = "") -> str:
    """The board's measured figure, its remembered verdict (``verdict``: the line, as the
    balance dialog shows it) and the run's notes, less the reason no edit was found (the
    note above the list says that already)."""
    text = before_text(result, with_reason=False)
    if verdict:
        text += f" {sentence(verdict)}"
    return text + "".join(f" {sentence(n)}" for n in result.notes)


class _TallEnough(QWidget):
    """A scroll area's page that is never given less height than its wrapped texts need at
    its width (a scroll area asks only for the minimum size, which a word-wrapped label does
    not report: a short dock squeezed the form's fields to slivers instead of scrolling)."""

    def _fit(self) -> None:
        layout = self.layout()
        if layout is not None and layout.hasHeightForWidth():
            need = layout.heightForWidth(self.width())
            if need > 0 and need != self.minimumHeight():
                self.setMinimumHeight(need)

    def resizeEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)  # type: ignore[arg-type]
        self._fit()

    def event(self, event: QEvent) -> bool:
        handled = super().event(event)
        if event.type() == QEvent.Type.LayoutRequest:
            self._fit()
        return handled


class SuggestionsDock(QWidget):
    """Controls, Suggest / Cancel with a progress bar, the suggestions, Apply (see the module
    docstring). ``applied(k)`` is emitted after suggestion ``k`` (0-based) was applied."""

    applied = Signal(int)

    def __init__(self, ctx: EditorContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.job: SuggestJob | None = None
        self.result: SuggestResult | None = None
        self.run_doc: Document | None = None
        self.run_board: Scenario | None = None
        self._verdict = ""  # the verdict line of the board the last run searched
        self.ghost: GhostOverlay | None = None
        self.previewing = True  # False while the dock is hidden
        self._doc: Document | None = None
        self._message = ("Set the agent and budget, then press Suggest.", GREY)

        self.agent = QComboBox()
        self.agent.setToolTip(
            "The agent playing both sides of every measured board; 'automatic': the game's "
            "strongest that fits the time budget, else the heuristic"
        )
        self.games = QSpinBox()
        self.games.setRange(10, 100_000)
        self.games.setSingleStep(100)
        self.games.setValue(400)
        self.games.setToolTip("Games per measured board (more: narrower intervals, slower)")
        self.budget = QSpinBox()
        self.budget.setRange(1, 3600)
        self.budget.setValue(60)
        self.budget.setSuffix(" s")
        self.budget.setToolTip(
            "Time for the search: how many candidates are played is planned from the agent's "
            "pace on this board"
        )
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.keep_symmetry = QCheckBox("Keep symmetry")
        self.keep_symmetry.setToolTip(
            "Apply every edit to the other side's mirrored piece too (symmetric boards)"
        )
        self.units = QCheckBox("Move units too")
        self.units.setToolTip(
            "Also try moving one unit's set-up position by a cell (tankmap suggest --units)"
        )
        form = QFormLayout()
        form.addRow("Agent", self.agent)
        form.addRow("Games", self.games)
        form.addRow("Time budget", self.budget)
        form.addRow("Seed", self.seed)
        form.addRow("", self.keep_symmetry)
        form.addRow("", self.units)

        self.run_button = QPushButton("&Suggest")
        self.run_button.setToolTip("Search legal terrain edits that even the balance")
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        self.bar = QProgressBar()
        self.bar.setRange(0, 1)
        self.bar.setValue(0)
        self.bar.setFormat(PLAYED_TEXT)
        self.bar.setTextVisible(False)  # no "0 of 1 candidates played" before any run
        self.note = QLabel(self._message[0])
        self.note.setObjectName("suggest-note")
        self.note.setWordWrap(True)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.list = QListWidget()
        self.list.setObjectName("suggestions-list")
        self.list.setWordWrap(True)
        self.list.setSpacing(3)
        # room for about three suggestions (each wraps onto three lines), so a short dock
        # scrolls the whole panel instead of squeezing the list to one row
        self.list.setMinimumHeight(3 * (3 * self.fontMetrics().lineSpacing() + 10) + 8)
        self.list.currentRowChanged.connect(lambda _row: self._update())
        self.apply_button = QPushButton("&Apply")
        self.apply_button.setToolTip("Replace the board by the selected suggestion (one undo step)")
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(lambda: self.apply())
        self.confirm_button = QPushButton("Confirm")
        self.confirm_button.setToolTip(
            "Re-measure the listed suggestions with the game's strongest agent, paired with "
            "the board on the same fresh seeds"
        )
        self.confirm_button.setVisible(False)
        self.confirm_button.clicked.connect(lambda: self.confirm())
        self.confirm_job: ThreadJob | None = None

        inner = _TallEnough()
        box = QVBoxLayout(inner)
        box.setContentsMargins(6, 6, 6, 6)
        box.addLayout(form)
        box.addLayout(buttons)
        box.addWidget(self.bar)
        box.addWidget(self.note)
        box.addWidget(self.summary)
        box.addWidget(self.list, 1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(inner)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        apply_row = QHBoxLayout()  # under the scrolled part: always in sight
        apply_row.setContentsMargins(6, 0, 6, 6)
        apply_row.addWidget(self.apply_button)
        apply_row.addWidget(self.confirm_button)
        outer.addLayout(apply_row)
        self.setMinimumWidth(280)

        ctx.document_replaced.connect(self._attach)
        self._attach()

    # --- state ----------------------------------------------------------------------------
    def busy(self) -> bool:
        return self.job is not None and self.job.running()

    def stale(self) -> bool:
        """True when the document's board is no longer the board the last run searched."""
        return self.run_board is not None and (
            self.ctx.doc is not self.run_doc or self.ctx.doc.scenario != self.run_board
        )

    def settings(self) -> SuggestSettings:
        agent = self.agent.currentText()
        return SuggestSettings(
            None if agent == AUTO else agent,
            self.games.value(),
            float(self.budget.value()),
            self.seed.value(),
            self.keep_symmetry.isChecked(),
            self.units.isChecked(),
        )

    def _attach(self) -> None:
        """Follow the window's document (a new file may be another game)."""
        if self._doc is not None:
            try:
                self._doc.changed.disconnect(self._update)
            except (RuntimeError, TypeError):
                pass
        self._doc = self.ctx.doc
        self._doc.changed.connect(self._update)
        self.ghost = None  # the scene dropped its items with the old document
        self.refresh_agents()
        self._update()

    def refresh_agents(self) -> None:
        """Fill the agent list with the current game's agents (keeping the choice)."""
        ruleset = self.ctx.doc.scenario.ruleset
        try:
            names = agent_names(ruleset)
        except TankmapError as exc:
            names = []
            self._say(sentence(str(exc)), RED)
        keep = self.agent.currentText() or AUTO
        names = [AUTO, *names] if names else []
        self.agent.clear()
        self.agent.addItems(names)
        for i, name in enumerate(names):
            tip = (
                "the game's strongest agent when the search fits the time budget at its pace "
                "on this board, else the heuristic (the result says which)"
                if name == AUTO
                else describe(ruleset, name)
            )
            self.agent.setItemData(i, tip, Qt.ItemDataRole.ToolTipRole)
        if keep in names:
            self.agent.setCurrentText(keep)
        self._set_running(self.busy())

    # --- running --------------------------------------------------------------------------
    def run(self) -> bool:
        """Search the board as it is now; ``False`` (the reason shown) when a run is going
        or the board cannot be played."""
        if self.busy():
            return False
        scenario = self.ctx.doc.scenario
        why = refusal(scenario)
        if why is None and not self.agent.currentText():
            why = "This game has no agent to play it."
        if why is not None:
            self._say(why, RED)
            return False
        self._clear_result()
        self.run_doc, self.run_board = self.ctx.doc, scenario
        job = SuggestJob(scenario, self.settings())
        job.progress.connect(self._progress)
        job.finished.connect(self._finished)
        job.failed.connect(self._failed)
        job.cancelled.connect(self._cancelled)
        self.job = job
        self.bar.setRange(0, 0)  # busy until the first candidate has been played
        self._say("Measuring the board and listing the legal edits…", GREY)
        self._set_running(True)
        job.start()
        return True

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()
            if self.busy():
                self._say("Cancelling…", GREY)

    def stop(self) -> None:
        """Cancel a run and wait for its thread, and for a confirmation being measured
        (before the window goes away)."""
        if self.job is not None and self.job.running():
            self.job.cancel()
            self.job.wait()
        if self.confirm_job is not None:
            self.confirm_job.wait()

    def _clear_result(self) -> None:
        self.result = None
        self.run_board = self.run_doc = None
        self.summary.setText("")
        self.list.clear()
        self.confirm_button.setVisible(False)
        self._show_ghost(None)

    def _set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running and self.agent.count() > 0)
        self.cancel_button.setEnabled(running)
        for w in (self.agent, self.games, self.budget, self.seed, self.keep_symmetry, self.units):
            w.setEnabled(not running)
        self._update_apply()

    def _progress(self, done: int, total: int) -> None:
        self.bar.setTextVisible(True)
        self.bar.setRange(0, total)
        self.bar.setValue(done)
        games = self.job.settings.games if self.job is not None else self.games.value()
        self._say(f"Playing candidates ({games} games each)…", GREY)

    def _end(self) -> None:
        if self.job is not None:
            self.job.wait()
            self.job = None  # its thread has ended
        if self.bar.maximum() == 0:
            self.bar.setRange(0, 1)
        self._set_running(False)

    def _finished(self, result: object) -> None:
        self._end()
        assert isinstance(result, SuggestResult)
        self.result = result
        self._verdict = ""
        if self.run_board is not None:  # its verdict beside its figure (as simulate prints it)
            with contextlib.suppress(TankmapError):
                self._verdict = verdict_entry(self.run_board, JUDGE)["verdict_line"]
        self.summary.setText(_summary(result, self._verdict))
        names = self.ctx.doc.ruleset.side_names()
        for k, (edit, measured) in enumerate(result.suggestions, 1):
            item = QListWidgetItem(suggestion_text(k, edit, measured, result.before))
            race, south, north = edit.race, names[Side.SOUTH], names[Side.NORTH]
            item.setToolTip(
                f"Turns to goal {south} {race[0]}, {north} {race[1]} (before: "
                f"{result.before_race[0]}, {result.before_race[1]}); after figures on fresh "
                "seeds the search never used"
            )
            self.list.addItem(item)
        self._show_confirm()
        if result.suggestions:
            self._say(CHOOSE_TEXT, GREY)
            self.list.setCurrentRow(0)
        else:
            self._say(sentence(result.reason or "no edit found"), ORANGE)
        self._update()

    def _strongest(self) -> str | None:
        from tankmap.analysis.simulation.agent_info import default_agent

        try:
            name = default_agent(self.ctx.doc.scenario)[0]
        except TankmapError:
            return None
        return name if self.result is not None and name != self.result.agent else None

    def _show_confirm(self) -> None:
        """Offer to confirm heuristic-only suggestions with the strongest agent."""
        result = self.result
        strong = self._strongest()
        offer = (
            result is not None
            and bool(result.suggestions)
            and result.heuristic_only
            and strong is not None
            and not any(m.confirmation for _e, m in result.suggestions)
        )
        self.confirm_button.setVisible(offer)
        if offer:
            self.confirm_button.setText(f"Confirm with {strong}")
        self._update_apply()

    def confirm(self) -> ThreadJob | None:
        """Re-measure the listed suggestions with the strongest agent in the background
        (``analysis.suggest.confirm``, on every CPU: ``jobs.gui_executor``); ``None`` when
        there is nothing to confirm."""
        from tankmap.analysis.suggest import confirm

        result, strong = self.result, self._strongest()
        if result is None or strong is None or not result.suggestions or self.stale():
            return None
        if self.confirm_job is not None and self.confirm_job.running():
            return None
        scenario = self.run_board
        assert scenario is not None

        def work() -> None:
            with gui_executor() as executor:  # every CPU, on spawned workers
                confirm(
                    scenario,
                    result.suggestions,
                    strong,
                    result.games,
                    result.check_seed,
                    interrupt=None,
                    seed=result.seed,
                    executor=executor,
                )

        job = ThreadJob(work)
        job.finished.connect(lambda _r: self._confirmed(strong))
        job.failed.connect(lambda message: self._confirm_failed(message))
        self.confirm_job = job
        self.confirm_button.setEnabled(False)
        self.confirm_button.setText(f"Confirming with {strong}…")
        job.start()
        return job

    def _confirmed(self, agent: str) -> None:
        if self.confirm_job is not None:
            self.confirm_job.wait()
        result = self.result
        if result is None:
            return
        result.confirm_agent = agent
        for k, (edit, measured) in enumerate(result.suggestions):
            if k < self.list.count():
                self.list.item(k).setText(suggestion_text(k + 1, edit, measured, result.before))
        self.summary.setText(_summary(result))
        self.confirm_button.setVisible(False)
        self.confirm_button.setEnabled(True)
        self._update()

    def _confirm_failed(self, message: str) -> None:
        if self.confirm_job is not None:
            self.confirm_job.wait()
        self.confirm_button.setEnabled(True)
        self._show_confirm()
        self._say(sentence(message.splitlines()[0] if message else "failed"), RED)

    def _failed(self, message: str) -> None:
        self._end()
        self.run_board = self.run_doc = None
        self._say(sentence(message.splitlines()[0] if message else "failed"), RED)

    def _cancelled(self) -> None:
        self._end()
        self._clear_result()
        self.bar.setValue(0)
        self.bar.setTextVisible(False)
        self._say("Cancelled.", GREY)

    # --- showing and applying ---------------------------------------------------------------
    def _say(self, text: str, colour: str) -> None:
        """Set the dock's one-line note (a stale run's note takes precedence)."""
        self._message = (text, colour)
        self._show_note(self.stale())

    def current(self) -> tuple[int, Edit] | None:
        """The selected suggestion (its index and edit), if any."""
        row = self.list.currentRow()
        if self.result is None or not 0 <= row < len(self.result.suggestions):
            return None
        return row, self.result.suggestions[row][0]

    def _update(self) -> None:
        """After an edit, a new selection or a run's end: the note (stale or not), the
        list's colour, the preview and Apply."""
        stale = self.stale()
        colour = QColor(GREY) if stale else self.palette().text().color()
        for i in range(self.list.count()):
            self.list.item(i).setForeground(QBrush(colour))
        self._show_note(stale)
        chosen = self.current()
        show = chosen is not None and not stale and self.previewing
        self._show_ghost(chosen[1].scenario if show and chosen is not None else None)
        self._update_apply()

    def _show_note(self, stale: bool) -> None:
        text, colour = self._message
        if stale and self.busy():
            text, colour = STARTED_STALE_TEXT, ORANGE
        elif stale and self.result is not None:
            board = self.ctx.doc.scenario
            applied = [
                k for k, (e, _m) in enumerate(self.result.suggestions) if e.scenario == board
            ]
            if applied and self.ctx.doc is self.run_doc:
                k = applied[0]
                m = self.result.suggestions[k][1]
                lo, hi = m.stats.balance_ci95()
                text = (
                    f"Suggestion {k + 1} is applied: its balance on the run's fresh seeds was "
                    f"{m.stats.balance:.3f} [{lo:.3f}, {hi:.3f}] (Ctrl+Z restores the board)."
                )
                colour = GREY
            else:
                text, colour = STALE_TEXT, ORANGE
        self.note.setText(text)
        self.note.setStyleSheet(f"color: {colour}")
        if self.result is not None:
            # "Now" belongs to the board the run searched: once it changed, say so
            head = _summary(self.result, self._verdict)
            if stale:
                head = "Before: " + head.removeprefix("Now: ")
            self.summary.setText(head)
            self.summary.setStyleSheet(f"color: {GREY}" if stale else "")

    def _update_apply(self) -> None:
        self.apply_button.setEnabled(
            self.current() is not None and not self.stale() and not self.busy()
        )

    def set_previewing(self, on: bool) -> None:
        """Show previews only while the dock is visible."""
        self.previewing = on
        if on:
            self._update()
        else:
            self._show_ghost(None)

    def _show_ghost(self, suggestion: Scenario | None) -> None:
        if self.ghost is not None:
            try:
                self.ghost.remove()
            except RuntimeError:  # already deleted with its scene's items
                pass
            self.ghost = None
        if suggestion is None:
            return
        doc, scene = self.ctx.doc, self.ctx.scene
        diff = board_diff(doc.scenario, suggestion)
        self.ghost = GhostOverlay(scene, scene.geo, diff, doc.palette, doc.scenario.ruleset)

    def apply(self, index: int | None = None) -> bool:
        """Replace the board by suggestion ``index`` (default: the selected one) as one
        undoable step; ``False`` when there is none or the run is stale."""
        if index is not None:
            self.list.setCurrentRow(index)
        chosen = self.current()
        if chosen is None or self.stale() or self.busy():
            return False
        k, edit = chosen
        doc = self.ctx.doc
        doc.undo_stack.push(
            ScenarioCommand(doc, f"Apply suggestion: {edit.words[0]}", edit.scenario)
        )
        self.ctx.say(f"Applied suggestion {k + 1}: {'; '.join(edit.words)} (Ctrl+Z to undo)")
        self.applied.emit(k)
        return True
