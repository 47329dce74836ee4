"""Read and write scenario files (docs/architecture.md §3).

Reading validates everything and raises ``ScenarioFormatError`` naming the file, the JSON
path and the value; it never raises anything else on bad input. Writing is canonical (the
same board gives byte-identical text whatever order it was edited in: ``canonical``) and
atomic (temp file + rename: a failed write leaves the old file untouched).

>>> from rules.fileformat import loads_scenario, dumps_scenario
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from tankmap.rules.board import MAX_COLUMNS, MAX_ROWS, Board
from tankmap.rules.errors import NO_VALUE, ScenarioFormatError, TankmapError, short
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.safeio import atomic_write_bytes as atomic_write_bytes  # for callers
from tankmap.rules.safeio import atomic_write_text as atomic_write_text
from tankmap.rules.safeio import read_bounded, strict_json
from tankmap.rules.scenario import Scenario, Terrain, Unit

FORMAT = "tankmap-scenario"
VERSION = 1
MAX_FILE_BYTES = 5_000_000
MAX_PIECES = 2_000

_TOP_KEYS = (
    "format",
    "version",
    "ruleset",
    "options",
    "board",
    "title",
    "author",
    "notes",
    "to_move",
    "editor",
    "terrain",
    "units",
)
# the editor's settings a file may carry: key -> allowed values (the first is the default,
# which is not written); the rules never read them, ``tankmap check`` only validates them
EDITOR_SETTINGS = {"symmetry": ("off", "point", "left-right")}
_TERRAIN_KEYS = ("kind", "side", "cells", "lane", "arrow", "shape")
_UNIT_KEYS = ("kind", "name", "side", "cell", "facing", "damage", "armour", "wreck")

T = TypeVar("T")


def read_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Read a scenario file. Raises ``ScenarioFormatError`` (also for unreadable files)."""
    return loads_scenario(read_bounded(path, MAX_FILE_BYTES), source=str(path))


def loads_scenario(text: str | bytes, source: str = "<string>") -> Scenario:
    """Parse scenario JSON text (strictly: ``rules.safeio.strict_json``). Raises
    ``ScenarioFormatError`` on any problem (also for ``text`` that is not text)."""
    if not isinstance(text, str | bytes | bytearray):
        hint = " (scenario_from_json takes parsed JSON)" if isinstance(text, dict) else ""
        raise ScenarioFormatError(
            f"the scenario text must be a str or bytes of JSON, not {type(text).__name__}{hint}",
            source=source,
        )
    return scenario_from_json(strict_json(text, source), source=source)


