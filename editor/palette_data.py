"""What the palette offers per ruleset: piece footprints, names, counts and colours.

This is the only game-specific table in the editor (architecture.md §5): it says how a piece *looks*
and how many a side has, never whether a placement is legal (that is always
``ruleset.check``). Counts and footprints are read from ``resources/rulesets/<name>.json``
when the ruleset ships them there (see ``limit`` and ``shapes_for``); the table below is
the fallback and matches docs/rules.md. A ruleset the table does not know gets one single-cell
entry per terrain and unit kind, so the editor works for any registered ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from tankmap.analysis import board_style as st
from tankmap.rules.errors import TankmapError
from tankmap.rules.ruleset import Ruleset, load_ruleset_data
from tankmap.rules.scenario import Scenario

Offsets = tuple[tuple[int, int], ...]

SINGLE: Offsets = ((0, 0),)


@dataclass(frozen=True)
class Shape:
    """One footprint a terrain entry can take (``name`` goes to ``Terrain.shape`` if set)."""

    label: str
    offsets: Offsets
    name: str | None = None
    lane: int | None = None  # index into offsets of the minefield lane cell


@dataclass(frozen=True)
class Entry:
    """One palette button: a terrain kind (with its shapes) or a unit kind."""

    kind: str
    label: str
    is_unit: bool
    shapes: tuple[Shape, ...] = (Shape("cell", SINGLE),)
    names: tuple[str, ...] = ()  # unit names handed out in order (Final Act tanks)
    owned: bool = True  # terrain with an owner side (Final Act) or neutral (Tank Chess)
    arrow: bool = False  # minefield: has an arrow (default: the owner's forward)
    colour: str = "#888888"  # terrain: set from the board look (analysis.board_style)


@dataclass(frozen=True)
class Palette:
    """Everything the editor draws per ruleset besides the rules themselves."""

    entries: tuple[Entry, ...]
    facings: int = 4  # 8 = diagonal facings allowed, 4 = orthogonal, 0 = units have none
    range_colours: tuple[str, ...] = ()  # Final Act: rows r and r+6 share a colour
    limits: Mapping[str, Any] = field(default_factory=dict)

    def entry(self, kind: str) -> Entry:
        for e in self.entries:
            if e.kind == kind:
                return e
        raise KeyError(kind)


_LINE3: Offsets = ((-1, 0), (0, 0), (1, 0))
_FINAL_ACT = Palette(
    entries=(
        Entry("tank", "Tank", True, names=("C", "1", "1A", "1B", "2", "2A", "2B")),
        Entry("at", "AT infantry", True),
        Entry("rm", "R/M", True),
        Entry("berm-large", "Large berm", False, (Shape("1×3", _LINE3),)),
        Entry("berm-small", "Small berm", False, (Shape("1×2", ((0, 0), (1, 0))),)),
        Entry(
            "swamp",
            "Swamp",
            False,
            (Shape("2×2", ((0, 0), (1, 0), (0, 1), (1, 1))),),
        ),
        Entry(
            "minefield",
            "Minefield",
            False,
            (Shape("1×3", _LINE3, lane=1),),
            arrow=True,
        ),
    ),
    facings=4,
    range_colours=st.RANGE_COLOURS,
    limits={
        "tank": 7,
        "berm-large": 1,
        "berm-small": 2,
        "swamp": 1,
        "minefield": 1,
        "at": ("extra_forces", 2),
        "rm": ("extra_forces", 1),
    },
)

_TC_SHAPES = (
    Shape("single cell", SINGLE),
    Shape("monomino", SINGLE, "monomino"),
    Shape("domino", ((0, 0), (1, 0)), "domino"),
    Shape("I-tromino", _LINE3, "I-tromino"),
    Shape("L-tromino", ((0, 0), (1, 0), (0, 1)), "L-tromino"),
    Shape("N-pentomino", ((-2, 0), (-1, 0), (0, 0), (0, 1), (1, 1)), "N-pentomino"),
    Shape("P-pentomino", ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2)), "P-pentomino"),
    Shape("7-cell", ((-2, 0), (-1, 0), (0, 0), (1, 0), (2, 0), (0, -1), (1, -1)), "heptomino"),
)
_TANK_CHESS = Palette(
    entries=(
        Entry("command", "Command tank", True),
        Entry("light", "Light tank", True),
        Entry("medium", "Medium tank", True),
        Entry("heavy", "Heavy tank", True),
        Entry("destroyer", "Tank destroyer", True),
        Entry("mortar", "Heavy mortar", True),
        Entry("obstacle", "Obstacle", False, _TC_SHAPES, owned=False),
    ),
    facings=8,
    limits={
        "command": 1,
        "light": 4,
        "medium": 3,
        "heavy": 2,
        "destroyer": ("board20", 2),
        "mortar": ("board20", 2),
    },
)
_TANK_WARS = Palette(
    entries=(
        Entry("heavy", "Heavy tank", True),
        Entry("medium", "Medium tank", True),
        Entry("artillery", "Artillery", True),
        Entry("crater", "Crater", False, owned=False),
        Entry("support", "Support token", False, owned=False),
    ),
    facings=0,
    limits={"heavy": 1, "medium": 1, "artillery": 1},
)
_TABLE = {"final-act": _FINAL_ACT, "tank-chess": _TANK_CHESS, "tank-wars": _TANK_WARS}


def piece_label(palette: Palette, piece: object) -> str:
    """How the editor names a piece: the palette label plus a unit's name (``Tank C``,
    ``Large berm``, ``Heavy tank``); the raw kind if the palette does not know it."""
    kind = str(getattr(piece, "kind", "?"))
    try:
        label = palette.entry(kind).label
    except KeyError:
        label = kind
    name = getattr(piece, "name", None)
    return f"{label} {name}" if name else label


def palette_for(ruleset: Ruleset) -> Palette:
    """The palette of ``ruleset``: the table entry restricted to the ruleset's kinds (in the
    ruleset's order), plus a single-cell entry for any kind the table does not know."""
    base = _TABLE.get(ruleset.name)
    known = {e.kind: e for e in base.entries} if base else {}
    entries: list[Entry] = []
    for kind in ruleset.unit_kinds:
        entries.append(known.get(kind) or Entry(kind, kind.replace("-", " ").title(), True))
    for kind in ruleset.terrain_kinds:
        entries.append(known.get(kind) or Entry(kind, kind.replace("-", " ").title(), False))
    # terrain buttons show the board's colours (analysis.board_style)
    entries = [e if e.is_unit else replace(e, colour=st.terrain_look(e.kind).fill) for e in entries]
    data = _data(ruleset.name)
    names = data.get("tank_names")
    if isinstance(names, list) and all(isinstance(n, str) for n in names):
        entries = [replace(e, names=tuple(names)) if e.kind == "tank" else e for e in entries]
    if base is None:
        return Palette(tuple(entries))
    return Palette(tuple(entries), base.facings, base.range_colours, base.limits)


