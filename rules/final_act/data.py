"""Final Act numbers as data: counts, zones, footprints, cones and options.

Everything a house rule may change lives in ``resources/rulesets/final-act.json``; this module
reads it once into small frozen dataclasses (``DATA``) and derives the pure-geometry helpers
the rules need (shape variants, cone masks). Nothing here knows about a particular scenario.

Conventions: footprint offsets are ``(dx, dy)`` in board columns/rows; cone cells are
``(forward, sideways)`` relative to the unit's facing (sideways > 0 = to its right).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from tankmap.rules.ruleset import BoundedOption, OptionSpec, load_ruleset_data
from tankmap.rules.scenario import OptionValue

Offset = tuple[int, int]


@dataclass(frozen=True)
class UnitKind:
    """One unit kind's numbers (see the JSON file for the meaning of each field)."""

    kind: str
    label: str
    count: int
    zone_rows: int
    extra_forces: bool
    movement: str  # "tank" (6 relative cells, turn with diagonal moves) | "any-neighbour"
    cone_option: str | None  # option naming the cone; None = this kind never fires
    elevated_extra: tuple[Offset, ...]  # (forward, sideways) cells added when elevated
    elevates: bool  # standing on an elevating terrain cell lifts line-of-fire limits
    blocks_fire: bool
    hits: int
    goal: str | None


@dataclass(frozen=True)
class TerrainKind:
    """One terrain kind's numbers."""

    kind: str
    label: str
    family: str  # berm | swamp | minefield (used in violation codes)
    count: int
    zone_rows: int
    shape: str
    shape_option: str | None
    orientation_option: str | None
    passable: bool
    blocks_fire: bool
    elevates: bool
    lane: bool


@dataclass(frozen=True)
class CellSharing:
    """Which units may share one cell (docs/rules.md §1.3)."""

    max_units: int
    max_per_kind: tuple[tuple[str, int], ...]
    forbidden_pairs: tuple[tuple[str, str], ...]
    same_side_only: bool


@dataclass(frozen=True)
class FinalActData:
    """The whole data file, typed."""

    columns: int
    rows: int
    half_rows: int
    tank_names: tuple[str, ...]
    panel_order: tuple[str, ...]
    officers: tuple[str, ...]
    units: dict[str, UnitKind]
    terrain: dict[str, TerrainKind]
    sharing: CellSharing
    shapes: dict[str, tuple[Offset, ...]]
    orientations: tuple[str, ...]
    cones: dict[str, tuple[Offset, ...]]
    options: tuple[OptionSpec, ...]
    unmodelled: tuple[str, ...]  # options the rules/engine do not implement yet


def _offsets(raw: list[list[int]]) -> tuple[Offset, ...]:
    return tuple((int(a), int(b)) for a, b in raw)


def _cone_cells(spec: dict[str, Any]) -> tuple[Offset, ...]:
    """Cone cells ``(f, s)`` from ``{"diamond": {"centre": c, "radius": r}}`` (all cells with
    ``f >= 1`` and ``|s| + |f - c| <= r``) or an explicit ``{"cells": [[f, s], ...]}``."""
    if "cells" in spec:
        return _offsets(spec["cells"])
    d = spec["diamond"]
    centre, radius = int(d["centre"]), int(d["radius"])
    out: list[Offset] = []
    for f in range(1, centre + radius + 1):
        width = radius - abs(f - centre)
        for s in range(-width, width + 1):
            out.append((f, s))
    return tuple(out)


