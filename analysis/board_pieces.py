"""The matplotlib side of the shared board look (``tankmap.analysis.board_style``): the
checkered cells with setup zones and range bars, terrain with its hatching and owner
outline, and unit tokens (shape per kind, barrel toward the facing, code, damage dot,
wreck cross). ``tankmap.editor.items`` draws the same things with Qt from the same tables.

Line widths in the style are in cells; ``points_per_cell`` turns them into points for the
axes at hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.patches import Circle, FancyArrow, FancyBboxPatch, Patch, Polygon, Rectangle

from tankmap.analysis import board_style as st
from tankmap.rules.geometry import Facing
from tankmap.rules.scenario import Scenario, Terrain, Unit

XY = Callable[[int], tuple[float, float]]  # a cell's centre in drawing coordinates


class Sizer(Artist):
    """Keeps line widths and font sizes given in cells right for the axes as drawn.

    Widths in points depend on how large the axes end up after layout, which is known only
    while the figure is drawn; so this invisible artist, drawn first in its axes (lowest
    z-order), measures a cell in points and sets every tracked artist's width or size."""

    def __init__(self, ax: Axes) -> None:
        super().__init__()
        self.ax = ax
        self.tracked: list[tuple[Any, float, bool]] = []
        self.set_zorder(-1e9)
        self.set_in_layout(False)
        ax.add_artist(self)
        self.pt = self.points_per_cell()

    def points_per_cell(self) -> float:
        """How many points one cell spans in the axes now (equal aspect)."""
        fig = self.ax.get_figure()
        assert fig is not None
        box = self.ax.get_window_extent()
        (x0, x1), (y0, y1) = self.ax.get_xlim(), self.ax.get_ylim()
        pixels = min(box.width / abs(x1 - x0), box.height / abs(y1 - y0))
        return float(pixels * 72.0 / fig.dpi)

    def track(self, artist: Any, cells: float, font: bool = False) -> None:
        """Give ``artist`` a line width (or, ``font``, a font size) of ``cells`` cells."""
        self.tracked.append((artist, cells, font))
        self._apply(artist, cells, font)

    def _apply(self, artist: Any, cells: float, font: bool) -> None:
        if font:
            artist.set_fontsize(cells * self.pt)
        else:
            artist.set_linewidth(cells * self.pt)

    def draw(self, renderer: Any) -> None:
        self.pt = self.points_per_cell()
        for artist, cells, font in self.tracked:
            self._apply(artist, cells, font)
        self.stale = False


def draw_cells(
    ax: Axes,
    scenario: Scenario,
    xy: XY,
    colours: list[Any] | None,
    zones: dict[Any, frozenset[int]],
    sz: Sizer,
) -> None:
    """The board's cells: ``colours`` (one per cell: a heat map or a blank board) or the
    checkered background, each side's setup ``zones`` tinted in its colour, and the grid."""
    from matplotlib.collections import PatchCollection

    b = scenario.board
    squares = []
    fills: list[Any] = []
    for cell in range(b.size):
        x, y = xy(cell)
        squares.append(Rectangle((x - 0.5, y - 0.5), 1, 1))
        fills.append(
            colours[cell] if colours is not None else st.cell_colour(b.col_of(cell), b.row_of(cell))
        )
    grid = PatchCollection(squares, facecolors=fills, edgecolors=st.GRID)
    sz.track(ax.add_collection(grid), st.GRID_WIDTH)
    for side, cells in zones.items():
        tints = [Rectangle((xy(c)[0] - 0.5, xy(c)[1] - 0.5), 1, 1) for c in sorted(cells)]
        ax.add_collection(
            PatchCollection(
                tints,
                facecolors=st.SIDE_COLOURS[side],
                alpha=st.ZONE_ALPHA,
                edgecolors="none",
                zorder=1.1,
            )
        )


def draw_range_bars(ax: Axes, scenario: Scenario, row_y: Callable[[int], float]) -> None:
    """Final Act's range-marker bars beside both ends of every row."""
    gap, width, inset = st.RANGE_BAR
    right = scenario.board.columns - 0.5
    for row in range(scenario.board.rows):
        colour = st.RANGE_COLOURS[row % len(st.RANGE_COLOURS)]
        y = row_y(row)
        for x in (-0.5 - gap - width, right + gap):
            ax.add_patch(
                Rectangle((x, y - 0.5 + inset / 2), width, 1 - inset, fc=colour, ec="none")
            )


def draw_frame(ax: Axes, x0: float, y0: float, x1: float, y1: float, sz: Sizer) -> None:
    """The board's edge around the cells from (``x0``, ``y0``) to (``x1``, ``y1``)."""
    frame = ax.add_patch(
        Rectangle(
            (x0, y0),
            x1 - x0,
            y1 - y0,
            fill=False,
            ec=st.BORDER,
            zorder=1.5,
        )
    )
    sz.track(frame, st.BORDER_WIDTH)