@cache
def _data(ruleset_name: str) -> dict[str, Any]:
    """The ruleset's data file (read once per process; ``{}`` if it has none)."""
    try:
        return load_ruleset_data(ruleset_name)
    except (OSError, ValueError, TankmapError):
        return {}


def shapes_for(
    palette: Palette, kind: str, ruleset: Ruleset, scenario: Scenario
) -> tuple[Shape, ...]:
    """The footprints the place tool offers for terrain ``kind`` now: the ruleset data's
    (Final Act ``swamp_shape`` option) where it has them, else the palette table's."""
    entry = palette.entry(kind)
    data = _data(ruleset.name)
    info = data.get("terrain", {}).get(kind) if isinstance(data.get("terrain"), dict) else None
    if isinstance(info, dict) and isinstance(data.get("shapes"), dict):
        name = info.get("shape")
        option = info.get("shape_option")
        if option:
            name = scenario.option(option, None) or ruleset.options(scenario).get(option, name)
        cells = data["shapes"].get(name)
        if isinstance(cells, list) and cells:
            offsets = _centred([(int(x), int(y)) for x, y in cells])
            lane = len(offsets) // 2 if entry.arrow else None
            return (Shape(str(name).replace("x", "×"), offsets, None, lane),)
    return entry.shapes


def _centred(cells: list[tuple[int, int]]) -> Offsets:
    """Shift offsets so the anchor (0, 0) is the middle cell of the list."""
    ax, ay = cells[len(cells) // 2] if len(cells) % 2 else cells[0]
    return tuple((x - ax, y - ay) for x, y in cells)


def limit(palette: Palette, kind: str, ruleset: Ruleset, scenario: Scenario) -> int | None:
    """How many pieces of ``kind`` one side may have in ``scenario`` (``None`` = no limit);
    0 when the kind needs an option or board that is off. Read from the ruleset's data
    file (Final Act counts, Tank Chess armies, Tank Wars ``<kind>_count`` options) where
    it has them, else from the palette table."""
    options = ruleset.options(scenario)
    if f"{kind}_count" in options and isinstance(options[f"{kind}_count"], int):
        return int(options[f"{kind}_count"])
    data = _data(ruleset.name)
    for section in ("units", "terrain"):
        info = data.get(section, {}).get(kind) if isinstance(data.get(section), dict) else None
        if isinstance(info, dict) and isinstance(info.get("count"), int):
            if info.get("extra_forces") and not options.get("extra_forces", False):
                return 0
            return int(info["count"])
    armies = data.get("armies")
    if isinstance(armies, list) and kind in ruleset.unit_kinds:
        size = min(scenario.board.columns, scenario.board.rows)
        fitting = [a for a in armies if isinstance(a, dict) and a.get("min_size", 0) <= size]
        if fitting:
            army = max(fitting, key=lambda a: a.get("min_size", 0))
            return int(army.get("pieces", {}).get(kind, 0))
    value = palette.limits.get(kind)
    if value is None:
        return None
    if isinstance(value, int):
        return value
    cond, n = value
    if cond == "board20":
        return n if scenario.board.columns >= 20 else 0
    return n if scenario.option(str(cond), False) else 0


def ruleset_title(ruleset: Ruleset, marker: str = " (provisional)") -> str:
    """The ruleset's title, with ``marker`` added for a provisional ruleset unless the
    title already says so."""
    if ruleset.provisional and "provisional" not in ruleset.title.lower():
        return ruleset.title + marker
    return ruleset.title


def terrain_budget(ruleset: Ruleset) -> int | None:
    """How many neutral terrain pieces the game's box holds (Tank Chess: 26), if known."""
    value = _data(ruleset.name).get("obstacle_budget")
    return value if isinstance(value, int) else None
