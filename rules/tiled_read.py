"""Reading Tiled maps (``.tmx``/``.tmj``) back into scenarios; see ``rules.tiled`` for the
map layout. The tile layers are the truth for terrain, the hidden piece layer keeps the
grouping of pieces that touch, unit objects' properties win over their tiles, and the
result goes through the scenario reader, so every problem is a ``ScenarioFormatError``
naming the file and the element."""

from __future__ import annotations

import base64
import gzip
import os
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree as ET

from tankmap.rules.errors import ScenarioFormatError
from tankmap.rules.fileformat import MAX_FILE_BYTES, scenario_from_json
from tankmap.rules.safeio import read_bounded, strict_json
from tankmap.rules.scenario import Scenario
from tankmap.rules.tiled import GID_FLAGS, TileKind, tiled_format

_GID_FLAGS = GID_FLAGS


class _Fail:
    def __init__(self, source: str) -> None:
        self.source = source

    def __call__(self, where: str, message: str) -> ScenarioFormatError:
        return ScenarioFormatError(message, source=self.source, path=where)


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

    Raises ``ScenarioFormatError`` naming ``source`` and the element when the text is not
    a Tiled map that can become a scenario.
    """
    fail = _Fail(source)
    doc = strict_json(text, source)
    if not isinstance(doc, dict):
        raise fail("$", "a Tiled map must be a JSON object")
    return _read_map(_JsonMap(doc, fail), fail)


def loads_tmx(text: str | bytes, source: str = "<tmx>") -> Scenario:
    """Read a Tiled XML map written by tankmap (or edited in Tiled) as a scenario.

    Layer data may be CSV or base64 (uncompressed, zlib or gzip). Raises
    ``ScenarioFormatError`` naming ``source`` and the element on any problem.
    """
    fail = _Fail(source)
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise fail("<map>", f"not valid XML ({exc})") from None
    if root.tag != "map":
        raise fail(f"<{root.tag}>", "the root element of a TMX file is <map>")
    return _read_map(_xml_to_json(root, fail), fail)


@dataclass
class _JsonMap:
    doc: dict[str, Any]
    fail: _Fail

    def int_field(self, key: str) -> int:
        v = self.doc.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 10_000:
            raise self.fail(key, f"expected a whole number from 1 to 10000, got {v!r:.60}")
        return v


def _read_map(m: _JsonMap, fail: _Fail) -> Scenario:
    doc = m.doc
    if doc.get("orientation", "orthogonal") != "orthogonal":
        raise fail("orientation", f"only orthogonal maps are boards ({doc['orientation']!r})")
    cols, rows = m.int_field("width"), m.int_field("height")
    tw, th = m.int_field("tilewidth"), m.int_field("tileheight")
    props = _props(doc.get("properties"), "properties", fail)
    if "ruleset" not in props:
        raise fail("properties", "no 'ruleset' map property: not a map written by tankmap")
    tiles = _tile_table(doc.get("tilesets"), fail)
    layers = doc.get("layers")
    if not isinstance(layers, list):
        raise fail("layers", "expected a list of layers")

    def cell(x: int, y: int, where: str) -> str:
        if not (0 <= x < cols and 0 <= y < rows):
            raise fail(where, f"position ({x}, {y}) is off the {cols}x{rows} board")
        return f"{_column_name(x)}{rows - y}"

    grid_cells: dict[tuple[str, str | None], list[str]] = {}
    units: list[dict[str, Any]] = []
    lanes: list[tuple[str, str | None]] = []
    hints: list[dict[str, Any]] = []
    for n, layer in enumerate(layers):
        where = f"layers[{n}]"
        if not isinstance(layer, dict):
            raise fail(where, "expected a layer object")
        if layer.get("type") == "tilelayer":
            data = _layer_data(layer, cols * rows, f"{where}.data", fail)
            for i, raw in enumerate(data):
                g = raw & ~_GID_FLAGS
                if g == 0:
                    continue
                t = tiles.get(g)
                if t is None or t.role != "terrain":
                    raise fail(f"{where}.data[{i}]", f"tile {g} is not a tankmap terrain tile")
                grid_cells.setdefault((t.kind, t.side), []).append(
                    cell(i % cols, i // cols, f"{where}.data[{i}]")
                )
        elif layer.get("type") == "objectgroup":
            objects = layer.get("objects")
            if not isinstance(objects, list):
                raise fail(f"{where}.objects", "expected a list of objects")
            for k, obj in enumerate(objects):
                ow = f"{where}.objects[{k}]"
                if not isinstance(obj, dict):
                    raise fail(ow, "expected an object")
                cls = obj.get("type", obj.get("class", ""))
                p = _props(obj.get("properties"), f"{ow}.properties", fail)
                x, y = _number(obj, "x", ow, fail), _number(obj, "y", ow, fail)
                if cls == "terrain":
                    hints.append(p)
                elif cls == "lane":
                    lanes.append((cell(int(x // tw), int(y // th), ow), p.get("arrow")))
                elif cls == "unit" or "gid" in obj:
                    obj_gid = obj.get("gid")
                    t = tiles.get(obj_gid & ~_GID_FLAGS) if isinstance(obj_gid, int) else None
                    w, h = _number(obj, "width", ow, fail), _number(obj, "height", ow, fail)
                    # tile objects are anchored at their bottom-left corner, others top-left
                    cy = (y - h / 2) // th if "gid" in obj else (y + h / 2) // th
                    cx = (x + w / 2) // tw
                    name = obj.get("name")
                    if isinstance(name, str) and name:
                        p.setdefault("name", name)
                    units.append(_unit(p, t, cell(int(cx), int(cy), ow), ow, fail))
    terrain = _group_terrain(grid_cells, hints)
    for lane, arrow in lanes:
        holders = [t for t in terrain if lane in t["cells"]]
        piece = next((t for t in holders if "lane" not in t), holders[0] if holders else None)
        if piece is None:
            raise fail("lane", f"the lane {lane} is not on a terrain piece")
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
    return scenario_from_json(document, fail.source)


def _group_terrain(
    grid: dict[tuple[str, str | None], list[str]], hints: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Terrain pieces from the drawn tiles: hinted pieces whose tiles are all still there
    keep their grouping (in the hints' order), other tiles of one kind and side that touch
    become one piece each. A cell drawn on two layers counts twice."""
    free = {key: Counter(cells) for key, cells in grid.items()}
    pieces: list[dict[str, Any]] = []
    for h in hints:
        key = (str(h.get("kind", "")), h.get("side") or None)
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
    p: dict[str, Any], tile: TileKind | None, cell: str, where: str, fail: _Fail
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


