"""A minimal ruleset used to test the game-independent core (file format, registry, CLI)."""

from __future__ import annotations

import pytest

from tankmap.rules.registry import register
from tankmap.rules.ruleset import OptionSpec, Ruleset, UnitMove
from tankmap.rules.scenario import Scenario, Unit
from tankmap.rules.violations import Severity, Violation


class ToyRuleset(Ruleset):
    """Units may not share a cell; everything else goes. Used by core tests only."""

    name = "toy"
    title = "Toy (tests only)"
    terrain_kinds = ("rock",)
    unit_kinds = ("pawn",)
    option_specs = (
        OptionSpec("flag", False, "a boolean option"),
        OptionSpec("limit", 3, "an integer option"),
        OptionSpec("mode", "a", "a choice", choices=("a", "b")),
    )
    default_board = (8, 8)

    def board_problem(self, columns: int, rows: int) -> str | None:
        return None if columns >= 4 and rows >= 4 else "the toy needs at least 4x4"

    def check(self, scenario: Scenario) -> list[Violation]:
        seen: dict[int, Unit] = {}
        out = []
        for u in scenario.units:
            if u.cell in seen:
                out.append(
                    Violation(
                        "cell-shared", Severity.ERROR, "two pawns share a cell", (u.cell,), u.side
                    )
                )
            seen[u.cell] = u
        return out

    def moves(self, scenario: Scenario, unit: Unit) -> list[UnitMove]:
        return []

    def fire_zone(self, scenario: Scenario, unit: Unit) -> list[int]:
        return []


TOY = register(ToyRuleset())


@pytest.fixture
def toy() -> ToyRuleset:
    return TOY
