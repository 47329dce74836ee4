"""Reading a ``.tmx`` file safely into the shape of a ``.tmj`` document.

``parse_tmx`` parses with the standard library's expat, driven directly rather than through
``xml.etree.ElementTree.fromstring``:

- the text's encoding is settled first: UTF-8 (what Tiled writes), UTF-16 with a byte order
  mark, US-ASCII or ISO-8859-1; an XML declaration naming any other encoding is refused
  in one line (expat would otherwise hand it to whatever Python codec has that name);
- an entity declaration (internal or external, general or parameter) is refused, so entity
  expansion ("billion laughs") and external entities (local files, URLs) cannot happen;
  an external DTD (``<!DOCTYPE map SYSTEM "...">``, as old Tiled versions wrote) is never
  fetched: it is harmless;
- elements nested deeper than ``MAX_DEPTH`` are refused.

``tmx_to_doc`` turns the element tree into the JSON shape ``rules.tiled_shape`` checks,
checking the attributes tankmap reads on the way (a whole number, a finite decimal number,
``true``/``false``), and records in the ``Fail`` where each value came from, so later
errors name the element path (``map/objectgroup[1]/object[3]/@x``).
"""

from __future__ import annotations

import codecs
import math
import re
from typing import Any
from xml.etree import ElementTree as ET
from xml.parsers import expat

from tankmap.rules.errors import printable, short
from tankmap.rules.tiled_layers import csv_gids
from tankmap.rules.tiled_shape import MAX_TILES, Fail, join

MAX_DEPTH = 64
_DECLARED = re.compile(rb"<\?xml[^>]{0,200}?encoding\s*=\s*[\"']([^\"'>]{0,40})[\"']")
_READ_AS = {  # declared encoding (lower case) -> the codec the text is read with
    "utf-8": "utf-8",
    "utf8": "utf-8",
    "us-ascii": "ascii",
    "ascii": "ascii",
    "iso-8859-1": "latin-1",
    "latin-1": "latin-1",
    "latin1": "latin-1",
}
_INT = re.compile(r"\s*[-+]?[0-9]+\s*")
MAX_DIGITS = 30
_NUMBER = re.compile(r"\s*[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]{1,4})?\s*")


class _Refused(Exception):
    """Raised inside expat's handlers to stop the parse."""


def parse_tmx(text: str | bytes, fail: Fail) -> ET.Element:
    """The root element of the XML document ``text``; ``ScenarioFormatError`` for text
    that is not well-formed XML in a readable encoding, declares entities or nests too
    deeply (see the module docstring)."""
    if isinstance(text, bytes):
        text = _decode(text, fail)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        raise fail("", "text with a lone surrogate (not valid Unicode)") from None
    parser = expat.ParserCreate(encoding="UTF-8")  # the text is UTF-8 now, whatever it says
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    builder = ET.TreeBuilder()
    depth = 0

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal depth
        depth += 1
        if depth > MAX_DEPTH:
            raise _Refused(f"elements nested more than {MAX_DEPTH} deep")
        builder.start(tag, attrs)

    def end(tag: str) -> None:
        nonlocal depth
        depth -= 1
        builder.end(tag)

    def entity(name: str, *_: Any) -> None:
        raise _Refused(f"the entity declaration {short(name, 40)} (a Tiled map declares none)")

    def skipped(name: str, _parameter: bool) -> None:
        raise _Refused(f"the undeclared entity {short(name, 40)}")

    def external(*_: Any) -> int:
        raise _Refused("an external entity (a Tiled map uses none)")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = builder.data
    parser.EntityDeclHandler = entity
    parser.UnparsedEntityDeclHandler = entity
    parser.SkippedEntityHandler = skipped
    parser.ExternalEntityRefHandler = external
    parser.buffer_text = True
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise fail("", f"not valid XML ({exc})") from None
    except _Refused as exc:
        raise fail("", f"refused XML at line {parser.CurrentLineNumber}: {exc}") from None
    return builder.close()


