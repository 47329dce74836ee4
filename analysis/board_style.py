"""One look for every board picture: the editor's board (Qt, ``tankmap.editor.items``) and
the reports' and ``tankmap render``'s boards (matplotlib, ``tankmap.analysis.board_figure``)
both draw from these tables, so a board looks the same wherever it is shown.

Plain data and geometry only (no Qt, no matplotlib). Lengths are in cells (a cell is 1 × 1)
unless said otherwise; token geometry is in token radii. Points are ``(x, y)`` with y
pointing *up* (north), centred on the cell or token; a renderer whose y grows downwards
negates y.
"""

from __future__ import annotations

from dataclasses import dataclass

from tankmap.rules.errors import printable
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Unit

# --- sides -------------------------------------------------------------------------------
SIDE_COLOURS = {Side.SOUTH: "#1f5fbf", Side.NORTH: "#c0392b"}
# Tank Chess is played White against Black: white and black tokens, each with an outline
# that reads on light and dark terrain alike (fill, outline, text)
TANK_CHESS_LOOKS = {
    Side.SOUTH: ("#f7f6f2", "#1a1a1a", "#111111"),
    Side.NORTH: ("#1c1c1c", "#e6e6e6", "#ffffff"),
}


def side_look(ruleset: str, side: Side) -> tuple[str, str, str]:
    """How ``side``'s unit tokens are drawn in ``ruleset``: ``(fill, outline, text)``
    colours. Tank Chess: white and black; the other games blue (south) and red (north)."""
    if ruleset == "tank-chess":
        return TANK_CHESS_LOOKS[side]
    return SIDE_COLOURS[side], "#ffffff", "#ffffff"


def hollow_colour(ruleset: str, side: Side) -> str:
    """The outline of ``side``'s hollow unit marks over a heat map: the side's colour, but
    mid-grey for Tank Chess White, whose white fill would vanish on the light cells."""
    if ruleset == "tank-chess" and side is Side.SOUTH:
        return "#8c8c8c"
    return side_look(ruleset, side)[0]


# --- the board ---------------------------------------------------------------------------
BOARD_LIGHT = "#f4efe3"  # the checkered cells
BOARD_DARK = "#e8e0cc"
GRID = "#b9ad8f"
BORDER = "#5a4e36"  # the board's edge and the line between the halves
BORDER_WIDTH = 0.045
GRID_WIDTH = 0.02
ZONE_ALPHA = 0.14  # a setup zone: its side's colour over the cells
# Final Act range markers: bars beside the rows; rows r and r + 6 share a colour
RANGE_COLOURS = ("#e53935", "#fb8c00", "#fdd835", "#43a047", "#1e88e5", "#8e24aa")
RANGE_BAR = (0.06, 0.19, 0.125)  # gap from the board, bar width, bar inset from the row edge
COORDINATE_TEXT = "#4a4030"


def cell_colour(col: int, row: int) -> str:
    """The checkered background of cell (``col``, ``row``), both 0-based (a1 is dark)."""
    return BOARD_LIGHT if (col + row) % 2 else BOARD_DARK


# --- terrain -----------------------------------------------------------------------------
@dataclass(frozen=True)
class TerrainLook:
    """How a terrain kind is drawn: ``fill`` under ``hatch`` marks in ``hatch_colour``."""

    fill: str
    hatch: str  # a key of HATCHES
    hatch_colour: str
    label: str  # what the keys call it


TERRAIN = {
    "berm-large": TerrainLook("#a0793d", "diagonal", "#5c4420", "large berm"),
    "berm-small": TerrainLook("#c9a66b", "diagonal", "#7a5a2c", "small berm"),
    "swamp": TerrainLook("#5d7f4a", "dots", "#d9e8c9", "swamp"),
    "minefield": TerrainLook("#8c2d2d", "cross", "#ffe3e3", "minefield"),
    "obstacle": TerrainLook("#5b5048", "bricks", "#3a322c", "obstacle"),
    "crater": TerrainLook("#8d6e63", "disc", "#2c2017", "crater"),
    "support": TerrainLook("#e8c547", "plus", "#6b5200", "support token"),
}
DEFAULT_TERRAIN = TerrainLook("#777777", "none", "#444444", "terrain")
TERRAIN_EDGE = "#3d352b"  # a neutral piece's outline
TERRAIN_EDGE_WIDTH = 0.05
OWNER_EDGE_WIDTH = 0.1  # an owned piece's outline, in its owner's colour
HATCH_WIDTH = 0.035
LANE_FILL = "#f3d9a4"  # the minefield lane cell
LANE_INSET = 0.08
ARROW_COLOUR = "#6b1d1d"
ARROW_WIDTH = 0.065
ARROW_LENGTH = 0.34  # half the arrow's length


