"""What every game's board input shares: the marks drawn on the board, the facing bar,
and the base class the per-game inputs (``tank_chess_input`` …) derive from.

An input turns a person's clicks into one line of the game's notation for the side it
is given (``begin``) and emits ``decided(line)``; the play window submits it to the
session, which has the last word. ``changed`` asks the window to redraw.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from tankmap.analysis.play import PlaySession
from tankmap.analysis.replay import ReplayStep
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Unit


@dataclass(frozen=True)
class Marks:
    """What the input shows on the board: the selected unit's cell, the cells it may move
    to (dots), its fire zone (tint), its targets (red), the chosen end cell, the decisions
    made so far (``pending``: drawn like a replay step) and pieces drawn half-transparent
    where they would end (``ghosts``)."""

    selected: tuple[int, ...] = ()
    dots: tuple[int, ...] = ()
    fire: tuple[int, ...] = ()
    targets: tuple[int, ...] = ()
    chosen: tuple[int, ...] = ()
    pending: ReplayStep | None = None
    ghosts: tuple[Unit, ...] = ()


class FacingBar(QWidget):
    """Eight buttons, one per facing; only the allowed ones are enabled, the current one
    is checked. ``picked(facing)`` when one is clicked."""

    picked = Signal(int)

    def __init__(self) -> None:
        super().__init__()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel("Facing:"))
        self.buttons: dict[Facing, QToolButton] = {}
        for f in Facing:
            b = QToolButton()
            b.setText(f.name)
            b.setObjectName(f"facing-{f.name}")
            b.setCheckable(True)
            b.clicked.connect(lambda _c=False, f=f: self.picked.emit(int(f)))
            row.addWidget(b)
            self.buttons[f] = b
        row.addStretch(1)
        self.show_choices((), None)

    def show_choices(self, allowed: tuple[Facing, ...], current: Facing | None) -> None:
        for f, b in self.buttons.items():
            b.setEnabled(f in allowed)
            b.setChecked(f == current)


class BoardInput(QWidget):
    """Base of the per-game inputs (see the module docstring)."""

    changed = Signal()
    decided = Signal(str)

    def __init__(self, session: PlaySession) -> None:
        super().__init__()
        self.session = session
        self.side: Side | None = None
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.help = QLabel()
        self.help.setObjectName("play-help")
        self.help.setWordWrap(True)
        self.box.addWidget(self.help)
        self._warned: str | None = None  # the decision the last Commit warned about

    def begin(self, side: Side | None) -> None:
        """Start (or stop, with ``None``) taking ``side``'s decision; forget pending ones."""
        self.side = side
        self.reset()
        self.setEnabled(side is not None)
        self.changed.emit()

    def reset(self) -> None:
        """Forget what was clicked for the decision being made."""

    def click(self, cell: int, right: bool) -> None:
        """A click on ``cell`` (``right``: the right button)."""

    def marks(self) -> Marks:
        return Marks()

    def preview(self, line: str) -> ReplayStep | None:
        """``line`` (the acting side's decision, e.g. a hint) drawn like a step, or
        ``None`` if it cannot be read now."""
        return None

    def say(self, text: str) -> None:
        self.help.setText(text)

    def line(self) -> str:
        """The decision clicked so far, as a line of the game's notation."""
        return ""

    def missing(self) -> str:
        """What the decision clicked so far leaves out, in words ("" when nothing)."""
        return ""

    def commit_decision(self) -> None:
        """Give the side's decision (``line``) to the session. When ``missing`` names
        something left out, the first Commit of a decision only says so and a second Commit
        of the same decision gives it (Commit is the default button: Enter alone would hand
        over an empty part)."""
        if self.side is None:
            return
        line = self.line()
        missing = self.missing()
        if missing and self._warned != line:
            self._warned = line
            self.say(f"{missing}. Press Commit again to commit as it is.")
            return
        self._warned = None
        self.decided.emit(line)