def _decode(data: bytes, fail: Fail) -> str:
    """The text of a TMX file's bytes, in the encoding its byte order mark or XML
    declaration names (UTF-8 if none), if it is one tankmap reads."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        codec, named = "utf-16", "UTF-16"
    else:
        declared = _DECLARED.match(data.removeprefix(codecs.BOM_UTF8))
        named = declared[1].decode("ascii", "replace") if declared else "UTF-8"
        codec = _READ_AS.get(named.lower(), "")
        if not codec:
            raise fail(
                "",
                "the XML declaration names an encoding tankmap does not read (Tiled writes "
                "UTF-8; UTF-16 with a byte order mark, US-ASCII and ISO-8859-1 are read too)",
                named,
            )
    try:
        return data.decode("utf-8-sig" if codec == "utf-8" else codec)
    except UnicodeDecodeError as exc:
        raise fail("", f"not {named} text (bad byte at offset {exc.start})") from None


class _Converter:
    """Builds the JSON-shaped document, recording each value's element path in ``fail``."""

    def __init__(self, fail: Fail) -> None:
        self.fail = fail

    def place(self, where: str, path: str) -> None:
        self.fail.places[where] = path

    def integer(self, el: ET.Element, key: str, out: dict[str, Any], where: str) -> None:
        """``out[key]`` = the whole number in attribute ``key``, if there is one."""
        text = el.get(key)
        if text is not None:
            out[key] = self.whole(text, join(where, key))

    def whole(self, text: str, where: str) -> int:
        """The whole number ``text`` (at most ``MAX_DIGITS`` digits)."""
        if not _INT.fullmatch(text):
            raise self.fail(where, "expected a whole number", text)
        if len(text.strip().lstrip("+-")) > MAX_DIGITS:
            raise self.fail(where, f"expected a whole number of at most {MAX_DIGITS} digits", text)
        return int(text)

    def number(self, el: ET.Element, key: str, out: dict[str, Any], where: str) -> None:
        """``out[key]`` = the decimal number in attribute ``key``, if there is one."""
        text = el.get(key)
        if text is not None:
            out[key] = self.decimal(text, join(where, key))

    def decimal(self, text: str, where: str) -> float:
        """The finite decimal number ``text`` (``1e400`` is refused as written, not as
        the infinity ``float`` makes of it)."""
        if not _NUMBER.fullmatch(text):
            raise self.fail(where, "expected a decimal number", text)
        value = float(text)
        if math.isinf(value):
            raise self.fail(where, "expected a decimal number small enough to hold", text)
        return value

    def properties(self, el: ET.Element, path: str, where: str) -> list[dict[str, Any]]:
        """The custom properties of ``el`` (at ``path``) as the JSON format lists them."""
        self.place(join(where, "properties"), f"{path}/properties")
        out = []
        for n, p in enumerate(el.findall("./properties/property")):
            pw = f"{join(where, 'properties')}[{n}]"
            self.place(pw, f"{path}/properties/property[{n + 1}]")
            kind = p.get("type", "string")
            prop: dict[str, Any] = {"name": p.get("name", ""), "type": kind}
            text = p.get("value", p.text or "")
            if kind in ("int", "object"):
                prop["value"] = self.whole(text, f"{pw}.value")
            elif kind == "float":
                prop["value"] = self.decimal(text, f"{pw}.value")
            elif kind == "bool":
                if text not in ("true", "false"):
                    raise self.fail(f"{pw}.value", "expected true or false", text)
                prop["value"] = text == "true"
            elif kind == "class":
                prop["value"] = {}  # members of a class property: tankmap reads none
            else:
                prop["value"] = text
            out.append(prop)
        return out

    def map(self, root: ET.Element) -> dict[str, Any]:
        self.place("", "map")
        doc: dict[str, Any] = {}
        for key in ("width", "height", "tilewidth", "tileheight"):
            self.integer(root, key, doc, "")
        if root.get("orientation") is not None:
            doc["orientation"] = root.get("orientation")
        if root.get("infinite") is not None:
            inf: dict[str, Any] = {}
            self.integer(root, "infinite", inf, "")
            doc["infinite"] = bool(inf["infinite"])
        doc["properties"] = self.properties(root, "map", "")
        doc["tilesets"] = []
        for n, ts in enumerate(root.findall("tileset")):
            where, path = f"tilesets[{n}]", f"map/tileset[{n + 1}]"
            self.place(where, path)
            tileset: dict[str, Any] = {"tiles": []}
            self.integer(ts, "firstgid", tileset, where)
            if ts.get("source") is not None:
                tileset["source"] = ts.get("source")
            for k, t in enumerate(ts.findall("tile")):
                tw = f"{where}.tiles[{k}]"
                self.place(tw, f"{path}/tile[{k + 1}]")
                tile: dict[str, Any] = {
                    "properties": self.properties(t, f"{path}/tile[{k + 1}]", tw)
                }
                self.integer(t, "id", tile, tw)
                tileset["tiles"].append(tile)
            doc["tilesets"].append(tileset)
        doc["layers"] = self.layers(root, "map", "")
        return doc

    def layers(self, parent: ET.Element, path: str, where: str) -> list[dict[str, Any]]:
        """The layers among ``parent``'s children (a group's layers are inside it)."""
        out: list[dict[str, Any]] = []
        seen: dict[str, int] = {}
        for el in parent:
            if el.tag not in ("layer", "objectgroup", "imagelayer", "group"):
                continue
            seen[el.tag] = seen.get(el.tag, 0) + 1
            lw = f"{join(where, 'layers')}[{len(out)}]"
            lp = f"{path}/{el.tag}[{seen[el.tag]}]"
            self.place(lw, lp)
            layer: dict[str, Any] = {"name": el.get("name", "")}
            if el.tag == "layer":
                layer["type"] = "tilelayer"
                self.tile_data(el, layer, lp, lw)
            elif el.tag == "objectgroup":
                layer["type"] = "objectgroup"
                self.place(f"{lw}.objects", lp)
                layer["objects"] = [
                    self.object(o, f"{lp}/object[{k + 1}]", f"{lw}.objects[{k}]")
                    for k, o in enumerate(el.findall("object"))
                ]
            elif el.tag == "group":
                layer["type"] = "group"
                layer["layers"] = self.layers(el, lp, lw)
            else:
                layer["type"] = "imagelayer"
            out.append(layer)
        return out

    def tile_data(self, el: ET.Element, layer: dict[str, Any], path: str, where: str) -> None:
        data_el = el.find("data")
        dp = f"{path}/data"
        self.place(f"{where}.data", dp)
        self.place(f"{where}.encoding", f"{dp}/@encoding")
        self.place(f"{where}.compression", f"{dp}/@compression")
        if data_el is None:
            return
        encoding = data_el.get("encoding", "")
        text = data_el.text or ""
        if encoding not in ("", "csv", "base64"):
            raise self.fail(
                f"{where}.encoding",
                "unknown layer data encoding (Tiled writes csv, base64 or <tile> elements)",
                encoding,
            )
        if encoding == "csv":
            layer["data"] = csv_gids(text, MAX_TILES, f"{where}.data", self.fail)
        elif encoding == "base64":
            layer["data"], layer["encoding"] = text, encoding
            layer["compression"] = data_el.get("compression", "")
        else:  # one <tile gid="..."/> per cell (Tiled's old XML format)
            tiles = data_el.findall("tile")
            if len(tiles) > MAX_TILES:
                raise self.fail(f"{where}.data", f"more than {MAX_TILES} tile ids", len(tiles))
            gids = []
            for n, t in enumerate(tiles):
                self.place(f"{where}.data[{n}]", f"{dp}/tile[{n + 1}]")
                entry: dict[str, Any] = {"gid": 0}
                self.integer(t, "gid", entry, f"{where}.data[{n}]")
                gids.append(entry["gid"])
            layer["data"] = gids

    def object(self, o: ET.Element, path: str, where: str) -> dict[str, Any]:
        self.place(where, path)
        obj: dict[str, Any] = {"name": o.get("name", ""), "type": o.get("type", o.get("class", ""))}
        self.integer(o, "gid", obj, where)
        for key in ("x", "y", "width", "height"):
            self.number(o, key, obj, where)
        if o.find("point") is not None:
            obj["point"] = True
        obj["properties"] = self.properties(o, path, where)
        return obj


def tmx_to_doc(root: ET.Element, fail: Fail) -> dict[str, Any]:
    """The TMX element tree ``root`` as a document of the ``.tmj`` shape (to be checked by
    ``rules.tiled_shape.check_shape``); ``ScenarioFormatError`` for a root that is not
    ``<map>`` and for attributes tankmap reads that are not numbers or true/false."""
    if root.tag != "map":
        raise fail("", f"the root element of a TMX file is <map>, not <{printable(root.tag, 40)}>")
    return _Converter(fail).map(root)
