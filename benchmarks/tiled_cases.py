"""Mutated Tiled maps and decompression bombs for ``benchmarks/fuzz_tiled.py`` (and the
property test in ``tests/interop/test_tiled_bad_files.py``).

The sources are the built-in maps as ``tankmap export`` writes them (TMX and TMJ), and each
also with its tile layers re-encoded the other ways Tiled writes them (base64: plain, zlib,
gzip; TMX also ``<tile gid>`` elements). ``tmj_case`` and ``tmx_case`` take one source and
apply one to three seeded structural mutations, then perhaps one to the text:

- TMJ: a value's type swapped (object, list, string, number, null, deep nesting), a key or
  item dropped or duplicated, ids and gids missing, non-numeric, huge or negative, sizes
  ``inf``/``nan``/``1e308``/zero/negative/huge, control characters in texts, layer data
  re-encoded with bad base64, a wrong or unknown compression or a truncated stream;
- TMX: an attribute set to such values or removed, an element removed, duplicated, renamed
  or nested deeply, layer data re-encoded as above, CSV with junk;
- the text: an XML declaration naming an unknown or odd encoding, a truncated, byte-flipped
  or garbled document, entity expansion ("billion laughs", quadratic blow-up), external
  entities and an external DTD.

``Bombs`` makes layers whose base64 zlib or gzip data inflates to 64 MB to 1 GB of zeros.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import gzip
import json
import random
import zlib
from typing import Any
from xml.etree import ElementTree as ET

from tankmap.maps import builtin_maps
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.tiled import dumps_tmj, dumps_tmx

BOMB_SIZES = (64 << 20, 256 << 20, 1 << 30)
SWAPS: list[Any] = [{}, [], "", "x", "12", 0, -1, 1.5, True, None, [1, 2], {"id": 1}]
IDS: list[Any] = ["7", "x", "", 10**30, -1, -(2**31), 2**32, 2**63, 1.5, 1e308, True, None]
SIZES: list[Any] = [
    float("inf"),
    float("-inf"),
    float("nan"),
    1e308,
    -1e308,
    0,
    -5,
    0.5,
    27,
    10_000,
    10**6,
    [12],
    "12",
]
SIZE_KEYS = ("width", "height", "tilewidth", "tileheight", "x", "y", "firstgid", "columns")
ID_KEYS = ("id", "gid", "firstgid")
CONTROLS = ("\x1b[31m", "\x00", "\u202e", "\r\n", "\x7f", "\ud800", "\x07")
ATTR_VALUES = [
    "inf",
    "-inf",
    "nan",
    "NaN",
    "1e308",
    "-1e308",
    "1e400",
    "",
    " ",
    "x",
    "-1",
    "0",
    "9" * 40,
    "9" * 5000,
    "0x1f",
    "1_000",
    "\u0663",  # an Arabic-Indic digit: int() would take it
    "3.5",
    "true",
    "12 ",
    "\u202eevil",
    "bell\x07",
    "esc\x1b[2J",
]
ENCODINGS = (
    "klingon",
    "utf-32",
    "UTF-7",
    "cp037",
    "rot13",
    "base64",
    "zlib",
    "idna",
    "hz",
    "utf-16",
    "punycode",
    "undefined",
    "unicode_escape",
    "latin-1",
    "shift_jis",
    "x-mac-roman",
    "us-ascii",
    "",
)
TAGS = ("map", "layer", "objectgroup", "group", "tileset", "tile", "properties", "property")
TAGS += ("object", "data", "point", "image", "chunk")
GARBAGE = ("<", ">", "&", "&unknown;", "]]>", "<!--", "\x00", "&#0;", "&#xD800;", "\ufffe")
LAUGHS = (
    '<!DOCTYPE map [<!ENTITY l0 "lol">'
    + "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    + "]>"
)
DOCTYPES = (
    LAUGHS,
    '<!DOCTYPE map [<!ENTITY big "' + "x" * 50_000 + '">]>',  # quadratic blow-up
    '<!DOCTYPE map [<!ENTITY ext SYSTEM "file:///etc/passwd">]>',
    '<!DOCTYPE map [<!ENTITY % ext SYSTEM "http://127.0.0.1:9/x.dtd"> %ext;]>',
    '<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">',  # old Tiled: harmless
)
DEEP = "(5000 nested lists)"  # put in the text after json.dumps, which would recurse
DEEP_TAG = "deep-5000"
ENTITY_USES = ("&l9;", "&big;" * 200, "&ext;", "", "")


# --- sources ----------------------------------------------------------------------------


def _gids_bytes(gids: list[int]) -> bytes:
    return b"".join(g.to_bytes(4, "little") for g in gids)


def _compress(raw: bytes, how: str) -> bytes:
    if how == "zlib":
        return zlib.compress(raw)
    if how == "gzip":
        return gzip.compress(raw, mtime=0)
    return raw


def sources() -> tuple[list[dict[str, Any]], list[str]]:
    """The built-in maps as TMJ documents and TMX texts, each as exported and with its
    tile layers as base64 (plain, zlib, gzip) too."""
    tmj: list[dict[str, Any]] = []
    tmx: list[str] = []
    for path in builtin_maps():
        scenario = read_scenario(path)
        doc = json.loads(dumps_tmj(scenario))
        text = dumps_tmx(scenario)
        tmj.append(doc)
        tmx.append(text)
        for how in ("", "zlib", "gzip"):
            d = copy.deepcopy(doc)
            for layer in d["layers"]:
                if layer["type"] == "tilelayer":
                    raw = _compress(_gids_bytes(layer["data"]), how)
                    layer["data"] = base64.b64encode(raw).decode()
                    layer["encoding"] = "base64"
                    if how:
                        layer["compression"] = how
            tmj.append(d)
            root = ET.fromstring(text)
            for data in root.iter("data"):
                _encode_tmx_data(data, _csv_gids(data.text or ""), "base64", how)
            tmx.append(ET.tostring(root, "unicode"))
        root = ET.fromstring(text)
        for data in root.iter("data"):
            _encode_tmx_data(data, _csv_gids(data.text or ""), "xml", "")
        tmx.append(ET.tostring(root, "unicode"))
    return tmj, tmx


def _csv_gids(text: str) -> list[int]:
    return [int(v) for v in text.replace("\n", "").split(",") if v.strip()]


def _encode_tmx_data(data: ET.Element, gids: list[int], encoding: str, how: str) -> None:
    data.attrib.clear()
    for child in list(data):
        data.remove(child)
    if encoding == "xml":
        data.text = None
        for g in gids:
            ET.SubElement(data, "tile", {"gid": str(g)} if g else {})
        return
    data.set("encoding", encoding)
    if how:
        data.set("compression", how)
    data.text = base64.b64encode(_compress(_gids_bytes(gids), how)).decode()


# --- TMJ mutations ----------------------------------------------------------------------


def _slots(doc: Any) -> list[tuple[Any, Any]]:
    """(parent, key) of every value in ``doc``; layer data items only now and then."""
    out: list[tuple[Any, Any]] = []

    def walk(node: Any, in_data: bool) -> None:
        if isinstance(node, dict):
            for k in list(node):
                out.append((node, k))
                walk(node[k], k == "data")
        elif isinstance(node, list):
            for i in range(len(node)):
                if not in_data or i % 97 == 0:
                    out.append((node, i))
                walk(node[i], False)

    walk(doc, False)
    return out


def _deep(depth: int, leaf: Any) -> Any:
    for _ in range(depth):
        leaf = [leaf]
    return leaf


def _bad_layer_data(gids: list[int], rng: random.Random) -> tuple[str, str]:
    """Layer data as base64 text with something wrong, and the compression to declare."""
    raw = _gids_bytes(gids)
    how = rng.choice(["", "zlib", "gzip"])
    packed = _compress(raw, how)
    declared = rng.choice([how, how, "zlib", "gzip", "zstd", "lzma", "ZLIB", "bogus", ""])
    r = rng.random()
    if r < 0.2:
        packed = packed[: rng.randrange(len(packed) + 1)]
    elif r < 0.35 and packed:
        i = rng.randrange(len(packed))
        packed = packed[:i] + bytes([packed[i] ^ 0x5A]) + packed[i + 1 :]
    elif r < 0.45:
        packed = _compress(raw + b"\0\0", how)
    text = base64.b64encode(packed).decode()
    r = rng.random()
    if r < 0.15:
        text = text[: rng.randrange(len(text) + 1)]
    elif r < 0.25:
        text = rng.choice(["!!!!", "====", "a", "\u00e9t\u00e9", " \n ", "QUJD\x00"]) + text
    elif r < 0.3:
        text = text.replace("A", "-", 3)
    return text, declared


def mutate_tmj(doc: Any, rng: random.Random) -> Any:
    """One seeded structural mutation of a TMJ document (returns the new document)."""
    slots = _slots(doc)
    if not slots:
        return copy.deepcopy(rng.choice(SWAPS))
    action = rng.randrange(9)
    if action == 0:  # a value's type swapped
        parent, key = rng.choice(slots)
        parent[key] = copy.deepcopy(rng.choice(SWAPS))
    elif action == 1:  # a key or item dropped
        parent, key = rng.choice(slots)
        del parent[key]
    elif action == 2:  # ids
        named = [(p, k) for p, k in slots if k in ID_KEYS] or slots
        parent, key = rng.choice(named)
        if rng.random() < 0.3:
            del parent[key]
        else:
            parent[key] = rng.choice(IDS)
    elif action == 3:  # sizes
        named = [(p, k) for p, k in slots if k in SIZE_KEYS] or slots
        parent, key = rng.choice(named)
        parent[key] = rng.choice(SIZES)
    elif action == 4:  # deep nesting
        parent, key = rng.choice(slots)
        parent[key] = _deep(rng.choice([10, 70]), parent[key]) if rng.random() < 0.7 else DEEP
    elif action == 5:  # control characters in a text (or a key)
        texts = [(p, k) for p, k in slots if isinstance(p[k], str)] or slots
        parent, key = rng.choice(texts)
        parent[key] = str(parent[key]) + rng.choice(CONTROLS)
        if isinstance(parent, dict) and rng.random() < 0.3:
            parent[str(key) + rng.choice(CONTROLS)] = parent.pop(key)
    elif action == 6:  # layer data re-encoded badly
        layers = (
            [la for la in doc.get("layers", []) if isinstance(la, dict)]
            if isinstance(doc, dict)
            else []
        )
        tile = [la for la in layers if isinstance(la.get("data"), list)]
        if tile:
            layer = rng.choice(tile)
            gids = [g if isinstance(g, int) and 0 <= g < 2**32 else 0 for g in layer["data"]]
            layer["data"], layer["compression"] = _bad_layer_data(gids, rng)
            layer["encoding"] = rng.choice(["base64", "base64", "csv", "bogus"])
    elif action == 7:  # an item duplicated or moved elsewhere
        parent, key = rng.choice(slots)
        other, okey = rng.choice(slots)
        if isinstance(other, list):
            other.insert(rng.randrange(len(other) + 1), copy.deepcopy(parent[key]))
        else:
            other[okey] = copy.deepcopy(parent[key])
    else:  # a huge map
        if isinstance(doc, dict):
            doc["width"], doc["height"] = rng.choice([(10_000, 10_000), (27, 12), (2**31, 2)])
    return doc


def tmj_case(rng: random.Random, docs: list[dict[str, Any]]) -> bytes:
    doc = copy.deepcopy(rng.choice(docs))
    for _ in range(rng.randint(1, 3)):
        doc = mutate_tmj(doc, rng)
    text = json.dumps(doc, ensure_ascii=rng.random() < 0.5)
    text = text.replace(json.dumps(DEEP), "[" * 5000 + "]" * 5000)
    r = rng.random()
    if r < 0.05:
        text = text[: rng.randrange(len(text) + 1)]
    elif r < 0.10:
        i = rng.randrange(len(text))
        text = text[:i] + chr(rng.randrange(1, 0x2FF)) + text[i + 1 :]
    elif r < 0.12:
        text = text.replace('"width":', '"width": 1e400, "w":', 1)
    return text.encode("utf-8", "surrogatepass")


# --- TMX mutations ----------------------------------------------------------------------


def mutate_tmx(root: ET.Element, rng: random.Random) -> None:
    """One seeded structural mutation of a TMX element tree, in place."""
    pairs = [(parent, child) for parent in root.iter() for child in parent]
    elements = [root] + [child for _, child in pairs]
    action = rng.randrange(8)
    if action <= 1:  # an attribute's value (twice as likely)
        with_attrs = [el for el in elements if el.attrib]
        el = rng.choice(with_attrs)
        el.set(rng.choice(list(el.attrib)), rng.choice(ATTR_VALUES))
    elif action == 2 and pairs:  # an attribute or element removed
        if rng.random() < 0.5:
            el = rng.choice([el for el in elements if el.attrib])
            del el.attrib[rng.choice(list(el.attrib))]
        else:
            parent, child = rng.choice(pairs)
            parent.remove(child)
    elif action == 3 and pairs:  # an element duplicated
        parent, child = rng.choice(pairs)
        parent.insert(rng.randrange(len(parent) + 1), copy.deepcopy(child))
    elif action == 4 and pairs:  # an element renamed
        _, child = rng.choice(pairs)
        child.tag = rng.choice(TAGS)
    elif action == 5 and pairs:  # deep nesting
        parent, child = rng.choice(pairs)
        parent.remove(child)
        wrapper = outer = ET.Element(rng.choice(TAGS))
        for _ in range(rng.choice([5, 100])):
            wrapper = ET.SubElement(wrapper, rng.choice(("group", "layer", "properties")))
        if rng.random() < 0.3:  # 5,000 more levels, put in the text (tostring would recurse)
            wrapper = ET.SubElement(wrapper, DEEP_TAG)
        wrapper.append(child)
        parent.append(outer)
    elif action == 6:  # layer data re-encoded, or junk in it
        datas = list(root.iter("data"))
        if datas:
            data = rng.choice(datas)
            if rng.random() < 0.5:
                text, declared = _bad_layer_data([0] * 12 + [1] * 30, rng)
                data.attrib.clear()
                data.set("encoding", rng.choice(["base64", "base64", "csv", "xml", "bogus"]))
                if declared:
                    data.set("compression", declared)
                data.text = text
            else:
                data.text = rng.choice(["1,,2", "a,b", "1;2", "-1", "4294967296", "1e3", "0x1"]) + (
                    data.text or ""
                )
    else:  # a text made junk
        el = rng.choice(elements)
        el.text = rng.choice(["", "x" * 1000, "\u202e", "1,2,3"]) + (el.text or "")


def tmx_case(rng: random.Random, texts: list[str]) -> bytes:
    root = ET.fromstring(rng.choice(texts))
    for _ in range(rng.randint(1, 3)):
        mutate_tmx(root, rng)
    body = ET.tostring(root, "unicode")
    body = body.replace(f"<{DEEP_TAG}>", "<group>" * 5000)
    body = body.replace(f"</{DEEP_TAG}>", "</group>" * 5000)
    r = rng.random()
    if r < 0.12:  # an XML declaration with an odd encoding
        enc = rng.choice(ENCODINGS)
        head = f'<?xml version="1.0" encoding="{enc}"?>\n'
        with contextlib.suppress(LookupError, UnicodeError, ValueError):
            if rng.random() < 0.5:
                return (head + body).encode(enc)
        return (head + body).encode("utf-8")
    if r < 0.20:  # entities and DTDs
        k = rng.randrange(len(DOCTYPES))
        use = ENTITY_USES[k]
        body = body.replace('name="title" value="', f'name="title" value="{use}', 1)
        body = body.replace("<map ", f'<map title="{use}" ', 1) if use else body
        return ('<?xml version="1.0"?>\n' + DOCTYPES[k] + "\n" + body).encode("utf-8")
    text = '<?xml version="1.0" encoding="UTF-8"?>\n' + body
    if r < 0.25:
        text = text[: rng.randrange(len(text) + 1)]
    elif r < 0.30:
        i = rng.randrange(len(text))
        text = text[:i] + rng.choice(GARBAGE) + text[i:]
    elif r < 0.33:
        i = rng.randrange(len(text))
        text = text[:i] + chr(rng.randrange(1, 0x2FF)) + text[i + 1 :]
    return text.encode("utf-8", "surrogatepass")


# --- decompression bombs ----------------------------------------------------------------


def zero_stream(size: int, how: str) -> bytes:
    """``size`` zero bytes compressed with zlib or gzip, made in 1 MB steps (so making a
    1 GB bomb holds about 1 MB)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31 if how == "gzip" else 15)
    chunk = bytes(1 << 20)
    parts = [packer.compress(chunk) for _ in range(size >> 20)]
    parts.append(packer.flush())
    return b"".join(parts)


class Bombs:
    """Bomb cases: a built-in map's first tile layer replaced by a compressed zero stream."""

    def __init__(self, tmj: dict[str, Any], tmx: str) -> None:
        self.tmj, self.tmx = tmj, tmx
        self.streams: dict[tuple[int, str], str] = {}

    def stream(self, size: int, how: str) -> str:
        if (size, how) not in self.streams:
            self.streams[(size, how)] = base64.b64encode(zero_stream(size, how)).decode()
        return self.streams[(size, how)]

    def case(self, rng: random.Random) -> tuple[str, bytes]:
        how, size = rng.choice(["zlib", "gzip"]), rng.choice(BOMB_SIZES)
        text = self.stream(size, how)
        if rng.random() < 0.5:
            doc = copy.deepcopy(self.tmj)
            layer = next(la for la in doc["layers"] if la["type"] == "tilelayer")
            layer.update(data=text, encoding="base64", compression=how)
            return "tmj", json.dumps(doc).encode()
        root = ET.fromstring(self.tmx)
        data = next(root.iter("data"))
        data.attrib.clear()
        data.set("encoding", "base64")
        data.set("compression", how)
        data.text = text
        return "tmx", ET.tostring(root, "utf-8", xml_declaration=True)
