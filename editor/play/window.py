"""The play window: a game of the board being played, a thin view over an
``analysis.play`` session.

The board shows the position (the round's artillery in Tank Wars, the mid-round position
while smoke or the Red Cross is decided in Final Act), the last turn or round drawn as in
the replay view, and what the person is deciding (``editor.play.*_input``: dots where the
selected unit may go, its fire zone or targets, the orders given so far). Agents decide on
a worker thread (``editor.jobs.ThreadJob``), one job at a time; a decision made meanwhile
waits for it. In a hot-seat game of Final Act or Tank Wars a cover hides the board and
the controls while the screen passes to the other player, so neither sees the other's
orders before both are given. *Hint* shows what the strongest agent would decide,
*Take back* undoes the person's last decision, *Save record…* writes the standard game
record and *Replay* opens the game so far in the replay view.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from tankmap.analysis.play import LineError, PlaySession
from tankmap.analysis.replay import ReplayStep, replay_of
from tankmap.editor.items import Z_TOP, CellsOverlay
from tankmap.editor.jobs import ThreadJob
from tankmap.editor.play.inputs import BoardInput
from tankmap.editor.play.view import PlayView
from tankmap.editor.replay_view import ReplayDocument, ReplayOverlay, show_replay
from tankmap.editor.scene import BoardScene
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.sides import side_name

SavePath = Callable[[], str | None]


def make_input(session: PlaySession) -> BoardInput:
    """The board input for the session's game."""
    if session.game == "tank-chess":
        from tankmap.editor.play.tank_chess_input import TankChessInput

        return TankChessInput(session)  # type: ignore[arg-type]
    if session.game == "final-act":
        from tankmap.editor.play.final_act_input import FinalActInput

        return FinalActInput(session)  # type: ignore[arg-type]
    from tankmap.editor.play.tank_wars_input import TankWarsInput

    return TankWarsInput(session)  # type: ignore[arg-type]