def scenario_from_json(data: Any, source: str = "<string>") -> Scenario:
    """Build a scenario from already-parsed JSON data (see ``loads_scenario``)."""
    r = _Reader(source)
    obj = r.obj(data, "$", _TOP_KEYS, required=("ruleset", "board"))
    fmt = obj.get("format", FORMAT)
    if fmt != FORMAT:
        r.fail("$.format", f"must be {FORMAT!r}", fmt)
    version = obj.get("version", VERSION)
    if type(version) is not int or version != VERSION:
        r.fail("$.version", f"unsupported version (this tankmap reads version {VERSION})", version)
    ruleset_name = r.typed(obj["ruleset"], "$.ruleset", str, "a ruleset name")
    try:
        ruleset = get_ruleset(ruleset_name)
    except TankmapError as exc:
        r.fail("$.ruleset", str(exc))

    board_obj = r.obj(obj["board"], "$.board", ("columns", "rows"), required=("columns", "rows"))
    columns = r.integer(board_obj["columns"], "$.board.columns", 1, MAX_COLUMNS)
    rows = r.integer(board_obj["rows"], "$.board.rows", 1, MAX_ROWS)
    problem = ruleset.board_problem(columns, rows)
    if problem:
        r.fail("$.board", problem, f"{columns}x{rows}")
    board = Board.of(columns, rows)

    options_obj = r.obj(obj.get("options", {}), "$.options", None)
    options = {}
    for key, value in options_obj.items():
        try:
            spec = ruleset.option_spec(key)
        except TankmapError as exc:
            r.fail(f"$.options.{key}", str(exc), value)
        try:
            options[key] = spec.validate(value)
        except TankmapError as exc:
            r.fail(f"$.options.{key}", str(exc))  # (it quotes the value)

    texts = {
        k: r.typed(obj.get(k, ""), f"$.{k}", str, "a string") for k in ("title", "author", "notes")
    }
    to_move = r.side(obj.get("to_move", "south"), "$.to_move")
    editor = _editor_settings(r, obj.get("editor", {}))

    terrain_list = r.typed(obj.get("terrain", []), "$.terrain", list, "a list")
    units_list = r.typed(obj.get("units", []), "$.units", list, "a list")
    if len(terrain_list) + len(units_list) > MAX_PIECES:
        r.fail("$", f"more than {MAX_PIECES} pieces", len(terrain_list) + len(units_list))

    terrain: list[Terrain] = []
    for i, item in enumerate(terrain_list):
        path = f"$.terrain[{i}]"
        t = r.obj(item, path, _TERRAIN_KEYS, required=("kind", "cells"))
        cells_raw = r.typed(t["cells"], f"{path}.cells", list, "a list of cell names")
        if not cells_raw:
            r.fail(f"{path}.cells", "a terrain piece needs at least one cell", cells_raw)
        cells = tuple(r.cell(board, c, f"{path}.cells[{j}]") for j, c in enumerate(cells_raw))
        if len(set(cells)) != len(cells):
            r.fail(f"{path}.cells", "a cell is listed twice", cells_raw)
        piece = Terrain(
            kind=r.typed(t["kind"], f"{path}.kind", str, "a kind name"),
            cells=cells,
            # an optional key is absent or has its type (null is not "absent")
            side=None if "side" not in t else r.side(t["side"], f"{path}.side"),
            lane=None if "lane" not in t else r.cell(board, t["lane"], f"{path}.lane"),
            arrow=None if "arrow" not in t else r.facing(t["arrow"], f"{path}.arrow"),
            shape=None
            if "shape" not in t
            else r.typed(t["shape"], f"{path}.shape", str, "a shape name"),
        )
        problem = ruleset.piece_problem(piece)
        if problem and piece.kind not in ruleset.terrain_kinds:
            r.fail(f"{path}.kind", problem)  # (the message quotes the kind)
        if problem:
            r.fail(path, problem, item)
        terrain.append(piece)

    units: list[Unit] = []
    for i, item in enumerate(units_list):
        path = f"$.units[{i}]"
        u = r.obj(item, path, _UNIT_KEYS, required=("kind", "side", "cell"))
        unit = Unit(
            kind=r.typed(u["kind"], f"{path}.kind", str, "a kind name"),
            side=r.side(u["side"], f"{path}.side"),
            cell=r.cell(board, u["cell"], f"{path}.cell"),
            facing=None if "facing" not in u else r.facing(u["facing"], f"{path}.facing"),
            name=None if "name" not in u else r.typed(u["name"], f"{path}.name", str, "a name"),
            damage=r.integer(u.get("damage", 0), f"{path}.damage", 0, 99),
            armour=None if "armour" not in u else r.integer(u["armour"], f"{path}.armour", 0, 99),
            wreck=r.typed(u.get("wreck", False), f"{path}.wreck", bool, "true or false"),
        )
        problem = ruleset.piece_problem(unit)
        if problem and unit.kind not in ruleset.unit_kinds:
            r.fail(f"{path}.kind", problem)  # (the message quotes the kind)
        if problem:
            r.fail(path, problem, item)
        units.append(unit)

    return Scenario(
        ruleset=ruleset.name,
        board=board,
        options=options,
        terrain=tuple(terrain),
        units=tuple(units),
        title=texts["title"],
        author=texts["author"],
        notes=texts["notes"],
        to_move=to_move,
        editor=editor,
    )


def _editor_settings(r: _Reader, value: Any) -> dict[str, str]:
    """The ``editor`` object's settings that differ from their defaults."""
    obj = r.obj(value, "$.editor", tuple(EDITOR_SETTINGS))
    out = {}
    for key, allowed in EDITOR_SETTINGS.items():
        if key in obj:
            text = r.typed(obj[key], f"$.editor.{key}", str, "a string")
            if text not in allowed:
                r.fail(f"$.editor.{key}", f"must be one of {', '.join(allowed)}", text)
            if text != allowed[0]:
                out[key] = text
    return out


def scenario_to_json(scenario: Scenario) -> dict[str, Any]:
    """The JSON data of a scenario (canonical key order, cells as names)."""
    b = scenario.board
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": scenario.ruleset,
        "options": {k: scenario.options[k] for k in sorted(scenario.options)},
        "board": {"columns": b.columns, "rows": b.rows},
        "title": scenario.title,
        "author": scenario.author,
        "notes": scenario.notes,
    }
    if scenario.to_move is not Side.SOUTH:
        out["to_move"] = scenario.to_move.value
    defaults = {k: values[0] for k, values in EDITOR_SETTINGS.items()}
    editor = {k: v for k, v in sorted(scenario.editor.items()) if v != defaults.get(k)}
    if editor:
        out["editor"] = editor
    out["terrain"] = [_terrain_json(t, b) for t in scenario.terrain]
    out["units"] = [_unit_json(u, b) for u in scenario.units]
    return out


def canonical(scenario: Scenario) -> Scenario:
    """The scenario in the order files are written in (``write_scenario``).

    - the cells of each terrain piece in board order (row 1 from a1 eastward, then row 2...);
    - terrain pieces by owner (neutral, south, north), then kind (the ruleset's order of
      kinds), then cells;
    - units keep their order: it is part of the scenario (Tank Wars moves vehicles in that
      order; game records, OpenSpiel steps and seeded simulations number units by it).

    Neither the rules nor the simulations depend on the order of terrain pieces or of their
    cells, so ``canonical`` changes no check and no simulated game.
    """
    try:
        ranks = {kind: n for n, kind in enumerate(get_ruleset(scenario.ruleset).terrain_kinds)}
    except TankmapError:
        ranks = {}
    owner = {None: 0, Side.SOUTH: 1, Side.NORTH: 2}

    def key(t: Terrain) -> tuple[Any, ...]:
        return (
            owner[t.side],
            ranks.get(t.kind, len(ranks)),
            t.kind,
            t.cells,
            -1 if t.lane is None else t.lane,
            "" if t.arrow is None else t.arrow.name,
            t.shape or "",
        )

    terrain = sorted((replace(t, cells=tuple(sorted(t.cells))) for t in scenario.terrain), key=key)
    return scenario.with_terrain(terrain)


