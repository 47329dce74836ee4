"""Reach and turns-to-goal on Final Act boards built so the answer can be derived by hand.

Facts used (docs/rules.md §1.5): a tank moves one cell per round to forward, back, or the four
diagonals relative to its facing (never sideways), may turn 90° only with a diagonal move
toward the side moved, and swamps are impassable; a minefield is passable only on its lane
cell, entered and left by a straight step in the arrow direction. Analysis scenarios need not
be legal setups (several swamps are used to build walls).
"""

from __future__ import annotations

import pytest
from fa_boards import MINE_WALL, SWAMP_WALL, B, c, fa, tank

from tankmap.analysis.graphs import movement_graph, movement_table
from tankmap.analysis.reach import side_reach, unit_reach, unit_reach_nx, unit_reach_route
from tankmap.analysis.summary import analyse
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Terrain, Unit


def test_empty_board_row_1_facing_north_needs_11_rounds() -> None:
    # Every move changes the row by at most 1, so row 12 needs >= 11 moves; 11 forward
    # moves reach f12. docs/rules.md §4 says the same.
    s = fa(units=(tank("f1"),))
    r = side_reach(s, Side.SOUTH)
    assert r.turns_to_goal == 11
    assert r.units[0].turns_to_goal == 11
    # column f: row k needs exactly k-1 rounds (lower bound: one row per move)
    for row in range(1, 13):
        assert r.cells[c(f"f{row}")] == row - 1
    # e2 and g2 are one diagonal move away; e1 needs two (e2 then back)
    assert r.cells[c("e2")] == 1 and r.cells[c("g2")] == 1
    assert r.cells[c("e1")] == 2
    # a1: FL turning W to e2, forward d2 c2 b2, then FL (W + left = S) to a1: 5 moves;
    # fewer is impossible (5 columns, one column per move)
    assert r.cells[c("a1")] == 5


def test_north_tank_mirrors_south() -> None:
    s = fa(units=(tank("g12", Side.NORTH),))
    r = side_reach(s, Side.NORTH)
    assert r.turns_to_goal == 11
    assert r.cells[c("g1")] == 11


def test_tank_facing_backwards_still_reaches_goal() -> None:
    # Facing S on f1, a tank can back up (back = north) one row per round: still 11.
    s = fa(units=(tank("f1", facing=Facing.S),))
    assert side_reach(s, Side.SOUTH).turns_to_goal == 11


def test_swamp_wall_forces_a_detour() -> None:
    # The tank must be on row 5 in column k or l. Four row-advancing moves from f1 end on
    # row 5 at column j at best (one column per move), so one move must advance the column
    # without the row (forward while facing E): at least 5 moves to k5, then 7 rows: 12.
    # Achieved: f1 -FR turn E- g2, F h2, FL i3, FL j4, FL turn N k5, F k6 ... k12.
    s = fa(terrain=SWAMP_WALL, units=(tank("f1"),))
    r = side_reach(s, Side.SOUTH)
    assert r.turns_to_goal == 12
    for x in ("a5", "b6", "e5", "j6"):
        assert r.cells[c(x)] == -1  # swamps are never reached
    assert r.cells[c("k5")] == 5
    # a tank already in column l passes straight: l1 -> l12 in 11
    s2 = fa(terrain=SWAMP_WALL, units=(tank("l1"),))
    assert side_reach(s2, Side.SOUTH).turns_to_goal == 11