def terrain_look(kind: str) -> TerrainLook:
    """The look of terrain ``kind`` (a grey default for a kind the table does not know)."""
    return TERRAIN.get(kind, DEFAULT_TERRAIN)


Line = tuple[float, float, float, float]  # x1, y1, x2, y2
Dot = tuple[float, float, float]  # x, y, radius

# hatching inside one cell: lines and dots (filled in the hatch colour)
HATCHES: dict[str, tuple[tuple[Line, ...], tuple[Dot, ...]]] = {
    "none": ((), ()),
    "diagonal": (
        ((-0.5, 0.0, 0.0, 0.5), (-0.5, -0.5, 0.5, 0.5), (0.0, -0.5, 0.5, 0.0)),
        (),
    ),
    "dots": (
        (),
        tuple((x, y, 0.055) for x in (-0.25, 0.25) for y in (-0.25, 0.25)) + ((0, 0, 0.055),),
    ),
    "cross": (((-0.2, -0.2, 0.2, 0.2), (-0.2, 0.2, 0.2, -0.2)), ()),
    "bricks": (
        (
            (-0.5, 0.0, 0.5, 0.0),
            (0.0, 0.0, 0.0, 0.5),
            (-0.25, 0.0, -0.25, -0.5),
            (0.25, 0.0, 0.25, -0.5),
        ),
        (),
    ),
    "disc": ((), ((0.0, 0.0, 0.25),)),
    "plus": (((-0.22, 0.0, 0.22, 0.0), (0.0, -0.22, 0.0, 0.22)), ()),
}


def hatch_marks(kind: str) -> tuple[tuple[Line, ...], tuple[Dot, ...]]:
    """The hatch lines and dots of one cell of terrain ``kind`` (cell units, y up)."""
    return HATCHES[terrain_look(kind).hatch]


# --- unit tokens -------------------------------------------------------------------------
@dataclass(frozen=True)
class TokenLook:
    """A unit token's shape: ``circle``, ``rounded`` (rounded square), ``square``,
    ``triangle``, ``diamond`` or ``octagon``; ``cross`` adds a cross over the shape."""

    shape: str
    cross: bool = False
    name: str = ""  # how the key names the shape


TOKENS = {
    # Final Act
    "tank": TokenLook("rounded", name="rounded square"),
    "at": TokenLook("triangle", name="triangle"),
    "rm": TokenLook("circle", cross=True, name="circle with a cross"),
    # Tank Chess (and Tank Wars' heavy and medium tanks)
    "command": TokenLook("octagon", name="octagon"),
    "light": TokenLook("circle", name="circle"),
    "medium": TokenLook("rounded", name="rounded square"),
    "heavy": TokenLook("square", name="square"),
    "destroyer": TokenLook("triangle", name="triangle"),
    "mortar": TokenLook("diamond", name="diamond"),
    # Tank Wars
    "artillery": TokenLook("diamond", name="diamond"),
}
DEFAULT_TOKEN = TokenLook("circle", name="circle")
TOKEN_RADIUS = 0.36  # cells; a token alone in its cell
SHARED_RADIUS = 0.24  # cells; tokens sharing a cell sit in its quarters
SHARED_OFFSET = 0.2  # cells from the centre to a quarter's centre
TOKEN_OUTLINE_WIDTH = 0.045  # cells
ROUNDING = 0.35  # the rounded square's corner radius, in token radii
BARREL_LENGTH = 1.45  # from the token's centre, in token radii
BARREL_WIDTH = 0.36  # in token radii (outline colour; the inner line is BARREL_CORE wide)
BARREL_CORE = 0.2
TEXT_SIZE = (0.9, 0.7)  # text height in token radii: up to two letters, more letters
DAMAGE_COLOUR = "#ff9800"  # a damaged unit's dot at the token's upper right
DAMAGE_DOT = (0.7, 0.7, 0.3)  # x, y, radius in token radii
WRECK_FILL = "#7f7f7f"
WRECK_CROSS = "#222222"
WRECK_CROSS_WIDTH = 0.06  # cells
CROSS_WIDTH = 0.12  # a cross token's lines, in token radii


