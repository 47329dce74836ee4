"""Report figures: each function returns a matplotlib ``Figure`` (never shows a window).

* ``reach_figure`` — per side, rounds/turns for any of its units to stand on each cell;
* ``coverage_figure`` — per side, how many of its units can fire at each cell;
* ``contested_figure`` — cells both sides cover, and each side's safe cells;
* ``lanes_figure`` — per side, the cell-disjoint lanes, the choke cells and the safest route;
* ``routes_figure`` — per side, each unit's shortest route to its goal;
* ``kill_figure`` (Tank Chess) — per side, on how many (kind, facing) combinations a piece
  standing on each cell could be destroyed by the enemy;
* ``artillery_figure`` (Tank Wars) — the chance each field is hit by enemy artillery.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from tankmap.analysis.board_figure import (
    SIDE_COLOURS,
    Key,
    add_key,
    add_scale,
    board_key,
    cell_xy,
    draw_board,
    figure_size,
    time_unit,
)
from tankmap.analysis.summary import ScenarioAnalysis
from tankmap.rules.geometry import Side
from tankmap.rules.sides import side_name
from tankmap.rules.steps import step_word

LANE_COLOURS = (
    "#e6194b",
    "#3cb44b",
    "#4363d8",
    "#f58231",
    "#911eb4",
    "#42d4f4",
    "#f032e6",
    "#9a6324",
    "#800000",
    "#469990",
    "#000075",
    "#808000",
)


def _pair(result: ScenarioAnalysis, extra: float = 0.8) -> tuple[Figure, dict[Side, Axes]]:
    """Two board panels (south, north) with ``extra`` inches under them for the key."""
    size = figure_size(result.scenario, panels=2, extra=extra)
    fig = Figure(figsize=size, layout="constrained")
    axes = fig.subplots(1, 2)
    return fig, {Side.SOUTH: axes[0], Side.NORTH: axes[1]}


def _keyed(key: Key, handles: Sequence[Any], labels: Sequence[str]) -> Key:
    """``key`` with the figure's own entries first."""
    return [*handles, *key[0]], [*labels, *key[1]]


def _side_title(result: ScenarioAnalysis, side: Side, what: str) -> str:
    return f"{what}: {side_name(result.ruleset, side)}"


def reach_figure(result: ScenarioAnalysis) -> Figure:
    """Reach heat maps (blank = unreachable), one panel per side."""
    fig, axes = _pair(result)
    for side, ax in axes.items():
        r = result.reach[side]
        values = r.cells.astype(float)
        values[values < 0] = np.nan
        goal = "no goal in reach" if r.turns_to_goal is None else f"goal in {r.turns_to_goal}"
        scale = draw_board(
            ax,
            result.scenario,
            values,
            cmap="YlGnBu_r",
            unit_alpha=0.55,
            title=_side_title(result, side, f"Reach ({goal})"),
        )
        add_scale(fig, scale, ax, f"{time_unit(result.scenario)} to stand there (blank: never)")
    fig.suptitle(
        f"{time_unit(result.scenario).capitalize()} to stand on each cell (terrain only)",
        fontsize=11,
    )
    add_key(fig, board_key(result.scenario, heat=True))
    return fig


def coverage_figure(result: ScenarioAnalysis) -> Figure:
    """Coverage heat maps (0 left blank), one panel per side, same colour scale."""
    fig, axes = _pair(result)
    top = max(1, int(max(result.coverage.per_side[s].max() for s in Side)))
    for side, ax in axes.items():
        values = result.coverage.per_side[side].astype(float)
        values[values == 0] = np.nan
        scale = draw_board(
            ax,
            result.scenario,
            values,
            cmap="OrRd",
            vmin=0,
            vmax=top,
            unit_alpha=0.55,
            title=_side_title(result, side, "Fire coverage"),
        )
        add_scale(fig, scale, ax, "units that can fire at the cell (blank: none)")
    fig.suptitle("How many units can fire at each cell now", fontsize=11)
    add_key(fig, board_key(result.scenario, heat=True))
    return fig


