"""Reading Tiled maps (``.tmx``/``.tmj``) back into scenarios; see ``rules.tiled`` for the
map layout. The tile layers are the truth for terrain, the hidden piece layer keeps the
grouping of pieces that touch, unit objects' properties win over their tiles, and the
result goes through the scenario reader.

Nothing of a file is used before its shape is checked: a ``.tmx`` file is parsed without
entity expansion or external entities and turned into the ``.tmj`` shape with its
attributes checked (``rules.tiled_xml``), then either document is checked against the
schema of ``rules.tiled_shape``, and layer data is inflated with bounded memory
(``rules.tiled_layers``). So every problem, including a map that becomes an illegal
scenario (its place then is the object or layer it came from), is one
``ScenarioFormatError`` naming the file, the place and the value.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tankmap.rules.errors import ScenarioFormatError, printable
from tankmap.rules.fileformat import MAX_FILE_BYTES, scenario_from_json
from tankmap.rules.safeio import read_bounded, strict_json
from tankmap.rules.scenario import Scenario
from tankmap.rules.tiled import GID_FLAGS, TileKind, tiled_format
from tankmap.rules.tiled_layers import layer_gids
from tankmap.rules.tiled_shape import Fail, check_shape
from tankmap.rules.tiled_xml import parse_tmx, tmx_to_doc

_SCENARIO_TEXTS = ("ruleset", "title", "author", "notes", "to_move")


def read_tiled(path: str | os.PathLike[str]) -> Scenario:
    """Read a ``.tmx`` or ``.tmj`` file as a scenario (format by extension).

    Only regular files are read, at most ``MAX_FILE_BYTES`` of them. Raises
    ``ScenarioFormatError`` naming the file on any problem.
    """
    source = str(path)
    fmt = tiled_format(source)
    if fmt is None:
        raise ScenarioFormatError("a Tiled map's name ends in .tmx or .tmj", source=source)
    data = read_bounded(path, MAX_FILE_BYTES)
    return loads_tmx(data, source) if fmt == "tmx" else loads_tmj(data, source)


def loads_tmj(text: str | bytes, source: str = "<tmj>") -> Scenario:
    """Read a Tiled JSON map written by tankmap (or edited in Tiled) as a scenario.

    Raises ``ScenarioFormatError`` naming ``source``, the JSON path (``layers[2].data[17]``)
    and the value when the text is not a Tiled map that can become a scenario.
    """
    fail = Fail(source)
    return _read_map(check_shape(strict_json(text, source), fail), fail)


def loads_tmx(text: str | bytes, source: str = "<tmx>") -> Scenario:
    """Read a Tiled XML map written by tankmap (or edited in Tiled) as a scenario.

    Layer data may be CSV, ``<tile>`` elements or base64 (plain, zlib or gzip; zstd is
    refused). Raises ``ScenarioFormatError`` naming ``source``, the element path
    (``map/layer[1]/data``) and the value on any problem.
    """
    fail = Fail(source, "map")
    return _read_map(check_shape(tmx_to_doc(parse_tmx(text, fail), fail), fail), fail)


@dataclass
class _Origins:
    """Where the scenario's parts came from in the file, to name them in its errors."""

    units: list[str] = field(default_factory=list)
    cells: dict[tuple[str, str | None, str], str] = field(default_factory=dict)
    hints: list[str] = field(default_factory=list)
    lanes: dict[str, str] = field(default_factory=dict)
    pieces: list[str] = field(default_factory=list)