def _props(raw: Any, where: str, fail: _Fail) -> dict[str, Any]:
    if raw is None:
        return {}
    if isinstance(raw, dict):  # the old JSON format: {"name": value}
        return dict(raw)
    if not isinstance(raw, list):
        raise fail(where, "expected a list of properties")
    out: dict[str, Any] = {}
    for n, p in enumerate(raw):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            raise fail(f"{where}[{n}]", "expected a property with a name")
        out[p["name"]] = p.get("value")
    return out


def _number(obj: dict[str, Any], key: str, where: str, fail: _Fail) -> float:
    v = obj.get(key, 0)
    if not isinstance(v, int | float) or isinstance(v, bool) or not -1e7 < v < 1e7:
        raise fail(f"{where}.{key}", f"expected a number, got {v!r:.60}")
    return float(v)


def _tile_table(raw: Any, fail: _Fail) -> dict[int, TileKind]:
    if not isinstance(raw, list):
        raise fail("tilesets", "expected a list of tilesets")
    table: dict[int, TileKind] = {}
    for n, ts in enumerate(raw):
        if not isinstance(ts, dict) or not isinstance(ts.get("firstgid"), int):
            raise fail(f"tilesets[{n}]", "expected a tileset with a firstgid")
        for k, tile in enumerate(ts.get("tiles") or []):
            p = _props(tile.get("properties"), f"tilesets[{n}].tiles[{k}]", fail)
            if p.get("role") in ("terrain", "unit") and p.get("kind"):
                table[ts["firstgid"] + int(tile["id"])] = TileKind(
                    str(p["role"]), str(p["kind"]), str(p.get("side") or "") or None
                )
    return table


