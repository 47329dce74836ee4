"""Tank Chess on the board: click a piece — its legal end cells are dotted —, click an end
cell — the piece's shots from there are ringed in red —, then click a target to move and
shoot, or *Move without shooting*. Clicking the chosen end cell again turns the piece to
its next legal facing there (or use the facing bar); *Escape* leaves by the enemy's edge
when the rules allow it. Every choice comes from the engine's move generator."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QHBoxLayout, QPushButton

from tankmap.analysis.play.tank_chess import TankChessSession
from tankmap.analysis.replay import Move, ReplayStep, Shell
from tankmap.editor.play.inputs import BoardInput, FacingBar, Marks
from tankmap.rules.geometry import Facing
from tankmap.rules.scenario import Unit
from tankmap.rules.tank_chess.data import tank_chess_data
from tankmap.rules.tank_chess.notation import format_turn, parse_turn
from tankmap.rules.tank_chess.state import BLOCKED, ESCAPE, NO_TARGET, Turn

HELP = (
    "Click one of your pieces, then where it ends its move (click that cell again to turn "
    "it), then the piece it shoots — or Move without shooting."
)


class TankChessInput(BoardInput):
    """The board input of a Tank Chess game (see the module docstring)."""

    def __init__(self, session: TankChessSession) -> None:
        super().__init__(session)
        self.tc = session
        self.piece = -1
        self.turns: list[Turn] = []
        self.end: tuple[int, int] | None = None
        self.facings = FacingBar()
        self.facings.picked.connect(self._pick_facing)
        self.box.addWidget(self.facings)
        row = QHBoxLayout()
        self.no_shot = QPushButton("Move &without shooting")
        self.no_shot.setObjectName("play-no-shot")
        self.no_shot.clicked.connect(lambda: self._play(NO_TARGET))
        self.escape = QPushButton("&Escape off the board")
        self.escape.setObjectName("play-escape")
        self.escape.clicked.connect(self._escape)
        row.addWidget(self.no_shot)
        row.addWidget(self.escape)
        row.addStretch(1)
        self.box.addLayout(row)
        self.say(HELP)

    def reset(self) -> None:
        self.piece, self.turns, self.end = -1, [], None
        self._controls()

    # --- clicks ---------------------------------------------------------------------------
    def click(self, cell: int, right: bool) -> None:
        st = self.tc.state
        if self.side is None:
            return
        if self.end is not None and cell in self._targets():
            self._play(st.grid[cell])
            return
        ends = self._ends()
        if self.piece >= 0 and cell in {c for c, _f in ends}:
            facings = [f for c, f in ends if c == cell]
            if self.end is not None and self.end[0] == cell:  # again: the next facing
                i = facings.index(self.end[1]) if self.end[1] in facings else -1
                self.end = (cell, facings[(i + 1) % len(facings)])
            else:
                keep = st.facing[self.piece]
                self.end = (cell, keep if keep in facings else facings[0])
        elif 0 <= st.grid[cell] and st.side[st.grid[cell]] == self.side.index:
            self.piece, self.end = st.grid[cell], None
            self.turns = []
            st.piece_turns(self.piece, self.turns)
        else:
            why = self._refusal(cell)
            self.reset()
            self._controls()
            self.say(why)
            self.changed.emit()
            return
        self._controls()
        self.say(HELP)
        self.changed.emit()

    def _refusal(self, cell: int) -> str:
        """Why a click on ``cell`` chose nothing (said in the help line)."""
        st = self.tc.state
        name = st.scenario.board.cell_name(cell)
        if self.piece < 0:
            return f"{name}: click one of your own pieces first. {HELP}"
        what = f"the {tank_chess_data().stats(st.kind[self.piece]).name.lower()}"
        what += f" on {st.scenario.board.cell_name(st.cell[self.piece])}"
        held, end = st.grid[cell], self.end
        if held >= 0 and end is None:
            return (
                f"{name}: to shoot there, first click where {what} ends its move (a dotted "
                "cell), then the target ringed in red."
            )
        if held >= 0 and end is not None:
            return (
                f"{name}: {what} cannot hit that piece from "
                f"{st.scenario.board.cell_name(end[0])} (its targets are ringed in red: "
                "the first piece on a ray it fires along, not adjacent). Nothing is selected."
            )
        if held == BLOCKED:
            return f"{name} holds an obstacle or a wreck: no piece can end its move there."
        speed = tank_chess_data().stats(st.kind[self.piece]).speed
        return (
            f"{what} cannot end its move on {name}: a move is up to {speed} steps, each a 45° "
            "turn or one cell forward through empty cells, or one cell straight back (the "
            "dotted cells are where it can end). Nothing is selected."
        )

    def _pick_facing(self, facing: int) -> None:
        if self.end is not None:
            self.end = (self.end[0], facing)
            self._controls()
            self.changed.emit()

    def _ends(self) -> list[tuple[int, int]]:
        return sorted({(t[1], t[2]) for t in self.turns if t[1] != ESCAPE})

    def _targets(self) -> list[int]:
        if self.end is None:
            return []
        st = self.tc.state
        c, f = self.end
        return [st.cell[t[3]] for t in self.turns if (t[1], t[2]) == (c, f) and t[3] >= 0]

    def _play(self, target: int) -> None:
        if self.end is None:
            return
        turn = (self.piece, self.end[0], self.end[1], target)
        if turn in self.turns:
            self.decided.emit(format_turn(self.tc.state, turn))

    def _escape(self) -> None:
        turn = (self.piece, ESCAPE, -1, NO_TARGET)
        if turn in self.turns:
            self.decided.emit(format_turn(self.tc.state, turn))

    def _controls(self) -> None:
        ends = self._ends()
        allowed = tuple(Facing(f) for c, f in ends if self.end is not None and c == self.end[0])
        self.facings.show_choices(allowed, None if self.end is None else Facing(self.end[1]))
        self.no_shot.setEnabled(self.end is not None)
        self.escape.setEnabled(any(t[1] == ESCAPE for t in self.turns))

    # --- drawing --------------------------------------------------------------------------
    def marks(self) -> Marks:
        if self.piece < 0:
            return Marks()
        st = self.tc.state
        pending = None
        ghosts: tuple[Unit, ...] = ()
        if self.end is not None:
            pending = self._step(self.piece, self.end[0], None)
            unit = st.scenario.units[self.piece]
            ghosts = (replace(unit, cell=self.end[0], facing=Facing(self.end[1])),)
        return Marks(
            selected=(st.cell[self.piece],),
            dots=tuple(sorted({c for c, _f in self._ends()})),
            targets=tuple(self._targets()),
            chosen=() if self.end is None else (self.end[0],),
            pending=pending,
            ghosts=ghosts,
        )

    def preview(self, line: str) -> ReplayStep | None:
        st = self.tc.state
        try:
            p, cell, _f, target = parse_turn(st, line)
        except ValueError:
            return None
        aim = None if target < 0 else st.cell[target]
        return self._step(p, None if cell == ESCAPE else cell, aim)

    def _step(self, p: int, end: int | None, aim: int | None) -> ReplayStep:
        st = self.tc.state
        side = self.tc.to_move
        start = st.cell[p]
        moves = (Move(p, side, start, end, ""),) if end != start else ()
        shells = (Shell(side, aim, "shot", end),) if aim is not None else ()
        return ReplayStep("tank-chess", 0, (), self.tc.position(), moves=moves, shells=shells)
