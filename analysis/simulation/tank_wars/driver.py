"""Tank Wars playouts (provisional ruleset) on ``rules.tank_wars.engine``.

Each game draws an integer seed for the engine's dice from its Generator (the policies use
the rest), so a recorded game — ``TankWarsRecord``: dice seed + both sides' orders per
round, and the result — replays exactly with ``TankWarsRecord.replay``, which refuses a
record whose result it does not reproduce (another dice seed plays another game).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tankmap.analysis.simulation.budgets import check_budget
from tankmap.analysis.simulation.games import (
    END_ANNIHILATION,
    END_LIMIT,
    Death,
    GameResult,
    PolicyError,
    parse_policy,
)
from tankmap.analysis.simulation.interrupt import between_decisions
from tankmap.analysis.simulation.tank_wars.agents.factory import make_policy
from tankmap.analysis.simulation.tank_wars.agents.options import Policy
from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.fileformat import atomic_write_text, scenario_to_json
from tankmap.rules.geometry import Side
from tankmap.rules.record_fields import is_version, read_result
from tankmap.rules.scenario import Scenario
from tankmap.rules.tank_wars.engine import (
    NO_ORDERS,
    Event,
    Orders,
    TankWarsState,
    initial_state,
    outcome,
    play_round,
)

BASES = ("random", "heuristic", "search", "plan", "regret", "regret-heuristic")
_ENDS = {
    "destroyed": END_ANNIHILATION,
    "both-destroyed": END_ANNIHILATION,
    "round-limit": END_LIMIT,
}


class TankWarsDriver:
    """Plays Tank Wars games (see ``analysis.simulation.games.Driver``)."""

    def prepare(self, scenario: Scenario) -> Scenario:
        initial_state(scenario)  # fail early on an unplayable scenario
        return scenario

    def policy_names(self) -> tuple[str, ...]:
        return BASES

    def restrictions(self) -> tuple[str, ...]:
        return ("no-heavy", "no-medium", "no-artillery")

    def check_policy(self, prepared: Any, spec: str) -> None:
        base, restrictions = parse_policy(spec)
        kinds = {u.kind for u in prepared.units}
        name = base.partition(":")[0]
        if name in BASES:
            check_budget("tank-wars", spec)  # (a budget on an agent that takes one, in range)
        if name not in BASES or any(
            r[3:] not in kinds | {"heavy", "medium", "artillery"} for r in restrictions
        ):
            raise PolicyError(
                f"unknown Tank Wars policy {spec!r} (known: random, heuristic, search[:N], "
                f"plan[:N], regret[:N], regret-heuristic[:N]; "
                f"restrictions: {', '.join('+' + r for r in self.restrictions())})"
            )

    def play(
        self,
        prepared: Any,
        policies: tuple[str, str],
        rng: np.random.Generator,
        record: bool = False,
    ) -> GameResult:
        scenario: Scenario = prepared
        dice_seed = int(rng.integers(2**63))
        dice = np.random.default_rng(dice_seed)
        pols = [make_policy(*parse_policy(spec), rng) for spec in policies]
        rounds: list[list[Orders]] = []
        if record:
            pols = [_recording(pol, rounds, i) for i, pol in enumerate(pols)]
        state = initial_state(scenario)
        events: list[Event] = []
        result = outcome(state)
        while result is None:
            between_decisions()  # (a run aborted in this process stops here: ``interrupt``)
            if record:
                rounds.append([NO_ORDERS, NO_ORDERS])
            state = play_round(state, pols[0], pols[1], dice, events)
            result = outcome(state)
        deaths = []
        kills = [0, 0]
        for e in events:
            if e.what == "destroyed":
                deaths.append(
                    Death(
                        e.side,
                        scenario.units[e.vehicle].kind if e.vehicle is not None else "?",
                        e.cell,
                        e.round,
                    )
                )
                kills[1 - e.side.index] += 1
        return GameResult(
            winner=result.winner,
            length=state.round,
            end=_ENDS.get(result.reason, result.reason),
            kills=(kills[0], kills[1]),
            deaths=tuple(deaths),
            record=TankWarsRecord(
                scenario, dice_seed, [(a, b) for a, b in rounds], result_of(state)
            )
            if record
            else None,
        )


def _recording(policy: Policy, rounds: list[list[Orders]], side: int) -> Policy:
    """``policy`` that also writes its orders into the current round of ``rounds``."""

    def wrapped(state: TankWarsState, s: Side) -> Orders:
        orders = policy(state, s)
        rounds[-1][side] = orders
        return orders

    return wrapped


def result_of(state: TankWarsState) -> dict[str, Any]:
    """A game's result as records keep it: ``{"winner": "south" | "north" | null, "end":
    the reason it ended (``Outcome.reason``) or null while it goes on, "rounds": rounds
    finished}`` — the ``result`` of ``tankmap replay --json``."""
    got = outcome(state)
    return {
        "winner": None if got is None or got.winner is None else got.winner.value,
        "end": None if got is None else got.reason,
        "rounds": state.round,
    }


def result_text(result: dict[str, Any]) -> str:
    """``South wins (destroyed) after 7 rounds``, ``a draw (round-limit) after 100
    rounds``, ``undecided after 3 rounds`` for a ``result_of`` dict."""
    winner, end, rounds = result["winner"], result["end"], result["rounds"]
    after = f"after {rounds} round{'' if rounds == 1 else 's'}"
    if end is None:
        return f"undecided {after}"
    who = "a draw" if winner is None else f"{str(winner).capitalize()} wins"
    return f"{who} ({end}) {after}"


@dataclass
class TankWarsRecord:
    """A played game: scenario, the dice seed, each round's (south, north) orders
    (``NO_ORDERS`` for a round that ended in its artillery phase) and the result
    (``result_of``; ``None`` in records written before results were kept: not checked)."""

    scenario: Scenario
    dice_seed: int
    rounds: list[tuple[Orders, Orders]] = field(default_factory=list)
    result: dict[str, Any] | None = None

    def replay(self) -> TankWarsState:
        """Play the rounds again with the same dice; the final state. ``IllegalMoveError``
        (``mismatch``) when the record's result is not the one the replay gives."""
        dice = np.random.default_rng(self.dice_seed)
        state = initial_state(self.scenario)
        for south, north in self.rounds:
            state = play_round(state, south, north, dice)
        wrong = self.mismatch(result_of(state))
        if wrong:
            raise IllegalMoveError(wrong)
        return state

    def mismatch(self, got: dict[str, Any]) -> str | None:
        """What differs between the record's result and ``got`` (a replay's
        ``result_of``), or ``None`` when they agree or the record keeps no result."""
        if self.result is None or self.result == got:
            return None
        return (
            f"the record says {result_text(self.result)} but replaying gives "
            f"{result_text(got)} (dice seed {self.dice_seed})"
        )

    def to_json(self) -> dict[str, Any]:
        b = self.scenario.board
        return {
            "format": "tankmap-tank-wars-game",
            "version": 1,
            "scenario": scenario_to_json(self.scenario),
            "dice_seed": self.dice_seed,
            "rounds": [[s.to_json(b), n.to_json(b)] for s, n in self.rounds],
            "result": self.result,
        }

    @staticmethod
    def from_json(data: Any, source: str = "<string>") -> TankWarsRecord:
        """Parse ``to_json``'s document (``result`` may be missing or null: an older
        record); ``ScenarioFormatError`` with the JSON path."""
        from tankmap.rules.errors import NO_VALUE, ScenarioFormatError
        from tankmap.rules.fileformat import scenario_from_json

        def fail(path: str, message: str, value: Any = NO_VALUE) -> Any:
            # (a JSON null is quoted; a key that is missing has no value to quote)
            raise ScenarioFormatError.quoting(message, source=source, path=path, value=value)

        if not isinstance(data, dict) or data.get("format") != "tankmap-tank-wars-game":
            fail("$.format", "not a Tank Wars game record")
        if not is_version(data.get("version"), 1):
            fail("$.version", "unsupported version (expected 1)", data.get("version", NO_VALUE))
        scenario = scenario_from_json(data.get("scenario"), source)
        if scenario.ruleset != "tank-wars":
            what = "a Tank Wars record holds a Tank Wars scenario"
            fail("$.scenario.ruleset", what, scenario.ruleset)
        sides = [u.side.index for u in scenario.units]  # a command's key: its vehicle's index
        seed = data.get("dice_seed", NO_VALUE)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            fail("$.dice_seed", "must be a whole number from 0 to 2^64-1", seed)
        raw = data.get("rounds", NO_VALUE)
        if not isinstance(raw, list):
            fail("$.rounds", "must be a list", raw)
        rounds = []
        for i, pair in enumerate(raw):
            if not isinstance(pair, list) or len(pair) != 2:
                fail(f"$.rounds[{i}]", "must be [south orders, north orders]", pair)
            try:
                both = (
                    Orders.from_json(pair[0], scenario.board),
                    Orders.from_json(pair[1], scenario.board),
                )
            except IllegalMoveError as exc:
                fail(f"$.rounds[{i}]", str(exc))
            for side, orders in enumerate(both):
                for k in orders.commands:
                    if not (0 <= k < len(sides) and sides[k] == side):
                        what = "a command of a vehicle this side does not have"
                        fail(f"$.rounds[{i}][{side}].commands", what, str(k))
            rounds.append(both)
        result = read_result(data.get("result"), fail, undecided_end=True)
        return TankWarsRecord(scenario, seed, rounds, result)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record as JSON (atomically)."""
        atomic_write_text(path, json.dumps(self.to_json(), indent=1) + "\n")


DRIVER = TankWarsDriver()
