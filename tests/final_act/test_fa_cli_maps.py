"""Final Act through the command line (docs/cli-json.md ``check --json`` / ``moves --json``), the
built-in maps, the data-driven options and the fast tables API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tankmap import maps
from tankmap.cli import main
from tankmap.rules.board import Board
from tankmap.rules.fileformat import dumps_scenario, read_scenario
from tankmap.rules.final_act.tables import tables_of, unit_blockers
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.violations import is_complete, is_legal

FA_MAPS = maps.builtin_maps("final-act")


def write(path: Path, doc: dict[str, Any]) -> str:
    path.write_text(json.dumps(doc), "utf-8")
    return str(path)


def doc(
    terrain: list[dict[str, Any]], units: list[dict[str, Any]], **options: Any
) -> dict[str, Any]:
    return {
        "ruleset": "final-act",
        "board": {"columns": 12, "rows": 12},
        "options": options,
        "terrain": terrain,
        "units": units,
    }


def tank(name: str, cell: str, side: str = "south", facing: str = "N") -> dict[str, Any]:
    return {"kind": "tank", "name": name, "side": side, "cell": cell, "facing": facing}


def test_check_json_reports_the_contract(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(
        tmp_path / "bad.json",
        doc(
            [{"kind": "berm-large", "side": "south", "cells": ["c4", "d4", "e4"]}],
            [tank("C", "f2"), tank("1", "f2")],
        ),
    )
    assert main(["check", path, "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    entry = out["files"][0]
    assert entry["file"] == path
    assert entry["legal"] is False and entry["complete"] is False
    errors = [v for v in entry["violations"] if v["severity"] == "error"]
    assert {(v["code"], tuple(v["cells"]), v["side"]) for v in errors} == {
        ("berm-outside-zone", ("c4", "d4", "e4"), "south"),
        ("cell-shared", ("f2",), "south"),
    }
    berm = next(v for v in errors if v["code"] == "berm-outside-zone")
    assert berm["message"] == "large berm c4-e4: berms must stay in south's rows 1–3"
    incomplete = [v for v in entry["violations"] if v["severity"] == "incomplete"]
    assert incomplete and all(v["code"] == "missing" and v["cells"] == [] for v in incomplete)


def test_check_builtin_maps_are_legal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", *map(str, FA_MAPS), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [f["legal"] and f["complete"] for f in out["files"]] == [True] * len(FA_MAPS)


def test_moves_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # docs/rules.md §4: tank on g4 facing N by the minefield f5-h5 (lane g5, arrow N): 6 orders;
    # a wreck has no moves and no fire zone.
    path = write(
        tmp_path / "m.json",
        doc(
            [
                {
                    "kind": "minefield",
                    "side": "south",
                    "cells": ["f5", "g5", "h5"],
                    "lane": "g5",
                    "arrow": "N",
                }
            ],  # fmt: skip
            [tank("C", "g4"), {**tank("1", "a1"), "wreck": True}],
        ),
    )
    assert main(["moves", path, "--json"]) == 0
    units = json.loads(capsys.readouterr().out)["units"]
    c = next(u for u in units if u["name"] == "C")
    assert {(m["to"], m["facing"]) for m in c["moves"]} == {
        ("g5", "N"), ("g3", "N"), ("f3", "N"), ("f3", "W"), ("h3", "N"), ("h3", "E"),
    }  # fmt: skip
    # cone from g4 facing N, nothing blocks (minefields never block): 24 cells, rows 5-10
    assert len(c["fire_zone"]) == 24 and "g10" in c["fire_zone"] and "g4" not in c["fire_zone"]
    wreck = next(u for u in units if u["name"] == "1")
    assert wreck["moves"] == [] and wreck["fire_zone"] == []


@pytest.mark.parametrize("path", FA_MAPS, ids=lambda p: p.name)
def test_builtin_map_is_legal_complete_and_canonical(path: Path) -> None:
    sc = read_scenario(path)
    violations = get_ruleset("final-act").check(sc)
    assert is_legal(violations) and is_complete(violations), violations
    assert dumps_scenario(sc) == path.read_text("utf-8")
    assert sc.author == "tankmap" and sc.title and sc.notes


def test_mirror_map_is_point_symmetric() -> None:
    sc = read_scenario(maps.ROOT / "final-act" / "mirror.json")
    b = sc.board

    def image(side: Side) -> tuple[set[Any], set[Any]]:
        terrain = {
            (t.kind, frozenset(b.mirror(c) for c in t.cells),
             None if t.lane is None else b.mirror(t.lane),
             None if t.arrow is None else t.arrow.opposite)
            for t in sc.terrain if t.side is side
        }  # fmt: skip
        units = {
            (u.kind, u.name, b.mirror(u.cell), None if u.facing is None else u.facing.opposite)
            for u in sc.units
            if u.side is side
        }
        return terrain, units

    north_terrain = {
        (t.kind, frozenset(t.cells), t.lane, t.arrow) for t in sc.terrain if t.side is Side.NORTH
    }
    north_units = {(u.kind, u.name, u.cell, u.facing) for u in sc.units if u.side is Side.NORTH}
    assert image(Side.SOUTH) == (north_terrain, north_units)


def test_extra_forces_map_has_the_expansion_units() -> None:
    sc = read_scenario(maps.ROOT / "final-act" / "extra-forces.json")
    assert sc.option("extra_forces") is True
    for side in Side:
        kinds = sorted(u.kind for u in sc.units_of(side))
        assert kinds.count("at") == 2 and kinds.count("rm") == 1 and kinds.count("tank") == 7


def test_flanks_vs_centre_keeps_souths_middle_closed() -> None:
    # south's berms/swamp/minefield sit in columns d-j; north's terrain avoids columns d-h
    sc = read_scenario(maps.ROOT / "final-act" / "flanks-vs-centre.json")
    b = sc.board
    north_cols = {b.col_of(c) for t in sc.terrain if t.side is Side.NORTH for c in t.cells}
    assert not north_cols & set(range(3, 8))


def test_ruleset_metadata_and_options() -> None:
    rs = get_ruleset("final-act")
    assert rs.title == "Final Act"
    assert rs.terrain_kinds == ("berm-large", "berm-small", "swamp", "minefield")
    assert rs.unit_kinds == ("tank", "at", "rm")
    assert rs.default_board == (12, 12)
    defaults = {s.name: s.default for s in rs.option_specs}
    assert {
        "extra_forces": False,
        "reverse_turn": False,
        "lane_owner_only": False,
        "strict_line_of_fire": False,
        "wrecks": True,
        "max_rounds": 100,
    }.items() <= defaults.items()
    assert rs.board_problem(12, 12) is None
    assert rs.board_problem(12, 11) is not None and rs.board_problem(5, 12) is not None


def test_setup_and_goal_cells() -> None:
    rs = get_ruleset("final-act")
    sc = rs.new_scenario()
    b = sc.board
    south = rs.setup_cells(sc, Side.SOUTH)
    assert len(south) == 36 and b.parse_cell("l3") in south and b.parse_cell("a4") not in south
    north = rs.setup_cells(sc, Side.NORTH)
    assert b.parse_cell("a10") in north and b.parse_cell("a9") not in north
    from tankmap.rules.scenario import Unit

    t = Unit("tank", Side.SOUTH, 5, Facing.N, "C")
    goal = rs.goal_cells(sc, t)
    assert goal == frozenset(range(132, 144))
    north_tank = Unit("tank", Side.NORTH, 140, Facing.S, "C")
    assert rs.goal_cells(sc, north_tank) == frozenset(range(12))
    assert rs.goal_cells(sc, Unit("at", Side.SOUTH, 5, Facing.N)) is None


def test_tables_api_matches_the_ruleset() -> None:
    sc = read_scenario(maps.ROOT / "final-act" / "extra-forces.json")
    rs = get_ruleset("final-act")
    t = tables_of(sc)
    assert t is tables_of(sc.with_units(sc.units[:3]))  # terrain-keyed cache
    for u in sc.units:
        facing = u.facing if u.facing is not None else u.side.forward
        orders = t.orders(u.kind, u.side, u.cell, facing)
        assert sorted(orders) == [(m.to, m.facing) for m in rs.moves(sc, u)]
        blockers = unit_blockers(sc.units, u)
        assert t.fire_zone(u.kind, u.cell, facing, blockers) == rs.fire_zone(sc, u)
    table = t.order_table("tank", Side.SOUTH)
    assert len(table) == Board.of(12, 12).size * 8


ADVANCED = (
    "officer_loss",
    "double_shot",
    "berm_repair",
    "air_strike",
    "full_throttle",
    "quick_shot",
    "mine_clearing",
    "smoke",
    "quick_sand",
    "red_cross",
)


def test_advanced_rule_options_exist_off_and_warn_when_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # docs/rules.md §1.8: advanced rules and action tokens are options, all off by default. All are
    # modelled by the reference engine now (no warning); one flagged "modelled": false in
    # the data file would draw the option-not-modelled warning. R/M repair is an option too
    # but part of Extra Forces (§1.3), so it is on by default.
    rs = get_ruleset("final-act")
    defaults = {s.name: s.default for s in rs.option_specs}
    assert all(defaults[name] is False for name in ADVANCED)
    assert defaults["rm_repair"] is True
    sc_extra = read_scenario(maps.ROOT / "final-act" / "extra-forces.json")
    assert rs.check(sc_extra.with_options(rm_repair=False)) == []
    sc = read_scenario(maps.ROOT / "final-act" / "mirror.json")
    assert rs.check(sc) == []
    assert rs.check(sc.with_options(**{name: True for name in ADVANCED})) == []
    import dataclasses

    from tankmap.rules.final_act import setup

    monkeypatch.setattr(setup, "DATA", dataclasses.replace(setup.DATA, unmodelled=("red_cross",)))
    violations = rs.check(sc.with_options(red_cross=True))
    assert is_legal(violations) and is_complete(violations)
    assert [(v.code, v.severity.value) for v in violations] == [("option-not-modelled", "warning")]