def _layers(layers: list[dict[str, Any]], where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every layer with its path, the layers of groups in their place."""
    for n, layer in enumerate(layers):
        lw = f"{where}[{n}]"
        if layer["type"] == "group":
            yield from _layers(layer["layers"], f"{lw}.layers")
        else:
            yield lw, layer


def _read_map(doc: dict[str, Any], fail: Fail) -> Scenario:
    """The scenario of a document whose shape ``check_shape`` has checked."""
    if doc.get("orientation", "orthogonal") != "orthogonal":
        raise fail("orientation", "only orthogonal maps are boards", doc["orientation"])
    if doc.get("infinite"):
        raise fail("infinite", "an infinite map is not a board (Tiled: Map > Map Properties)")
    cols, rows = doc["width"], doc["height"]
    tw, th = doc["tilewidth"], doc["tileheight"]
    props = _props(doc.get("properties"))
    if "ruleset" not in props:
        raise fail("properties", "no 'ruleset' map property: not a map written by tankmap")
    tiles = _tile_table(doc["tilesets"])

    def cell(x: int, y: int, where: str) -> str:
        if not (0 <= x < cols and 0 <= y < rows):
            raise fail(where, f"position ({x}, {y}) is off the {cols}x{rows} board")
        return f"{_column_name(x)}{rows - y}"

    grid_cells: dict[tuple[str, str | None], list[str]] = {}
    units: list[dict[str, Any]] = []
    lanes: list[tuple[str, Any]] = []
    hints: list[dict[str, Any]] = []
    origins = _Origins()
    for where, layer in _layers(doc["layers"], "layers"):
        if layer["type"] == "tilelayer":
            for i, raw in enumerate(layer_gids(layer, cols * rows, where, fail)):
                g = raw & ~GID_FLAGS
                if g == 0:
                    continue
                t = tiles.get(g)
                if t is None or t.role != "terrain":
                    raise fail(f"{where}.data[{i}]", f"tile {g} is not a tankmap terrain tile")
                name = cell(i % cols, i // cols, f"{where}.data[{i}]")
                grid_cells.setdefault((t.kind, t.side), []).append(name)
                origins.cells.setdefault((t.kind, t.side, name), f"{where}.data[{i}]")
        elif layer["type"] == "objectgroup":
            for k, obj in enumerate(layer["objects"]):
                ow = f"{where}.objects[{k}]"
                cls = obj.get("type", obj.get("class", ""))
                p = _props(obj.get("properties"))
                x, y = obj.get("x", 0.0), obj.get("y", 0.0)
                if cls == "terrain":
                    hints.append(p)
                    origins.hints.append(ow)
                elif cls == "lane":
                    lane = cell(int(x // tw), int(y // th), ow)
                    lanes.append((lane, p.get("arrow")))
                    origins.lanes[lane] = ow
                elif cls == "unit" or "gid" in obj:
                    t = tiles.get(obj["gid"] & ~GID_FLAGS) if "gid" in obj else None
                    w, h = obj.get("width", 0.0), obj.get("height", 0.0)
                    # tile objects are anchored at their bottom-left corner, others top-left
                    cy = (y - h / 2) // th if "gid" in obj else (y + h / 2) // th
                    cx = (x + w / 2) // tw
                    if obj.get("name"):
                        p.setdefault("name", obj["name"])
                    units.append(_unit(p, t, cell(int(cx), int(cy), ow), ow, fail))
                    origins.units.append(ow)
    terrain = _group_terrain(grid_cells, hints, origins)
    for lane, arrow in lanes:
        holders = [t for t in terrain if lane in t["cells"]]
        piece = next((t for t in holders if "lane" not in t), holders[0] if holders else None)
        if piece is None:
            raise fail(origins.lanes[lane], f"the lane {lane} is not on a terrain piece")
        piece["lane"] = lane
        if arrow:
            piece["arrow"] = arrow
    document: dict[str, Any] = {
        "format": "tankmap-scenario",
        "version": 1,
        "ruleset": props["ruleset"],
        "options": {k[7:]: v for k, v in props.items() if k.startswith("option:")},
        "board": {"columns": cols, "rows": rows},
        "title": props.get("title", ""),
        "author": props.get("author", ""),
        "notes": props.get("notes", ""),
    }
    if props.get("to_move", "south") != "south":
        document["to_move"] = props["to_move"]
    editor = {k[7:]: v for k, v in props.items() if k.startswith("editor:")}
    if editor:
        document["editor"] = editor
    document["terrain"] = terrain
    document["units"] = units
    try:
        return scenario_from_json(document, fail.source)
    except ScenarioFormatError as exc:
        raise _in_the_file(exc, terrain, origins, fail) from None


def _in_the_file(
    exc: ScenarioFormatError, terrain: list[dict[str, Any]], origins: _Origins, fail: Fail
) -> ScenarioFormatError:
    """The scenario reader's error ``exc`` (about ``$.units[3].facing``...) said of the
    place in the Tiled file that value came from."""
    path = exc.path
    where, what = "", ""
    m = re.fullmatch(r"\$\.(units|terrain)\[(\d+)\](?:\.(\w+))?.*", path)
    if m and m[1] == "units":
        where = origins.units[int(m[2])]
        what = "its position" if m[3] == "cell" else f"property {m[3]!r}" if m[3] else ""
    elif m:
        piece = terrain[int(m[2])]
        where = origins.pieces[int(m[2])]
        if m[3] in ("lane", "arrow") and piece.get("lane") in origins.lanes:
            where = origins.lanes[piece["lane"]]
        cells = " ".join(piece["cells"][:6]) + (" ..." if len(piece["cells"]) > 6 else "")
        what = f"the {printable(piece['kind'], 40)} piece on {cells}"
        what += f", property {m[3]!r}" if m[3] in ("lane", "arrow", "shape") else ""
    elif path.removeprefix("$.") in _SCENARIO_TEXTS:
        where, what = "properties", f"property {path[2:]!r}"
    elif path.startswith(("$.options.", "$.editor.")):
        key = path[2:].replace(".", ":", 1).replace("options:", "option:", 1)
        where, what = "properties", f"property {key!r}"
    elif path.startswith("$.board"):
        where, what = "width", "the board"
    elif path in ("$", "$.terrain", "$.units"):
        where = "layers"
    message = f"{what}: {exc.detail}" if what else exc.detail
    return fail(where, message) if exc.value is None else fail(where, message, exc.value)


def _group_terrain(
    grid: dict[tuple[str, str | None], list[str]],
    hints: list[dict[str, Any]],
    origins: _Origins,
) -> list[dict[str, Any]]:
    """Terrain pieces from the drawn tiles: hinted pieces whose tiles are all still there
    keep their grouping (in the hints' order), other tiles of one kind and side that touch
    become one piece each. A cell drawn on two layers counts twice. Each piece's place
    (its hint, or its first tile) goes to ``origins.pieces``."""
    free = {key: Counter(cells) for key, cells in grid.items()}
    pieces: list[dict[str, Any]] = []
    for h, place in zip(hints, origins.hints, strict=True):
        kind, side = h.get("kind"), h.get("side")
        key = (kind if isinstance(kind, str) else "", side if isinstance(side, str) else None)
        cells = str(h.get("cells", "")).split()
        if cells and key in free and not Counter(cells) - free[key]:
            free[key].subtract(cells)
            piece: dict[str, Any] = {"kind": key[0]}
            if key[1]:
                piece["side"] = key[1]
            piece["cells"] = cells
            if h.get("shape"):
                piece["shape"] = h["shape"]
            pieces.append(piece)
            origins.pieces.append(place)
    for (kind, side), cells in grid.items():
        left = free[(kind, side)]
        while +left:
            order = [c for c in dict.fromkeys(cells) if left[c] > 0]  # row-major tile order
            for group in _touching_groups(order):
                piece = {"kind": kind}
                if side:
                    piece["side"] = side
                piece["cells"] = group
                pieces.append(piece)
                origins.pieces.append(origins.cells[(kind, side, group[0])])
                left.subtract(group)
    return pieces


def _touching_groups(cells: list[str]) -> Iterator[list[str]]:
    pos = {c: _cell_xy(c) for c in cells}
    at = {xy: c for c, xy in pos.items()}
    seen: set[str] = set()
    for start in cells:
        if start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            c = todo.pop()
            group.append(c)
            x, y = pos[c]
            for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                n = at.get(nxt)
                if n is not None and n not in seen:
                    seen.add(n)
                    todo.append(n)
        yield sorted(group, key=lambda c: (pos[c][1], pos[c][0]))


def _cell_xy(name: str) -> tuple[int, int]:
    letters = name.rstrip("0123456789")
    col = 0
    for ch in letters:
        col = col * 26 + (ord(ch) - ord("a") + 1)
    return col - 1, int(name[len(letters) :])


def _column_name(x: int) -> str:
    name = ""
    x += 1
    while x:
        x, r = divmod(x - 1, 26)
        name = chr(ord("a") + r) + name
    return name


def _unit(
    p: dict[str, Any], tile: TileKind | None, cell: str, where: str, fail: Fail
) -> dict[str, Any]:
    kind = p.get("kind") or (tile.kind if tile else None)
    side = p.get("side") or (tile.side if tile else None)
    if not kind or not side:
        raise fail(where, "a unit object needs 'kind' and 'side' (properties or its tile)")
    out: dict[str, Any] = {"kind": kind}
    if p.get("name"):
        out["name"] = p["name"]
    out["side"] = side
    out["cell"] = cell
    if p.get("facing"):
        out["facing"] = p["facing"]
    if p.get("damage"):
        out["damage"] = p["damage"]
    if "armour" in p and p["armour"] != "":
        out["armour"] = p["armour"]
    if p.get("wreck"):
        out["wreck"] = True
    return out


def _props(raw: list[dict[str, Any]] | dict[str, Any] | None) -> dict[str, Any]:
    """Custom properties (checked by ``rules.tiled_shape``) as ``{name: value}``: Tiled's
    list of ``{"name", "type", "value"}``, or the object of its old JSON format."""
    if raw is None:
        return {}
    if isinstance(raw, dict):
        return dict(raw)
    return {p["name"]: p.get("value") for p in raw}


def _tile_table(tilesets: list[dict[str, Any]]) -> dict[int, TileKind]:
    """Global tile id -> the tankmap kind its tile's properties name."""
    table: dict[int, TileKind] = {}
    for ts in tilesets:
        for tile in ts.get("tiles", []):
            p = _props(tile.get("properties"))
            if p.get("role") in ("terrain", "unit") and p.get("kind"):
                table[ts["firstgid"] + tile["id"]] = TileKind(
                    str(p["role"]), str(p["kind"]), str(p.get("side") or "") or None
                )
    return table
