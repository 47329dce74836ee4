"""What every play session has: the players, whose decision is awaited, lines in and out,
agents, hints, take-back and the game record (docs/play.md).

A session is a plain object (no threads, no Qt): the editor's play window and ``tankmap
play`` are views over it. A *decision* is one line of text in the game's notation
(docs/notation.md): a Tank Chess turn, or one side's part of a Final Act or Tank Wars round
(or of one of its phases). Humans type or click them; agents produce the same lines
(``agent_line``), so everything a session plays goes through ``submit``.

Agents' and hints' work can take seconds: ``agent_line`` and ``hint_line`` only read the
session (they work on copies of the position), so a caller may run them on another thread
while the session is left alone, then ``submit`` the line on its own thread.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from tankmap.analysis.replay import ReplayStep
from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario

HUMAN = "human"
"""The player name of a person (any other name is an agent's)."""

SIDES = (Side.SOUTH, Side.NORTH)


class LineError(IllegalMoveError):
    """A line that cannot be played now; the message names the line and says why."""


def refused(text: str, exc: Exception) -> LineError:
    """``LineError`` quoting line ``text`` before ``exc``'s reason, once: a reason that
    already starts with it (the line's only item, quoted) is not quoted again."""
    reason = str(exc)
    if reason.startswith(f"{text!r}: "):
        return LineError(reason)
    return LineError(f"{text!r}: {reason}")


@dataclass(frozen=True)
class Result:
    """How a game ended: ``winner`` (``None``: a draw) and the engine's ``reason``."""

    winner: Side | None
    reason: str


class PlaySession(ABC):
    """One game being played (see the module docstring). Subclasses per game."""

    game: str
    """The ruleset name (``tank-chess``, ``final-act``, ``tank-wars``)."""

    def __init__(self, scenario: Scenario, players: tuple[str, str], seed: int) -> None:
        self.scenario = scenario
        self.players = players
        self.seed = seed
        self.steps: list[ReplayStep] = []
        self.revealed: list[tuple[Side, str]] = []
        """The lines of the last round played, both sides' (simultaneous games: they stay
        secret until the round is played)."""
        self._agents: dict[int, Any] = {}
        self._hints: dict[int, Any] = {}
        self._hint_names: dict[int, str] = {}

    # --- players ------------------------------------------------------------------------
    def is_human(self, side: Side) -> bool:
        return self.players[side.index] == HUMAN

    def set_players(self, players: tuple[str, str]) -> None:
        """Change who plays each side (agents start afresh, seeded as before);
        ``PolicyError`` (one line, the known names) for an agent that cannot play here."""
        from tankmap.analysis.play.agents import check_agent

        for spec in players:
            if spec != HUMAN:
                check_agent(self.scenario, spec)
        self.players = players
        self._agents = {}

    def agent(self, side: Side) -> Any:
        """The agent object playing ``side`` (made on first use)."""
        found = self._agents.get(side.index)
        if found is None:
            found = self._agents[side.index] = self._make_agent(
                self.players[side.index], side.index, key=0
            )
        return found

    def hint_agent(self, side: Side) -> Any:
        """The agent behind Hint for ``side`` (its own random numbers): the first of
        ``agents.HINT_AGENTS`` that can play this board."""
        found = self._hints.get(side.index)
        if found is None:
            name, found = self._first_hint_agent(side.index)
            self._hints[side.index] = found
            self._hint_names[side.index] = name
        return found

    def hint_name(self, side: Side) -> str:
        """The name of the agent behind Hint for ``side`` (``"ksearch:8"``)."""
        self.hint_agent(side)
        return self._hint_names[side.index]

    def _first_hint_agent(self, side: int) -> tuple[str, Any]:
        from tankmap.analysis.play.agents import HINT_AGENTS, PolicyError

        names = HINT_AGENTS[self.game]
        for name in names[:-1]:
            try:
                return name, self._make_agent(name, side, key=1)
            except PolicyError:  # this board is one the stronger agent does not play
                continue
        return names[-1], self._make_agent(names[-1], side, key=1)

    @abstractmethod
    def _make_agent(self, spec: str, side: int, key: int) -> Any: ...

    # --- the game -----------------------------------------------------------------------
    @abstractmethod
    def waiting(self) -> list[Side]:
        """The sides whose decision is awaited now (empty once the game is over)."""

    @abstractmethod
    def phase(self) -> str:
        """What is being decided: ``turn`` (Tank Chess), ``start``/``orders``/``moved``/
        ``hit`` (Final Act), ``orders`` (Tank Wars); ``over`` at the end."""

    @abstractmethod
    def submit(self, side: Side, line: str) -> None:
        """Play ``side``'s decision ``line``; ``LineError`` (naming the line and why) if it
        is unreadable, illegal, not ``side``'s to make now, or the game is over."""

    @abstractmethod
    def agent_line(self, side: Side) -> str:
        """The decision ``side``'s agent makes now, as a line (the session is not changed)."""

    @abstractmethod
    def hint_line(self, side: Side) -> str:
        """What the agent behind Hint (``hint_name``) would decide for ``side`` now."""

    @abstractmethod
    def undo(self) -> bool:
        """Take back the last decision of a person — with an agent's since then, so that a
        person is to decide again — or, when both sides are people, the last decision;
        ``False`` if there is nothing to take back."""

    @property
    @abstractmethod
    def result(self) -> Result | None:
        """``None`` while the game goes on (from the engine, never recomputed here)."""

    @abstractmethod
    def position(self) -> Scenario:
        """The position now, as a scenario (for drawing and the text diagram)."""

    @abstractmethod
    def record(self) -> Any:
        """The game record so far (``to_json``/``save``; docs/formats.md): every finished
        turn or round, and the result once there is one."""

    @abstractmethod
    def legal_lines(self, side: Side) -> list[str]:
        """What ``side`` may decide now, for the ``moves`` command: each legal line (Tank
        Chess), or per unit its possible entries (simultaneous games)."""

    @abstractmethod
    def prompt(self) -> str:
        """What is being decided now, e.g. ``"White to move (turn 12)"``."""

    @abstractmethod
    def syntax(self) -> str:
        """A few lines explaining the notation of a decision now (the ``help`` command)."""

    # --- shared -------------------------------------------------------------------------
    def current_step(self) -> ReplayStep | None:
        """What has happened of the round being decided, drawn like a step (Tank Wars:
        its artillery; Final Act: the moves and shells before smoke or the Red Cross is
        decided), or ``None``."""
        return None

    @property
    def simultaneous(self) -> bool:
        """Whether both sides decide at once, in secret (Final Act, Tank Wars)."""
        return self.game != "tank-chess"

    @property
    def over(self) -> bool:
        return self.result is not None

    def step_agents(self) -> int:
        """Let every agent whose decision is awaited make it (repeatedly, until a person
        is awaited or the game is over); returns how many decisions were made."""
        made = 0
        while True:
            agents = [s for s in self.waiting() if not self.is_human(s)]
            if not agents:
                return made
            side = agents[0]
            self.submit(side, self.agent_line(side))
            made += 1

    def check_line(self, side: Side, line: str) -> None:
        """The common refusals: the game is over, or it is not ``side``'s decision now."""
        from tankmap.rules.sides import side_name

        if self.over:
            raise LineError(f"{line!r}: the game is over")
        if side not in self.waiting():
            raise LineError(f"{line!r}: it is not {side_name(self.game, side)}'s decision now")

    def save(self, path: str) -> None:
        """Write the record so far (atomically; ``TankmapError`` if it cannot be written)."""
        self.record().save(path)

    def record_json(self) -> dict[str, Any]:
        data: dict[str, Any] = self.record().to_json()
        return data
