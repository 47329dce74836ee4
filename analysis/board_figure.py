"""Drawing a scenario's board with matplotlib: cells, terrain, units, optional per-cell values.

``draw_board(ax, scenario, values=...)`` draws into an existing ``Axes``; ``board_figure``
returns a new ``Figure`` (Agg-safe; never shows a window). Board coordinates: cell (col, row)
is the unit square centred on ``(col, row)`` (0-based), row 1 at the bottom, so south sits
at the bottom as in docs/rules.md §0. Tank Wars' two 6 × 6 boards are drawn apart with a gap.

Game-specific looks (Final Act range colours, Tank Chess piece codes, Tank Wars' two boards
and "provisional" label) come from the small style table below, not from rule code.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from matplotlib.axes import Axes
from matplotlib.collections import PatchCollection
from matplotlib.colors import Colormap, Normalize
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrow, Polygon, Rectangle

from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit

SIDE_COLOURS = {Side.SOUTH: "#1f5fbf", Side.NORTH: "#c0392b"}
# Tank Chess is played White against Black: white and black tokens, each with an outline
# that reads on light and dark terrain alike (fill, outline, text)
TANK_CHESS_LOOKS = {
    Side.SOUTH: ("#f7f6f2", "#1a1a1a", "#111111"),
    Side.NORTH: ("#1c1c1c", "#e6e6e6", "#ffffff"),
}


def side_look(ruleset: str, side: Side) -> tuple[str, str, str]:
    """How ``side``'s unit tokens are drawn in ``ruleset``, in the reports and the editor
    alike: ``(fill, outline, text)`` colours. Tank Chess: white and black; else blue/red."""
    if ruleset == "tank-chess":
        return TANK_CHESS_LOOKS[side]
    return SIDE_COLOURS[side], "#ffffff", "#ffffff"


SIDE_LIGHT = {Side.SOUTH: "#a9c4ee", Side.NORTH: "#f1b2aa"}
# Final Act range markers: rows r and r + 6 share a colour (docs/rules.md §1.1)
RANGE_COLOURS = ("#fde2e2", "#fdf0d5", "#fdfbd4", "#e3f6dc", "#dcefff", "#ece3fb")
TERRAIN_STYLE: dict[str, dict[str, Any]] = {
    "berm-large": {"fc": "#b08d57", "hatch": "///", "label": "berm"},
    "berm-small": {"fc": "#c9a66b", "hatch": "///", "label": "berm"},
    "swamp": {"fc": "#4f7f6f", "hatch": "...", "label": "swamp"},
    "minefield": {"fc": "#8c2d2d", "hatch": "xx", "label": "minefield"},
    "obstacle": {"fc": "#4a4a4a", "hatch": "", "label": "obstacle"},
    "crater": {"fc": "#6b5b4b", "hatch": "..", "label": "crater"},
    "support": {"fc": "#e8c547", "hatch": "++", "label": "support"},
}
DEFAULT_TERRAIN = {"fc": "#777777", "hatch": "", "label": "terrain"}
SHORT_KIND = {"tank": "T", "at": "AT", "rm": "RM", "heavy": "H", "medium": "M", "artillery": "A"}


def time_unit(scenario: Scenario) -> str:
    """What a step of movement time is called: ``"turns"`` in Tank Chess (alternating),
    ``"rounds"`` in the round-based games."""
    return "turns" if scenario.ruleset == "tank-chess" else "rounds"


def side_label(name: str, side: Side) -> str:
    """``"White (south)"``, or just ``"South"`` when the display name is the side's name."""
    return name if name.lower() == side.value else f"{name} ({side.value})"


def two_boards(scenario: Scenario) -> bool:
    """Tank Wars keeps one 6 × 6 board per side in a 6 × 12 grid."""
    return scenario.ruleset == "tank-wars"


def row_y(scenario: Scenario, row: int) -> float:
    """Drawing y of 0-based ``row`` (Tank Wars: north's board is shifted up by a gap)."""
    if two_boards(scenario) and row >= scenario.board.rows // 2:
        return row + 0.8
    return float(row)


def cell_xy(scenario: Scenario, cell: int) -> tuple[float, float]:
    """Centre of ``cell`` in drawing coordinates."""
    b = scenario.board
    return float(b.col_of(cell)), row_y(scenario, b.row_of(cell))


def unit_code(scenario: Scenario, unit: Unit) -> str:
    """Short text drawn on a unit: its name, the Tank Chess code, or a kind initial."""
    if unit.name:
        return unit.name
    code = get_ruleset(scenario.ruleset).unit_stats(unit.kind).get("code")
    if isinstance(code, str):
        return code
    return SHORT_KIND.get(unit.kind, unit.kind[:2].upper())


