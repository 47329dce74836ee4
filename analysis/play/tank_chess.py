"""A Tank Chess game being played: alternate turns in the notation of docs/notation.md on
the engine's ``GameState`` (its move generator, its end of game), each turn described as
the replay describes it (with the "Check!"/"Escape!" it earns)."""

from __future__ import annotations

from typing import Any

from tankmap.analysis.play.base import SIDES, LineError, PlaySession, Result
from tankmap.analysis.replay import tank_chess_step
from tankmap.rules.errors import TankmapError
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario
from tankmap.rules.sides import side_name
from tankmap.rules.tank_chess.notation import format_turn, parse_turn
from tankmap.rules.tank_chess.record import GameRecord
from tankmap.rules.tank_chess.state import GameState, Turn

SYNTAX = """\
A turn: <from><to><facing>[x<target>]  e.g. h1h3N, c3c5NExd7, h1h1NE (rotate in place)
        <from>esc                        a command tank leaving by the enemy's edge
The facing may be left out when the piece keeps it; x<target> names the cell of the
piece it shoots after moving (docs/notation.md)."""


class TankChessSession(PlaySession):
    """A Tank Chess game (see ``base.PlaySession``); ``state`` is the engine's position."""

    game = "tank-chess"

    def __init__(self, scenario: Scenario, players: tuple[str, str], seed: int) -> None:
        super().__init__(scenario, players, seed)
        try:
            self.state = GameState(scenario)
        except TankmapError as exc:
            raise LineError(f"cannot play this position: {exc}") from None

    def _make_agent(self, spec: str, side: int, key: int) -> Any:
        from tankmap.analysis.play.agents import TankChessAgent

        return TankChessAgent(self.scenario, spec, side, self.seed, key)

    # --- the game -----------------------------------------------------------------------
    @property
    def to_move(self) -> Side:
        return SIDES[self.state.to_move]

    def waiting(self) -> list[Side]:
        return [] if self.over else [self.to_move]

    def phase(self) -> str:
        return "over" if self.over else "turn"

    @property
    def result(self) -> Result | None:
        out = self.state.outcome()
        return None if out is None else Result(out.winner, out.reason)

    def parse(self, side: Side, line: str) -> Turn:
        """The legal turn ``line`` names for ``side`` now; ``LineError`` naming the line."""
        text = line.strip()
        self.check_line(side, text)
        try:
            return parse_turn(self.state, text)
        except TankmapError as exc:
            message = str(exc)
            if not message.startswith(repr(text)):
                message = f"{text!r}: {message}"
            raise LineError(message) from None

    def submit(self, side: Side, line: str) -> None:
        turn = self.parse(side, line)
        text = format_turn(self.state, turn)
        self.steps.append(
            tank_chess_step(self.scenario, self.state, text, number=len(self.steps) + 1)
        )

    def play(self, turn: Turn) -> None:
        """Play a turn given as the engine's tuple (the board clicks); ``LineError`` if it
        is not legal for the side to move."""
        legal: list[Turn] = []
        if not self.over:
            self.state.piece_turns(turn[0], legal)
        if turn not in legal or self.state.side[turn[0]] != self.state.to_move:
            raise LineError(f"{turn!r} is not a legal turn now")
        self.submit(self.to_move, format_turn(self.state, turn))

    def agent_line(self, side: Side) -> str:
        return format_turn(self.state, self.agent(side).choose(self.state))

    def hint_line(self, side: Side) -> str:
        return format_turn(self.state, self.hint_agent(side).choose(self.state))

    def undo(self) -> bool:
        if not self.steps:
            return False
        people = [s for s in SIDES if self.is_human(s)]
        if len(people) != 1:
            self._pop()
            return True
        if not any(s.mover in people for s in self.steps):
            return False
        while True:  # back to the last turn the person played, and before it
            mover = self.steps[-1].mover
            self._pop()
            if mover in people:
                return True

    def _pop(self) -> None:
        self.state.pop()
        self.steps.pop()

    def position(self) -> Scenario:
        return self.state.to_scenario()

    def record(self) -> GameRecord:
        return GameRecord.of(self.state)

    def legal_lines(self, side: Side) -> list[str]:
        if side not in self.waiting():
            return []
        return sorted(format_turn(self.state, t) for t in self.state.legal_turns())

    def syntax(self) -> str:
        return SYNTAX

    def prompt(self) -> str:
        """``"White to move (turn 12)"`` or the result."""
        if self.over:
            return "the game is over"
        name = side_name(self.game, self.to_move)
        return f"{name} to move (turn {len(self.steps) + 1})"
