"""Tank Wars playouts (provisional ruleset) on ``rules.tank_wars.engine``.

Each game splits its Generator: the engine's dice get a child generator of their own and
the policies share the other, so a recorded game (dice seed + orders) replays exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analysis.simulation.games import (
    END_ANNIHILATION,
    END_LIMIT,
    Death,
    GameResult,
    PolicyError,
    parse_policy,
)
from analysis.simulation.policies.tank_wars import make_policy
from rules.scenario import Scenario
from rules.tank_wars.engine import Event, initial_state, outcome, play_round

BASES = ("random", "heuristic")
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

    def check_policy(self, prepared: Any, spec: str) -> None:
        base, restrictions = parse_policy(spec)
        kinds = {u.kind for u in prepared.units}
        if base not in BASES or any(
            r[3:] not in kinds | {"heavy", "medium", "artillery"} for r in restrictions
        ):
            raise PolicyError(
                f"unknown Tank Wars policy {spec!r} (known: random, heuristic; "
                "restrictions: +no-heavy, +no-medium, +no-artillery)"
            )

    def play(
        self,
        prepared: Any,
        policies: tuple[str, str],
        rng: np.random.Generator,
        record: bool = False,
    ) -> GameResult:
        scenario: Scenario = prepared
        dice, choices = rng.spawn(2)
        pols = [make_policy(*parse_policy(spec), choices) for spec in policies]
        state = initial_state(scenario)
        events: list[Event] = []
        result = outcome(state)
        while result is None:
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
            record=events if record else None,
        )


DRIVER = TankWarsDriver()