def contested_figure(result: ScenarioAnalysis) -> Figure:
    """Contested cells (purple) and each side's safe cells in its own half (side tint)."""
    s = result.scenario
    fig = Figure(figsize=figure_size(s, extra=1.1), layout="constrained")  # (room for the
    ax = fig.add_subplot()  # title over Tank Wars' two boards and their key)
    draw_board(ax, s, plain=True, title=f"Contested: {int(result.coverage.contested.sum())} cells")
    for cell in range(s.board.size):
        x, y = cell_xy(s, cell)
        colour = None
        if result.coverage.contested[cell]:
            colour = "#7d3c98"
        else:
            for side in Side:
                if result.coverage.safe[side][cell]:
                    colour = SIDE_COLOURS[side]
        if colour is not None:
            alpha = 0.6 if colour == "#7d3c98" else 0.22
            ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, fc=colour, alpha=alpha, zorder=2.5))
    handles = [Rectangle((0, 0), 1, 1, fc="#7d3c98", alpha=0.6)] + [
        Rectangle((0, 0), 1, 1, fc=SIDE_COLOURS[side], alpha=0.22) for side in Side
    ]
    labels = ["contested (both sides fire)"] + [
        f"safe for {side_name(result.ruleset, side)} ({int(result.coverage.safe[side].sum())})"
        for side in Side
    ]
    add_key(fig, _keyed(board_key(s, plain=True), handles, labels), ncol=3)
    return fig


def lanes_figure(result: ScenarioAnalysis) -> Figure:
    """Lanes (coloured lines), choke cells (thick black squares) and the safest route
    (dashed) per side."""
    fig, axes = _pair(result)
    s = result.scenario
    for side, ax in axes.items():
        la = result.lanes[side]
        if not la.applicable:
            title = "no unit wins by moving"
        else:
            title = f"{la.count} lanes, choke width {len(la.choke)}"
            if la.safest is not None:
                title += f", safest exposure {la.safest.exposure}"
        draw_board(ax, s, unit_alpha=0.35, title=_side_title(result, side, title))
        for i, lane in enumerate(la.lanes):
            xs, ys = zip(*(cell_xy(s, c) for c in lane.cells), strict=True)
            ax.plot(
                xs,
                ys,
                color=LANE_COLOURS[i % len(LANE_COLOURS)],
                lw=2.2,
                alpha=0.85,
                zorder=7,
                solid_capstyle="round",
            )
            ax.plot(xs[0], ys[0], "o", color=LANE_COLOURS[i % len(LANE_COLOURS)], ms=4, zorder=7)
        for c in la.choke:
            x, y = cell_xy(s, c)
            ax.add_patch(
                Rectangle(
                    (x - 0.46, y - 0.46), 0.92, 0.92, fill=False, ec="black", lw=2.4, zorder=8
                )
            )
        if la.safest is not None:
            xs, ys = zip(*(cell_xy(s, c) for c in la.safest.cells), strict=True)
            ax.plot(
                xs,
                ys,
                color="black",
                lw=1.4,
                ls="--",
                zorder=9,
            )
    fig.suptitle(
        "Cell-disjoint lanes to the goal, choke point (black squares), safest route", fontsize=11
    )
    own = [
        tuple(Line2D([], [], color=c, lw=2.2) for c in LANE_COLOURS[:4]),
        Line2D([], [], ls="", marker="o", ms=4, color=LANE_COLOURS[0]),
        Rectangle((0, 0), 1, 1, fill=False, ec="black", lw=2.4),
        Line2D([], [], color="black", lw=1.4, ls="--"),
    ]
    words = [
        "a lane (one colour each; no two share a cell)",
        "where a lane starts",
        "choke cell (the fewest cells that close every lane)",
        "safest route (exposure: enemy fire on the way)",
    ]
    add_key(fig, _keyed(board_key(s), own, words))
    return fig


