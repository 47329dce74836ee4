"""The shape of a Tiled map as tankmap reads it: a small schema, checked before any value
of the document is used.

``check_shape`` walks a parsed ``.tmj`` document (or the one ``rules.tiled_xml`` builds
from a ``.tmx`` file) along ``MAP`` and raises ``ScenarioFormatError`` at the first value
of the wrong type or range, naming the file, the place (a JSON path such as
``layers[2].data[17]``, or for a ``.tmx`` file the element and attribute it came from,
such as ``map/layer[1]/data``) and the value. Only what tankmap reads is checked: Tiled's
other keys (``opacity``, ``tintcolor``, ...) may hold anything. After the check, every
value the reader uses has the type the schema names, so reading cannot fail with anything
but a ``ScenarioFormatError``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tankmap.rules.board import MAX_COLUMNS, MAX_ROWS
from tankmap.rules.errors import NO_VALUE, ScenarioFormatError

GID_LIMIT = 2**32  # a global tile id is 32 bits (the top four are flip/rotation flags)
ID_LIMIT = 2**31  # Tiled's ids and first gids are signed 32-bit numbers
COORD_LIMIT = 1e7  # pixels: far beyond any board, and exact in a float


class Fail:
    """Makes the one-line ``ScenarioFormatError`` of a Tiled file.

    A path of a ``.tmj`` file is shown from ``$`` (``$.layers[2].data[17]``). ``places``
    maps a path of the document's JSON shape to where that value stands in the file, for
    ``.tmx`` files (``"layers[0].data"`` -> ``"map/layer[1]/data"``); a path is
    shown through its longest mapped prefix, the rest as ``/@key`` for an attribute and
    ``(entry N)`` (counted from 1) for an item of a list without elements of its own.
    """

    def __init__(self, source: str, root: str = "$") -> None:
        self.source = source
        self.root = root  # what names the whole document: "$" (JSON) or "map" (TMX)
        self.places: dict[str, str] = {}

    def __call__(self, where: str, message: str, value: Any = NO_VALUE) -> ScenarioFormatError:
        path = self.place(where)
        return ScenarioFormatError.quoting(message, source=self.source, path=path, value=value)

    def place(self, where: str) -> str:
        """Where the value at the document path ``where`` stands in the file."""
        if not self.places:
            return f"{self.root}.{where}" if where and where[0] != "[" else self.root + where
        head = where
        while head and head not in self.places:
            head = head[: max(head.rfind("."), head.rfind("["), 0)]
        rest = where[len(head) :]
        if not head and rest and rest[0] != "[":
            rest = "." + rest
        return self.places.get(head, self.root) + "".join(
            f"/@{key}" if key else f" (entry {int(index) + 1})"
            for key, index in re.findall(r"\.([^.\[]+)|\[(\d+)\]", rest)
        )


# --- the schema -------------------------------------------------------------------------


class Spec:
    """One node of the schema: ``check`` raises ``Fail``'s error or returns nothing."""

    def check(self, value: Any, where: str, fail: Fail) -> None:
        raise NotImplementedError


@dataclass(frozen=True)
class Int(Spec):
    """A whole number from ``lo`` to ``hi`` (not a bool, not ``1.0``)."""

    lo: int
    hi: int
    why: str = ""

    def check(self, value: Any, where: str, fail: Fail) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or not self.lo <= value <= self.hi:
            why = f" ({self.why})" if self.why else ""
            raise fail(where, f"expected a whole number from {self.lo} to {self.hi}{why}", value)


@dataclass(frozen=True)
class Num(Spec):
    """A finite number from ``-limit`` to ``limit`` (not a bool)."""

    limit: float

    def check(self, value: Any, where: str, fail: Fail) -> None:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        if not ok or not math.isfinite(value) or abs(value) > self.limit:
            raise fail(
                where, f"expected a number from {-self.limit:.0f} to {self.limit:.0f}", value
            )


@dataclass(frozen=True)
class Of(Spec):
    """A value of one of the JSON types ``types`` (``str``, ``bool``, ``dict``...)."""

    types: tuple[type, ...]
    what: str

    def check(self, value: Any, where: str, fail: Fail) -> None:
        bad_bool = isinstance(value, bool) and bool not in self.types
        if not isinstance(value, self.types) or bad_bool:
            raise fail(where, f"expected {self.what}", value)
        if isinstance(value, float) and not math.isfinite(value):
            raise fail(where, f"expected {self.what} (a finite number)", value)


TEXT = Of((str,), "a string")
SCALAR = Of((str, int, float, bool), "a string, number or true/false")


@dataclass(frozen=True)
class OneOf(Spec):
    """One of the strings ``values``."""

    values: tuple[str, ...]

    def check(self, value: Any, where: str, fail: Fail) -> None:
        if not isinstance(value, str) or value not in self.values:
            raise fail(where, f"expected one of: {', '.join(self.values)}", value)


@dataclass(frozen=True)
class ListOf(Spec):
    """A list (at most ``most`` items) whose items are ``item``."""

    item: Spec
    most: int = 1_000_000
    what: str = "items"

    def check(self, value: Any, where: str, fail: Fail) -> None:
        if not isinstance(value, list):
            raise fail(where, f"expected a list of {self.what}", value)
        if len(value) > self.most:
            raise fail(where, f"more than {self.most} {self.what}", len(value))
        for n, v in enumerate(value):
            self.item.check(v, f"{where}[{n}]", fail)


