"""Balance summary: one pandas DataFrame, one row per side plus the difference row, so an
asymmetric board stands out.

Columns: ``turns_to_goal``, ``lanes``, ``choke_width``, ``contested_cells``, ``safe_cells``,
``mean_exposure`` (mean enemy coverage summed along the side's lanes), ``safest_exposure``,
``coverage_total`` (sum of the side's coverage map), ``reachable_cells``. The index is
``south``, ``north`` and ``south - north``; a missing value (no goal, no lane) is NaN.
"""

from __future__ import annotations

import math

import pandas as pd

from tankmap.analysis.summary import ScenarioAnalysis
from tankmap.rules.geometry import Side

COLUMNS = (
    "turns_to_goal",
    "lanes",
    "choke_width",
    "contested_cells",
    "safe_cells",
    "mean_exposure",
    "safest_exposure",
    "coverage_total",
    "reachable_cells",
)
DIFF = "south - north"


def _num(v: float | int | None) -> float:
    return math.nan if v is None else float(v)


def balance_table(result: ScenarioAnalysis) -> pd.DataFrame:
    """The balance DataFrame of one analysed scenario (see module doc)."""
    rows: dict[str, dict[str, float]] = {}
    for side in Side:
        la = result.lanes[side]
        rows[side.value] = {
            "turns_to_goal": _num(result.reach[side].turns_to_goal),
            "lanes": _num(la.count if la.applicable else None),
            "choke_width": _num(len(la.choke) if la.applicable else None),
            "contested_cells": float(result.coverage.contested.sum()),
            "safe_cells": float(result.coverage.safe[side].sum()),
            "mean_exposure": _num(la.mean_exposure),
            "safest_exposure": _num(None if la.safest is None else la.safest.exposure),
            "coverage_total": float(result.coverage.per_side[side].sum()),
            "reachable_cells": float((result.reach[side].cells >= 0).sum()),
        }
    df = pd.DataFrame.from_dict(rows, orient="index", columns=list(COLUMNS))
    df.loc[DIFF] = df.loc["south"] - df.loc["north"]
    df.index.name = "side"
    return df
