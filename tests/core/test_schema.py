"""The JSON Schema in resources/ agrees with the reader and with the rulesets."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from tankmap import maps, resources
from tankmap.rules.fileformat import read_scenario, scenario_to_json
from tankmap.rules.registry import get_ruleset, ruleset_names

SCHEMA = json.loads(resources.path("scenario.schema.json").read_text("utf-8"))


def test_schema_is_valid_draft_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", maps.builtin_maps(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_builtin_maps_match_the_schema(path: Any) -> None:
    doc = json.loads(path.read_text("utf-8"))
    jsonschema.validate(doc, SCHEMA)
    # and what the writer produces matches it too
    jsonschema.validate(scenario_to_json(read_scenario(path)), SCHEMA)


def test_schema_kinds_match_the_rulesets() -> None:
    by_ruleset = {}
    for clause in SCHEMA["allOf"]:
        if "ruleset" not in clause["if"]["properties"]:
            continue  # the clauses of cells on boards of each size
        name = clause["if"]["properties"]["ruleset"]["const"]
        props = clause["then"]["properties"]
        by_ruleset[name] = (
            props["terrain"]["items"]["properties"]["kind"]["enum"],
            props["units"]["items"]["properties"]["kind"]["enum"],
        )
    assert set(SCHEMA["properties"]["ruleset"]["enum"]) == set(by_ruleset)
    for name in ruleset_names():
        if name not in by_ruleset:  # rulesets registered by tests only
            continue
        rs = get_ruleset(name)
        assert list(rs.terrain_kinds) == by_ruleset[name][0], name
        assert list(rs.unit_kinds) == by_ruleset[name][1], name


def test_schema_rejects_unknown_keys() -> None:
    bad = {"ruleset": "final-act", "board": {"columns": 12, "rows": 12}, "colour": "red"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, SCHEMA)
