"""A tiny fake game ("race") to test the game-agnostic runner, executors and statistics.

Each side has one runner at distance 0 on a track of ``length`` cells (the board's rows);
every round each runner advances 1 or 2 cells (``random``: uniform; ``heuristic``: 2 with
probability 0.75). The first to reach the end wins; both in the same round: draw; a round
limit of 50 also draws.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tankmap.analysis.simulation.games import (
    END_GOAL,
    END_LIMIT,
    Death,
    GameResult,
    PolicyError,
    parse_policy,
    register_driver,
)
from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import register
from tankmap.rules.ruleset import Ruleset, UnitMove
from tankmap.rules.scenario import Scenario, Unit
from tankmap.rules.violations import Violation


class RaceRuleset(Ruleset):
    name = "race"
    title = "Race (simulation tests only)"
    unit_kinds = ("runner",)
    default_board = (2, 10)

    def check(self, scenario: Scenario) -> list[Violation]:
        return []

    def moves(self, scenario: Scenario, unit: Unit) -> list[UnitMove]:
        return []

    def fire_zone(self, scenario: Scenario, unit: Unit) -> list[int]:
        return []


class RaceDriver:
    def prepare(self, scenario: Scenario) -> Any:
        return scenario.board.rows

    def policy_names(self) -> tuple[str, ...]:
        return ("random", "heuristic")

    def check_policy(self, prepared: Any, spec: str) -> None:
        base, _ = parse_policy(spec)
        if base not in self.policy_names():
            raise PolicyError(f"unknown policy {spec!r}")

    def play(
        self,
        prepared: Any,
        policies: tuple[str, str],
        rng: np.random.Generator,
        record: bool = False,
    ) -> GameResult:
        length = int(prepared)
        pos = [0, 0]
        routes: list[list[int]] = [[0], [1]]
        p2 = [0.75 if parse_policy(p)[0] == "heuristic" else 0.5 for p in policies]
        for rnd in range(1, 51):
            for s in (0, 1):
                pos[s] += 2 if rng.random() < p2[s] else 1
                routes[s].append(min(pos[s], length - 1) * 2 + s)
            done = [pos[s] >= length - 1 for s in (0, 1)]
            if done[0] and done[1]:
                return GameResult(None, rnd, END_GOAL)
            if done[0] or done[1]:
                w = 0 if done[0] else 1
                loser_cell = min(pos[1 - w], length - 1) * 2 + (1 - w)
                return GameResult(
                    Side.SOUTH if w == 0 else Side.NORTH,
                    rnd,
                    END_GOAL,
                    kills=(1, 0) if w == 0 else (0, 1),
                    winning_unit="runner",
                    route=tuple(routes[w]),
                    deaths=(
                        Death(Side.SOUTH if w == 1 else Side.NORTH, "runner", loser_cell, rnd),
                    ),
                )
        return GameResult(None, 50, END_LIMIT)


RACE = register(RaceRuleset())
register_driver("race", RaceDriver())


@pytest.fixture
def race() -> Scenario:
    board = Board.of(2, 10)
    return Scenario(
        ruleset="race",
        board=board,
        units=(
            Unit("runner", Side.SOUTH, 0, Facing.N),
            Unit("runner", Side.NORTH, 1, Facing.N),
        ),
    )
