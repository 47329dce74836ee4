"""Tiled maps (``.tmx`` XML and ``.tmj`` JSON) to and from tankmap scenarios.

A scenario is written as an orthogonal Tiled map, north at the top (Tiled's row 0 is the
board's last row), with

- one or more **tile layers** ``terrain`` (``terrain 2``... only where terrain pieces
  overlap) drawing every terrain cell with a tile of the shipped tileset
  (``resources/tiled/tankmap-tiles.png``; each tile carries the properties ``role``,
  ``kind`` and ``side``);
- an **object layer** ``units``: one tile object per unit, its cell from its position and
  the custom properties ``kind``, ``side``, ``name``, ``facing``, ``damage``, ``armour`` and
  ``wreck``; minefield lanes are point objects of class ``lane`` with the property
  ``arrow``;
- a hidden, locked object layer ``tankmap pieces``: one rectangle per terrain piece with its
  ``kind``, ``side``, ``cells`` and ``shape``, so pieces that touch keep their grouping;
- map properties: ``ruleset``, ``title``, ``author``, ``notes``, ``to_move``, one
  ``option:NAME`` property per scenario option and one ``editor:NAME`` per editor setting
  (``editor:symmetry``).

Reading goes the other way (``rules.tiled_read``: ``read_tiled``, ``loads_tmx``,
``loads_tmj``; the document's shape is checked first by ``rules.tiled_shape``, a ``.tmx``
is parsed safely by ``rules.tiled_xml`` and layer data is inflated with bounded memory by
``rules.tiled_layers``). The tile layers are the truth for terrain cells: a piece of
the hidden layer whose cells still carry its tiles keeps its grouping, and every other
terrain tile (moved or drawn in Tiled) joins a new piece with the touching tiles of the
same kind and side. A unit object's properties win over its tile. The result goes
through the scenario reader (``scenario_from_json``), so a map edited into an illegal
position reads fine and ``check`` reports it like any scenario; a map that cannot become a
scenario at all raises ``ScenarioFormatError`` naming the file, the place and the value.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from tankmap.rules.errors import TankmapError
from tankmap.rules.fileformat import (
    atomic_write_bytes,
    atomic_write_text,
    scenario_to_json,
)
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario

TILE = 32  # pixels per tile in the exported map and the tileset
TILESET_IMAGE = "tankmap-tiles.png"
TILESET_COLUMNS = 8
TILED_VERSION = "1.10.2"
JSON_FORMAT_VERSION = "1.10"
GID_FLAGS = 0xF0000000  # Tiled's flip/rotation bits in a global tile id
_SIDES = ("south", "north")
BUILTIN_RULESETS = ("final-act", "tank-chess", "tank-wars")  # the tileset image draws these


@dataclass(frozen=True)
class TileKind:
    """One tile of the tileset: a terrain kind or a unit kind, of one side or none."""

    role: str  # "terrain" or "unit"
    kind: str
    side: str | None


def tile_catalogue() -> tuple[TileKind, ...]:
    """Every tile of the shipped tileset, in tile-id order.

    Terrain kinds get a tile without a side and one per side; unit kinds one per side.
    The order follows the built-in rulesets and their kind lists, so it changes only when
    one gains a kind (then ``scripts/make_tiled_tileset.py`` redraws the image).
    """
    seen: dict[TileKind, None] = {}
    for name in BUILTIN_RULESETS:
        rs = get_ruleset(name)
        for kind in rs.terrain_kinds:
            for side in (None, *_SIDES):
                seen.setdefault(TileKind("terrain", kind, side))
        for kind in rs.unit_kinds:
            for side in _SIDES:
                seen.setdefault(TileKind("unit", kind, side))
    return tuple(seen)


# --- writing ----------------------------------------------------------------------------


def scenario_to_tiled(scenario: Scenario) -> dict[str, Any]:
    """The scenario as a Tiled JSON map document (the ``.tmj`` structure)."""
    doc = scenario_to_json(scenario)
    cols, rows = doc["board"]["columns"], doc["board"]["rows"]
    tiles = tile_catalogue()
    gid = _GidTable({t: n + 1 for n, t in enumerate(tiles)})
    board = scenario.board

    def xy(name: str) -> tuple[int, int]:
        c = board.parse_cell(name)
        return board.col_of(c), rows - 1 - board.row_of(c)

    layers: list[dict[str, Any]] = []
    grids: list[list[int]] = []
    piece_objects: list[dict[str, Any]] = []
    next_id = 1
    for piece in doc["terrain"]:
        cells = [xy(c) for c in piece["cells"]]
        k = next(
            (i for i, g in enumerate(grids) if all(g[y * cols + x] == 0 for x, y in cells)),
            None,
        )
        if k is None:
            grids.append([0] * (cols * rows))
            k = len(grids) - 1
        tile = gid[TileKind("terrain", piece["kind"], piece.get("side"))]
        for x, y in cells:
            grids[k][y * cols + x] = tile
        xs, ys = [x for x, _ in cells], [y for _, y in cells]
        props = [_prop("kind", piece["kind"]), _prop("cells", " ".join(piece["cells"]))]
        if "side" in piece:
            props.append(_prop("side", piece["side"]))
        if "shape" in piece:
            props.append(_prop("shape", piece["shape"]))
        piece_objects.append(
            _object(
                next_id,
                "",
                "terrain",
                min(xs),
                min(ys),
                max(xs) - min(xs) + 1,
                max(ys) - min(ys) + 1,
                props,
            )
        )
        next_id += 1
    for k, grid in enumerate(grids or [[0] * (cols * rows)]):
        layers.append(
            {
                "type": "tilelayer",
                "id": len(layers) + 1,
                "name": "terrain" if k == 0 else f"terrain {k + 1}",
                "width": cols,
                "height": rows,
                "x": 0,
                "y": 0,
                "data": grid,
                "opacity": 1,
                "visible": True,
            }
        )
    unit_objects: list[dict[str, Any]] = []
    for u in doc["units"]:
        x, y = xy(u["cell"])
        props = [_prop("kind", u["kind"]), _prop("side", u["side"])]
        if "facing" in u:
            props.append(_prop("facing", u["facing"]))
        props.append(_prop("damage", u.get("damage", 0)))
        if "armour" in u:
            props.append(_prop("armour", u["armour"]))
        props.append(_prop("wreck", bool(u.get("wreck", False))))
        obj = _object(next_id, u.get("name", ""), "unit", x, y + 1, 1, 1, props)
        obj["gid"] = gid[TileKind("unit", u["kind"], u["side"])]
        unit_objects.append(obj)
        next_id += 1
    for piece in doc["terrain"]:
        if "lane" in piece:
            x, y = xy(piece["lane"])
            props = [_prop("arrow", piece["arrow"])] if "arrow" in piece else []
            obj = _object(next_id, piece["lane"], "lane", x, y, 0, 0, props)
            obj["x"], obj["y"], obj["point"] = (x + 0.5) * TILE, (y + 0.5) * TILE, True
            unit_objects.append(obj)
            next_id += 1
    layers.append(_object_layer(len(layers) + 1, "units", unit_objects, visible=True))
    pieces_layer = _object_layer(len(layers) + 1, "tankmap pieces", piece_objects, visible=False)
    pieces_layer["locked"] = True
    layers.append(pieces_layer)
    properties = [
        _prop("tankmap_format", f"{doc['format']} {doc['version']}"),
        _prop("ruleset", doc["ruleset"]),
        _prop("title", doc["title"]),
        _prop("author", doc["author"]),
        _prop("notes", doc["notes"]),
        _prop("to_move", doc.get("to_move", "south")),
    ]
    properties += [_prop(f"option:{k}", v) for k, v in doc["options"].items()]
    properties += [_prop(f"editor:{k}", v) for k, v in doc.get("editor", {}).items()]
    return {
        "type": "map",
        "version": JSON_FORMAT_VERSION,
        "tiledversion": TILED_VERSION,
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "width": cols,
        "height": rows,
        "tilewidth": TILE,
        "tileheight": TILE,
        "infinite": False,
        "compressionlevel": -1,
        "nextlayerid": len(layers) + 1,
        "nextobjectid": next_id,
        "properties": properties,
        "layers": layers,
        "tilesets": [_tileset_json(tiles)],
    }


class _GidTable(dict[TileKind, int]):
    def __missing__(self, key: TileKind) -> int:
        raise TankmapError(
            f"the Tiled tileset has no tile for the {key.role} kind {key.kind!r} "
            f"(only the kinds of {', '.join(BUILTIN_RULESETS)})"
        )


def dumps_tmj(scenario: Scenario) -> str:
    """The scenario as the text of a Tiled JSON map (``.tmj``)."""
    return json.dumps(scenario_to_tiled(scenario), indent=1, ensure_ascii=False) + "\n"


def dumps_tmx(scenario: Scenario) -> str:
    """The scenario as the text of a Tiled XML map (``.tmx``, CSV layer data).

    Raises ``TankmapError`` if a text (title, notes, a name...) holds a control character
    that XML 1.0 cannot carry (the ``.tmj`` format can).
    """
    doc = scenario_to_tiled(scenario)
    for text in _texts(doc):
        bad = next((ch for ch in text if ch in _XML_FORBIDDEN), None)
        if bad is not None:
            raise TankmapError(
                f"{text[:40]!r} holds the control character {bad!r}, which a .tmx file cannot "
                "carry; export as .tmj instead"
            )
    root = ET.Element(
        "map",
        {
            "version": JSON_FORMAT_VERSION,
            "tiledversion": TILED_VERSION,
            "orientation": "orthogonal",
            "renderorder": "right-down",
            "width": str(doc["width"]),
            "height": str(doc["height"]),
            "tilewidth": str(TILE),
            "tileheight": str(TILE),
            "infinite": "0",
            "nextlayerid": str(doc["nextlayerid"]),
            "nextobjectid": str(doc["nextobjectid"]),
        },
    )
    _xml_properties(root, doc["properties"])
    ts = doc["tilesets"][0]
    tileset = ET.SubElement(
        root,
        "tileset",
        {
            "firstgid": "1",
            "name": ts["name"],
            "tilewidth": str(TILE),
            "tileheight": str(TILE),
            "tilecount": str(ts["tilecount"]),
            "columns": str(ts["columns"]),
        },
    )
    ET.SubElement(
        tileset,
        "image",
        {
            "source": ts["image"],
            "width": str(ts["imagewidth"]),
            "height": str(ts["imageheight"]),
        },
    )
    for tile in ts["tiles"]:
        el = ET.SubElement(tileset, "tile", {"id": str(tile["id"])})
        _xml_properties(el, tile["properties"])
    for layer in doc["layers"]:
        if layer["type"] == "tilelayer":
            el = ET.SubElement(
                root,
                "layer",
                {
                    "id": str(layer["id"]),
                    "name": layer["name"],
                    "width": str(layer["width"]),
                    "height": str(layer["height"]),
                },
            )
            data = ET.SubElement(el, "data", {"encoding": "csv"})
            w = layer["width"]
            rows = [layer["data"][i : i + w] for i in range(0, len(layer["data"]), w)]
            data.text = "\n" + ",\n".join(",".join(map(str, r)) for r in rows) + "\n"
            continue
        attrs = {"id": str(layer["id"]), "name": layer["name"]}
        if not layer["visible"]:
            attrs["visible"] = "0"
        if layer.get("locked"):
            attrs["locked"] = "1"
        el = ET.SubElement(root, "objectgroup", attrs)
        for obj in layer["objects"]:
            o_attrs = {"id": str(obj["id"])}
            if obj["name"]:
                o_attrs["name"] = obj["name"]
            o_attrs["type"] = obj["type"]
            if "gid" in obj:
                o_attrs["gid"] = str(obj["gid"])
            o_attrs["x"], o_attrs["y"] = _num(obj["x"]), _num(obj["y"])
            if not obj.get("point"):
                o_attrs["width"], o_attrs["height"] = _num(obj["width"]), _num(obj["height"])
            o = ET.SubElement(el, "object", o_attrs)
            _xml_properties(o, obj["properties"])
            if obj.get("point"):
                ET.SubElement(o, "point")
    ET.indent(root, space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


_XML_FORBIDDEN = frozenset(chr(c) for c in range(32) if chr(c) not in "\t\n\r") | {
    "\ufffe",
    "\uffff",
}


def _texts(doc: Any) -> Iterator[str]:
    if isinstance(doc, str):
        yield doc
    elif isinstance(doc, dict):
        for v in doc.values():
            yield from _texts(v)
    elif isinstance(doc, list):
        for v in doc:
            yield from _texts(v)


def _prop(name: str, value: Any) -> dict[str, Any]:
    kind = (
        "bool"
        if isinstance(value, bool)
        else "int"
        if isinstance(value, int)
        else "float"
        if isinstance(value, float)
        else "string"
    )
    return {"name": name, "type": kind, "value": value}


def _object(
    oid: int, name: str, cls: str, x: int, y: int, w: int, h: int, props: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "id": oid,
        "name": name,
        "type": cls,
        "x": x * TILE,
        "y": y * TILE,
        "width": w * TILE,
        "height": h * TILE,
        "rotation": 0,
        "visible": True,
        "properties": props,
    }


def _object_layer(
    lid: int, name: str, objects: list[dict[str, Any]], visible: bool
) -> dict[str, Any]:
    return {
        "type": "objectgroup",
        "id": lid,
        "name": name,
        "draworder": "topdown",
        "objects": objects,
        "opacity": 1,
        "visible": visible,
        "x": 0,
        "y": 0,
    }


def _tileset_json(tiles: tuple[TileKind, ...]) -> dict[str, Any]:
    rows = -(-len(tiles) // TILESET_COLUMNS)
    return {
        "firstgid": 1,
        "name": "tankmap",
        "tilewidth": TILE,
        "tileheight": TILE,
        "tilecount": len(tiles),
        "columns": TILESET_COLUMNS,
        "margin": 0,
        "spacing": 0,
        "image": TILESET_IMAGE,
        "imagewidth": TILESET_COLUMNS * TILE,
        "imageheight": rows * TILE,
        "tiles": [
            {
                "id": n,
                "properties": [
                    _prop("role", t.role),
                    _prop("kind", t.kind),
                    _prop("side", t.side or ""),
                ],
            }
            for n, t in enumerate(tiles)
        ],
    }


def _xml_properties(parent: ET.Element, props: list[dict[str, Any]]) -> None:
    if not props:
        return
    el = ET.SubElement(parent, "properties")
    for p in props:
        attrs = {"name": p["name"]}
        if p["type"] != "string":
            attrs["type"] = p["type"]
        value = p["value"]
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        if p["type"] == "string" and "\n" in text:
            ET.SubElement(el, "property", attrs).text = text
        else:
            attrs["value"] = text
            ET.SubElement(el, "property", attrs)


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


# --- reading ----------------------------------------------------------------------------


def write_tiled(scenario: Scenario, path: str | os.PathLike[str]) -> Path:
    """Write the scenario as a Tiled map (format by extension) and put the tileset image
    beside it; returns the image's path. Both files are written atomically."""
    fmt = tiled_format(str(path))
    if fmt is None:
        raise TankmapError(f"{path}: a Tiled map's name ends in .tmx or .tmj")
    text = dumps_tmx(scenario) if fmt == "tmx" else dumps_tmj(scenario)
    image = Path(path).parent / TILESET_IMAGE
    shipped = resources.files("tankmap.resources").joinpath("tiled", TILESET_IMAGE).read_bytes()
    if not image.exists() or image.read_bytes() != shipped:
        atomic_write_bytes(image, shipped)
    atomic_write_text(path, text)
    return image


def tiled_format(path: str) -> str | None:
    """``"tmx"`` or ``"tmj"`` from a file name's extension (``.json`` is not Tiled's)."""
    lower = path.lower()
    for ext in ("tmx", "tmj"):
        if lower.endswith("." + ext):
            return ext
    return None