def dumps_scenario(scenario: Scenario) -> str:
    """Text of a scenario as it stands (pieces in its order; ``write_scenario`` writes the
    ``canonical`` order): one piece per line, ending with a newline."""
    data = scenario_to_json(scenario)
    lines = ["{"]
    keys = list(data)
    for n, key in enumerate(keys):
        comma = "," if n < len(keys) - 1 else ""
        value = data[key]
        if key in ("terrain", "units"):
            if not value:
                lines.append(f'  "{key}": []{comma}')
                continue
            lines.append(f'  "{key}": [')
            for m, piece in enumerate(value):
                inner = "," if m < len(value) - 1 else ""
                lines.append(f"    {_compact(piece)}{inner}")
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {_compact(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_scenario(
    scenario: Scenario, path: str | os.PathLike[str], *, follow_symlinks: bool = False
) -> None:
    """Write the ``canonical`` text atomically: the file is either the old one or the
    complete new one (``rules.safeio.atomic_write_bytes``: not through a symbolic link
    unless ``follow_symlinks``)."""
    atomic_write_text(path, dumps_scenario(canonical(scenario)), follow_symlinks=follow_symlinks)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _terrain_json(t: Terrain, b: Board) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": t.kind}
    if t.side is not None:
        out["side"] = t.side.value
    out["cells"] = [b.cell_name(c) for c in t.cells]
    if t.lane is not None:
        out["lane"] = b.cell_name(t.lane)
    if t.arrow is not None:
        out["arrow"] = t.arrow.name
    if t.shape is not None:
        out["shape"] = t.shape
    return out


def _unit_json(u: Unit, b: Board) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": u.kind}
    if u.name is not None:
        out["name"] = u.name
    out["side"] = u.side.value
    out["cell"] = b.cell_name(u.cell)
    if u.facing is not None:
        out["facing"] = u.facing.name
    if u.damage:
        out["damage"] = u.damage
    if u.armour is not None:
        out["armour"] = u.armour
    if u.wreck:
        out["wreck"] = True
    return out


class _Reader:
    """Typed access to parsed JSON that fails with the file, path and value."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, message: str, value: Any = NO_VALUE) -> Any:
        """Raise ``ScenarioFormatError``; the message quotes ``value`` when one is given,
        ``null`` too (``ScenarioFormatError.quoting``)."""
        raise ScenarioFormatError.quoting(message, source=self.source, path=path, value=value)

    def obj(
        self, value: Any, path: str, keys: tuple[str, ...] | None, required: tuple[str, ...] = ()
    ) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(path, "must be a JSON object", value)
        for key in value:
            if not isinstance(key, str):  # (data built in Python: JSON's keys are text)
                self.fail(path, "a key must be a string", key)
        if keys is not None:
            for key in value:
                if key not in keys:
                    self.fail(f"{path}.{key}", f"unknown key (allowed: {', '.join(keys)})", key)
        for key in required:
            if key not in value:
                self.fail(f"{path}.{key}", "is required")
        return value  # type: ignore[no-any-return]

    def typed(self, value: Any, path: str, kind: type[T], what: str) -> T:
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            self.fail(path, f"must be {what}", value)
        checked: T = value
        return checked

    def integer(self, value: Any, path: str, lo: int, hi: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(path, "must be a whole number", value)
        if not lo <= value <= hi:
            self.fail(path, f"must be between {lo} and {hi}", value)
        return int(value)

    def _parsed(self, value: Any, path: str, parse: Callable[[str], T], what: str) -> T:
        if not isinstance(value, str):
            self.fail(path, f"must be {what}", value)
        try:
            return parse(value)
        except ValueError as exc:
            return self.fail(path, str(exc))  # type: ignore[no-any-return]

    def cell(self, board: Board, value: Any, path: str) -> int:
        if isinstance(value, str) and value != value.strip():
            self.fail(path, "a cell name has no spaces or line breaks", value)
        return self._parsed(value, path, board.parse_cell, "a cell name like 'c3'")

    def side(self, value: Any, path: str) -> Side:
        def parse(text: str) -> Side:
            if text not in ("south", "north"):  # as written, as the schema says
                raise ValueError(f"not a side: {short(text)} (use 'south' or 'north')")
            return Side(text)

        return self._parsed(value, path, parse, "'south' or 'north'")

    def facing(self, value: Any, path: str) -> Facing:
        def parse(text: str) -> Facing:
            if text not in Facing.__members__:  # upper case, as written and in the schema
                raise ValueError(f"not a facing: {short(text)} (use N NE E SE S SW W NW)")
            return Facing[text]

        return self._parsed(value, path, parse, "a facing (N NE E SE S SW W NW)")