def draw_board(
    ax: Axes,
    scenario: Scenario,
    values: npt.NDArray[Any] | None = None,
    cmap: str | Colormap = "viridis",
    vmin: float | None = None,
    vmax: float | None = None,
    annotate: bool = True,
    fmt: str = "{:g}",
    units: bool = True,
    unit_alpha: float = 1.0,
    title: str | None = None,
    plain: bool = False,
) -> None:
    """Draw ``scenario`` into ``ax``: background (range colours or ``values`` as a heat map
    with optional numbers; NaN or negative = blank), terrain, units with facing arrows.

    ``values`` is a flat per-cell array (``a1 = 0``); ``plain`` draws a white background
    (no range colours or zone shading) for overlays. The axes get cell-name ticks.
    """
    b = scenario.board
    rs = get_ruleset(scenario.ruleset)
    norm = None
    colormap: Colormap | None = None
    if values is not None:
        import matplotlib

        colormap = matplotlib.colormaps[cmap] if isinstance(cmap, str) else cmap
        finite = values[np.isfinite(values) & (values >= 0)] if values.size else values
        lo = vmin if vmin is not None else (float(finite.min()) if finite.size else 0.0)
        hi = vmax if vmax is not None else (float(finite.max()) if finite.size else 1.0)
        norm = Normalize(lo, hi if hi > lo else lo + 1)
    setup = rs.setup_cells(scenario, Side.SOUTH) | rs.setup_cells(scenario, Side.NORTH)
    squares: list[Rectangle] = []
    colours: list[Any] = []
    for cell in range(b.size):
        x, y = cell_xy(scenario, cell)
        fc: Any = "#ffffff"
        if plain:
            pass
        elif scenario.ruleset == "final-act":
            fc = RANGE_COLOURS[b.row_of(cell) % 6]
        elif cell in setup:
            fc = "#f0f0f0"
        if values is not None and colormap is not None and norm is not None:
            v = float(values[cell])
            if np.isfinite(v) and v >= 0:
                fc = colormap(norm(v))
        squares.append(Rectangle((x - 0.5, y - 0.5), 1, 1))
        colours.append(fc)
    ax.add_collection(
        PatchCollection(squares, facecolors=colours, edgecolors="#bbbbbb", linewidths=0.5)
    )
    for piece in scenario.terrain:
        _draw_terrain(ax, scenario, piece, faded=values is not None)
    if values is not None and annotate and norm is not None and colormap is not None:
        for cell in range(b.size):
            v = float(values[cell])
            if np.isfinite(v) and v >= 0:
                x, y = cell_xy(scenario, cell)
                dark = sum(colormap(norm(v))[:3]) < 1.5
                ax.text(
                    x,
                    y,
                    fmt.format(v),
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if dark else "black",
                    zorder=3,
                )
    if units:
        # units sharing a cell (Final Act AT + tank, two ATs) are drawn side by side
        by_cell: dict[int, list[Unit]] = {}
        for u in scenario.units:
            by_cell.setdefault(u.cell, []).append(u)
        slots = {id(u): (i, len(us)) for us in by_cell.values() for i, u in enumerate(us)}
        for u in scenario.units:
            _draw_unit(
                ax, scenario, u, alpha=unit_alpha, small=values is not None, slot=slots[id(u)]
            )
    _frame(ax, scenario)
    for artist in [*ax.texts, *ax.patches]:
        artist.set_in_layout(False)  # constrained layout need not measure every cell
    heading = title if title is not None else (scenario.title or rs.title)
    if rs.provisional and "provisional" not in heading.lower():
        heading += " (provisional)"
    ax.set_title(heading, fontsize=10)


