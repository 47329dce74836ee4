"""The lanes' flow: giving ``shortest_disjoint_paths`` the Menger width (the size of the
minimum vertex cut) gives exactly what networkx's ``max_flow_min_cost`` gives."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
from networkx.algorithms.connectivity import minimum_st_node_cut

from tankmap.analysis.lanes import (
    _SINK,
    _SOURCE,
    cell_graph,
    lane_flow_graph,
    shortest_disjoint_paths,
)
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Side

MAPS = Path(__file__).resolve().parents[2] / "maps"


def paths_of(flow: dict[object, dict[object, int]]) -> set[tuple[object, object]]:
    return {(a, b) for a, out in flow.items() for b, f in out.items() if f > 0}


@pytest.mark.parametrize("name", ["final-act/flanks-vs-centre.json", "tank-chess/basic-16.json"])
@pytest.mark.parametrize("side", list(Side))
def test_known_width_gives_networkx_max_flow_min_cost(name: str, side: Side) -> None:
    cg = cell_graph(read_scenario(MAPS / name), side)
    assert cg is not None
    g = cg.graph.copy()
    g.add_edges_from((_SOURCE, c) for c in cg.sources)
    g.add_edges_from((c, _SINK) for c in cg.targets)
    width = len(minimum_st_node_cut(g, _SOURCE, _SINK))
    assert width == nx.maximum_flow_value(lane_flow_graph(cg), _SOURCE, _SINK)  # Menger
    reference = nx.max_flow_min_cost(lane_flow_graph(cg), _SOURCE, _SINK)
    starts = sorted(b[1] for (a, b) in paths_of(reference) if a == _SOURCE)  # type: ignore[index]
    paths = shortest_disjoint_paths(cg, width)
    assert [p[0] for p in paths] == starts
    assert paths == shortest_disjoint_paths(cg)
    steps = {(a[1], b[1]) for (a, b) in paths_of(reference) if a != _SOURCE and b != _SINK
             and a[0] == "out"}  # type: ignore[index]  # fmt: skip
    assert steps == {(p[i], p[i + 1]) for p in paths for i in range(len(p) - 1)}


@pytest.mark.parametrize("name", ["final-act/mirror.json", "tank-chess/basic-16.json"])
def test_a_point_symmetric_board_gets_mirror_image_lanes(name: str) -> None:
    # both boards are point-symmetric (north is south turned 180°): each side's lanes,
    # choke cells and safest route are the other's turned 180°, with the same exposures
    # (the searches' ties broke by cell number, and came out differently for the sides)
    from tankmap.analysis.coverage import side_coverage
    from tankmap.analysis.lanes import analyse_lanes

    scenario = read_scenario(MAPS / name)
    turn = scenario.board.mirror
    cover = {side: side_coverage(scenario, side.other) for side in Side}
    south, north = (analyse_lanes(scenario, side, cover[side]) for side in Side)
    assert {(tuple(turn(c) for c in lane.cells), lane.exposure) for lane in south.lanes} == {
        (lane.cells, lane.exposure) for lane in north.lanes
    }
    assert sorted(turn(c) for c in south.choke) == list(north.choke)
    assert south.safest is not None and north.safest is not None
    assert tuple(turn(c) for c in south.safest.cells) == north.safest.cells
    assert south.safest.exposure == north.safest.exposure
