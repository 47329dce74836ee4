"""Setup legality and custom-scheme checks (rules §2.2), the obstacle catalogue, the maps."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

import pytest
from tc_support import MAPS, ROOT, RS, make

from tankmap import maps
from tankmap.rules.board import Board
from tankmap.rules.errors import ScenarioFormatError
from tankmap.rules.fileformat import loads_scenario, read_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Terrain, Unit
from tankmap.rules.tank_chess.shapes import identify_shape, shape_variants
from tankmap.rules.violations import Severity, is_complete, is_legal

BASIC = str(MAPS / "basic-16.json")


def codes(scenario) -> dict[str, list[list[str]]]:  # type: ignore[no-untyped-def]
    out: dict[str, list[list[str]]] = {}
    for v in RS.check(scenario):
        out.setdefault(v.code, []).append([scenario.board.cell_name(c) for c in v.cells])
    return out


def test_basic_setup_is_exactly_the_rules_diagram() -> None:
    s = read_scenario(BASIC)
    b = s.board
    obstacles = sorted(b.cell_name(c) for t in s.terrain for c in t.cells)
    assert len(obstacles) == 50
    diagram_rows = {  # docs/rules.md §2.2, row by row, the '#' cells
        15: "b e f", 14: "b e f l m", 13: "b e", 12: "h i", 11: "g h i j k n o",
        10: "c d o", 9: "c d e", 8: "l m n", 7: "b m n", 6: "b c f g h i j", 5: "h i",
        4: "l o", 3: "d e k l o", 2: "k l o",
    }  # fmt: skip
    expected = sorted(f"{c}{r}" for r, cols in diagram_rows.items() for c in cols.split())
    assert obstacles == expected
    pieces = {(b.cell_name(u.cell), u.kind, u.side.value, u.facing) for u in s.units}
    white = "c1 heavy, f1 medium, h1 command, j1 medium, m1 heavy, c3 light, f3 light, " \
        "h3 medium, j3 light, m3 light"  # fmt: skip
    black = "d16 heavy, g16 medium, i16 command, k16 medium, n16 heavy, d14 light, " \
        "g14 light, i14 medium, k14 light, n14 light"  # fmt: skip
    want = {(x.split()[0], x.split()[1], "south", Facing.N) for x in white.split(", ")}
    want |= {(x.split()[0], x.split()[1], "north", Facing.S) for x in black.split(", ")}
    assert pieces == want
    assert RS.check(s) == []  # legal, complete, no warning


@pytest.mark.parametrize("path", maps.builtin_maps("tank-chess"), ids=lambda p: p.name)
def test_every_builtin_map_is_legal(path) -> None:  # type: ignore[no-untyped-def]
    assert is_legal(RS.check(read_scenario(path)))


def test_sample_20_is_complete_symmetric_and_titled_as_ours() -> None:
    s = read_scenario(str(MAPS / "sample-20.json"))
    assert "not the official" in s.title
    assert RS.check(s) == []
    kinds = {u.kind for u in s.units}
    assert {"destroyer", "mortar"} <= kinds


def test_army_counts() -> None:
    s = make(["W heavy a1 N", "W heavy b1 N", "W heavy c1 N", "W destroyer d1 N"])
    got = codes(s)
    assert sorted(got["army-too-many"]) == [["a1", "b1", "c1"], ["d1"]]
    # White misses CLT, lights, mediums; Black misses all four kinds → 3 + 4 incomplete
    assert len(got["army-incomplete"]) == 7
    assert all(v.cells == () for v in RS.check(s) if v.severity is Severity.INCOMPLETE)
    s20 = make(["W destroyer d1 N"], size=(20, 20))
    assert "army-too-many" not in codes(s20)


def test_pieces_on_obstacles_and_shared_cells() -> None:
    s = make(["W heavy a1 N", "W light a1 N", "B light h9 S"], obstacles="h9")
    got = codes(s)
    assert got["cell-shared"] == [["a1"]]
    assert got["piece-on-obstacle"] == [["h9"]]
    assert not is_legal(RS.check(s))


def test_setup_rows_warning() -> None:
    got = codes(make(["W light c4 N", "B light c13 S", "B light c14 S"]))
    assert got["outside-setup-rows"] == [["c4"], ["c13"]]  # c14 is Black's own row 3
    # rules §2.2: own rows 1–3; Black's are the 16-row board's rows 14–16 (rules §0)
    messages = [v.message for v in RS.check(make(["W light c4 N", "B light c13 S"]))]
    assert "White light tank on c4 starts outside White's rows 1–3" in messages
    assert "Black light tank on c13 starts outside rows 14–16 (Black's rows 1–3)" in messages


def test_obstacle_checks() -> None:
    s = make([], obstacles="c1 h8")
    got = codes(s)
    assert got["obstacle-on-start-cell"] == [["c1"]]  # printed start cell of the 16x16
    assert got["obstacles-asymmetric"] == [["c1", "h8"]]  # mirrors n16 and i9 are empty
    sym = make([], obstacles="h8 i9")
    assert "obstacles-asymmetric" not in codes(sym)
    assert "obstacle-on-start-cell" not in codes(make([], obstacles="c1", size=(20, 20)))


def test_obstacle_overlap_shape_and_budget() -> None:
    b = Board.of(16, 16)
    cells = tuple(b.parse_cell(c) for c in ("d8", "e8", "f8"))
    bent = tuple(b.parse_cell(c) for c in ("d8", "e8", "e9"))
    s = make().with_terrain(
        [
            Terrain("obstacle", cells, shape="I-tromino"),
            Terrain("obstacle", bent, shape="I-tromino"),
        ]
    )
    got = codes(s)
    assert got["obstacle-shape"] == [["d8", "e8", "e9"]]
    assert sorted(got["obstacle-overlap"]) == [["d8"], ["e8"]]
    many = make([], obstacles=" ".join(f"{c}{r}" for c in "defghijk" for r in (6, 7, 10, 11)))
    assert len(many.terrain) == 32
    assert [v.severity for v in RS.check(many) if v.code == "obstacle-budget"] == [Severity.WARNING]


def test_command_tank_that_cannot_escape() -> None:
    # White CLT on a1 walled in by a full row of obstacles on row 5: warning, still legal
    s = make(["W command a1 N"], obstacles=" ".join(f"{c}5" for c in "abcdefghijklmnop"))
    got = codes(s)
    assert got["command-cannot-escape"] == [["a1"]]
    assert is_legal(RS.check(s))
    # a gap at p5 is enough (pieces never count: they move)
    s = make(
        ["W command a1 N", "B heavy p5 S"], obstacles=" ".join(f"{c}5" for c in "abcdefghijklmno")
    )
    assert "command-cannot-escape" not in codes(s)


def test_escape_check_respects_strict_corners() -> None:
    # wall a5-o5 plus p6: the only way north is p5 → o6, a diagonal step squeezed between
    # o5 and p6 — fine by default, refused with strict_corners.
    wall = " ".join(f"{c}5" for c in "abcdefghijklmno") + " p6"
    assert "command-cannot-escape" not in codes(make(["W command a1 N"], obstacles=wall))
    strict = make(["W command a1 N"], obstacles=wall, strict_corners=True)
    assert codes(strict)["command-cannot-escape"] == [["a1"]]


def test_can_place_refuses_a_piece_on_an_obstacle() -> None:
    s = read_scenario(BASIC)
    piece = Unit("light", Side.SOUTH, s.board.parse_cell("d3"), Facing.N)
    placement = RS.can_place(s, piece)
    assert not placement.ok
    assert {v.code for v in placement.reasons} >= {"piece-on-obstacle"}
    ok = RS.can_place(replace(s, units=s.units[1:]), s.units[0])
    assert ok.ok


def test_catalogue_shapes() -> None:
    # free polyomino variant counts: monomino 1, domino 2, I3 2, L3 4, N5 8, P5 8;
    # the 7-cell bar with an off-centre 2-cell bump has no symmetry: 8.
    counts = {name: len(shape_variants(name)) for name in
              ("monomino", "domino", "I-tromino", "L-tromino", "N-pentomino", "P-pentomino",
               "heptomino")}  # fmt: skip
    assert counts == {"monomino": 1, "domino": 2, "I-tromino": 2, "L-tromino": 4,
                      "N-pentomino": 8, "P-pentomino": 8, "heptomino": 8}  # fmt: skip
    b = Board.of(16, 16)
    assert identify_shape(b, [b.parse_cell(c) for c in "f6 g6 h6 i6 j6 h5 i5".split()]) == (
        "heptomino"
    )
    assert identify_shape(b, [b.parse_cell(c) for c in "a1 c1".split()]) is None


def test_ruleset_facts() -> None:
    assert RS.unit_stats("heavy")["armour"] == {"front": 3, "side": 2, "rear": 1}
    assert RS.unit_stats("mortar")["gun"] == 5 and RS.unit_stats("destroyer")["speed"] == 4
    assert RS.side_names() == {Side.SOUTH: "White", Side.NORTH: "Black"}
    s = read_scenario(BASIC)
    clt = next(u for u in s.units if u.kind == "command")
    assert RS.goal_cells(s, clt) == frozenset()
    assert RS.goal_cells(s, s.units[0]) is None
    assert len(RS.setup_cells(s, Side.NORTH)) == 48
    assert RS.board_problem(7, 16) is not None and RS.board_problem(26, 8) is None


def test_file_reader_rejects_bad_pieces() -> None:
    base = {"ruleset": "tank-chess", "board": {"columns": 16, "rows": 16}}
    with pytest.raises(ScenarioFormatError, match="unknown obstacle shape"):
        loads_scenario(json.dumps(dict(base, terrain=[{"kind": "obstacle", "cells": ["a1"],
                                                       "shape": "blob"}])))  # fmt: skip
    with pytest.raises(ScenarioFormatError, match="damage"):
        loads_scenario(json.dumps(dict(base, units=[{"kind": "heavy", "side": "south",
                                                     "cell": "a1", "damage": 1}])))  # fmt: skip
    with pytest.raises(ScenarioFormatError, match="8x8"):
        loads_scenario(json.dumps(dict(base, board={"columns": 6, "rows": 16})))


def test_check_and_moves_commands() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tankmap", "check", *map(str, maps.builtin_maps("tank-chess")),
         "--json"],  # fmt: skip
        capture_output=True,
        cwd=ROOT, text=True,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert all(f["legal"] for f in json.loads(out.stdout)["files"])
    out = subprocess.run(
        [sys.executable, "-m", "tankmap", "moves", BASIC, "--unit", "c1", "--json"],
        capture_output=True,
        cwd=ROOT, text=True, check=True,
    )  # fmt: skip
    unit = json.loads(out.stdout)["units"][0]
    assert len(unit["moves"]) == 21 and unit["fire_zone"] == ["a3", "c3"]
    assert is_complete(RS.check(read_scenario(BASIC)))
