"""Lanes, choke points, coverage and exposure on Final Act boards with obvious answers."""

from __future__ import annotations

import numpy as np
from fa_boards import MINE_WALL, SWAMP_WALL, B, c, fa, tank
from networkx.algorithms.connectivity import local_node_connectivity

from tankmap.analysis.coverage import coverage, summarize
from tankmap.analysis.lanes import analyse_lanes, cell_graph
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Unit


def names(cells: tuple[int, ...] | list[int]) -> set[str]:
    return {B.cell_name(x) for x in cells}


def lanes_of(s, side: Side):  # type: ignore[no-untyped-def]
    cov = coverage(s)
    return analyse_lanes(s, side, cov[side.other])


def assert_disjoint_valid(s, la, side: Side) -> None:  # type: ignore[no-untyped-def]
    cg = cell_graph(s, side)
    assert cg is not None
    # Menger: the number of lanes is the local node connectivity source -> sink
    g = cg.graph.copy()
    g.add_edges_from(("S", x) for x in cg.sources)
    g.add_edges_from((x, "T") for x in cg.targets)
    assert la.count == local_node_connectivity(g, "S", "T") == len(la.choke)
    seen: set[int] = set()
    for lane in la.lanes:
        assert not seen & set(lane.cells), "lanes share a cell"
        seen |= set(lane.cells)
        assert B.own_row(lane.cells[0], side.index) <= 3  # starts in the setup zone
        assert B.own_row(lane.cells[-1], side.other.index) == 1  # ends on the enemy LLD
        for a, b in zip(lane.cells, lane.cells[1:], strict=False):
            assert cg.graph.has_edge(a, b)


def test_empty_board_has_12_lanes_and_choke_width_12() -> None:
    # Every column is a lane (straight forward moves); any full row is a cut of 12 cells.
    s = fa()
    for side in Side:
        la = lanes_of(s, side)
        assert la.count == 12 and len(la.choke) == 12
        assert_disjoint_valid(s, la, side)


def test_swamp_wall_leaves_two_lanes_through_the_gap() -> None:
    # Rows 5-6 are swamp except columns k and l: two cell-disjoint lanes (k and l columns)
    # and the narrowest cut is the 2-cell gap row k5 l5 or k6 l6 ({k5, l6} is no cut:
    # l5 -> k6 is a diagonal move).
    s = fa(terrain=SWAMP_WALL)
    for side in Side:
        la = lanes_of(s, side)
        assert la.count == 2
        assert names(la.choke) in ({"k5", "l5"}, {"k6", "l6"})
        assert_disjoint_valid(s, la, side)
        for lane in la.lanes:
            assert names(lane.cells) & {"k5", "l5"} and names(lane.cells) & {"k6", "l6"}


def test_minefield_lane_is_a_one_cell_choke() -> None:
    # South can only cross row 6 at k6 (entered from k5, left to k7): one lane, cut width 1
    # (k5, k6 or k7 each cut it). North crosses at the three south-pointing lanes b6 e6 h6.
    s = fa(terrain=MINE_WALL)
    south = lanes_of(s, Side.SOUTH)
    assert south.count == 1
    assert len(south.choke) == 1 and names(south.choke) <= {"k5", "k6", "k7"}
    assert {"k5", "k6", "k7"} <= names(south.lanes[0].cells)
    assert south.safest is not None and {"k5", "k6", "k7"} <= names(south.safest.cells)
    north = lanes_of(s, Side.NORTH)
    assert north.count == 3 and len(north.choke) == 3
    crossings = sorted(x for lane in north.lanes for x in names(lane.cells) & {"b6", "e6", "h6"})
    assert crossings == ["b6", "e6", "h6"]
    assert_disjoint_valid(s, south, Side.SOUTH)
    assert_disjoint_valid(s, north, Side.NORTH)


def test_single_tank_coverage_contested_and_safe_cells() -> None:
    # docs/rules.md §4: a tank on f1 facing N covers 24 cells (rows 2-7, widths 3,5,7,5,3,1).
    # A north tank on f12 facing S covers rows 11..6 with the same widths: row 7 = e7 f7 g7,
    # row 6 = f6. South covers row 6 = e6 f6 g6 and row 7 = f7, so contested = {f6, f7}.
    # Safe: south's half (rows 1-6) minus north's f6 = 71; north's half minus f7 = 71.
    s = fa(units=(tank("f1"), tank("f12", Side.NORTH)))
    summ = summarize(s)
    assert int(summ.per_side[Side.SOUTH].sum()) == 24
    assert int(summ.per_side[Side.NORTH].sum()) == 24
    assert names(list(np.flatnonzero(summ.contested))) == {"f6", "f7"}
    assert int(summ.safe[Side.SOUTH].sum()) == 71 and int(summ.safe[Side.NORTH].sum()) == 71


def test_exposure_is_sum_of_enemy_coverage_along_the_lane() -> None:
    # One north tank on k12 facing S covers k11 (row 11: j-l), row 10: i-m (i..l on board)...
    # Whatever the exact cone, a lane's exposure must be the sum over its cells of how many
    # north units cover each cell; the k-column lane through the mine lane is covered at
    # k7..k11 (f = 5..1 ahead of k12, all within the cone) = 5.
    north = tank("k12", Side.NORTH)
    s = fa(terrain=MINE_WALL, units=(north,))
    cov = coverage(s)
    la = analyse_lanes(s, Side.SOUTH, cov[Side.NORTH])
    lane = la.lanes[0]
    assert lane.exposure == sum(int(cov[Side.NORTH][x]) for x in lane.cells)
    assert int(sum(cov[Side.NORTH][c(f"k{r}")] for r in range(7, 12))) == 5
    assert la.safest is not None
    assert la.safest.exposure == sum(int(cov[Side.NORTH][x]) for x in la.safest.cells)


def test_safest_route_avoids_covered_cells() -> None:
    # An open board with a north tank on a12 facing S: its cone covers columns a-f only
    # (|s| <= 3 minus the edge), so the least exposed route runs up the far columns with 0
    # exposure.
    s = fa(units=(Unit("tank", Side.NORTH, c("a12"), Facing.S, name="C"),))
    la = lanes_of(s, Side.SOUTH)
    assert la.safest is not None
    assert la.safest.exposure == 0
    assert la.safest.length == 10  # row 3 to row 12, one row per move


def test_lanes_after_terrain_edits_equal_fresh_lanes() -> None:
    # Tables derived through edits may keep states of the old terrain; lanes must not care.
    from tankmap.analysis.graphs import clear_cache

    for terrain in (MINE_WALL, SWAMP_WALL, MINE_WALL[:2] + SWAMP_WALL[:2]):
        s = fa(terrain=terrain)
        derived = {side: lanes_of(s, side) for side in Side}
        clear_cache()
        fresh = {side: lanes_of(s, side) for side in Side}
        for side in Side:
            assert derived[side].lanes == fresh[side].lanes
            assert derived[side].choke == fresh[side].choke
            assert derived[side].safest == fresh[side].safest