def _outline(cells: Iterable[int], scenario: Scenario, xy: XY) -> list[list[tuple[float, float]]]:
    """The edges of a piece's cells that no other of its cells shares (its outline)."""
    b = scenario.board
    own = set(cells)
    edges = []
    for cell in own:
        x, y = xy(cell)
        col, row = b.col_of(cell), b.row_of(cell)
        for dc, dr, a, z in (
            (0, 1, (-0.5, 0.5), (0.5, 0.5)),
            (0, -1, (-0.5, -0.5), (0.5, -0.5)),
            (-1, 0, (-0.5, -0.5), (-0.5, 0.5)),
            (1, 0, (0.5, -0.5), (0.5, 0.5)),
        ):
            n = b.cell(col + dc, row + dr) if b.on_board(col + dc, row + dr) else None
            if n not in own:
                edges.append([(x + a[0], y + a[1]), (x + z[0], y + z[1])])
    return edges


def draw_terrain(
    ax: Axes, scenario: Scenario, piece: Terrain, xy: XY, sz: Sizer, faded: bool
) -> None:
    """One terrain piece: fill and hatching per cell, the lane and its arrow, the outline
    (in the owner's colour for an owned piece). ``faded``: under a heat map."""
    from matplotlib.collections import LineCollection, PatchCollection

    look = st.terrain_look(piece.kind)
    alpha = 0.55 if faded else 1.0
    lines, dots = st.hatch_marks(piece.kind)
    hatch_segments = []
    fills: list[Rectangle] = []
    marks: list[Circle] = []
    for cell in piece.cells:
        x, y = xy(cell)
        fills.append(Rectangle((x - 0.5, y - 0.5), 1, 1))
        if cell == piece.lane:
            i = st.LANE_INSET
            ax.add_patch(
                Rectangle(
                    (x - 0.5 + i, y - 0.5 + i),
                    1 - 2 * i,
                    1 - 2 * i,
                    fc=st.LANE_FILL,
                    ec="none",
                    zorder=2.2,
                )
            )
            if piece.arrow is not None:
                _arrow(ax, x, y, piece.arrow)
            continue
        hatch_segments.extend([[(x + a, y + b), (x + c, y + d)] for a, b, c, d in lines])
        marks.extend(Circle((x + dx, y + dy), r) for dx, dy, r in dots)
    ax.add_collection(
        PatchCollection(fills, facecolors=look.fill, edgecolors="none", alpha=alpha, zorder=2)
    )
    if marks:
        ax.add_collection(
            PatchCollection(
                marks, facecolors=look.hatch_colour, edgecolors="none", alpha=alpha, zorder=2.1
            )
        )
    if hatch_segments:
        hatching = ax.add_collection(
            LineCollection(
                hatch_segments,
                colors=look.hatch_colour,
                alpha=alpha,
                zorder=2.1,
                capstyle="butt",
            )
        )
        sz.track(hatching, st.HATCH_WIDTH)
    owned = piece.side is not None and not faded
    edge = st.SIDE_COLOURS[piece.side] if owned and piece.side is not None else st.TERRAIN_EDGE
    width = st.OWNER_EDGE_WIDTH if owned else st.TERRAIN_EDGE_WIDTH
    edges = ax.add_collection(
        LineCollection(
            _outline(piece.cells, scenario, xy),
            colors=edge,
            alpha=alpha,
            zorder=2.3,
            capstyle="projecting",
        )
    )
    sz.track(edges, width)


def _arrow(ax: Axes, x: float, y: float, f: Facing) -> None:
    n = (f.dx * f.dx + f.dy * f.dy) ** 0.5
    ux, uy = f.dx / n, f.dy / n
    length = st.ARROW_LENGTH
    ax.add_patch(
        FancyArrow(
            x - ux * length,
            y - uy * length,
            2 * ux * length,
            2 * uy * length,
            width=st.ARROW_WIDTH,
            head_width=length,
            head_length=length * 0.5,
            length_includes_head=True,
            color=st.ARROW_COLOUR,
            zorder=2.4,
        )
    )


def token_patch(shape: str, x: float, y: float, r: float, **style: Any) -> Patch:
    """A token of ``shape`` with radius ``r`` centred on (``x``, ``y``)."""
    if shape == "circle":
        return Circle((x, y), r, **style)
    corners = st.token_polygon(shape)
    if corners:
        return Polygon([(x + r * a, y + r * b) for a, b in corners], closed=True, **style)
    return FancyBboxPatch(
        (x - r, y - r),
        2 * r,
        2 * r,
        boxstyle=f"round,pad=0,rounding_size={st.ROUNDING * r}",
        **style,
    )


