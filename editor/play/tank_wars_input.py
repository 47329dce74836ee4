"""Tank Wars on the board: the round's artillery has fired (its shells are drawn); click one
of your vehicles — the fields its command tokens lead to are dotted — and click one to
give it that token (its own field: no token, it stays). Click a field of the enemy board
(or a crater on your own) to put a gunfire token there, again to take it back. *Commit*
gives the side's tokens to the session."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton

from tankmap.analysis.play.tank_wars import TankWarsSession
from tankmap.analysis.play.tank_wars_lines import format_command
from tankmap.analysis.replay import Move, ReplayStep, Shell
from tankmap.editor.play.inputs import BoardInput, Marks
from tankmap.rules.errors import TankmapError
from tankmap.rules.tank_wars.engine import (
    Command,
    Orders,
    command_end,
    command_options,
    gunfire_targets,
)

HELP = (
    "Click a vehicle, then the field its command token leads to (its own field: no token); "
    "click enemy fields for your gunfire tokens (again to take one back). Then Commit."
)


class TankWarsInput(BoardInput):
    """The board input of a Tank Wars game (see the module docstring)."""

    def __init__(self, session: TankWarsSession) -> None:
        super().__init__(session)
        self.tw = session
        self.commands: dict[int, Command] = {}
        self.gunfire: list[int] = []
        self.vehicle = -1
        self.tokens = QLabel()
        self.tokens.setObjectName("play-tokens")
        self.box.addWidget(self.tokens)
        row = QHBoxLayout()
        self.clear = QPushButton("C&lear")
        self.clear.clicked.connect(self._clear)
        self.commit = QPushButton("&Commit")
        self.commit.setObjectName("play-commit")
        self.commit.setDefault(True)
        self.commit.clicked.connect(self.commit_decision)
        row.addWidget(self.clear)
        row.addWidget(self.commit)
        row.addStretch(1)
        self.box.addLayout(row)
        self.say(HELP)

    def reset(self) -> None:
        self.commands, self.gunfire, self.vehicle = {}, [], -1
        self._controls()

    def _options(self, ident: int) -> dict[int, Command | None]:
        """End field → command for vehicle ``ident`` (its own field: no token)."""
        st = self.tw.state
        v = st.vehicle(ident)
        if v is None:
            return {}
        out: dict[int, Command | None] = {v.cell: None}
        for c in command_options(st, v):
            if c is not None:
                out.setdefault(command_end(st.board, v.cell, c), c)
        return out

    def click(self, cell: int, right: bool) -> None:
        if self.side is None:
            return
        st = self.tw.state
        note = ""
        mine = {v.cell: v.ident for v in st.vehicles_of(self.side)}
        options = self._options(self.vehicle) if self.vehicle >= 0 else {}
        if cell in options:
            command = options[cell]
            if command is None:
                self.commands.pop(self.vehicle, None)
            else:
                self.commands[self.vehicle] = command
            self.vehicle = -1
        elif cell in mine:
            self.vehicle = mine[cell]
        elif cell in gunfire_targets(st, self.side):
            if cell in self.gunfire:
                self.gunfire.remove(cell)
            elif len(self.gunfire) < st.gunfire_available(self.side):
                self.gunfire.append(cell)
            else:
                note = (
                    f"All {len(self.gunfire)} gunfire tokens are placed: click one to take it back."
                )
            self.vehicle = -1
        else:
            name = st.board.cell_name(cell)
            note = (
                f"{name} is not a field the chosen vehicle's tokens lead to (the dots)."
                if self.vehicle >= 0
                else f"{name}: click one of your vehicles, or an enemy field for gunfire."
            )
            self.vehicle = -1
        self._controls()
        self.say(note or HELP)
        self.changed.emit()

    def _clear(self) -> None:
        self.reset()
        self.changed.emit()

    def line(self) -> str:
        return self.tw.lines_io.format(Orders(self.commands, tuple(self.gunfire)))

    def missing(self) -> str:
        """What the tokens placed leave out, in words ("" when nothing)."""
        assert self.side is not None
        st = self.tw.state
        idle = [v for v in st.vehicles_of(self.side) if v.ident not in self.commands]
        spare = st.gunfire_available(self.side) - len(self.gunfire)
        if not gunfire_targets(st, self.side):
            spare = 0
        words = []
        if idle:
            n = len(idle)
            words.append(f"{n} vehicle{'s' if n > 1 else ''} without a command token (staying)")
        if spare > 0:
            words.append(f"{spare} gunfire token{'s' if spare > 1 else ''} not placed")
        return " and ".join(words).capitalize()

    def _controls(self) -> None:
        if self.side is None:
            self.tokens.setText("")
            return
        st = self.tw.state
        name = st.board.cell_name
        handles = self.tw.lines_io.handles
        cmds = ", ".join(
            f"{handles[i]} {format_command(c)}" for i, c in sorted(self.commands.items())
        )
        fields = " ".join(name(c) for c in self.gunfire) or "none"
        have = st.gunfire_available(self.side)
        self.tokens.setText(
            f"Commands: {cmds or 'none'} · gunfire ({len(self.gunfire)}/{have}): {fields}"
        )

    # --- drawing --------------------------------------------------------------------------
    def marks(self) -> Marks:
        if self.side is None:
            return Marks()
        pending = self._step(Orders(self.commands, tuple(self.gunfire)))
        if self.vehicle < 0:
            return Marks(pending=pending)
        v = self.tw.state.vehicle(self.vehicle)
        assert v is not None
        ends = tuple(c for c in self._options(self.vehicle) if c != v.cell)
        return Marks(selected=(v.cell,), dots=ends, pending=pending)

    def preview(self, line: str) -> ReplayStep | None:
        if self.side is None:
            return None
        try:
            orders = self.tw.lines_io.parse(line, self.side.index, self.tw.state)
        except TankmapError:
            return None
        return self._step(orders)

    def _step(self, orders: Orders) -> ReplayStep:
        st = self.tw.state
        side = self.side
        assert side is not None
        moves = []
        for ident, c in orders.commands.items():
            v = st.vehicle(ident)
            end = command_end(st.board, v.cell, c) if v is not None else -1
            if v is not None and end >= 0:
                moves.append(Move(ident, side, v.cell, end, ""))
        shells = tuple(Shell(side, c, "gunfire") for c in orders.gunfire)
        return ReplayStep("tank-wars", 0, (), self.tw.position(), moves=tuple(moves), shells=shells)
