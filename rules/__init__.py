"""The games: cells, geometry, terrain, units, scenarios, rulesets, legality, movement and fire.

Pure Python + numpy. No Qt, pandas, matplotlib or networkx (checked by import-linter).
"""

from __future__ import annotations

from tankmap.rules.board import Board
from tankmap.rules.errors import (
    IllegalMoveError,
    ScenarioFormatError,
    TankmapError,
    UnknownRulesetError,
)
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset, ruleset_names
from tankmap.rules.scenario import Scenario, Terrain, Unit
from tankmap.rules.violations import Placement, Severity, Violation

__all__ = [
    "Board",
    "Facing",
    "IllegalMoveError",
    "Placement",
    "Scenario",
    "ScenarioFormatError",
    "Severity",
    "Side",
    "TankmapError",
    "Terrain",
    "Unit",
    "UnknownRulesetError",
    "Violation",
    "get_ruleset",
    "ruleset_names",
]
