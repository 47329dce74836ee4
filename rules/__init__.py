"""The games: cells, geometry, terrain, units, scenarios, rulesets, legality, movement and fire.

Pure Python + numpy. No Qt, pandas, matplotlib or networkx (checked by import-linter).
"""

from __future__ import annotations

from rules.board import Board
from rules.errors import (
    IllegalMoveError,
    ScenarioFormatError,
    TankmapError,
    UnknownRulesetError,
)
from rules.geometry import Facing, Side
from rules.registry import get_ruleset, ruleset_names
from rules.scenario import Scenario, Terrain, Unit
from rules.violations import Placement, Severity, Violation

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
