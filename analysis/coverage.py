"""Fire coverage: how many units of each side can fire at each cell now, contested and safe
cells, Tank Chess kill coverage and Tank Wars artillery hit probabilities.

Everything comes from the ruleset's own ``fire_zone`` (the same cells ``tankmap moves``
prints), ``unit_stats`` and options; no game rule is repeated here.

Arrays are flat over cells (``a1 = 0``, row-major); ``grid(array, board)`` reshapes to the
JSON 2-D map (``[0]`` = row 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Unit

IntArray = npt.NDArray[np.int32]
BoolArray = npt.NDArray[np.bool_]


def unit_zone(scenario: Scenario, unit: Unit) -> list[int]:
    """The unit's current fire zone (empty for wrecks)."""
    if unit.wreck:
        return []
    return get_ruleset(scenario.ruleset).fire_zone(scenario, unit)


def side_coverage(scenario: Scenario, side: Side) -> IntArray:
    """``out[c]`` = how many live units of ``side`` have cell ``c`` in their fire zone."""
    out = np.zeros(scenario.board.size, dtype=np.int32)
    for u in scenario.units_of(side):
        zone = unit_zone(scenario, u)
        if zone:
            out[np.asarray(zone, dtype=np.int64)] += 1
    return out


def coverage(scenario: Scenario) -> dict[Side, IntArray]:
    """``side_coverage`` for both sides."""
    return {side: side_coverage(scenario, side) for side in Side}


def half_mask(board: Board, side: Side) -> BoolArray:
    """Cells of ``side``'s half of the board (own rows 1 .. rows // 2)."""
    own = np.asarray([board.own_row(c, side.index) for c in range(board.size)])
    return own <= board.rows // 2


@dataclass(frozen=True)
class CoverageSummary:
    """Coverage per side, contested cells (covered by both sides) and each side's safe cells
    (cells of its own half that no enemy unit covers)."""

    per_side: dict[Side, IntArray]
    contested: BoolArray
    safe: dict[Side, BoolArray]

    def to_json_counts(self) -> dict[str, Any]:
        return {
            "contested": int(self.contested.sum()),
            "safe": {s.value: int(self.safe[s].sum()) for s in Side},
        }


def summarize(scenario: Scenario, per_side: dict[Side, IntArray] | None = None) -> CoverageSummary:
    """Coverage, contested and safe cells of ``scenario``."""
    if per_side is None:
        per_side = coverage(scenario)
    contested = (per_side[Side.SOUTH] > 0) & (per_side[Side.NORTH] > 0)
    safe = {s: half_mask(scenario.board, s) & (per_side[s.other] == 0) for s in Side}
    return CoverageSummary(per_side=per_side, contested=contested, safe=safe)


def grid(values: npt.NDArray[Any], board: Board) -> list[list[Any]]:
    """A flat per-cell array as the JSON 2-D map (``[0]`` = row 1, ``[r][c]``)."""
    return [[v.item() for v in row] for row in values.reshape(board.rows, board.columns)]


# --- Tank Chess: kill coverage ------------------------------------------------------------
def armour_facing(target_facing: Facing, shooter_dir: Facing) -> str:
    """Which armour a shot from direction ``shooter_dir`` (target → shooter) meets (docs/rules.md
    §2.3): ``front`` if it equals the target's facing, ``rear`` if opposite, else ``side``."""
    if shooter_dir is target_facing:
        return "front"
    if shooter_dir is target_facing.opposite:
        return "rear"
    return "side"


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def _stat(stats: dict[str, Any], *names: str) -> Any:
    for n in names:
        if n in stats:
            return stats[n]
    raise KeyError(f"unit stats {sorted(stats)} have none of {names}")


def _armour(stats: dict[str, Any]) -> dict[str, int]:
    arm = _stat(stats, "armour", "armor")
    if isinstance(arm, dict):
        return {k: int(arm[k]) for k in ("front", "side", "rear")}
    front, side, rear = arm  # a (front, side, rear) sequence
    return {"front": int(front), "side": int(side), "rear": int(rear)}