def _frame(ax: Axes, scenario: Scenario) -> None:
    b = scenario.board
    ax.set_xlim(-0.6, b.columns - 0.4)
    top = row_y(scenario, b.rows - 1)
    ax.set_ylim(-0.6, top + 0.6)
    ax.set_aspect("equal")
    ax.set_xticks(range(b.columns), [chr(97 + c) for c in range(b.columns)], fontsize=7)
    ax.set_yticks(
        [row_y(scenario, r) for r in range(b.rows)], [str(r + 1) for r in range(b.rows)], fontsize=7
    )
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    if two_boards(scenario):
        mid = (row_y(scenario, b.rows // 2 - 1) + row_y(scenario, b.rows // 2)) / 2
        ax.text(
            b.columns / 2 - 0.5,
            mid,
            "north's board ↑   ↓ south's board",
            ha="center",
            va="center",
            fontsize=7,
            color="#555555",
        )


def _draw_terrain(ax: Axes, scenario: Scenario, piece: Terrain, faded: bool) -> None:
    style = TERRAIN_STYLE.get(piece.kind, DEFAULT_TERRAIN)
    alpha = 0.55 if faded else 0.9
    for cell in piece.cells:
        x, y = cell_xy(scenario, cell)
        is_lane = piece.lane == cell
        fc = "#f3d9a4" if is_lane else style["fc"]
        ax.add_patch(
            Rectangle(
                (x - 0.5, y - 0.5),
                1,
                1,
                fc=fc,
                ec="#333333",
                lw=0.6,
                hatch="" if is_lane else style["hatch"],
                alpha=alpha,
                zorder=2,
            )
        )
        if is_lane and piece.arrow is not None:
            f = piece.arrow
            ax.add_patch(
                FancyArrow(
                    x - 0.3 * f.dx,
                    y - 0.3 * f.dy,
                    0.5 * f.dx,
                    0.5 * f.dy,
                    width=0.08,
                    head_width=0.3,
                    head_length=0.2,
                    length_includes_head=True,
                    color="#8c2d2d",
                    zorder=3,
                )
            )
    if piece.side is not None and len(piece.cells) > 0 and not faded:
        x, y = cell_xy(scenario, piece.cells[0])
        ax.add_patch(
            Rectangle(
                (x - 0.45, y + 0.3), 0.15, 0.15, fc=SIDE_COLOURS[piece.side], ec="none", zorder=3
            )
        )


def _draw_unit(
    ax: Axes,
    scenario: Scenario,
    unit: Unit,
    alpha: float,
    small: bool,
    slot: tuple[int, int] = (0, 1),
) -> None:
    """Draw one unit; ``slot`` = (its index, how many units share the cell)."""
    x, y = cell_xy(scenario, unit.cell)
    fill, outline, text_colour = side_look(scenario.ruleset, unit.side)
    colour = "#7f7f7f" if unit.wreck else fill
    if unit.wreck:
        outline, text_colour = "#ffffff", "#ffffff"
    r = 0.42 if small else 0.36
    index, shared = slot
    if shared > 1:  # side by side, smaller
        r = r / shared + 0.04
        x += (index - (shared - 1) / 2) * (0.9 / shared)
    if unit.facing is not None:
        f: Facing = unit.facing
        length = np.hypot(f.dx, f.dy)
        ux, uy = f.dx / length, f.dy / length
        px, py = -uy, ux
        edge = r * 0.57 if small else r * (1.0 if f.is_orthogonal else 1.3)
        tip = (x + ux * (edge + 0.16), y + uy * (edge + 0.16))
        base1 = (x + ux * (edge - 0.02) + px * 0.15, y + uy * (edge - 0.02) + py * 0.15)
        base2 = (x + ux * (edge - 0.02) - px * 0.15, y + uy * (edge - 0.02) - py * 0.15)
        ax.add_patch(
            Polygon(
                [tip, base1, base2],
                closed=True,
                fc=colour,
                ec=outline,
                lw=0.6,
                alpha=alpha,
                zorder=6,
            )
        )
    if small:  # on a heat map: a hollow marker that leaves the cell's number readable
        ax.add_patch(
            Rectangle(
                (x - r, y - r),
                2 * r,
                2 * r,
                fill=False,
                ec=colour,
                lw=2.0,
                zorder=5,
                alpha=alpha,
            )
        )
    else:
        ax.add_patch(
            Rectangle(
                (x - r, y - r), 2 * r, 2 * r, fc=colour, ec=outline, lw=1.0, alpha=alpha, zorder=5
            )
        )
        label = unit_code(scenario, unit)
        if unit.damage:
            label += "*"
        if unit.armour is not None and scenario.ruleset == "tank-wars":
            label += f"\n{unit.armour}AP"
        ax.text(
            x,
            y,
            label,
            ha="center",
            va="center",
            color=text_colour,
            zorder=6,
            fontsize=(7 if len(label) <= 3 else 5.5) * (0.8 if shared > 1 else 1.0),
            fontweight="bold",
            alpha=alpha,
        )
    if unit.wreck:
        ax.plot([x - r, x + r], [y - r, y + r], color="black", lw=1, zorder=6)
        ax.plot([x - r, x + r], [y + r, y - r], color="black", lw=1, zorder=6)


def figure_size(scenario: Scenario, panels: int = 1) -> tuple[float, float]:
    """A figure size (inches) giving about 0.42 in per cell."""
    b = scenario.board
    cell = 0.42 if max(b.columns, b.rows) <= 12 else 0.3
    height = b.rows * cell + (0.5 if two_boards(scenario) else 0) + 1.0
    return (b.columns * cell * panels + 0.8 * panels, height)


def board_figure(scenario: Scenario, title: str | None = None) -> Figure:
    """A new ``Figure`` with the board, its terrain and units, and a side legend."""
    fig = Figure(figsize=figure_size(scenario), layout="constrained")
    ax = fig.add_subplot()
    draw_board(ax, scenario, title=title)
    names = get_ruleset(scenario.ruleset).side_names()
    handles = [
        Rectangle(
            (0, 0), 1, 1, fc=side_look(scenario.ruleset, s)[0], ec=side_look(scenario.ruleset, s)[1]
        )
        for s in Side
    ]
    ax.legend(
        handles,
        [side_label(names[s], s) for s in Side],
        loc="upper center",
        bbox_to_anchor=(0.5, -0.04),
        ncol=2,
        fontsize=7,
        frameon=False,
    )
    return fig


def value_norm(values: npt.NDArray[Any]) -> Normalize:
    """A colour normalisation over the non-negative finite values."""
    finite = values[np.isfinite(values) & (values >= 0)]
    hi = float(finite.max()) if finite.size else 1.0
    return Normalize(0, hi if hi > 0 else 1)
