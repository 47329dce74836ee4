"""Saved Tank Chess games: the start scenario plus the turns in notation, as JSON.

File format (``*.tcgame.json`` by convention)::

    {"format": "tankmap-game", "version": 1,
     "scenario": { ...a tankmap scenario (rules.fileformat)... },
     "turns": ["h3h5N", "i14i12S", "c3c5NExd7"],
     "result": {"winner": "south", "reason": "command-destroyed"}}   (or null)

``result`` is informative: ``replay`` recomputes it and refuses a record whose stored
result disagrees. Reading raises ``ScenarioFormatError`` for a malformed file and
``IllegalMoveError`` (naming the turn number and text) for a turn that is not legal.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from tankmap.rules.errors import (
    NO_VALUE,
    IllegalMoveError,
    ScenarioFormatError,
    TankmapError,
    short,
)
from tankmap.rules.fileformat import (
    MAX_FILE_BYTES,
    atomic_write_text,
    scenario_from_json,
    scenario_to_json,
)
from tankmap.rules.record_fields import is_version
from tankmap.rules.safeio import read_bounded, strict_json
from tankmap.rules.scenario import Scenario
from tankmap.rules.tank_chess.notation import format_turn, parse_turn
from tankmap.rules.tank_chess.state import GameState, Outcome

FORMAT = "tankmap-game"
VERSION = 1


@dataclass
class GameRecord:
    """A game: where it started and the turns played (notation strings)."""

    scenario: Scenario
    turns: list[str] = field(default_factory=list)
    result: Outcome | None = None

    @staticmethod
    def of(state: GameState) -> GameRecord:
        """The record of everything played on ``state`` since its initial position."""
        played = state.turns()
        replay = GameState(state.scenario)
        texts = []
        for turn in played:
            texts.append(format_turn(replay, turn))
            replay.push(turn)
        return GameRecord(state.scenario, texts, state.outcome())

    def replay(self) -> GameState:
        """Play every turn from the start scenario and return the final state."""
        state = GameState(self.scenario)
        for n, text in enumerate(self.turns, 1):
            try:
                turn = parse_turn(state, text)
            except TankmapError as exc:
                raise IllegalMoveError(f"turn {n} ({short(text)}): {exc}") from None
            state.push(turn)
        got = state.outcome()
        if self.result is not None and got != self.result:
            raise IllegalMoveError(
                f"the record says {self.result.to_json()} but replaying gives "
                f"{None if got is None else got.to_json()}"
            )
        return state

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "scenario": scenario_to_json(self.scenario),
            "turns": list(self.turns),
            "result": None if self.result is None else self.result.to_json(),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically (``TankmapError`` if the file cannot be written)."""
        atomic_write_text(path, self.dumps())

    @staticmethod
    def from_json(data: Any, source: str = "<string>") -> GameRecord:
        """Parse record data; ``ScenarioFormatError`` names the problem."""

        def fail(path: str, message: str, value: Any = NO_VALUE) -> Any:
            # (a JSON null is quoted; a key that is missing has no value to quote)
            raise ScenarioFormatError.quoting(message, source=source, path=path, value=value)

        if not isinstance(data, dict):
            fail("$", "a game record must be a JSON object", data)
        for key in data:
            if key not in ("format", "version", "scenario", "turns", "result"):
                fail(f"$.{key}", "unknown key (allowed: format, version, scenario, turns, result)")
        if data.get("format") != FORMAT:
            fail("$.format", f"must be {FORMAT!r}", data.get("format", NO_VALUE))
        if not is_version(data.get("version"), VERSION):
            what = f"unsupported version (this tankmap reads {VERSION})"
            fail("$.version", what, data.get("version", NO_VALUE))
        if "scenario" not in data:
            fail("$.scenario", "is required")
        scenario = scenario_from_json(data["scenario"], source=source)
        if scenario.ruleset != "tank-chess":
            fail("$.scenario.ruleset", "game records are for tank-chess", scenario.ruleset)
        turns = data.get("turns", [])
        if not isinstance(turns, list) or not all(isinstance(t, str) for t in turns):
            fail("$.turns", "must be a list of turns in notation", turns)
        result = None
        raw = data.get("result")
        if raw is not None:
            from tankmap.rules.geometry import Side

            if not isinstance(raw, dict) or not isinstance(raw.get("reason"), str):
                fail("$.result", "must be null or {winner, reason}", raw)
            winner = raw.get("winner")
            if winner not in (None, "south", "north"):
                fail("$.result.winner", "must be 'south', 'north' or null", winner)
            result = Outcome(None if winner is None else Side(winner), raw["reason"])
        return GameRecord(scenario, list(turns), result)

    @staticmethod
    def load(path: str | os.PathLike[str]) -> GameRecord:
        source = str(path)
        data = strict_json(read_bounded(path, MAX_FILE_BYTES), source)
        return GameRecord.from_json(data, source)
