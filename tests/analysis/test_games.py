"""Analysis on every game: Tank Chess escape and kill coverage, Tank Wars artillery, the grid
toy, coverage equal to the ``moves --json`` fire zones, and incremental tables equal to fresh
ones."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from fa_boards import MINE_WALL, fa, tank
from grid_toy import scenario as toy_scenario

from tankmap.analysis.coverage import coverage, hit_probability, kill_coverage
from tankmap.analysis.graphs import clear_cache, is_symmetric, movement_table
from tankmap.analysis.lanes import analyse_lanes
from tankmap.analysis.reach import side_reach, unit_reach, unit_reach_nx, unit_reach_route
from tankmap.analysis.summary import analyse
from tankmap.cli import main
from tankmap.rules.board import Board
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Terrain, Unit

ROOT = Path(__file__).resolve().parents[2]
MAPS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "maps").glob("*/*.json"))
SMALL_MAPS = [m for m in MAPS if "20" not in m]  # keep the suite fast


# --- grid toy ---------------------------------------------------------------------------
def test_toy_walker_detour_and_scout_escape() -> None:
    # 5x5, rocks b3 c3 d3. The walker (one orthogonal cell per move) must cross row 3 in
    # column a or e: at least 2 column moves plus 4 row moves = 6, e.g. c1 b1 a1 a2 a3 a4 a5.
    # Scout a1 facing N: a2 a3 a4 a5 (4 moves) then steps off the north edge: 5.
    s = toy_scenario(
        5, 5, "b3 c3 d3", units=(("walker", "south", "c1", None), ("scout", "south", "a1", "N"))
    )
    r = side_reach(s, Side.SOUTH)
    assert [u.turns_to_goal for u in r.units] == [6, 5]
    assert r.turns_to_goal == 5
    b = s.board
    assert r.cells[b.parse_cell("c3")] == -1
    nx_route = unit_reach_nx(s, s.units[1]).route
    assert nx_route[-1] == "escape" and len(nx_route) == 6


def test_toy_oneway_cell() -> None:
    # 3x3, rocks a2 c2: only b2, a one-way cell pointing S. A walker on b1 cannot go north;
    # a north walker on b3 passes: b3 -> b2 -> b1 = 2.
    s = toy_scenario(
        3,
        3,
        "a2 c2",
        units=(("walker", "south", "b1", None), ("walker", "north", "b3", None)),
        oneways=(("b2", "S"),),
    )
    assert side_reach(s, Side.SOUTH).turns_to_goal is None
    assert side_reach(s, Side.NORTH).turns_to_goal == 2


# --- Tank Chess ---------------------------------------------------------------------------
def tc(units: tuple[Unit, ...], cols: int = 16) -> Scenario:
    return Scenario(ruleset="tank-chess", board=Board.of(cols, cols), units=units)


def test_tank_chess_lone_command_tank_escapes_in_4_turns() -> None:
    # docs/rules.md §4: h1 facing N, 15 steps to h16 (5 + 5 + 5) then one step off the edge: 4.
    b = Board.of(16, 16)
    s = tc((Unit("command", Side.SOUTH, b.parse_cell("h1"), Facing.N),))
    r = side_reach(s, Side.SOUTH)
    assert r.turns_to_goal == 4
    assert unit_reach_nx(s, s.units[0]).turns_to_goal == 4
    route = unit_reach_route(s, s.units[0]).route  # 3 turns to the last row, then escape
    assert len(route) == 5 and route[-1] == "escape"


def test_tank_chess_kill_coverage_heavy_gun_against_armour() -> None:
    # A north heavy (gun 3) on h10 facing S fires along S, SW, SE at distance >= 2.
    # Target on h5: the shooter is due N of it. Heavy armour 3/2/1: facing N -> front 3,
    # not destroyed; facing S -> rear 1 and facing E -> side 2: destroyed. Light (1/0/0)
    # facing N -> front 1 < 3: destroyed. h9 is adjacent: never hit. On f8 the shooter is
    # NE: a heavy facing NE shows its front (3, safe), a medium facing N its side (1, hit).
    b = Board.of(16, 16)
    s = tc((Unit("heavy", Side.NORTH, b.parse_cell("h10"), Facing.S),))
    kill = kill_coverage(s, Side.SOUTH)
    h5, h9, f8 = b.parse_cell("h5"), b.parse_cell("h9"), b.parse_cell("f8")
    assert not kill["heavy"][Facing.N][h5]
    assert kill["heavy"][Facing.S][h5] and kill["heavy"][Facing.E][h5]
    assert kill["light"][Facing.N][h5]
    assert not any(kill[k][f][h9] for k in kill for f in Facing)
    assert not kill["heavy"][Facing.NE][f8]
    assert kill["medium"][Facing.N][f8]
    # nothing threatens north's pieces (south has no units)
    assert not any(a.any() for per in kill_coverage(s, Side.NORTH).values() for a in per.values())


# --- Tank Wars ----------------------------------------------------------------------------
def test_tank_wars_artillery_hit_probability() -> None:
    # 1 - (35/36)^k: k = 1 -> 1/36, k = 4 -> 0.10662...
    assert hit_probability(1) == pytest.approx(1 / 36)
    assert hit_probability(4) == pytest.approx(1 - (35 / 36) ** 4)
    assert hit_probability(4) == pytest.approx(0.1066, abs=1e-4)
    s = read_scenario(ROOT / "maps/tank-wars/default.json")
    art = analyse(s, routes=False).artillery
    assert art is not None
    # the default setup has one artillery vehicle with 4 shells per side: each field of the
    # target side's own board has p = 1 - (35/36)^4, the other board 0
    south = art[Side.SOUTH].reshape(12, 6)
    assert np.allclose(south[:6], 1 - (35 / 36) ** 4) and np.allclose(south[6:], 0)


# --- every built-in map ---------------------------------------------------------------
@pytest.mark.parametrize("path", SMALL_MAPS)
def test_coverage_equals_sum_of_moves_fire_zones(
    path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["moves", str(ROOT / path), "--json"]) == 0
    units = json.loads(capsys.readouterr().out)["units"]
    s = read_scenario(ROOT / path)
    cov = coverage(s)
    for side in Side:
        expect = np.zeros(s.board.size, dtype=int)
        for u in units:
            if u["side"] == side.value:
                for name in u["fire_zone"]:
                    expect[s.board.parse_cell(name)] += 1
        assert (cov[side] == expect).all()


@pytest.mark.parametrize("path", [m for m in SMALL_MAPS if "tank-chess" not in m])
def test_array_bfs_equals_networkx_on_builtin_maps(path: str) -> None:
    s = read_scenario(ROOT / path)
    for u in s.live_units():
        a, n = unit_reach(s, u), unit_reach_nx(s, u)
        assert (a.cells == n.cells).all() and a.turns_to_goal == n.turns_to_goal


def test_incremental_tables_equal_fresh_tables() -> None:
    # Derive tables through a series of terrain edits and compare with tables built from
    # scratch: same states reachable, same distances.
    rng = np.random.default_rng(5)
    s = fa(units=(tank("f1"), tank("c12", Side.NORTH)))
    edits = [MINE_WALL[:2], MINE_WALL, MINE_WALL[1:], ()]
    b = s.board
    for terrain in edits:
        wreck_cell = int(rng.integers(30, 110))
        wreck = Unit("tank", Side.NORTH, wreck_cell, Facing.S, name="2", wreck=True)
        s = dataclasses.replace(s, terrain=terrain, units=s.units[:2] + (wreck,))
        derived = [unit_reach(s, u) for u in s.units[:2]]
        clear_cache()
        fresh = [unit_reach(s, u) for u in s.units[:2]]
        for d, f in zip(derived, fresh, strict=True):
            assert (d.cells == f.cells).all() and d.turns_to_goal == f.turns_to_goal
        assert b.size == 144


def test_tank_chess_incremental_table_equals_fresh() -> None:
    b = Board.of(10, 10)
    unit = Unit("light", Side.SOUTH, b.parse_cell("e1"), Facing.N)
    s = Scenario(ruleset="tank-chess", board=b, units=(unit,))
    movement_table(s, unit)
    s2 = s.with_terrain((Terrain("obstacle", (b.parse_cell("e4"), b.parse_cell("f4"))),))
    derived = unit_reach(s2, unit)
    clear_cache()
    fresh = unit_reach(s2, unit)
    assert (derived.cells == fresh.cells).all()
    assert derived.cells[b.parse_cell("e4")] == -1


def test_tank_chess_lanes_run_from_the_setup_rows_to_the_enemy_edge() -> None:
    # Empty 8x8 board: the command tank steps to any of the 8 neighbours (turning first), so
    # the cell graph is the king graph; the goal is escaping off row 8 (the enemy edge).
    # Disjoint lanes = 8 (one per column), any full row is a minimum cut (8 cells), and the
    # safest route is a straight 6-cell run from row 3 to row 8 with no enemy fire.
    b = Board.of(8, 8)
    s = Scenario(ruleset="tank-chess", board=b)
    la = analyse_lanes(s, Side.SOUTH, np.zeros(b.size, dtype=np.int32))
    assert la.count == 8 and len(la.choke) == 8
    for lane in la.lanes:
        assert b.row_of(lane.cells[0]) == 2 and b.row_of(lane.cells[-1]) == 7
    assert la.safest is not None and la.safest.length == 6 and la.safest.exposure == 0


def test_mirrored_tables_equal_fresh_tables_on_a_symmetric_board() -> None:
    # 8x8, obstacles c3 and its 180° image f6; a light tank per side, mirror images too.
    b = Board.of(8, 8)
    obstacles = (
        Terrain("obstacle", (b.parse_cell("c3"),)),
        Terrain("obstacle", (b.parse_cell("f6"),)),
    )
    s = Scenario(
        ruleset="tank-chess",
        board=b,
        terrain=obstacles,
        units=(
            Unit("light", Side.SOUTH, b.parse_cell("c1"), Facing.N),
            Unit("light", Side.NORTH, b.parse_cell("f8"), Facing.S),
        ),
    )
    assert is_symmetric(s)
    assert not is_symmetric(s.with_terrain(obstacles[:1]))
    clear_cache()
    side_reach(s, Side.SOUTH)
    mirrored = side_reach(s, Side.NORTH)  # built by turning south's table
    clear_cache()
    fresh = side_reach(s, Side.NORTH)
    assert (mirrored.cells == fresh.cells).all()
    # and by symmetry north's map is south's turned 180°
    assert (side_reach(s, Side.SOUTH).cells[::-1] == fresh.cells).all()


def test_tank_chess_kill_coverage_mortar_fires_3_to_5_ahead_over_anything() -> None:
    # A north mortar (gun 5) on h10 facing S hits exactly h7, h6, h5 (3-5 cells ahead),
    # even over an obstacle on h8. Gun 5 beats every armour (max 3): all kinds, all facings
    # die there; h8 and h9 (too close) and h4 (too far) are safe.
    b = Board.of(16, 16)
    s = Scenario(
        ruleset="tank-chess",
        board=b,
        terrain=(Terrain("obstacle", (b.parse_cell("h8"),)),),
        units=(Unit("mortar", Side.NORTH, b.parse_cell("h10"), Facing.S),),
    )
    kill = kill_coverage(s, Side.SOUTH)
    deadly = {
        b.cell_name(int(c))
        for per in kill.values()
        for arr in per.values()
        for c in np.flatnonzero(arr)
    }
    assert deadly == {"h7", "h6", "h5"}
    assert all(kill[k][f][b.parse_cell("h6")] for k in kill for f in Facing)
