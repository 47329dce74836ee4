"""Drawing a scenario's board with matplotlib: cells, terrain, units, optional per-cell values.

``draw_board(ax, scenario, values=...)`` draws into an existing ``Axes``; ``board_figure``
returns a new ``Figure`` (Agg-safe; never shows a window). Board coordinates: cell (col, row)
is the unit square centred on ``(col, row)`` (0-based), row 1 at the bottom, so south sits
at the bottom as in docs/rules.md §0. Tank Wars' two 6 × 6 boards are drawn apart with a gap.

Game-specific looks (Final Act range colours, Tank Chess piece codes, Tank Wars' two boards
and "provisional" label) come from the small style table below, not from rule code.
"""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np
import numpy.typing as npt
from matplotlib.axes import Axes
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Colormap, Normalize
from matplotlib.figure import Figure
from matplotlib.legend_handler import HandlerTuple
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.patheffects import withStroke
from matplotlib.ticker import MaxNLocator

from tankmap.analysis import board_style as st
from tankmap.analysis.board_pieces import (
    Sizer,
    SwatchHandler,
    TerrainSwatch,
    draw_cells,
    draw_frame,
    draw_range_bars,
    draw_terrain,
    draw_unit,
    token_marker,
)
from tankmap.analysis.board_style import COORDINATE_TEXT, RANGE_BAR
from tankmap.rules.errors import printable
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Unit
from tankmap.rules.steps import step_word

# the shared look (re-exported: figures and the editor name them from here)
SIDE_COLOURS = st.SIDE_COLOURS
side_look = st.side_look
RANGE_COLOURS = st.RANGE_COLOURS
LANE_FILL = st.LANE_FILL
TERRAIN_NAMES = {kind: look.label for kind, look in st.TERRAIN.items()}


def time_unit(scenario: Scenario) -> str:
    """What a step of movement time is called: ``"turns"`` in Tank Chess (alternating),
    ``"rounds"`` in the round-based games."""
    return step_word(scenario.ruleset) + "s"


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
    return st.unit_code(scenario.ruleset, unit)


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
    bars = not plain and scenario.ruleset == "final-act"
    _frame(ax, scenario, bars)
    pt = Sizer(ax)
    colours: list[Any] | None = None
    if plain or values is not None:
        colours = ["#ffffff"] * b.size
    if values is not None and colormap is not None and norm is not None:
        for cell in range(b.size):
            v = float(values[cell])
            if np.isfinite(v) and v >= 0:
                colours[cell] = colormap(norm(v))  # type: ignore[index]
    zones: dict[Any, frozenset[int]] = {}
    if colours is None:
        zones = {side: rs.setup_cells(scenario, side) for side in Side}
    xy = lambda cell: cell_xy(scenario, cell)  # noqa: E731
    draw_cells(ax, scenario, xy, colours, zones, pt)
    if bars:
        draw_range_bars(ax, scenario, lambda row: row_y(scenario, row))
    for x0, y0, x1, y1 in _boards(scenario):
        draw_frame(ax, x0, y0, x1, y1, pt)
    for piece in scenario.terrain:
        draw_terrain(ax, scenario, piece, xy, pt, faded=values is not None)
    if values is not None and annotate and norm is not None and colormap is not None:
        # a minefield's lane cell keeps its light fill and dark arrow over the heat colour
        lanes = {p.lane for p in scenario.terrain if p.lane is not None}
        for cell in range(b.size):
            v = float(values[cell])
            if np.isfinite(v) and v >= 0:
                x, y = cell_xy(scenario, cell)
                dark = cell not in lanes and sum(colormap(norm(v))[:3]) < 1.5
                ax.text(
                    x,
                    y,
                    fmt.format(v),
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if dark else "black",
                    zorder=3,
                    # a white halo keeps the number legible over a lane's arrow
                    path_effects=[withStroke(linewidth=2.5, foreground="white")]
                    if cell in lanes
                    else [],
                )
    if units:
        # units sharing a cell (Final Act AT + tank, two ATs) sit in the cell's quarters
        by_cell: dict[int, list[Unit]] = {}
        for u in scenario.units:
            by_cell.setdefault(u.cell, []).append(u)
        slots = {id(u): (i, len(us)) for us in by_cell.values() for i, u in enumerate(us)}
        for u in scenario.units:
            draw_unit(
                ax,
                scenario,
                u,
                xy,
                pt,
                alpha=unit_alpha,
                hollow=values is not None,
                slot=slots[id(u)],
            )
    for artist in [*ax.texts, *ax.patches]:
        artist.set_in_layout(False)  # constrained layout need not measure every cell
    # the file's title with control characters shown escaped (terminal codes, bidi
    # overrides: in an SVG they would make the file invalid XML)
    heading = title if title is not None else (printable(scenario.title, 300) or rs.title)
    if rs.provisional and "provisional" not in heading.lower():
        heading += " (provisional)"
    # a long title over a narrow board wraps instead of running off the figure
    ax.set_title(textwrap.fill(heading, max(24, int(b.columns * 5.5))), fontsize=10)
    if norm is None or colormap is None:
        return None
    return ScalarMappable(norm, colormap)


