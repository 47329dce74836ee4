"""The terminal view of a play session (``tankmap play``): the position as text, one line
read per decision, refusals on one line, agents' decisions printed as they are made.

Commands instead of a decision: ``help``, ``moves`` (what may be decided now), ``hint``
(what the strongest agent would decide), ``undo`` (take back), ``board`` (show the
position again), ``quit`` (stop; the record is written as at the end of the input).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import TextIO

from tankmap.analysis.play.base import LineError, PlaySession
from tankmap.analysis.play.text import board_text, unit_list
from tankmap.rules.sides import side_name
from tankmap.rules.steps import steps_text

COMMANDS = "help, moves, hint, undo, board, quit"


class Terminal:
    """Plays ``session`` reading ``stdin`` and writing ``stdout``; ``diagrams`` shows the
    board before every person's decision (else only at the start and the end);
    ``save(session)`` is called once at the end (the record)."""

    def __init__(
        self,
        session: PlaySession,
        stdin: TextIO,
        stdout: TextIO,
        diagrams: bool,
        ascii_only: bool = False,
        recorded: int = 0,
    ) -> None:
        self.session, self.stdin, self.out = session, stdin, stdout
        self.diagrams, self.ascii_only = diagrams, ascii_only
        self.shown = 0  # steps already printed
        self.recorded = recorded  # the first steps, played before (a resumed record)

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def run(self, save: Callable[[PlaySession], str | None]) -> None:
        """Play until the game ends, the input ends or ``quit``; then ``save``."""
        s = self.session
        self.show_board()
        while True:
            self.play_agents()
            self.show_steps()
            if s.over:
                break
            side = s.waiting()[0]
            self.say(s.prompt())
            if self.diagrams:  # at a terminal: the side's prompt, the answer on its line
                self.out.write(f"{side_name(s.game, side)}> ")
                self.out.flush()
            line = self.stdin.readline()
            if not line:
                break
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            if text.lower() == "quit":
                break
            if not self.command(text.lower()):
                try:
                    s.submit(side, text)
                except LineError as exc:
                    self.say(f"refused: {' '.join(str(exc).split())}")
        self.show_steps()
        if self.diagrams or s.over:
            self.show_board()
        self.say(self.result_line())
        where = save(s)
        if where:
            self.say(f"record written to {where}")

    def command(self, word: str) -> bool:
        """Run a command word; ``False`` if ``word`` is none (then it is a decision)."""
        s = self.session
        side = s.waiting()[0]
        if word == "help":
            self.say(s.syntax())
            self.say(f"Commands: {COMMANDS}")
        elif word == "moves":
            lines = s.legal_lines(side)
            if not s.simultaneous:  # many short turns: as a paragraph
                lines = textwrap.wrap(" ".join(lines), 96) + [f"({len(lines)} turns)"]
            for line in lines:
                self.say(f"  {line}")
        elif word == "hint":
            line = s.hint_line(side)
            self.say(f"hint ({s.hint_name(side)}): {line}")
        elif word == "undo":
            self.say("taken back" if s.undo() else "nothing to take back")
            self.shown = min(self.shown, len(s.steps))
            self.show_board()
        elif word == "board":
            self.show_board()
        else:
            return False
        return True

    def play_agents(self) -> None:
        s = self.session
        while not s.over:
            agents = [side for side in s.waiting() if not s.is_human(side)]
            if not agents:
                return
            side = agents[0]
            line = s.agent_line(side)
            s.submit(side, line)
            if not s.simultaneous:  # secret orders are shown once the round is played
                self.say(f"{side_name(s.game, side)} ({s.players[side.index]}): {line}")
            if self.diagrams and not s.over and s.waiting():
                self.show_steps()

    def show_steps(self) -> None:
        """Print what happened since the last call (one line per turn or round)."""
        s = self.session
        for step in s.steps[self.shown :]:
            if s.simultaneous and step is s.steps[-1]:
                before = len(s.steps) <= self.recorded  # not played by today's players
                for side, line in s.revealed:
                    who = "from the record" if before else s.players[side.index]
                    self.say(f"{side_name(s.game, side)} ({who}): {line}")
            self.say(step.line)
        if len(s.steps) > self.shown and self.diagrams and not s.over:
            self.show_board()
        self.shown = len(s.steps)

    def show_board(self) -> None:
        s = self.session
        self.say(board_text(s.position(), self.ascii_only))
        entries = getattr(s, "unit_entries", None)
        if entries is not None:
            for line in unit_list(entries()):
                self.say(line)

    def result_line(self) -> str:
        s = self.session
        steps = steps_text(len(s.steps), s.game)
        r = s.result
        if r is None:
            return f"result: not decided after {steps}"
        who = "draw" if r.winner is None else f"{side_name(s.game, r.winner)} wins"
        return f"result: {who} ({r.reason}) after {steps}"