def routes_figure(result: ScenarioAnalysis) -> Figure:
    """Each unit's shortest route to its goal (terrain only), one panel per side; an escape
    ends with an arrow off the board edge."""
    fig, axes = _pair(result)
    s = result.scenario
    for side, ax in axes.items():
        r = result.reach[side]
        goal = "none to a goal" if r.turns_to_goal is None else f"best {r.turns_to_goal}"
        draw_board(ax, s, unit_alpha=0.6, title=_side_title(result, side, f"Routes ({goal})"))
        drawn = 0
        for k, ur in enumerate(r.units):
            cells = [node[0] for node in ur.route if not isinstance(node, str)]
            if len(cells) < 2:
                continue
            colour = LANE_COLOURS[k % len(LANE_COLOURS)]
            xs, ys = zip(*(cell_xy(s, c) for c in cells), strict=True)
            ax.plot(xs, ys, color=colour, lw=1.8, alpha=0.85, zorder=7, marker="o", ms=2.5)
            if ur.route and ur.route[-1] == "escape":
                last = ur.route[-2]
                assert not isinstance(last, str)
                f = last[1]
                if f is not None:
                    ax.annotate(
                        "",
                        xy=(xs[-1] + 0.8 * f.dx, ys[-1] + 0.8 * f.dy),
                        xytext=(xs[-1], ys[-1]),
                        zorder=7,
                        arrowprops={"arrowstyle": "->", "color": colour, "lw": 1.8},
                    )
            drawn += 1
        if not drawn:
            ax.text(
                0.5,
                0.5,
                "no unit can win by moving",
                transform=ax.transAxes,
                ha="center",
                va="center",
                fontsize=9,
                color="#555555",
                bbox={"fc": "white", "ec": "#cccccc"},
            )
    fig.suptitle("One shortest route per unit to its goal (terrain only)", fontsize=11)
    step = step_word(s.ruleset)
    own = [
        tuple(Line2D([], [], color=c, lw=1.8) for c in LANE_COLOURS[:4]),
        Line2D([], [], ls="", marker="o", ms=3, color=LANE_COLOURS[0]),
    ]
    words = [
        "one unit's route (one colour each)",
        f"where it stands after each {step}",
    ]
    add_key(fig, _keyed(board_key(s), own, words))
    return fig


def kill_figure(result: ScenarioAnalysis) -> Figure | None:
    """Tank Chess: per cell, how many (kind, facing) pairs the enemy could destroy there."""
    if result.kill is None:
        return None
    fig, axes = _pair(result)
    total = {
        side: sum(arr.astype(int) for per in result.kill[side].values() for arr in per.values())
        for side in Side
    }
    top = max(1, max(int(np.max(t)) for t in total.values()))
    for side, ax in axes.items():
        values = np.asarray(total[side], dtype=float)
        values[values == 0] = np.nan
        scale = draw_board(
            ax,
            result.scenario,
            values,
            cmap="Reds",
            vmin=0,
            vmax=top,
            unit_alpha=0.5,
            title=_side_title(result, side, "Kill coverage on"),
        )
        add_scale(fig, scale, ax, "(kind, facing) pairs destroyable there (blank: none)")
    n = sum(len(per) for per in result.kill[Side.SOUTH].values())
    fig.suptitle(
        f"(kind, facing) pairs out of {n} the enemy could destroy on each cell", fontsize=11
    )
    add_key(fig, board_key(result.scenario, heat=True))
    return fig


def artillery_figure(result: ScenarioAnalysis) -> Figure | None:
    """Tank Wars: chance each field is hit by the enemy's artillery this round."""
    if result.artillery is None:
        return None
    s = result.scenario
    values = result.artillery[Side.SOUTH] + result.artillery[Side.NORTH]
    title = "Artillery hit probability this round"
    if float(np.ptp(values)) < 1e-12:  # the dice land on any field alike: say so once
        title += f": {float(values[0]):.3f} on every field"
    fig = Figure(figsize=figure_size(s, extra=1.0), layout="constrained")
    ax = fig.add_subplot()
    scale = draw_board(
        ax,
        s,
        values,
        cmap="Purples",
        vmin=0,
        vmax=max(0.2, float(values.max())),
        fmt="{:.3f}",
        unit_alpha=0.6,
        title=title,
    )
    add_scale(fig, scale, ax, "chance the field is hit by enemy artillery", whole=False)
    add_key(fig, board_key(s, heat=True), ncol=3)
    return fig
