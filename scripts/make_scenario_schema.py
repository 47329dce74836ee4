"""Write ``resources/scenario.schema.json`` from the registered rulesets.

The schema says what the scenario reader (``tankmap.rules.fileformat``) accepts: the keys
and their types, each ruleset's kinds, options (types, ranges, choices), board sizes and
piece restrictions, and cells on the board (one clause per board width and height). What
JSON Schema cannot say is left to the input gate (``tankmap.rules.safeio``) and named in
the schema's description: valid Unicode, no duplicate keys, integers written without a
fraction or exponent, and the file's size. Run it again when a ruleset changes; a test
checks that the shipped schema is what this script writes:

    python scripts/make_scenario_schema.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "resources" / "scenario.schema.json"
END = "(?![\\s\\S])"  # end of the text in every regex dialect ('$' also matches before '\n')


def _numbers(n: int) -> str:
    return "(?:" + "|".join(str(i) for i in range(n, 0, -1)) + ")"


def _cells_where(pattern: str) -> dict[str, Any]:
    cell = {"pattern": pattern}
    return {
        "properties": {
            "terrain": {"items": {"properties": {"cells": {"items": cell}, "lane": cell}}},
            "units": {"items": {"properties": {"cell": cell}}},
        }
    }


def _board_is(key: str, n: int) -> dict[str, Any]:
    return {"properties": {"board": {"properties": {key: {"const": n}}}}}


def _option_schema(spec: Any) -> dict[str, Any]:
    from tankmap.rules.tank_wars.data import PATTERN_RE, PatternOption

    kind = spec.type
    if kind is bool:
        return {"type": "boolean"}
    if kind is int:
        lo, hi = spec.int_range()
        return {"type": "integer", "minimum": lo, "maximum": hi}
    if kind is float:
        from tankmap.rules.ruleset import MAX_OPTION_INT

        return {"type": "number", "minimum": -MAX_OPTION_INT, "maximum": MAX_OPTION_INT}
    if isinstance(spec, PatternOption):
        return {"type": "string", "pattern": f"^{PATTERN_RE}{END}"}
    if spec.choices:
        return {"enum": list(spec.choices)}
    return {"type": "string"}


def _ruleset_clause(name: str) -> dict[str, Any]:
    from tankmap.rules.registry import get_ruleset

    rs = get_ruleset(name)
    options = {
        "type": "object",
        "additionalProperties": False,
        "properties": {s.name: _option_schema(s) for s in rs.option_specs},
    }
    terrain: dict[str, Any] = {"kind": {"enum": list(rs.terrain_kinds)}}
    unit: dict[str, Any] = {"kind": {"enum": list(rs.unit_kinds)}}
    board: dict[str, Any] = {}
    if name == "final-act":
        from tankmap.rules.final_act.data import DATA

        board = {
            "columns": {"minimum": 6},
            "rows": {"minimum": 2 * DATA.half_rows, "multipleOf": 2},
        }
    elif name == "tank-chess":
        from tankmap.rules.tank_chess.ruleset import tank_chess_data
        from tankmap.rules.tank_chess.shapes import shape_names

        data = tank_chess_data()
        size = {"minimum": data.board_min, "maximum": data.board_max}
        board = {"columns": size, "rows": size}
        terrain.update(lane=False, arrow=False, shape={"enum": list(shape_names())})
        unit.update(damage={"const": 0}, armour=False)
    elif name == "tank-wars":
        from tankmap.rules.tank_wars.ruleset import COLUMNS, ROWS

        board = {"columns": {"const": COLUMNS}, "rows": {"const": ROWS}}
    return {
        "if": {"properties": {"ruleset": {"const": name}}},
        "then": {
            "properties": {
                "options": options,
                "board": {"properties": board},
                "terrain": {"items": {"properties": terrain}},
                "units": {"items": {"properties": unit}},
            }
        },
    }


def schema_document() -> dict[str, Any]:
    """The schema as a JSON document."""
    from tankmap.rules.board import MAX_COLUMNS, MAX_ROWS
    from tankmap.rules.fileformat import EDITOR_SETTINGS, MAX_FILE_BYTES
    from tankmap.rules.registry import ruleset_names
    from tankmap.rules.safeio import MAX_INT_DIGITS

    names = [n for n in ("final-act", "tank-chess", "tank-wars") if n in ruleset_names()]
    cell = f"^[a-zA-Z]{_numbers(MAX_ROWS)}{END}"
    columns = [
        {"if": _board_is("columns", n), "then": _cells_where(f"^[a-{chr(96 + n)}A-{chr(64 + n)}]")}
        for n in range(1, MAX_COLUMNS + 1)
    ]
    rows = [
        {"if": _board_is("rows", n), "then": _cells_where(f"^[a-zA-Z]{_numbers(n)}{END}")}
        for n in range(1, MAX_ROWS + 1)
    ]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://tankmap.invalid/scenario.schema.json",
        "title": "tankmap scenario",
        "description": (
            "A board set-up or position for one ruleset (docs/formats.md). Cells are "
            "chess-like names ('c3') on the board; the ruleset's own check() decides "
            "legality beyond this shape. Written by scripts/make_scenario_schema.py from the "
            "rulesets. Beyond what JSON Schema can say, the reader also refuses: text that is "
            "not UTF-8 or has a lone surrogate, duplicate keys, NaN/Infinity, integers "
            f"written with a fraction or exponent (1.0) or of more than {MAX_INT_DIGITS} "
            f"digits, files over {MAX_FILE_BYTES} bytes, more than 2000 pieces in all, "
            "and a cell listed twice in one piece in different letter case ('a1', 'A1')."
        ),
        "type": "object",
        "additionalProperties": False,
        "required": ["ruleset", "board"],
        "properties": {
            "format": {"const": "tankmap-scenario"},
            "version": {"const": 1},
            "ruleset": {"enum": names},
            "options": {"type": "object"},
            "board": {
                "type": "object",
                "additionalProperties": False,
                "required": ["columns", "rows"],
                "properties": {
                    "columns": {"type": "integer", "minimum": 1, "maximum": MAX_COLUMNS},
                    "rows": {"type": "integer", "minimum": 1, "maximum": MAX_ROWS},
                },
            },
            "title": {"type": "string"},
            "author": {"type": "string"},
            "notes": {"type": "string"},
            "to_move": {"$ref": "#/$defs/side"},
            "editor": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    key: {"enum": list(values)} for key, values in EDITOR_SETTINGS.items()
                },
            },
            "terrain": {"type": "array", "maxItems": 2000, "items": {"$ref": "#/$defs/terrain"}},
            "units": {"type": "array", "maxItems": 2000, "items": {"$ref": "#/$defs/unit"}},
        },
        "allOf": [_ruleset_clause(n) for n in names] + columns + rows,
        "$defs": {
            "cell": {"type": "string", "pattern": cell},
            "side": {"enum": ["south", "north"]},
            "facing": {"enum": ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]},
            "terrain": {
                "type": "object",
                "additionalProperties": False,
                "required": ["kind", "cells"],
                "properties": {
                    "kind": {"type": "string"},
                    "side": {"$ref": "#/$defs/side"},
                    "cells": {
                        "type": "array",
                        "minItems": 1,
                        "uniqueItems": True,
                        "items": {"$ref": "#/$defs/cell"},
                    },
                    "lane": {"$ref": "#/$defs/cell"},
                    "arrow": {"$ref": "#/$defs/facing"},
                    "shape": {"type": "string"},
                },
            },
            "unit": {
                "type": "object",
                "additionalProperties": False,
                "required": ["kind", "side", "cell"],
                "properties": {
                    "kind": {"type": "string"},
                    "name": {"type": "string"},
                    "side": {"$ref": "#/$defs/side"},
                    "cell": {"$ref": "#/$defs/cell"},
                    "facing": {"$ref": "#/$defs/facing"},
                    "damage": {"type": "integer", "minimum": 0, "maximum": 99},
                    "armour": {"type": "integer", "minimum": 0, "maximum": 99},
                    "wreck": {"type": "boolean"},
                },
            },
        },
    }


def schema_text() -> str:
    """The file's text: the document, indented, one clause of each allOf per line."""
    doc = schema_document()
    clauses = doc.pop("allOf")
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    inner = ",\n".join("    " + json.dumps(c, ensure_ascii=False) for c in clauses)
    head, sep, tail = text.partition('\n  "$defs"')
    return f'{head}\n  "allOf": [\n{inner}\n  ],{sep}{tail}\n'


if __name__ == "__main__":
    OUT.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {OUT}")
