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
from matplotlib.cm import ScalarMappable
from matplotlib.collections import PatchCollection
from matplotlib.colors import Colormap, Normalize
from matplotlib.figure import Figure
from matplotlib.legend_handler import HandlerTuple
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrow, Polygon, Rectangle
from matplotlib.ticker import MaxNLocator

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
# how the keys name terrain kinds (the editor palette's words)
TERRAIN_NAMES = {
    "berm-large": "large berm",
    "berm-small": "small berm",
    "swamp": "swamp",
    "minefield": "minefield",
    "obstacle": "obstacle",
    "crater": "crater",
    "support": "support token",
}
LANE_FILL = "#f3d9a4"
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
) -> ScalarMappable | None:
    """Draw ``scenario`` into ``ax``: background (range colours or ``values`` as a heat map
    with optional numbers; NaN or negative = blank), terrain, units with facing arrows.

    ``values`` is a flat per-cell array (``a1 = 0``); ``plain`` draws a white background
    (no range colours or zone shading) for overlays. The axes get cell-name ticks. Returns
    the colour scale of ``values`` (for ``add_scale``), or ``None`` without values.
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
    if norm is None or colormap is None:
        return None
    return ScalarMappable(norm, colormap)


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
        fc = LANE_FILL if is_lane else style["fc"]
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


def figure_size(scenario: Scenario, panels: int = 1, extra: float = 0.0) -> tuple[float, float]:
    """A figure size (inches) giving about 0.42 in per cell; ``extra`` inches more height
    (for a key and a colour scale under the boards)."""
    b = scenario.board
    cell = 0.42 if max(b.columns, b.rows) <= 12 else 0.3
    height = b.rows * cell + (0.5 if two_boards(scenario) else 0) + 1.0 + extra
    return (b.columns * cell * panels + 0.8 * panels, height)


# --- keys: what the colours, hatches and marks of a board drawing mean --------------------
Key = tuple[list[Any], list[str]]


def board_key(scenario: Scenario, *, heat: bool = False, plain: bool = False) -> Key:
    """Legend entries for what ``draw_board`` shows of ``scenario``: each side's unit
    tokens, the facing mark, wrecks and damage, the terrain kinds on the board (colour and
    hatching), minefield lanes, owner marks and the Final Act range-marker rows. ``heat``:
    the board was drawn under a heat map (hollow unit marks, faded terrain, no owner
    marks); ``plain``: without the background colours."""
    rs = get_ruleset(scenario.ruleset)
    names = rs.side_names()
    handles: list[Any] = []
    labels: list[str] = []
    sides = [s for s in Side if any(u.side is s and not u.wreck for u in scenario.units)]
    for side in sides:
        fill, outline, _ = side_look(scenario.ruleset, side)
        if heat:
            mark = Line2D([], [], ls="", marker="s", ms=8, mfc="none", mec=fill, mew=2.0)
        else:
            mark = Line2D([], [], ls="", marker="s", ms=9, mfc=fill, mec=outline, mew=1.0)
        handles.append(mark)
        labels.append(f"{side_label(names[side], side)} unit")
    if any(u.facing is not None for u in scenario.units):
        handles.append(Line2D([], [], ls="", marker="^", ms=6, color="#555555"))
        labels.append("triangle: where it faces")
    if any(u.wreck for u in scenario.units):
        handles.append(Line2D([], [], ls="", marker="X", ms=7, mfc="#7f7f7f", mec="black"))
        labels.append("wreck")
    if not heat and any(u.damage for u in scenario.units):
        handles.append(Line2D([], [], ls="", marker="$*$", ms=7, color="black"))
        labels.append("damaged")
    present = {t.kind for t in scenario.terrain}
    for kind in [*rs.terrain_kinds, *sorted(present - set(rs.terrain_kinds))]:
        if kind in present:
            style = TERRAIN_STYLE.get(kind, DEFAULT_TERRAIN)
            handles.append(
                Rectangle((0, 0), 1, 1, fc=style["fc"], ec="#333333", lw=0.6, hatch=style["hatch"])
            )
            labels.append(TERRAIN_NAMES.get(kind, kind))
    if any(t.lane is not None for t in scenario.terrain):
        handles.append(Rectangle((0, 0), 1, 1, fc=LANE_FILL, ec="#333333", lw=0.6))
        labels.append("minefield lane (arrow: the way across)")
    if not heat and any(t.side is not None for t in scenario.terrain):
        handles.append(
            tuple(Line2D([], [], ls="", marker="s", ms=4, color=SIDE_COLOURS[s]) for s in Side)
        )
        labels.append("corner mark: the terrain's owner")
    if not plain and scenario.ruleset == "final-act":
        handles.append(tuple(Rectangle((0, 0), 1, 1, fc=c, ec="#bbbbbb") for c in RANGE_COLOURS))
        labels.append("row colours: range markers (rows r and r + 6 alike)")
    elif not plain and any(rs.setup_cells(scenario, s) for s in Side):
        handles.append(Rectangle((0, 0), 1, 1, fc="#f0f0f0", ec="#bbbbbb"))
        labels.append("setup rows")
    return handles, labels


def add_key(fig: Figure, key: Key, ncol: int | None = None) -> None:
    """Put ``key`` under the figure's panels (a figure legend, outside the boards)."""
    handles, labels = key
    if not handles:
        return
    fig.legend(
        handles,
        labels,
        loc="outside lower center",
        ncol=ncol or min(len(handles), 4),
        fontsize=7,
        frameon=False,
        handler_map={tuple: HandlerTuple(ndivide=None, pad=0)},
        handlelength=2.2,
        columnspacing=1.2,
    )


def add_scale(
    fig: Figure,
    mappable: ScalarMappable | None,
    ax: Axes | list[Axes],
    label: str,
    whole: bool = True,
) -> None:
    """A horizontal colour scale under ``ax`` saying what the heat-map colours count
    (``whole``: counts, so whole-number ticks)."""
    if mappable is None:
        return
    bar = fig.colorbar(
        mappable, ax=ax, location="bottom", shrink=0.6, aspect=35, pad=0.01, fraction=0.04
    )
    bar.set_label(label, fontsize=8)
    bar.ax.tick_params(labelsize=7)
    if whole:
        bar.ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def board_figure(scenario: Scenario, title: str | None = None) -> Figure:
    """A new ``Figure`` with the board, its terrain and units, and a key under it."""
    fig = Figure(figsize=figure_size(scenario, extra=0.7), layout="constrained")
    ax = fig.add_subplot()
    draw_board(ax, scenario, title=title)
    add_key(fig, board_key(scenario), ncol=3)
    return fig


def value_norm(values: npt.NDArray[Any]) -> Normalize:
    """A colour normalisation over the non-negative finite values."""
    finite = values[np.isfinite(values) & (values >= 0)]
    hi = float(finite.max()) if finite.size else 1.0
    return Normalize(0, hi if hi > 0 else 1)