def _layer_data(layer: dict[str, Any], size: int, where: str, fail: _Fail) -> list[int]:
    data = layer.get("data")
    if isinstance(data, str):
        data = _decode_base64(data, layer.get("compression", ""), where, fail)
    if not isinstance(data, list) or len(data) != size:
        raise fail(where, f"expected {size} tile ids (the map's width x height)")
    if not all(isinstance(g, int) and 0 <= g < 2**32 for g in data):
        raise fail(where, "tile ids must be whole numbers from 0 to 2^32-1")
    return data


def _decode_base64(text: str, compression: str, where: str, fail: _Fail) -> list[int]:
    try:
        raw = base64.b64decode(text.strip(), validate=False)
        if compression == "zlib":
            raw = zlib.decompress(raw)
        elif compression == "gzip":
            raw = gzip.decompress(raw)
        elif compression:
            raise fail(where, f"unsupported compression {compression!r} (use CSV, zlib or gzip)")
    except (ValueError, zlib.error, OSError) as exc:
        raise fail(where, f"cannot decode the layer data ({exc})") from None
    if len(raw) % 4:
        raise fail(where, "base64 layer data is not a whole number of tile ids")
    return [int.from_bytes(raw[i : i + 4], "little") for i in range(0, len(raw), 4)]


def _xml_to_json(root: ET.Element, fail: _Fail) -> _JsonMap:
    """The parts of a TMX document tankmap reads, in the shape of the JSON format."""

    def num(el: ET.Element, key: str, default: str = "0") -> float:
        try:
            return float(el.get(key, default))
        except ValueError:
            raise fail(f"<{el.tag}>", f"attribute {key}={el.get(key)!r} is not a number") from None

    def props(el: ET.Element) -> list[dict[str, Any]]:
        out = []
        for p in el.findall("./properties/property"):
            kind = p.get("type", "string")
            text = p.get("value", p.text or "")
            value: Any = text
            if kind == "bool":
                value = text == "true"
            elif kind in ("int", "float"):
                try:
                    value = int(text) if kind == "int" else float(text)
                except ValueError:
                    raise fail(
                        "<property>", f"{p.get('name')}={text!r:.60} is not a {kind}"
                    ) from None
            out.append({"name": p.get("name", ""), "type": kind, "value": value})
        return out

    doc: dict[str, Any] = {k: root.get(k) for k in ("orientation",) if root.get(k)}
    for key in ("width", "height", "tilewidth", "tileheight"):
        doc[key] = int(num(root, key))
    doc["properties"] = props(root)
    doc["tilesets"] = [
        {
            "firstgid": int(num(ts, "firstgid", "1")),
            "tiles": [
                {"id": int(num(t, "id")), "properties": props(t)} for t in ts.findall("tile")
            ],
        }
        for ts in root.findall("tileset")
    ]
    layers: list[dict[str, Any]] = []
    for el in root:
        if el.tag == "layer":
            data_el = el.find("data")
            if data_el is None:
                raise fail("<layer>", "a tile layer without <data>")
            encoding = data_el.get("encoding", "")
            text = data_el.text or ""
            if encoding == "csv":
                try:
                    data: Any = [int(v) for v in text.replace("\n", "").split(",") if v.strip()]
                except ValueError:
                    raise fail("<data>", "CSV layer data must be whole numbers") from None
            elif encoding == "base64":
                data = text
            else:
                data = [int(num(t, "gid")) for t in data_el.findall("tile")]
            layers.append(
                {"type": "tilelayer", "data": data, "compression": data_el.get("compression", "")}
            )
        elif el.tag == "objectgroup":
            objects = []
            for o in el.findall("object"):
                obj: dict[str, Any] = {
                    "name": o.get("name", ""),
                    "type": o.get("type", o.get("class", "")),
                    "x": num(o, "x"),
                    "y": num(o, "y"),
                    "width": num(o, "width"),
                    "height": num(o, "height"),
                    "properties": props(o),
                }
                if o.get("gid") is not None:
                    obj["gid"] = int(num(o, "gid"))
                objects.append(obj)
            layers.append({"type": "objectgroup", "objects": objects})
    doc["layers"] = layers
    return _JsonMap(doc, fail)
