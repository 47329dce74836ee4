"""The JSON Schema and the reader accept and reject the same documents (issue 14): one
corpus of mutated built-in maps fed to both. The schema is written from the rulesets by
scripts/make_scenario_schema.py; what JSON Schema cannot say (valid Unicode, duplicate
keys, 1.0 written for 1, the file's size) is the input gate's and not in this corpus."""

from __future__ import annotations

import copy
import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from benchmarks.fuzz_inputs import mutate
from tankmap import resources
from tankmap.maps import builtin_maps
from tankmap.rules.errors import TankmapError
from tankmap.rules.fileformat import loads_scenario

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads(resources.path("scenario.schema.json").read_text("utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SOURCES = [json.loads(p.read_text("utf-8")) for p in builtin_maps()]

# values near the rules' edges for each role a key plays, valid and not
_CELLS = ["a1", "A1", "b3", "f6", "l12", "L12", "m13", "z26", "a0", "a01", " a1", "b2\n", 5]
_KINDS = ["tank", "at", "rm", "berm-large", "swamp", "minefield", "obstacle", "command",
          "light", "heavy", "medium", "artillery", "crater", "support", "Tank", "q"]  # fmt: skip
ROLES: dict[str, list[Any]] = {
    "cell": _CELLS,
    "lane": _CELLS,
    "cells": [["a1"], ["a1", "b1"], ["a1", "a1"], ["a1", "A1"], [], ["z26"], "a1"],
    "side": ["south", "north", "South", "", None],
    "to_move": ["south", "north", "west", None],
    "facing": ["N", "SE", "NW", "nw", "X", None],
    "arrow": ["N", "SE", "NW", "nw", "X", None],
    "kind": _KINDS,
    "name": ["C", "1", "1A", "2B", "Q", "", None, 7],
    "shape": ["domino", "heptomino", "monomino", "blob", "", None],
    "damage": [0, 1, 2, 99, 100, -1, 1.5, True, None],
    "armour": [0, 1, 2, 99, 100, -1, 1.5, True, None],
    "wreck": [True, False, 0, None],
    "columns": [1, 6, 7, 8, 12, 13, 16, 20, 26, 27, 0, -1, 1.5, "12"],
    "rows": [1, 6, 8, 11, 12, 13, 16, 20, 26, 27, 0, -1, 1.5, "12"],
    "title": ["", "x", 5, None, "\x1b[31m"],
    "version": [1, 2, "1", True, None],
    "format": ["tankmap-scenario", "tankmap", None],
    "ruleset": ["final-act", "tank-chess", "tank-wars", "chess", None],
}
OPTIONS: dict[str, list[Any]] = {
    "max_rounds": [1, 100, 100_000, 100_001, 0, -1, True, 1.5, "100"],
    "max_turns": [300, -100_000, -100_001, 100_001, None],
    "wrecks": [True, False, 1, "true"],
    "strict_corners": [True, False, 0],
    "swamp_shape": ["2x3", "L3", "3x3", "", 2],
    "tank_cone": ["wide-4", "diamond-2", "cone"],
    "heavy_moves": ["straight1,diagonal2", "straight1 straight2", "", " straight1 ,",
                    "Straight1", "straight1\t", "jump3", "straight1\n"],
    "setup_rows": [1, 6, 7, 0],
    "heavy_count": [0, 99, 100, -1],
    "no_such": [True],
}  # fmt: skip


def _edge_mutation(doc: Any, rng: random.Random) -> Any:
    nodes: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k in list(node):
                nodes.append((node, k))
                walk(node[k])
        elif isinstance(node, list):
            for i in range(len(node)):
                nodes.append((node, i))
                walk(node[i])

    walk(doc)
    if not nodes:
        return doc
    parent, key = rng.choice(nodes)
    r = rng.random()
    if r < 0.15 and isinstance(parent, dict) and "kind" in parent:  # a key pieces may have
        extra = rng.choice(["side", "lane", "arrow", "shape", "facing", "name", "damage",
                            "armour", "wreck"])  # fmt: skip
        parent[extra] = copy.deepcopy(rng.choice(ROLES[extra] if extra in ROLES else [1]))
    elif r < 0.3 and isinstance(doc, dict) and isinstance(doc.get("options", {}), dict):
        name = rng.choice(list(OPTIONS))
        doc.setdefault("options", {})[name] = rng.choice(OPTIONS[name])
    else:
        role = key if isinstance(key, str) else "cell"
        parent[key] = copy.deepcopy(rng.choice(ROLES.get(role, [None, "", 1, [], {}])))
    return doc


def _same_cell_twice(doc: Any) -> bool:
    terrain = doc.get("terrain") if isinstance(doc, dict) else None
    for piece in terrain if isinstance(terrain, list) else []:
        cells = piece.get("cells") if isinstance(piece, dict) else None
        if isinstance(cells, list) and all(isinstance(c, str) for c in cells):
            if len({c.lower() for c in cells}) < len(set(cells)):
                return True
    return False


def corpus(n: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        doc = copy.deepcopy(rng.choice(SOURCES))
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            doc = _edge_mutation(doc, rng) if rng.random() < 0.7 else mutate(doc, rng)
        text = json.dumps(doc)
        if _same_cell_twice(doc):
            continue  # 'a1' and 'A1' in one piece: uniqueItems cannot see it (description)
        if "\\ud8" in text or "\\udc" in text or "\\ud9" in text or "\\uda" in text:
            continue  # a lone surrogate: the input gate's, not the schema's
        out.append(doc)
    return out


def _reader_accepts(doc: Any) -> tuple[bool, str]:
    try:
        loads_scenario(json.dumps(doc), "case.json")
    except TankmapError as exc:
        return False, str(exc)
    return True, ""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_schema_and_reader_accept_and_reject_the_same_documents(seed: int) -> None:
    docs = corpus(700, seed)
    disagree = []
    accepted = 0
    for doc in docs:
        schema_ok = VALIDATOR.is_valid(doc)
        reader_ok, why = _reader_accepts(doc)
        accepted += reader_ok
        if schema_ok != reader_ok:
            detail = why or next(VALIDATOR.iter_errors(doc)).message
            disagree.append(f"{'schema' if schema_ok else 'reader'} alone accepts: {detail}")
    assert disagree == [], disagree[:5]
    assert 0.1 < accepted / len(docs) < 0.9, accepted  # the corpus holds both kinds


def test_the_shipped_schema_is_the_generated_one() -> None:
    spec = importlib.util.spec_from_file_location(
        "make_scenario_schema", ROOT / "scripts" / "make_scenario_schema.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    shipped = resources.path("scenario.schema.json").read_text("utf-8")
    assert shipped == module.schema_text(), "run python scripts/make_scenario_schema.py"


@pytest.mark.parametrize(
    "mutate_doc",
    [
        lambda d: d["units"][0].__setitem__("cell", "a1\n"),  # '$' matched before '\n'
        lambda d: d["units"][0].__setitem__("cell", "z26"),  # off the board
        lambda d: d["units"][0].__setitem__("name", None),  # null is not "no name"
        lambda d: d["options"].__setitem__("max_rounds", 0),
        lambda d: d["options"].__setitem__("no_such_option", True),
        lambda d: d["board"].__setitem__("rows", 13),  # Final Act: an even number of rows
    ],
)
def test_documents_both_refuse(mutate_doc: Any) -> None:
    doc = copy.deepcopy(SOURCES[[p.stem for p in builtin_maps()].index("mirror")])
    mutate_doc(doc)
    assert not VALIDATOR.is_valid(doc)  # before: the schema accepted the first five
    assert not _reader_accepts(doc)[0]