class PlayWindow(QWidget):
    """A game being played (see the module docstring). ``save_path()`` asks where to save
    the record (``None``: cancelled); ``error(text)`` shows a failure."""

    closed = Signal(str)
    """The window was closed; the last status line it showed."""

    def __init__(
        self,
        session: PlaySession,
        parent: QWidget | None = None,
        title: str = "board",
        save_path: SavePath | None = None,
        error: Callable[[str], object] | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("play-window")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.session = session
        self.save_path = save_path
        self.error = error
        rs = get_ruleset(session.game)
        self.setWindowTitle(f"Play: {title} — {rs.title} — tankmap")
        self.job: ThreadJob | None = None
        self.job_kind = ""
        self.queued: tuple[Side, str] | None = None
        self.key: object = None  # the decision being input (steps, phase, side)
        self.viewer: Side | None = None  # hot-seat: whose eyes are on the screen
        self.hint: ReplayStep | None = None

        self.doc = ReplayDocument(session.position(), parent=self)
        self.scene = BoardScene(self.doc)
        self.scene.setParent(self)
        geo = self.scene.geo
        self.last = ReplayOverlay(geo, session.game)
        self.pending = ReplayOverlay(geo, session.game)
        self.hint_overlay = ReplayOverlay(geo, session.game)
        self.hint_overlay.setOpacity(0.55)
        self.selected = CellsOverlay(
            geo, Z_TOP, QColor(255, 179, 0, 0), QPen(QColor("#ff8f00"), 3.5)
        )
        self.targets = CellsOverlay(geo, Z_TOP, QColor(213, 0, 0, 60), QPen(QColor("#d50000"), 3))
        self.chosen = CellsOverlay(geo, Z_TOP, QColor(46, 125, 50, 90), QPen(QColor("#1b5e20"), 2))
        for item in (self.last, self.pending, self.hint_overlay, self.selected, self.targets):
            self.scene.addItem(item)
        self.scene.addItem(self.chosen)
        self.view = PlayView(self.scene)
        self.view.clicked.connect(self._clicked)
        self.cover = QPushButton()
        self.cover.setObjectName("play-cover")
        self.cover.setStyleSheet("font-size: 18px; padding: 30px")
        self.cover.clicked.connect(self._uncover)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.view)
        self.stack.addWidget(self.cover)

        self.heading = QLabel(self._heading())
        self.heading.setWordWrap(True)
        self.status = QLabel()
        self.status.setObjectName("play-status")
        self.status.setStyleSheet("font-weight: bold; font-size: 14px")
        self.status.setWordWrap(True)
        self.calls = QLabel()
        self.calls.setObjectName("play-calls")
        self.calls.setStyleSheet("font-weight: bold; color: #c62828; font-size: 16px")
        self.now = QLabel()
        self.now.setObjectName("play-last")
        self.now.setWordWrap(True)
        self.now.setTextFormat(Qt.TextFormat.PlainText)
        self.hint_label = QLabel()
        self.hint_label.setObjectName("play-hint-text")
        self.hint_label.setWordWrap(True)
        self.hint_label.setStyleSheet("color: #1b5e20; font-weight: bold")
        self.message = QLabel()
        self.message.setObjectName("play-message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b71c1c")
        self.input = make_input(session)
        self.input.changed.connect(self.refresh)
        self.input.decided.connect(self._decided)
        self.line = QLineEdit()
        self.line.setObjectName("play-line")
        self.line.setPlaceholderText("or type the decision (docs/notation.md), Enter to play")
        self.line.returnPressed.connect(self._typed)
        self.steps = QListWidget()
        self.steps.setObjectName("play-steps")
        self.steps.setWordWrap(True)
        buttons = QHBoxLayout()
        self.hint_button = self._button("&Hint", "play-hint", self.ask_hint)
        self.undo_button = self._button("&Take back", "play-undo", self.take_back)
        self.save_button = self._button("&Save record…", "play-save", self.save)
        self.replay_button = self._button("&Replay", "play-replay", self.replay)
        for b in (self.hint_button, self.undo_button, self.save_button, self.replay_button):
            buttons.addWidget(b)
        right = QWidget()
        panel = QVBoxLayout(right)
        panel.setContentsMargins(6, 0, 0, 0)
        for w in (self.heading, self.status, self.calls, self.now, self.input, self.line):
            panel.addWidget(w)
        panel.addWidget(self.hint_label)
        panel.addWidget(self.message)
        panel.addWidget(self.steps, 1)
        panel.addLayout(buttons)
        split = QSplitter()
        split.addWidget(self.stack)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        box = QVBoxLayout(self)
        box.addWidget(split)
        self.resize(1180, 760)
        self.advance()

    def _button(self, text: str, name: str, slot: Callable[[], object]) -> QPushButton:
        b = QPushButton(text)
        b.setObjectName(name)
        b.clicked.connect(lambda: slot())
        return b

    def _heading(self) -> str:
        s = self.session
        who = [
            f"{side_name(s.game, side)}: {'you' if s.is_human(side) else s.players[side.index]}"
            for side in Side
        ]
        return f"<b>{html.escape(get_ruleset(s.game).title)}</b> — " + " · ".join(who)

    # --- the flow of the game -------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return self.job is not None

    def acting(self) -> Side | None:
        """The person whose decision the board takes now, if any."""
        s = self.session
        people = [side for side in s.waiting() if s.is_human(side)]
        if self.queued is not None:
            people = [side for side in people if side is not self.queued[0]]
        return people[0] if people else None

    def advance(self) -> None:
        """After anything happened: start an agent's job if one is due, choose whose input
        the board takes, and redraw."""
        s = self.session
        if not self.busy and self.queued is None:
            agents = [side for side in s.waiting() if not s.is_human(side)]
            if agents:
                self._start_agent(agents[0])
        side = self.acting()
        key = (len(s.steps), s.phase(), side)
        if key != self.key:
            self.key = key
            self.hint = None
            self.hint_label.setText("")
            self.input.begin(side)
            secret = s.simultaneous and s.is_human(Side.SOUTH) and s.is_human(Side.NORTH)
            if secret and side is not None and side is not self.viewer:
                self._cover(side)
        self.refresh()

    def _start_agent(self, side: Side) -> None:
        s = self.session
        job = ThreadJob(lambda: s.agent_line(side))
        job.finished.connect(lambda line: self._agent_done(side, str(line)))
        job.failed.connect(self._job_failed)
        self.job, self.job_kind = job, "agent"
        job.start()

    def _agent_done(self, side: Side, line: str) -> None:
        self._end_job()
        try:
            self.session.submit(side, line)
        except LineError as exc:  # an agent's line the session refuses is a bug: say so
            self.message.setText(f"{side_name(self.session.game, side)}'s agent: {exc}")
        self._flush_queue()
        self.advance()

    def _job_failed(self, message: str) -> None:
        self._end_job()
        self.message.setText(message)
        self.refresh()

    def _end_job(self) -> None:
        if self.job is not None:
            self.job.wait()
            self.job.deleteLater()
        self.job = None

    def _flush_queue(self) -> None:
        if self.queued is not None:
            side, line = self.queued
            self.queued = None
            self.submit(side, line)

    # --- a person's decisions -------------------------------------------------------------
    def _clicked(self, cell: int, right: bool) -> None:
        self.input.click(cell, right)

    def _decided(self, line: str) -> None:
        if self.input.side is not None:
            self.submit(self.input.side, line)

    def _typed(self) -> None:
        side = self.acting()
        text = self.line.text().strip()
        if side is None or not text:
            return
        if self.submit(side, text):
            self.line.clear()

    def submit(self, side: Side, line: str) -> bool:
        """Give ``line`` as ``side``'s decision (after the running job, if any); ``False``
        if the session refuses it (the reason is shown)."""
        if self.busy:
            self.queued = (side, line)
            self.message.setText("")
            self.advance()
            return True
        try:
            self.session.submit(side, line)
        except LineError as exc:
            self.message.setText(" ".join(str(exc).split()))
            return False
        self.message.setText("")
        self.advance()
        return True

    def ask_hint(self) -> None:
        """Ask the hint agent (on a worker thread) what it would decide for the person."""
        side = self.acting()
        if side is None or self.busy:
            return
        s = self.session
        self.message.setText("")  # ("Taken back", a refusal): the hint is what follows
        job = ThreadJob(lambda: (s.hint_line(side), s.hint_name(side)))
        job.finished.connect(lambda found: self._hint_done(*found))
        job.failed.connect(self._job_failed)
        self.job, self.job_kind = job, "hint"
        job.start()
        self.refresh()

    def _hint_done(self, line: str, agent: str) -> None:
        self._end_job()
        self.hint = self.input.preview(line)
        self.hint_label.setText(f"Hint ({agent}): {line}")
        self.line.setText(line)
        self._flush_queue()
        self.advance()

    def take_back(self) -> bool:
        if self.busy or not self.session.undo():
            return False
        self.queued, self.key, self.viewer = None, None, None
        self.message.setText("Taken back")
        self.advance()
        return True

    def save(self) -> str | None:
        """Save the record so far where ``save_path`` says; the path, or ``None``."""
        path = self.save_path() if self.save_path is not None else None
        if path is None:
            return None
        try:
            self.session.save(path)
        except OSError as exc:
            self._fail(f"Could not save {path}: {exc}")
            return None
        except Exception as exc:  # noqa: BLE001 - TankmapError and the like: one message
            self._fail(" ".join(str(exc).split()))
            return None
        self.message.setText(f"Saved {path}")
        return path

    def _fail(self, text: str) -> None:
        if self.error is not None:
            self.error(text)
        self.message.setText(text)

    def replay(self) -> QWidget:
        """The game so far in the replay view."""
        return show_replay(replay_of(self.session.record(), "this game"), self, "this game")

    # --- hot-seat cover -------------------------------------------------------------------
    def _cover(self, side: Side) -> None:
        game = self.session.game
        other = side_name(game, side.other)
        name = side_name(game, side)
        self.cover.setText(
            f"Pass the screen to {name}.\n\n{other}'s decisions stay hidden.\n\n"
            f"{name}: click here when ready."
        )
        self.stack.setCurrentWidget(self.cover)
        self.input.setEnabled(False)
        self.line.setEnabled(False)
        self.viewer = None

    @property
    def covered(self) -> bool:
        return self.stack.currentWidget() is self.cover

    def _uncover(self) -> None:
        self.viewer = self.acting()
        self.stack.setCurrentWidget(self.view)
        self.refresh()

    # --- drawing ----------------------------------------------------------------------------
    def refresh(self) -> None:
        s = self.session
        covered = self.covered
        self.doc.show(s.position())
        self.last.set_step(self._shown_step())
        marks = self.input.marks()
        inputting = bool(marks.selected) or (
            marks.pending is not None and bool(marks.pending.moves or marks.pending.shells)
        )
        self.last.setOpacity(0.25 if inputting else 1.0)  # what is being decided stands out
        self.pending.set_step(marks.pending)
        self.scene.set_ghosts(marks.ghosts)
        self.hint_overlay.set_step(self.hint)
        self.selected.set_cells(marks.selected)
        self.targets.set_cells(marks.targets)
        self.chosen.set_cells(marks.chosen)
        self.scene.set_unit_view(marks.dots, marks.fire)
        last = s.steps[-1] if s.steps else None
        shown = self._shown_step()
        self.calls.setText(" ".join(last.announcements) if last is not None else "")
        self.now.setText(shown.line if shown is not None else "The game starts.")
        self.status.setText(self._status())
        if self.steps.count() != len(s.steps):
            self.steps.clear()
            self.steps.addItems([step.line for step in s.steps])
            self.steps.scrollToBottom()
        side = self.acting()
        self.input.setEnabled(side is not None and not covered)
        self.line.setEnabled(side is not None and not covered)
        self.hint_button.setEnabled(side is not None and not self.busy and not covered)
        self.undo_button.setEnabled(not self.busy)

    def _shown_step(self) -> ReplayStep | None:
        """What the board draws besides the input: the round's artillery (Tank Wars), the
        mid-round moves and shells (Final Act), else the last turn or round."""
        s = self.session
        found = s.current_step()
        if found is not None:
            return found
        return s.steps[-1] if s.steps else None

    def _status(self) -> str:
        s = self.session
        game = s.game
        if s.result is not None:
            r = s.result
            who = "Draw" if r.winner is None else f"{side_name(game, r.winner)} wins"
            return f"{who} ({r.reason}) — game over"
        text = s.prompt()
        if self.busy and self.job_kind == "hint":
            return text + " · Hint: thinking…"
        if self.busy:
            thinking = [side for side in s.waiting() if not s.is_human(side)]
            if thinking:
                who = thinking[0]
                text += f" · {side_name(game, who)} ({s.players[who.index]}) is thinking…"
        if self.queued is not None:
            text += f" · {side_name(game, self.queued[0])} has decided"
        return text

    def closeEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        if self.job is not None:
            self.job.wait()
        super().closeEvent(event)  # type: ignore[arg-type]
        self.closed.emit(self.status.text())