def test_minefield_lane_is_the_only_passage() -> None:
    # Row 6 is all minefield; only k6 can be entered going north (from k5, by a straight
    # north step). f1 -> k5 takes >= 5 moves (5 columns) and 5 suffice (as above), then
    # k6 (6), k7 (7) ... k12 (12).
    s = fa(terrain=MINE_WALL, units=(tank("f1"),))
    r = side_reach(s, Side.SOUTH)
    assert r.turns_to_goal == 12
    assert r.cells[c("k6")] == 6
    for x in ("a6", "c6", "f6", "l6"):
        assert r.cells[c(x)] == -1  # minefield cells off the lanes are never entered
    # the south-pointing lane e6 is only entered from e7 stepping south. Row 7 is reached
    # only through k6 -> k7 (7 rounds); e7 is 6 columns away (>= 6 more rounds; achieved by
    # FL turning W to j8, forward i8 h8 g8 f8, FL turning S to e7), then e6: 7 + 6 + 1 = 14.
    assert r.cells[c("e7")] == 13
    assert r.cells[c("e6")] == 14
    # a north tank can only use the southward lanes b6, e6, h6 (enter from row 7 stepping
    # south): e12 -> e7 (5 rounds), e6 (6), e5 ... e1 (11)
    n = fa(terrain=MINE_WALL, units=(tank("e12", Side.NORTH),))
    assert side_reach(n, Side.NORTH).turns_to_goal == 11


def test_lane_blocked_by_wreck_makes_goal_unreachable() -> None:
    wreck = Unit("tank", Side.NORTH, c("k7"), Facing.S, name="1", wreck=True)
    s = fa(terrain=MINE_WALL, units=(tank("f1"), wreck))
    r = side_reach(s, Side.SOUTH)
    assert r.turns_to_goal is None
    assert r.cells[c("k6")] == 6  # the lane itself can still be entered
    assert r.cells[c("k8")] == -1


def test_at_units_have_no_goal() -> None:
    s = fa(units=(Unit("at", Side.SOUTH, c("c1"), Facing.N),))
    s = s.with_options(extra_forces=True)
    r = side_reach(s, Side.SOUTH)
    assert r.turns_to_goal is None
    # an AT moves to any of the 8 neighbours: Chebyshev distance, c1 -> c12 in 11
    assert r.cells[c("c12")] == 11
    assert r.cells[c("l1")] == 9


@pytest.mark.parametrize("terrain", [(), SWAMP_WALL, MINE_WALL])
def test_array_bfs_equals_networkx(terrain: tuple[Terrain, ...]) -> None:
    s = fa(terrain=terrain, units=(tank("f1"), tank("c12", Side.NORTH)))
    for u in s.units:
        a, n = unit_reach(s, u), unit_reach_nx(s, u)
        assert (a.cells == n.cells).all()
        assert a.turns_to_goal == n.turns_to_goal


def test_route_is_a_shortest_path_of_legal_moves() -> None:
    s = fa(terrain=SWAMP_WALL, units=(tank("f1"),))
    u = s.units[0]
    r = unit_reach_nx(s, u)
    assert r.turns_to_goal == 12 and len(r.route) == 13
    g = movement_graph(movement_table(s, u))
    for a, b in zip(r.route, r.route[1:], strict=False):
        assert g.has_edge(a, b)
    last = r.route[-1]
    assert isinstance(last, tuple) and B.row_of(last[0]) == 11


def test_array_route_is_a_shortest_path_too() -> None:
    s = fa(terrain=MINE_WALL, units=(tank("f1"),))
    u = s.units[0]
    r = unit_reach_route(s, u)
    assert r.turns_to_goal == 12 and len(r.route) == 13
    g = movement_graph(movement_table(s, u))
    for a, b in zip(r.route, r.route[1:], strict=False):
        assert g.has_edge(a, b)
    assert (r.cells == unit_reach_nx(s, u).cells).all()


def test_analyse_json_same_numbers_with_networkx() -> None:
    s = fa(terrain=SWAMP_WALL, units=(tank("f1"), tank("c12", Side.NORTH)))
    a, n = analyse(s).to_json(), analyse(s, use_networkx=True).to_json()
    for side in ("south", "north"):
        for key in ("turns_to_goal", "reach", "coverage"):
            assert a["sides"][side][key] == n["sides"][side][key]
    assert [len(u["route"]) for u in a["units"]] == [len(u["route"]) for u in n["units"]]