def kill_coverage(scenario: Scenario, target_side: Side) -> dict[str, dict[Facing, BoolArray]]:
    """Tank Chess: ``out[kind][facing][c]`` is True when some live enemy piece (of
    ``target_side.other``) could destroy a ``target_side`` piece of ``kind`` standing on ``c``
    with ``facing``: ``c`` is in the shooter's fire zone and the shooter's gun exceeds the armour
    facing it (the direction from target to shooter decides front/side/rear, docs/rules.md §2.3).

    Uses the ruleset's ``fire_zone`` and ``unit_stats`` (keys ``gun`` and ``armour`` as a
    front/side/rear mapping or triple). Raises ``KeyError`` if the stats lack them.
    """
    rs = get_ruleset(scenario.ruleset)
    b = scenario.board
    kinds = list(rs.unit_kinds)
    armour = {k: _armour(rs.unit_stats(k)) for k in kinds}
    out = {k: {f: np.zeros(b.size, dtype=bool) for f in Facing} for k in kinds}
    for shooter in scenario.units_of(target_side.other):
        if shooter.wreck:
            continue
        gun = int(_stat(rs.unit_stats(shooter.kind), "gun"))
        scol, srow = b.col_of(shooter.cell), b.row_of(shooter.cell)
        for c in unit_zone(scenario, shooter):
            d = Facing.from_delta(_sign(scol - b.col_of(c)), _sign(srow - b.row_of(c)))
            for k in kinds:
                for f in Facing:
                    if gun > armour[k][armour_facing(f, d)]:
                        out[k][f][c] = True
    return out


def kill_json(kill: dict[str, dict[Facing, BoolArray]], board: Board) -> dict[str, Any]:
    """JSON form: ``{kind: {"cells": n, "by_facing": {"N": ["h5", ...], ...}}}`` — for each
    target kind and facing the cells where such a piece could be destroyed, and ``cells`` =
    how many cells are deadly for that kind in at least one facing."""
    return {
        k: {
            "cells": int(np.logical_or.reduce(list(per.values())).sum()),
            "by_facing": {
                f.name: [board.cell_name(int(c)) for c in np.flatnonzero(arr)]
                for f, arr in per.items()
            },
        }
        for k, per in kill.items()
    }


# --- Tank Wars: artillery -----------------------------------------------------------------
def hit_probability(shells: int, fields: int = 36) -> float:
    """Chance that one given field is hit at least once by ``shells`` uniform shots over
    ``fields`` fields: ``1 - ((fields - 1) / fields) ** shells`` (``1 - (35/36)^k``)."""
    if shells <= 0:
        return 0.0
    return 1.0 - ((fields - 1) / fields) ** shells


def artillery_shells(scenario: Scenario, side: Side) -> int:
    """Shells ``side`` fires this round (docs/rules.md §3): the sum over its live vehicles of the
    ruleset option ``<kind>_shells`` (else ``unit_stats(kind)["shells"]``, else 0); a side
    with live vehicles but no shells gets ``long_range_shots`` (default 1)."""
    rs = get_ruleset(scenario.ruleset)
    opts = rs.options(scenario)
    live = [u for u in scenario.units_of(side) if not u.wreck]
    total = 0
    for u in live:
        per = opts.get(f"{u.kind}_shells", rs.unit_stats(u.kind).get("shells", 0))
        total += int(per)
    if total == 0 and live:
        total = int(opts.get("long_range_shots", 1))
    return total


def artillery_hit_map(scenario: Scenario, target_side: Side) -> npt.NDArray[np.float64]:
    """Tank Wars: per cell, the chance it is hit by ``target_side.other``'s artillery this
    round — ``hit_probability(shells)`` on every field of ``target_side``'s own 6 × 6 board
    (its own rows 1..rows/2), 0 elsewhere."""
    b = scenario.board
    half = half_mask(b, target_side)
    p = hit_probability(artillery_shells(scenario, target_side.other), int(half.sum()))
    out = np.zeros(b.size, dtype=np.float64)
    out[half] = p
    return out