def parse_data(raw: dict[str, Any]) -> FinalActData:
    """Type the raw JSON data. Raises ``KeyError``/``ValueError`` on a malformed data file."""
    shapes = {name: _offsets(cells) for name, cells in raw["shapes"].items()}
    cones = {name: _cone_cells(spec) for name, spec in raw["cones"].items()}
    orientations = tuple(raw["orientations"])
    units = {
        k: UnitKind(
            kind=k,
            label=v["label"],
            count=int(v["count"]),
            zone_rows=int(v["zone_rows"]),
            extra_forces=bool(v["extra_forces"]),
            movement=v["movement"],
            cone_option=v["cone_option"],
            elevated_extra=_offsets(v["elevated_extra"]),
            elevates=bool(v["elevates"]),
            blocks_fire=bool(v["blocks_fire"]),
            hits=int(v["hits"]),
            goal=v["goal"],
        )
        for k, v in raw["units"].items()
    }
    terrain = {
        k: TerrainKind(
            kind=k,
            label=v["label"],
            family=v["family"],
            count=int(v["count"]),
            zone_rows=int(v["zone_rows"]),
            shape=v["shape"],
            shape_option=v["shape_option"],
            orientation_option=v["orientation_option"],
            passable=bool(v["passable"]),
            blocks_fire=bool(v["blocks_fire"]),
            elevates=bool(v["elevates"]),
            lane=bool(v["lane"]),
        )
        for k, v in raw["terrain"].items()
    }
    sh = raw["cell_sharing"]
    sharing = CellSharing(
        max_units=int(sh["max_units"]),
        max_per_kind=tuple((k, int(n)) for k, n in sh["max_per_kind"].items()),
        forbidden_pairs=tuple((a, b) for a, b in sh["forbidden_pairs"]),
        same_side_only=bool(sh["same_side_only"]),
    )
    choice_sources: dict[str, tuple[str, ...]] = {
        "orientations": orientations,
        "shapes": tuple(shapes),
        "cones": tuple(cones),
    }
    options: list[OptionSpec] = []
    for o in raw["options"]:
        default: OptionValue = o["default"]
        choices: tuple[OptionValue, ...] = ()
        if "choices_from" in o:
            choices = choice_sources[o["choices_from"]]
        elif "choices" in o:
            choices = tuple(o["choices"])
        if "minimum" in o:
            options.append(
                BoundedOption(o["name"], default, o["help"], choices, o["minimum"], o["maximum"])
            )
        else:
            options.append(OptionSpec(o["name"], default, o["help"], choices))
    board = raw["board"]
    return FinalActData(
        columns=int(board["columns"]),
        rows=int(board["rows"]),
        half_rows=int(board["half_rows"]),
        tank_names=tuple(raw["tank_names"]),
        panel_order=tuple(raw["panel_order"]),
        officers=tuple(raw["officers"]),
        units=units,
        terrain=terrain,
        sharing=sharing,
        shapes=shapes,
        orientations=orientations,
        cones=cones,
        options=tuple(options),
        unmodelled=tuple(o["name"] for o in raw["options"] if not o.get("modelled", True)),
    )


DATA: FinalActData = parse_data(load_ruleset_data("final-act"))


@cache
def shape_variants(shape: str, orientation: str = "any") -> frozenset[frozenset[Offset]]:
    """Every rotation and reflection of footprint ``shape``, each normalised so its lowest
    column and row are 0. ``orientation`` ``"across"`` keeps the variants at least as wide
    as tall (lying along a row), ``"along"`` those at least as tall as wide (pointing at the
    enemy), ``"any"`` all. A square fits every orientation.

    >>> sorted(sorted(v) for v in shape_variants("1x2"))
    [[(0, 0), (0, 1)], [(0, 0), (1, 0)]]
    """
    base = DATA.shapes[shape]
    found: set[frozenset[Offset]] = set()
    cells = list(base)
    for _ in range(4):
        cells = [(-y, x) for x, y in cells]  # rotate 90°
        for variant in (cells, [(-x, y) for x, y in cells]):  # and its mirror image
            found.add(normalise(variant))
    if orientation != "any":
        keep = set()
        for v in found:
            w = max(x for x, _ in v) + 1
            h = max(y for _, y in v) + 1
            if (orientation == "across" and w >= h) or (orientation == "along" and h >= w):
                keep.add(v)
        found = keep
    return frozenset(found)


def normalise(cells: list[Offset] | tuple[Offset, ...]) -> frozenset[Offset]:
    """Translate offsets so the smallest x and y are 0."""
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return frozenset((x - mx, y - my) for x, y in cells)