@dataclass(frozen=True)
class Obj(Spec):
    """An object whose keys in ``keys`` (if present) are of their spec; ``required`` keys
    must be present; other keys may hold anything."""

    what: str
    keys: Mapping[str, Spec] = field(default_factory=dict)
    required: tuple[str, ...] = ()

    def check(self, value: Any, where: str, fail: Fail) -> None:
        if not isinstance(value, dict):
            raise fail(where, f"expected {self.what} (a JSON object)", value)
        for key in self.required:
            if key not in value:
                raise fail(join(where, key), f"{self.what} needs {key!r}")
        for key, spec in self.keys.items():
            if key in value:
                spec.check(value[key], join(where, key), fail)


@dataclass(frozen=True)
class MapOf(Spec):
    """An object of any keys whose values are ``item`` (Tiled's old property objects)."""

    item: Spec

    def check(self, value: Any, where: str, fail: Fail) -> None:
        if not isinstance(value, dict):
            raise fail(where, "expected a JSON object", value)
        for key, v in value.items():
            self.item.check(v, join(where, key), fail)


@dataclass(frozen=True)
class Either(Spec):
    """A list or a string/object: ``as_list`` for lists, ``other`` for anything else."""

    as_list: Spec
    other: Spec

    def check(self, value: Any, where: str, fail: Fail) -> None:
        (self.as_list if isinstance(value, list) else self.other).check(value, where, fail)


class Property(Spec):
    """A custom property ``{"name", "type", "value"}`` whose value has its type."""

    VALUES: Mapping[str, Spec] = {
        "string": TEXT,
        "color": TEXT,
        "file": TEXT,
        "int": Int(-(2**53), 2**53),
        "object": Int(0, ID_LIMIT - 1),
        "float": Num(1e300),
        "bool": Of((bool,), "true or false"),
        "class": Of((dict,), "a JSON object"),
    }
    SHAPE = Obj("a property", {"name": TEXT, "type": TEXT, "propertytype": TEXT}, ("name",))

    def check(self, value: Any, where: str, fail: Fail) -> None:
        self.SHAPE.check(value, where, fail)
        spec = self.VALUES.get(value.get("type", "string"))
        if "value" in value and spec is not None:  # a type of a later Tiled: not checked
            spec.check(value["value"], join(where, "value"), fail)


PROPERTIES = Either(ListOf(Property(), what="properties"), MapOf(SCALAR))
TILE = Obj("a tile", {"id": Int(0, ID_LIMIT - 1), "properties": PROPERTIES}, ("id",))
TILESET = Obj(
    "a tileset",
    {"firstgid": Int(1, ID_LIMIT - 1), "tiles": ListOf(TILE, what="tiles"), "source": TEXT},
    ("firstgid",),
)
OBJECT = Obj(
    "an object",
    {
        "gid": Int(0, GID_LIMIT - 1),
        "name": TEXT,
        "type": TEXT,
        "class": TEXT,
        **{k: Num(COORD_LIMIT) for k in ("x", "y", "width", "height")},
        "point": Of((bool,), "true or false"),
        "properties": PROPERTIES,
    },
)
MAX_TILES = MAX_COLUMNS * MAX_ROWS
TILE_LAYER = Obj(
    "a tile layer",
    {
        "data": Either(
            ListOf(Int(0, GID_LIMIT - 1), MAX_TILES, "tile ids"), Of((str,), "a list or a string")
        ),
        "encoding": TEXT,
        "compression": TEXT,
        "properties": PROPERTIES,
    },
    ("data",),
)
OBJECT_LAYER = Obj(
    "an object layer",
    {"objects": ListOf(OBJECT, what="objects"), "properties": PROPERTIES},
    ("objects",),
)
LAYER_TYPES = ("tilelayer", "objectgroup", "imagelayer", "group")


class Layer(Spec):
    """A layer of one of Tiled's four types; a group's layers are layers again."""

    HEAD = Obj("a layer", {"type": OneOf(LAYER_TYPES), "name": TEXT}, ("type",))

    def check(self, value: Any, where: str, fail: Fail) -> None:
        self.HEAD.check(value, where, fail)
        kind = value["type"]
        if kind == "tilelayer":
            TILE_LAYER.check(value, where, fail)
        elif kind == "objectgroup":
            OBJECT_LAYER.check(value, where, fail)
        elif kind == "group":
            group = Obj("a group layer", {"layers": ListOf(self, what="layers")}, ("layers",))
            group.check(value, where, fail)


MAP = Obj(
    "a Tiled map",
    {
        "orientation": TEXT,
        "infinite": Of((bool, int), "true or false"),
        "width": Int(1, MAX_COLUMNS, "a board's columns"),
        "height": Int(1, MAX_ROWS, "a board's rows"),
        "tilewidth": Int(1, 10_000),
        "tileheight": Int(1, 10_000),
        "properties": PROPERTIES,
        "tilesets": ListOf(TILESET, what="tilesets"),
        "layers": ListOf(Layer(), what="layers"),
    },
    ("width", "height", "tilewidth", "tileheight", "tilesets", "layers"),
)


def check_shape(doc: Any, fail: Fail) -> dict[str, Any]:
    """``doc`` if it has the shape of a Tiled map that tankmap can read (``MAP``), else
    ``ScenarioFormatError`` naming the first value that has not."""
    if not isinstance(doc, dict):
        kind = "null" if doc is None else "a list" if isinstance(doc, list) else "a value"
        raise fail("", f"a Tiled map must be a JSON object, not {kind}")
    MAP.check(doc, "", fail)
    return doc


def join(where: str, key: str) -> str:
    """The JSON path of ``key`` inside the object at ``where`` (the map itself is ``""``)."""
    return f"{where}.{key}" if where else key