def _boards(scenario: Scenario) -> list[tuple[float, float, float, float]]:
    """The edge of each board drawn (Tank Wars: two), as (x0, y0, x1, y1)."""
    b = scenario.board
    right = b.columns - 0.5
    if two_boards(scenario):
        half = b.rows // 2
        return [
            (-0.5, -0.5, right, row_y(scenario, half - 1) + 0.5),
            (-0.5, row_y(scenario, half) - 0.5, right, row_y(scenario, b.rows - 1) + 0.5),
        ]
    edges = [(-0.5, -0.5, right, b.rows - 0.5)]
    if b.rows % 2 == 0:  # the line between the two halves
        edges.append((-0.5, -0.5, right, b.rows / 2 - 0.5))
    return edges


def _pad(bars: bool) -> float:
    gap, width, _ = RANGE_BAR
    return 0.5 + gap + width + 0.05 if bars else 0.6


def _frame(ax: Axes, scenario: Scenario, bars: bool) -> None:
    b = scenario.board
    pad = _pad(bars)
    ax.set_xlim(-pad, b.columns - 1 + pad)
    top = row_y(scenario, b.rows - 1)
    ax.set_ylim(-0.6, top + 0.6)
    ax.set_aspect("equal")
    ax.set_xticks(range(b.columns), [chr(97 + c) for c in range(b.columns)], fontsize=7)
    ax.set_yticks(
        [row_y(scenario, r) for r in range(b.rows)], [str(r + 1) for r in range(b.rows)], fontsize=7
    )
    ax.tick_params(length=0, colors=COORDINATE_TEXT)
    for spine in ax.spines.values():
        spine.set_visible(False)
    if two_boards(scenario):
        names = get_ruleset(scenario.ruleset).side_names()
        mid = (row_y(scenario, b.rows // 2 - 1) + row_y(scenario, b.rows // 2)) / 2
        ax.text(
            b.columns / 2 - 0.5,
            mid,
            f"{names[Side.NORTH]}'s board ↑   ↓ {names[Side.SOUTH]}'s board",
            ha="center",
            va="center",
            fontsize=7,
            color="#555555",
        )


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
    tokens, the token shape of each unit kind, the facing barrel, wrecks and damage, the
    terrain kinds on the board (colour and hatching), minefield lanes, owner outlines, the
    setup zones and the Final Act range-marker bars. ``heat``: the board was drawn under a
    heat map (hollow unit marks, faded terrain, no owner outlines); ``plain``: without the
    background colours."""
    rs = get_ruleset(scenario.ruleset)
    names = rs.side_names()
    handles: list[Any] = []
    labels: list[str] = []
    sides = [s for s in Side if any(u.side is s and not u.wreck for u in scenario.units)]
    for side in sides:
        fill, outline, _ = side_look(scenario.ruleset, side)
        if heat:
            edge = st.hollow_colour(scenario.ruleset, side)
            mark = Line2D([], [], ls="", marker="o", ms=8, mfc="none", mec=edge, mew=2.0)
        else:
            mark = Line2D([], [], ls="", marker="o", ms=9, mfc=fill, mec="#555555", mew=1.0)
        handles.append(mark)
        labels.append(f"{names[side]} unit")
    kinds = [k for k in rs.unit_kinds if any(u.kind == k for u in scenario.units)]
    kinds += sorted({u.kind for u in scenario.units} - set(kinds))
    for kind in kinds:
        look = st.token_look(kind)
        handles.append(
            Line2D(
                [],
                [],
                ls="",
                marker=token_marker(look.shape, look.cross),
                ms=9,
                mfc="#d0d0d0",
                mec="#333333",
                mew=1.0,
            )
        )
        labels.append(f"{look.name}: {st.kind_name(scenario.ruleset, kind)}")
    if any(u.facing is not None for u in scenario.units) and not heat:
        handles.append(Line2D([], [], lw=2.5, color="#555555", solid_capstyle="round"))
        labels.append("barrel: where it faces")
    if any(u.wreck for u in scenario.units):
        handles.append(Line2D([], [], ls="", marker="X", ms=7, mfc=st.WRECK_FILL, mec="black"))
        labels.append("wreck")
    if not heat and any(u.damage for u in scenario.units):
        handles.append(Line2D([], [], ls="", marker="o", ms=6, color=st.DAMAGE_COLOUR))
        labels.append("orange dot: damaged")
    present = {t.kind for t in scenario.terrain}
    for kind in [*rs.terrain_kinds, *sorted(present - set(rs.terrain_kinds))]:
        if kind in present:
            handles.append(TerrainSwatch(kind))
            labels.append(TERRAIN_NAMES.get(kind, kind))
    if any(t.lane is not None for t in scenario.terrain):
        handles.append(Rectangle((0, 0), 1, 1, fc=LANE_FILL, ec=st.TERRAIN_EDGE, lw=0.6))
        labels.append("minefield lane (arrow: the way across)")
    if not heat and any(t.side is not None for t in scenario.terrain):
        handles.append(
            tuple(Rectangle((0, 0), 1, 1, fc="none", ec=SIDE_COLOURS[s], lw=2.0) for s in Side)
        )
        labels.append("outline colour: the terrain's owner")
    if not plain and not heat and any(rs.setup_cells(scenario, s) for s in Side):
        handles.append(
            tuple(
                Rectangle((0, 0), 1, 1, fc=SIDE_COLOURS[s], alpha=st.ZONE_ALPHA * 2, ec="none")
                for s in Side
            )
        )
        labels.append("tinted: setup zones")
    if not plain and scenario.ruleset == "final-act":
        handles.append(tuple(Rectangle((0, 0), 1, 1, fc=c, ec="none") for c in RANGE_COLOURS))
        labels.append("side bars: range markers (rows r and r + 6 alike)")
    return handles, labels


KEY_FONT = 7.0  # points


def key_columns(labels: list[str], width: float, most: int) -> int:
    """How many columns (at most ``most``) a key of ``labels`` may have and still fit in
    ``width`` inches: estimated from the longest label of each column (7 pt text, about
    half an em per character) plus the mark and the spacing."""
    em = KEY_FONT / 72
    for ncol in range(max(1, most), 1, -1):
        rows = -(-len(labels) // ncol)
        columns = [labels[k * rows : (k + 1) * rows] for k in range(ncol)]
        need = sum((2.2 + 0.8 + 1.2) * em + 0.52 * em * max(map(len, c)) for c in columns if c)
        if need <= width:
            return ncol
    return 1


def add_key(fig: Figure, key: Key, ncol: int | None = None) -> None:
    """Put ``key`` under the figure's panels (a figure legend, outside the boards), in as
    many columns as fit the figure's width (``ncol`` or 4 at most)."""
    handles, labels = key
    if not handles:
        return
    width = float(fig.get_size_inches()[0])
    fig.legend(
        handles,
        labels,
        loc="outside lower center",
        ncol=key_columns(labels, width, ncol or min(len(handles), 4)),
        fontsize=KEY_FONT,
        frameon=False,
        handler_map={tuple: HandlerTuple(ndivide=None, pad=0), TerrainSwatch: SwatchHandler()},
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
    key = board_key(scenario)
    width = figure_size(scenario)[0]
    rows = -(-len(key[1]) // key_columns(key[1], width, 3))
    fig = Figure(figsize=figure_size(scenario, extra=0.2 + 0.15 * rows), layout="constrained")
    ax = fig.add_subplot()
    draw_board(ax, scenario, title=title)
    add_key(fig, key, ncol=3)
    return fig


def value_norm(values: npt.NDArray[Any]) -> Normalize:
    """A colour normalisation over the non-negative finite values."""
    finite = values[np.isfinite(values) & (values >= 0)]
    hi = float(finite.max()) if finite.size else 1.0
    return Normalize(0, hi if hi > 0 else 1)