def draw_unit(
    ax: Axes,
    scenario: Scenario,
    unit: Unit,
    xy: XY,
    sz: Sizer,
    alpha: float = 1.0,
    hollow: bool = False,
    slot: tuple[int, int] = (0, 1),
) -> None:
    """One unit's token; ``slot`` = (its index, how many units share the cell); ``hollow``:
    only the outline in the side's colour (on a heat map, leaving the number readable)."""
    x, y = xy(unit.cell)
    index, shared = slot
    dx, dy = st.slot_offset(index, shared)
    x, y = x + dx, y + dy
    r = st.TOKEN_RADIUS if shared <= 1 else st.SHARED_RADIUS
    look = st.token_look(unit.kind)
    fill, outline, text_colour = st.token_colours(scenario.ruleset, unit)
    if hollow and not unit.wreck:
        fill = st.hollow_colour(scenario.ruleset, unit.side)
    if unit.facing is not None and not hollow:
        f = unit.facing
        n = (f.dx * f.dx + f.dy * f.dy) ** 0.5
        tip = (x + f.dx / n * r * st.BARREL_LENGTH, y + f.dy / n * r * st.BARREL_LENGTH)
        for colour, width in ((outline, st.BARREL_WIDTH), (fill, st.BARREL_CORE)):
            (barrel,) = ax.plot(
                [x, tip[0]],
                [y, tip[1]],
                color=colour,
                solid_capstyle="round",
                alpha=alpha,
                zorder=5,
            )
            sz.track(barrel, width * r)
    if hollow:
        token = ax.add_patch(
            token_patch(
                look.shape,
                x,
                y,
                r,
                fill=False,
                ec=fill,
                alpha=alpha,
                zorder=5,
            )
        )
        sz.track(token, 2 * st.TOKEN_OUTLINE_WIDTH)
    else:
        token = ax.add_patch(
            token_patch(
                look.shape,
                x,
                y,
                r,
                fc=fill,
                ec=outline,
                alpha=alpha,
                zorder=5.1,
            )
        )
        sz.track(token, st.TOKEN_OUTLINE_WIDTH)
    if look.cross:
        for a, b, c, d in st.cross_lines(look.shape):
            (line,) = ax.plot(
                [x + a * r, x + c * r],
                [y + b * r, y + d * r],
                color=fill if hollow else text_colour,
                alpha=0.55 * alpha,
                zorder=5.2,
            )
            sz.track(line, st.CROSS_WIDTH * r)
    if not hollow:
        text = st.token_text(scenario.ruleset, unit)
        first = text.split("\n")[0]
        size = st.TEXT_SIZE[0 if len(first) < 3 else 1] * r * (0.8 if "\n" in text else 1.0)
        label = ax.text(
            x,
            y - st.text_offset(look.shape) * r,
            text,
            ha="center",
            va="center",
            color=text_colour,
            zorder=5.3,
            fontweight="bold",
            alpha=alpha,
            linespacing=0.9,
        )
        sz.track(label, size, font=True)
        if unit.damage:
            a, b, rd = st.DAMAGE_DOT
            ax.add_patch(
                Circle((x + a * r, y + b * r), rd * r, fc=st.DAMAGE_COLOUR, ec="none", zorder=5.4)
            )
    if unit.wreck:
        for a, b, c, d in ((-1, -1, 1, 1), (-1, 1, 1, -1)):
            (line,) = ax.plot(
                [x + a * r, x + c * r],
                [y + b * r, y + d * r],
                color=st.WRECK_CROSS,
                zorder=5.5,
            )
            sz.track(line, st.WRECK_CROSS_WIDTH)


def token_marker(shape: str, cross: bool = False) -> Any:
    """A matplotlib marker of a token ``shape`` (for keys)."""
    import math

    if shape == "circle":
        return r"$\oplus$" if cross else "o"
    corners = st.token_polygon(shape)
    if corners:
        return list(corners)
    k = st.ROUNDING  # the rounded square: quarter circles at the corners
    points = []
    for cx, cy, start in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        for step in range(7):
            a = math.radians(start + 15 * step)
            points.append((cx * (1 - k) + k * math.cos(a), cy * (1 - k) + k * math.sin(a)))
    return points


class TerrainSwatch:
    """A key entry for terrain ``kind``: its fill and hatching (drawn by ``SwatchHandler``)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind


class SwatchHandler:
    """Draws a ``TerrainSwatch`` in a legend: the kind's fill, hatch marks and outline."""

    def legend_artist(self, legend: Any, orig_handle: Any, fontsize: float, handlebox: Any) -> Any:
        from matplotlib.collections import LineCollection

        look = st.terrain_look(orig_handle.kind)
        x0, y0 = -handlebox.xdescent, -handlebox.ydescent  # the handle box's lower left
        w, h = handlebox.width, handlebox.height
        t = handlebox.get_transform()
        box = Rectangle((x0, y0), w, h, fc=look.fill, ec=st.TERRAIN_EDGE, lw=0.6, transform=t)
        handlebox.add_artist(box)
        lines, dots = st.hatch_marks(orig_handle.kind)
        cx, cy = x0 + w / 2, y0 + h / 2  # the marks of one cell, stretched over the box
        segments = [[(cx + a * w, cy + b * h), (cx + c * w, cy + d * h)] for a, b, c, d in lines]
        if segments:
            handlebox.add_artist(
                LineCollection(segments, colors=look.hatch_colour, linewidths=1.0, transform=t)
            )
        for dx, dy, r in dots:
            handlebox.add_artist(
                Circle(
                    (cx + dx * w, cy + dy * h), r * h, fc=look.hatch_colour, ec="none", transform=t
                )
            )
        return box
