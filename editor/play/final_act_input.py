"""Final Act on the board: a side's secret orders, unit by unit.

Click one of your units: the cells of its legal orders are dotted. Click one: that is its
order (the facing bar offers the other facings there; the unit's own cell, or *Stay*,
keeps it where it is). Then its fire zone is tinted: click a cell to shell it (a right
click shells even a cell where one of your units stands), or the unit itself to choose
its order again. Units sharing a cell are chosen in turn by clicking the cell again.
*Declarations* (shown when the game has any) takes the advanced rules' and Extra Forces'
items in the notation (``repair:C`` …, docs/notation.md); *Commit* gives the whole side's
part to the session. In the phases of a round other than the orders (start-of-round
tokens, smoke after the moves, Red Cross after the hits) a click on a cell writes the
phase's item for it into the declarations."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QListWidget, QPushButton, QWidget

from tankmap.analysis.play.final_act import FinalActSession
from tankmap.analysis.play.final_act_lines import SideRound
from tankmap.analysis.replay import Move, ReplayStep, Shell
from tankmap.editor.play.inputs import BoardInput, FacingBar, Marks
from tankmap.rules.errors import TankmapError
from tankmap.rules.geometry import Facing

HELP = {
    "orders": "Click a unit, then the cell of its order, then the cell it shells. "
    "Commit when every unit has its order.",
    "start": "Start of the round: click a cell for quick sand (sand:) or mine clearing "
    "(clear:), or Commit nothing.",
    "moved": "The moves are made (the shells are shown after the smoke): click a cell to lay "
    "smoke, or Commit nothing.",
    "hit": "The hits are in: click a cell for your Red Cross (cross:), type cross-repair:C, "
    "or Commit nothing.",
}
CLICK_WORD = {"start": "sand", "moved": "smoke", "hit": "cross"}


class FinalActInput(BoardInput):
    """The board input of a Final Act game (see the module docstring)."""

    def __init__(self, session: FinalActSession) -> None:
        super().__init__(session)
        self.fa = session
        self.part = SideRound()
        self.unit = -1
        self.aiming = False
        self.facings = FacingBar()
        self.facings.picked.connect(self._pick_facing)
        self.box.addWidget(self.facings)
        self.orders_list = QListWidget()
        self.orders_list.setObjectName("play-orders")
        self.orders_list.setMaximumHeight(130)
        self.box.addWidget(self.orders_list)
        self.declarations_row = QWidget()
        row = QHBoxLayout(self.declarations_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel("Declarations:"))
        self.declarations = QLineEdit()
        self.declarations.setObjectName("play-declarations")
        self.declarations.setPlaceholderText("e.g. repair:C throttle:2 (docs/notation.md)")
        row.addWidget(self.declarations, 1)
        self.box.addWidget(self.declarations_row)
        buttons = QHBoxLayout()
        self.stay = QPushButton("&Stay")
        self.stay.clicked.connect(self._stay)
        self.clear = QPushButton("C&lear")
        self.clear.clicked.connect(self._clear)
        self.commit = QPushButton("&Commit")
        self.commit.setObjectName("play-commit")
        self.commit.setDefault(True)
        self.commit.clicked.connect(self.commit_decision)
        for b in (self.stay, self.clear, self.commit):
            buttons.addWidget(b)
        buttons.addStretch(1)
        self.box.addLayout(buttons)

    def reset(self) -> None:
        self.part, self.unit, self.aiming = SideRound(), -1, False
        self.declarations.clear()
        self._controls()

    # --- clicks ---------------------------------------------------------------------------
    def click(self, cell: int, right: bool) -> None:
        if self.side is None:
            return
        phase = self.fa.phase()
        if phase != "orders":
            word = CLICK_WORD.get(phase)
            if word is not None:
                self.declarations.setText(f"{word}:{self.fa.scenario.board.cell_name(cell)}")
            return
        st = self.fa.state
        u = self.unit
        here = [v for v in st.live(self.side.index) if st.cell[v] == cell]
        others = [v for v in here if v != u]
        name = self.fa.scenario.board.cell_name(cell)
        note = ""
        if u >= 0 and self.aiming:
            if here and not right and cell != st.cell[u]:  # another of one's units
                self._select(here[0])
            elif cell in st.fire_zone(u):
                self.part.shells[u] = cell
                self.unit, self.aiming = -1, False
            elif cell == st.cell[u]:  # back to choosing its order
                self.aiming = False
            elif here:
                self._select(here[0])
            else:
                note = f"{name} is outside {self._what(u)}'s fire zone (tinted): "
                note += "nothing is selected."
                self.unit, self.aiming = -1, False
        elif u >= 0 and cell == st.cell[u] and len(here) > 1:  # the next unit on the cell
            self._select(here[(here.index(u) + 1) % len(here)])
        elif u >= 0 and others and self.part.orders.get(u, (-1,))[0] == cell:
            self._select(others[0])  # ordered there already: choose the units standing there
        elif u >= 0 and cell in {c for c, _f in st.orders(u)}:
            facings = [f for c, f in st.orders(u) if c == cell]
            self._order(u, (cell, st.facing[u] if st.facing[u] in facings else facings[0]))
            if others and not self.aiming:
                note = (
                    f"{self._what(u)} is ordered to {name}; click {name} again to choose "
                    "your units there."
                )
        elif here:
            self._select(here[0])
        elif u >= 0:
            note = (
                f"{name} is not one of {self._what(u)}'s orders (the dotted cells): "
                "nothing is selected."
            )
            self.unit, self.aiming = -1, False
        else:
            note = f"{name}: click one of your units first."
        self._controls()
        if note:
            self.say(note)
        self.changed.emit()

    def _what(self, u: int) -> str:
        """The unit by the handle the orders list shows it with: ``tank C``, ``AT2``,
        ``RM`` (a tank's handle is its name)."""
        handle = str(self.fa.handles[u])
        return f"tank {handle}" if self.fa.state.kind[u] == "tank" else handle

    def _select(self, u: int) -> None:
        self.unit, self.aiming = u, False

    def _order(self, u: int, order: tuple[int, Facing]) -> None:
        self.part.orders[u] = order
        self.part.shells.pop(u, None)
        st = self.fa.state
        self.aiming = st.can_fire(u, order) and bool(st.fire_zone(u))

    def _pick_facing(self, facing: int) -> None:
        u = self.unit
        if u >= 0 and u in self.part.orders:
            self._order(u, (self.part.orders[u][0], Facing(facing)))
            self._controls()
            self.changed.emit()

    def _stay(self) -> None:
        u = self.unit
        if u >= 0:
            self._order(u, (self.fa.state.cell[u], self.fa.state.facing[u]))
            self._controls()
            self.changed.emit()

    def _clear(self) -> None:
        self.reset()
        self.changed.emit()

    def line(self) -> str:
        """The side's part as a line: the clicked orders and shells, then the declarations."""
        assert self.side is not None
        clicked = (
            self.fa.reader.format(self.side.index, self.part)
            if self.fa.phase() == "orders"
            else "-"
        )
        extra = self.declarations.text().strip()
        if not extra:
            return clicked
        return extra if clicked == "-" else f"{clicked} {extra}"

    def missing(self) -> str:
        """What the clicked orders leave out, in words ("" when nothing, or outside the
        orders phase)."""
        if self.side is None or self.fa.phase() != "orders":
            return ""
        st = self.fa.state
        mine = st.live(self.side.index)
        idle = [u for u in mine if u not in self.part.orders]
        silent = [
            u
            for u in mine
            if u not in self.part.shells
            and st.can_fire(u, self.part.orders.get(u))
            and bool(st.fire_zone(u))
        ]
        words = []
        if idle:
            n = len(idle)
            words.append(f"{n} unit{'s' if n > 1 else ''} without an order (staying)")
        if silent:
            n = len(silent)
            words.append(f"{n} unit{'s' if n > 1 else ''} that may fire without a shell")
        return " and ".join(words).capitalize()

    def _controls(self) -> None:
        st = self.fa.state
        u = self.unit
        order = self.part.orders.get(u)
        if u >= 0 and order is not None:
            allowed = tuple(f for c, f in st.orders(u) if c == order[0])
            self.facings.show_choices(allowed, order[1])
        else:
            self.facings.show_choices((), None)
        self.stay.setEnabled(u >= 0)
        self.orders_list.clear()
        name = st.game.board.cell_name
        handles = self.fa.handles
        for v in sorted(set(self.part.orders) | set(self.part.shells)):
            o = self.part.orders.get(v)
            text = f"{handles[v]}: "
            text += "no order" if o is None else f"{name(st.cell[v])} → {name(o[0])} {o[1].name}"
            if v in self.part.shells:
                text += f", shells {name(self.part.shells[v])}"
            self.orders_list.addItem(text)
        phase = self.fa.phase()
        words = self.fa.declarations(self.side) if self.side is not None else []
        self.declarations_row.setVisible(bool(words) or phase != "orders")
        self.say(HELP.get(phase, "") + (f" Declarations now: {' '.join(words)}." if words else ""))

    # --- drawing --------------------------------------------------------------------------
    def marks(self) -> Marks:
        if self.side is None:
            return Marks()
        if self.fa.phase() != "orders":  # the cell of the declaration clicked, if any
            board = self.fa.scenario.board
            cells = []
            for item in self.declarations.text().split():
                try:
                    cells.append(board.parse_cell(item.partition(":")[2]))
                except ValueError:
                    continue
            return Marks(chosen=tuple(cells))
        st = self.fa.state
        u = self.unit
        pending = self._step(self.part)
        if u < 0:
            return Marks(pending=pending)
        order = self.part.orders.get(u)
        return Marks(
            selected=(st.cell[u],),
            dots=() if self.aiming else tuple(sorted({c for c, _f in st.orders(u)})),
            fire=tuple(st.fire_zone(u)) if self.aiming else (),
            chosen=() if order is None else (order[0],),
            pending=pending,
        )

    def preview(self, line: str) -> ReplayStep | None:
        if self.side is None:
            return None
        try:
            part = self.fa.reader.parse(line, self.side.index, self.fa.phase(), self.fa.now())
        except TankmapError:
            return None
        return self._step(part)

    def _step(self, part: SideRound) -> ReplayStep:
        st = self.fa.state
        side = self.side
        assert side is not None
        moves = tuple(
            Move(u, side, st.cell[u], o[0], "")
            for u, o in part.orders.items()
            if o[0] != st.cell[u]
        )
        shells = tuple(Shell(side, c, "shell", st.cell[u]) for u, c in part.shells.items())
        return ReplayStep("final-act", 0, (), self.fa.position(), moves=moves, shells=shells)
