"""Saved Final Act games: the start scenario plus every round's orders and shells, as JSON.

File format (``*.fagame.json`` by convention)::

    {"format": "tankmap-final-act-game", "version": 1,
     "scenario": { ...a tankmap scenario (rules.fileformat)... },
     "rounds": [{"orders": ["f2N", null, "e3W", ...],      one entry per unit (null = stay)
                 "shells": {"0": "f7", "3": "c9"},         shooter unit index -> cell
                 "actions": {"rm_repair": [5], "double_shot": {"3": "f8"},
                             "quick_sand": {"north": "e6"}}}, ...],   optional (docs/rules.md §1.8)
     "result": {"winner": "south", "end": "goal", "rounds": 11},      (or null)
     "tokens": {"south": {"smoke": 2}, "north": {"air_strike": 1, ...}}}
                optional: the action tokens each side held at the start, when they were
                not equal sets (option token_share, docs/rules.md §1.8)

``replay`` plays every round through ``Game.play_round`` (so every order and shell is
checked, advanced actions included: ``engine_advanced.Actions``) and refuses a record
whose stored result disagrees. Errors: ``ScenarioFormatError`` for a malformed file,
``IllegalMoveError`` naming the round for an illegal order, shell or action.
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
from tankmap.rules.final_act.engine import Game, State
from tankmap.rules.final_act.engine_actions import unit_index
from tankmap.rules.final_act.engine_advanced import Actions
from tankmap.rules.final_act.engine_tokens import Hands, hands_from_json, hands_to_json
from tankmap.rules.final_act.tables import Order
from tankmap.rules.geometry import Facing
from tankmap.rules.record_fields import is_version, read_result
from tankmap.rules.safeio import read_bounded, strict_json
from tankmap.rules.scenario import Scenario

FORMAT = "tankmap-final-act-game"
VERSION = 1

Round = tuple[list[Order | None], dict[int, int]]


@dataclass
class FinalActRecord:
    """A game: the start scenario, the rounds played, the advanced actions declared
    (``actions[i]`` for round ``i``, 0-based, only rounds with any) and the result."""

    scenario: Scenario
    rounds: list[Round] = field(default_factory=list)
    result: dict[str, Any] | None = None
    actions: dict[int, Actions] = field(default_factory=dict)
    hands: Hands | None = None  # the tokens dealt, when not equal sets (engine_tokens)

    @staticmethod
    def of(
        state: State, rounds: list[Round], actions: dict[int, Actions] | None = None
    ) -> FinalActRecord:
        """The record of ``rounds`` played from the scenario of ``state``'s game."""
        result = None
        if state.over:
            result = {
                "winner": None if state.winner is None else state.winner.value,
                "end": state.end,
                "rounds": state.round,
            }
        kept = {i: a for i, a in (actions or {}).items() if not a.empty()}
        adv = state.game.adv
        hands = state.adv.dealt if adv and adv.share != "equal" else None
        return FinalActRecord(state.game.scenario, list(rounds), result, kept, hands)

    def start(self) -> tuple[Game, State]:
        """The game and its state before round 1 (with the record's token hands)."""
        game = Game(self.scenario)
        state = game.initial_state()
        if self.hands is not None:
            if not game.adv:
                raise IllegalMoveError("the record holds action tokens but none is on")
            game.adv.set_hands(state, self.hands)
        return game, state

    def replay(self) -> State:
        """Play every round from the start (checked) and return the final state."""
        game, state = self.start()
        for n, (orders, shells) in enumerate(self.rounds, 1):
            try:
                game.play_round(state, orders, shells, self.actions.get(n - 1))
            except TankmapError as exc:
                raise IllegalMoveError(f"round {n}: {exc}") from None
        if self.result is not None:
            got = {
                "winner": None if state.winner is None else state.winner.value,
                "end": state.end,
                "rounds": state.round,
            }
            if got != self.result:
                raise IllegalMoveError(f"the record says {self.result} but replaying gives {got}")
        return state

    def to_json(self) -> dict[str, Any]:
        b = self.scenario.board
        rounds = []
        for i, (orders, shells) in enumerate(self.rounds):
            entry: dict[str, Any] = {
                "orders": [
                    None if o is None else f"{b.cell_name(o[0])}{o[1].name}" for o in orders
                ],
                "shells": {str(u): b.cell_name(c) for u, c in sorted(shells.items())},
            }
            acts = self.actions.get(i)
            if acts is not None and not acts.empty():
                entry["actions"] = acts.to_json(b.cell_name)
            rounds.append(entry)
        out = {
            "format": FORMAT,
            "version": VERSION,
            "scenario": scenario_to_json(self.scenario),
            "rounds": rounds,
            "result": self.result,
        }
        if self.hands is not None:
            out["tokens"] = hands_to_json(self.hands)
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1) + "\n"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record atomically."""
        atomic_write_text(path, self.dumps())

    @staticmethod
    def from_json(data: Any, source: str = "<string>") -> FinalActRecord:
        """Parse a record; ``ScenarioFormatError`` (with the JSON path) if malformed."""

        def fail(path: str, message: str, value: Any = NO_VALUE) -> Any:
            raise ScenarioFormatError.quoting(message, source=source, path=path, value=value)

        if not isinstance(data, dict) or data.get("format") != FORMAT:
            fail("$.format", f"not a Final Act game record (expected format {FORMAT!r})")
        if not is_version(data.get("version"), VERSION):
            what = f"unsupported version (expected {VERSION})"
            fail("$.version", what, data.get("version", NO_VALUE))
        scenario = scenario_from_json(data.get("scenario"), source)
        if scenario.ruleset != "final-act":
            what = "a Final Act record holds a Final Act scenario"
            fail("$.scenario.ruleset", what, scenario.ruleset)
        b = scenario.board
        n = len(scenario.units)
        rounds: list[Round] = []
        actions: dict[int, Actions] = {}
        raw_rounds = data.get("rounds", NO_VALUE)
        if not isinstance(raw_rounds, list):
            fail("$.rounds", "must be a list", raw_rounds)
        for i, r in enumerate(raw_rounds):
            where = f"$.rounds[{i}]"
            if not isinstance(r, dict) or not isinstance(r.get("orders"), list):
                fail(where, "a round needs an 'orders' list", r)
            raw_orders = r["orders"]
            if len(raw_orders) != n:
                fail(f"{where}.orders", f"needs one entry per unit ({n})", len(raw_orders))
            orders: list[Order | None] = []
            for j, text in enumerate(raw_orders):
                if text is None:
                    orders.append(None)
                    continue
                try:
                    facing = _facing(text)
                    orders.append((b.parse_cell(str(text).strip()[: -len(facing.name)]), facing))
                except ValueError as exc:
                    fail(f"{where}.orders[{j}]", str(exc), text)
            shells: dict[int, int] = {}
            raw_shells = r.get("shells", {})
            if not isinstance(raw_shells, dict):
                fail(f"{where}.shells", "must be an object", raw_shells)
            for key, cell in raw_shells.items():
                try:
                    u = unit_index(key, n, key=True)
                except ValueError as exc:
                    fail(f"{where}.shells", f"a key: {exc}", key)
                try:
                    shells[u] = b.parse_cell(str(cell))
                except ValueError as exc:
                    fail(f"{where}.shells.{key}", str(exc), cell)
            rounds.append((orders, shells))
            if "actions" in r:

                def bad(suffix: str, message: str, value: Any, where: str = where) -> Any:
                    return fail(f"{where}.actions{suffix}", message, value)

                actions[i] = Actions.from_json(r["actions"], b.parse_cell, bad, n)
        result = read_result(data.get("result"), fail, undecided_end=False)
        hands = None
        if "tokens" in data:

            def bad_tokens(suffix: str, message: str, value: Any) -> Any:
                return fail(f"$.tokens{suffix}", message, value)

            hands = hands_from_json(data["tokens"], bad_tokens)
        return FinalActRecord(scenario, rounds, result, actions, hands)

    @staticmethod
    def loads(text: str | bytes, source: str = "<string>") -> FinalActRecord:
        return FinalActRecord.from_json(strict_json(text, source), source)

    @staticmethod
    def load(path: str | os.PathLike[str]) -> FinalActRecord:
        return FinalActRecord.loads(read_bounded(path, MAX_FILE_BYTES), str(path))


def _facing(text: str) -> Facing:
    """The facing at the end of an order like ``"f3N"`` or ``"f3NE"``."""
    t = str(text).strip()
    for name in ("NE", "NW", "SE", "SW", "N", "E", "S", "W"):
        if t.upper().endswith(name):
            return Facing[name]
    raise ValueError(f"order {short(text)} has no facing (expected like 'f3N')")
