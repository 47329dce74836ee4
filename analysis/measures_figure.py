"""The analysis report's chart of the static measures per side (``analysis.balance``): one
small panel per measure, each with its own linear axis from 0, the two sides' bars in their
board colours and named as the game names them (White and Black in Tank Chess).

These are counts on the board as it stands (terrain only), not win rates: the chart says so
in its title, and a measure missing for a side (no goal, no lane) is written as "none",
never drawn as a zero bar.
"""

from __future__ import annotations

import math

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from tankmap.analysis.board_figure import side_look
from tankmap.rules.geometry import Side
from tankmap.rules.sides import side_names

MEASURES = {
    "lanes": "lanes to the goal (cell-disjoint)",
    "choke_width": "choke width (cells closing every lane)",
    "contested_cells": "contested cells (both sides fire there)",
    "safe_cells": "safe cells in own half",
    "mean_exposure": "mean lane exposure to enemy fire",
    "safest_exposure": "safest route's exposure",
    "coverage_total": "fire coverage (sum over cells)",
    "reachable_cells": "reachable cells",
}
"""Each column of the balance table as the chart titles its panel (``turns_to_goal``: in
rounds or turns, by game)."""

TITLE = "Static measures per side — counts on the board as set up, not win rates"
COLUMNS_PER_ROW = 3


def measures_figure(table: pd.DataFrame, ruleset: str) -> Figure:
    """The per-side rows (``south``, ``north``) of ``table`` (``analysis.balance``) as one
    panel per measure that either side has; ``ruleset`` names the sides and colours the
    bars. Returns a matplotlib ``Figure`` (never shows a window)."""
    names = side_names(ruleset)
    sides = [s.value for s in Side]
    cols = [c for c in table.columns if table.loc[sides, c].notna().any()]
    rows = max(1, math.ceil(len(cols) / COLUMNS_PER_ROW))
    fig = Figure(figsize=(10, 0.4 + 1.55 * rows), layout="constrained")
    fig.suptitle(TITLE, fontsize=12)
    axes = fig.subplots(rows, COLUMNS_PER_ROW, squeeze=False).ravel()
    labels = [names[s] for s in Side]
    for ax, col in zip(axes, cols, strict=False):
        values: list[float] = table.loc[sides, col].astype(float).tolist()  # NaN: none
        top = max((v for v in values if not math.isnan(v)), default=0.0)
        span = top * 1.3 if top > 0 else 1.0
        for k, (side, value) in enumerate(zip(Side, values, strict=True)):
            fill, outline, _text = side_look(ruleset, side)
            if math.isnan(value):
                ax.text(0, k, " none", va="center", ha="left", fontsize=10, color="#555555")
                continue
            ax.barh(k, value, height=0.62, color=fill, edgecolor="#333333", linewidth=0.8)
            ax.text(value, k, f" {value:.3g}", va="center", ha="left", fontsize=10)
        ax.set_xlim(0, span)
        ax.set_ylim(1.6, -0.6)  # south on top, as in the table
        ax.set_yticks([0, 1], labels, fontsize=10)
        ax.tick_params(axis="x", labelsize=9)
        if col != "mean_exposure":  # counts: whole-number ticks
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title(_title(col, ruleset), fontsize=10, loc="left")
        ax.spines[["top", "right"]].set_visible(False)
    for ax in axes[len(cols) :]:
        ax.set_visible(False)
    return fig


def _title(column: str, ruleset: str) -> str:
    if column == "turns_to_goal":
        return f"{'turns' if ruleset == 'tank-chess' else 'rounds'} to the goal (fewer: sooner)"
    return MEASURES.get(column, column.replace("_", " "))
