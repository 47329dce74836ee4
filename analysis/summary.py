"""One call that analyses a scenario: reach, coverage, lanes and the game-specific extras,
with the ``tankmap analyze --json`` document (docs/cli-json.md ``analyze``).

>>> from rules.fileformat import read_scenario                        # doctest: +SKIP
>>> result = analyse(read_scenario("maps/final-act/mirror.json"))      # doctest: +SKIP
>>> result.to_json()["sides"]["south"]["turns_to_goal"]                # doctest: +SKIP
9
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from tankmap.analysis.coverage import (
    CoverageSummary,
    artillery_hit_map,
    artillery_shells,
    grid,
    kill_coverage,
    kill_json,
    summarize,
)
from tankmap.analysis.lanes import LaneAnalysis, analyse_lanes
from tankmap.analysis.reach import SideReach, UnitReach, reach_grid, side_reach, turn_search_reach
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Unit
from tankmap.rules.violations import is_complete, is_legal

BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class ScenarioAnalysis:
    """Everything ``tankmap analyze`` reports about one scenario."""

    scenario: Scenario
    reach: dict[Side, SideReach]
    coverage: CoverageSummary
    lanes: dict[Side, LaneAnalysis]
    kill: dict[Side, dict[str, dict[Facing, BoolArray]]] | None = None
    artillery: dict[Side, npt.NDArray[np.float64]] | None = None
    artillery_shots: dict[Side, int] | None = None

    @property
    def ruleset(self) -> str:
        return self.scenario.ruleset

    def unit_rows(self) -> list[tuple[Unit, UnitReach | None]]:
        """Every unit in scenario order with its reach (``None`` for wrecks)."""
        by_id = {id(r.unit): r for side in Side for r in self.reach[side].units}
        return [(u, by_id.get(id(u))) for u in self.scenario.units]

    def to_json(self) -> dict[str, Any]:
        """The ``analyze --json`` document (docs/cli-json.md keys + lanes/choke/safest_route,
        contested/safe counts, and ``kill_coverage`` / ``artillery_hit_probability`` where
        the game has them)."""
        s = self.scenario
        b = s.board
        rs = get_ruleset(s.ruleset)
        violations = rs.check(s)
        sides: dict[str, Any] = {}
        for side in Side:
            r = self.reach[side]
            entry: dict[str, Any] = {
                "turns_to_goal": r.turns_to_goal,
                "reach": reach_grid(r.cells, b.columns, b.rows),
                "coverage": grid(self.coverage.per_side[side], b),
                "contested": int(self.coverage.contested.sum()),
                "safe_cells": int(self.coverage.safe[side].sum()),
                "safe": grid(self.coverage.safe[side].astype(np.int8), b),
            }
            entry.update(self.lanes[side].to_json(b))
            if self.kill is not None:
                entry["kill_coverage"] = kill_json(self.kill[side], b)
            if self.artillery is not None and self.artillery_shots is not None:
                entry["artillery_hit_probability"] = grid(self.artillery[side], b)
                entry["artillery_shells_against"] = self.artillery_shots[side.other]
            sides[side.value] = entry
        if s.ruleset == "tank-chess":
            _add_check_escape(s, sides)
        units = []
        for u, ur in self.unit_rows():
            units.append(
                {
                    "name": u.name,
                    "kind": u.kind,
                    "side": u.side.value,
                    "cell": b.cell_name(u.cell),
                    "facing": None if u.facing is None else u.facing.name,
                    "wreck": u.wreck,
                    "turns_to_goal": None if ur is None else ur.turns_to_goal,
                    "route": [
                        node if isinstance(node, str) else b.cell_name(node[0])
                        for node in (ur.route if ur is not None else ())
                    ],
                }
            )
        return {
            "ruleset": s.ruleset,
            "provisional": rs.provisional,
            "legal": is_legal(violations),
            "complete": is_complete(violations),
            "title": s.title,
            "board": {"columns": b.columns, "rows": b.rows},
            "contested": int(self.coverage.contested.sum()),
            "contested_cells": grid(self.coverage.contested.astype(np.int8), b),
            "sides": sides,
            "units": units,
        }


def _add_check_escape(scenario: Scenario, sides: dict[str, Any]) -> None:
    """Tank Chess ``check``/``escape`` per side (docs/rules.md §2.4) and the turns that do
    it, in notation; ``None`` for a position the engine cannot play (pieces overlapping)."""
    from tankmap.rules.tank_chess.announce import side_status
    from tankmap.rules.tank_chess.state import GameState, PositionError

    try:
        st = GameState(scenario)
    except PositionError:
        st = None
    for side in Side:
        entry = sides[side.value]
        if st is None:
            entry.update(check=None, escape=None, check_turns=[], escape_turns=[])
            continue
        status = side_status(st, side.index)
        entry.update(
            check=status.check,
            escape=status.escape,
            check_turns=list(status.notation[0]),
            escape_turns=list(status.notation[1]),
        )


def has_kill_stats(scenario: Scenario) -> bool:
    """Whether the ruleset's unit stats carry ``gun`` and ``armour`` (Tank Chess)."""
    rs = get_ruleset(scenario.ruleset)
    stats = [rs.unit_stats(k) for k in rs.unit_kinds]
    return bool(stats) and all("gun" in st and ("armour" in st or "armor" in st) for st in stats)


def has_artillery(scenario: Scenario) -> bool:
    """Whether the ruleset has artillery shells (Tank Wars)."""
    rs = get_ruleset(scenario.ruleset)
    return any(spec.name.endswith("_shells") for spec in rs.option_specs)


def analyse(
    scenario: Scenario, routes: bool = True, use_networkx: bool = False
) -> ScenarioAnalysis:
    """Analyse ``scenario`` (terrain-only movement; see the ``analysis`` modules). With
    ``routes`` each unit gets one shortest route to its goal; ``use_networkx`` computes reach
    on the networkx graphs instead of the (equal, faster) array BFS. Tank Chess reach and
    routes come from the rules' bitboard search (``reach.turn_search_reach``, no movement
    tables) unless ``use_networkx``."""
    if scenario.ruleset == "tank-chess" and not use_networkx:
        reach = turn_search_reach(scenario)  # the rules' bitboard search: no tables
        if not routes:
            reach = {
                side: replace(r, units=tuple(replace(u, route=()) for u in r.units))
                for side, r in reach.items()
            }
    else:
        reach = {
            side: side_reach(scenario, side, use_networkx=use_networkx, routes=routes)
            for side in Side
        }
    cov = summarize(scenario)
    lanes = {side: analyse_lanes(scenario, side, cov.per_side[side.other]) for side in Side}
    kill = None
    if has_kill_stats(scenario):
        kill = {side: kill_coverage(scenario, side) for side in Side}
    art = shots = None
    if has_artillery(scenario):
        art = {side: artillery_hit_map(scenario, side) for side in Side}
        shots = {side: artillery_shells(scenario, side) for side in Side}
    return ScenarioAnalysis(scenario, reach, cov, lanes, kill, art, shots)