def token_look(kind: str) -> TokenLook:
    """The token shape of unit ``kind`` (a circle for a kind the table does not know)."""
    return TOKENS.get(kind, DEFAULT_TOKEN)


def token_polygon(shape: str) -> tuple[tuple[float, float], ...]:
    """The corners of a polygon token ``shape`` in token radii (y up); ``()`` for the
    circle and the rounded square, which renderers draw with their own primitives
    (a circle of radius 1; a 2 × 2 square with corners rounded by ``ROUNDING``)."""
    if shape == "square":
        return ((-0.92, -0.92), (0.92, -0.92), (0.92, 0.92), (-0.92, 0.92))
    if shape == "triangle":
        return ((0.0, 1.15), (-1.2, -0.85), (1.2, -0.85))
    if shape == "diamond":
        return ((0.0, 1.25), (1.25, 0.0), (0.0, -1.25), (-1.25, 0.0))
    if shape == "octagon":
        a, b = 1.05, 0.435
        return ((-b, a), (b, a), (a, b), (a, -b), (b, -a), (-b, -a), (-a, -b), (-a, b))
    return ()


def text_offset(shape: str) -> float:
    """How far below the centre a token's letters sit (token radii; the triangle's are
    lower, where it is wide)."""
    return 0.28 if shape == "triangle" else 0.0


def cross_lines(shape: str) -> tuple[Line, ...]:
    """A cross token's two lines (token radii)."""
    d = 0.7 if shape == "circle" else 0.8
    return ((-d, -d, d, d), (-d, d, d, -d))


def slot_offset(index: int, shared: int) -> tuple[float, float]:
    """Where the ``index``-th of ``shared`` units in one cell sits (cells from the centre,
    y up): the centre when alone, else the cell's quarters, upper left first."""
    if shared <= 1:
        return 0.0, 0.0
    col, row = index % 2, index // 2
    return -SHARED_OFFSET + 2 * SHARED_OFFSET * col, SHARED_OFFSET - 2 * SHARED_OFFSET * row


SHORT_KIND = {"tank": "T", "at": "AT", "rm": "RM", "heavy": "H", "medium": "M", "artillery": "A"}


def unit_code(ruleset: str, unit: Unit) -> str:
    """Short text drawn on a unit: its name (control characters shown escaped, as
    ``\\x1b``: they would make an SVG picture invalid XML), the Tank Chess code, or a
    kind initial."""
    if unit.name:
        return printable(unit.name, 60)
    code = get_ruleset(ruleset).unit_stats(unit.kind).get("code")
    if isinstance(code, str):
        return code
    return SHORT_KIND.get(unit.kind, unit.kind[:2].upper())


def token_text(ruleset: str, unit: Unit) -> str:
    """Everything written on a unit's token: its code, and Tank Wars armour points on a
    second line."""
    text = unit_code(ruleset, unit)
    if unit.armour is not None and ruleset == "tank-wars":
        text += f"\n{unit.armour}AP"
    return text


def token_colours(ruleset: str, unit: Unit) -> tuple[str, str, str]:
    """``(fill, outline, text)`` of ``unit``'s token: its side's look, grey for a wreck."""
    if unit.wreck:
        return WRECK_FILL, "#ffffff", "#ffffff"
    return side_look(ruleset, unit.side)


def kind_name(ruleset: str, kind: str) -> str:
    """What the keys call unit ``kind``: the ruleset's name or label for it, lower case
    unless it is an abbreviation."""
    stats = get_ruleset(ruleset).unit_stats(kind)
    for key in ("name", "label"):
        name = stats.get(key)
        if isinstance(name, str) and name:
            return name if name[:2].isupper() else name.lower()  # "AT", "R/M" stay
    return kind.replace("-", " ")
