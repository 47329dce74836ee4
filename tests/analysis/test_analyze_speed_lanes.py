"""``analysis.lanes.menger_cut`` gives exactly networkx's answers (``maximum_flow_value`` on
the node-split graph and ``minimum_st_node_cut``) — the cut, not just its size — and
``analysis.simplex.min_cost_flow_edges`` exactly networkx's min-cost flow (the same flow
among equal-cost ones), on random digraphs and on the built-in maps' graphs; plus
hand-checked answers on tiny graphs."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from networkx.algorithms.connectivity import minimum_st_node_cut

from analysis.lanes import (
    _SINK,
    _SOURCE,
    cell_graph,
    lane_flow_graph,
    menger_cut,
    shortest_disjoint_paths,
)
from analysis.simplex import min_cost_flow_edges
from rules.fileformat import read_scenario
from rules.geometry import Side

ROOT = Path(__file__).resolve().parents[2]


def reference(g: nx.DiGraph, s: object, t: object) -> tuple[int, set[object]]:
    h = nx.DiGraph()
    for v in g.nodes:
        h.add_edge(("in", v), ("out", v), capacity=1)
    for u, v in g.edges:
        h.add_edge(("out", u), ("in", v), capacity=1)
    value = nx.maximum_flow_value(h, ("out", s), ("in", t))
    return int(value), set(minimum_st_node_cut(g, s, t))


def test_hand_checked_cuts() -> None:
    # s -> a -> t and s -> b -> c -> t: two disjoint paths, the cut takes one node of each;
    # networkx cuts next to the sink: {a, c}.
    g = nx.DiGraph([("s", "a"), ("a", "t"), ("s", "b"), ("b", "c"), ("c", "t")])
    assert menger_cut(g, "s", "t") == (2, {"a", "c"})
    # a diamond through one articulation node m: one path, cut {m}
    g = nx.DiGraph([("s", "x"), ("s", "y"), ("x", "m"), ("y", "m"), ("m", "t")])
    assert menger_cut(g, "s", "t") == (1, {"m"})
    # no path at all: nothing to cut
    g = nx.DiGraph([("s", "x"), ("y", "t")])
    assert menger_cut(g, "s", "t") == (0, set())


def test_random_digraphs_match_networkx() -> None:
    rng = np.random.default_rng(51)
    for trial in range(60):
        n = int(rng.integers(6, 40))
        p = float(rng.uniform(0.05, 0.3))
        g = nx.DiGraph()
        g.add_nodes_from(range(n))
        for u in range(n):
            for v in range(n):
                if u != v and rng.random() < p:
                    g.add_edge(u, v)
        g.add_nodes_from(["S", "T"])
        for c in rng.choice(n, size=min(n, 4), replace=False).tolist():
            g.add_edge("S", c)
        for c in rng.choice(n, size=min(n, 4), replace=False).tolist():
            g.add_edge(c, "T")
        assert menger_cut(g, "S", "T") == reference(g, "S", "T"), trial


@pytest.mark.parametrize("name", ["final-act/mirror", "tank-chess/sample-20"])
def test_map_cell_graphs_match_networkx(name: str) -> None:
    s = read_scenario(ROOT / "maps" / f"{name}.json")
    for side in Side:
        cg = cell_graph(s, side)
        assert cg is not None
        g = cg.graph.copy()
        g.add_edges_from((_SOURCE, c) for c in sorted(cg.sources))
        g.add_edges_from((c, _SINK) for c in sorted(cg.targets))
        assert menger_cut(g, _SOURCE, _SINK) == reference(g, _SOURCE, _SINK)


# --- analysis.simplex: networkx's network simplex, ported -------------------------------------
def nx_flow_edges(h: nx.DiGraph, s: object, t: object, value: int) -> list[tuple[object, ...]]:
    demands = nx.DiGraph(h)
    demands.add_node(s, demand=-value)
    demands.add_node(t, demand=value)
    flow = nx.min_cost_flow(demands)
    return [(u, v, f) for u in h for v, f in flow[u].items() if f > 0]


def same_edges(a: list[tuple[object, ...]], b: list[tuple[object, ...]]) -> bool:
    return sorted(map(repr, a)) == sorted(map(repr, b))


def test_simplex_hand_checked() -> None:
    # two routes s -> a -> t (cost 1 + 1) and s -> b -> t (cost 5 + 0), capacity 1 each:
    # one unit takes the cheap route, two units need both.
    h = nx.DiGraph()
    h.add_edge("s", "a", capacity=1, weight=1)
    h.add_edge("a", "t", capacity=1, weight=1)
    h.add_edge("s", "b", capacity=1, weight=5)
    h.add_edge("b", "t", capacity=1, weight=0)
    assert min_cost_flow_edges(h, {"s": -1, "t": 1}) == [("s", "a", 1), ("a", "t", 1)]
    assert len(min_cost_flow_edges(h, {"s": -2, "t": 2})) == 4
    with pytest.raises(nx.NetworkXUnfeasible):
        min_cost_flow_edges(h, {"s": -3, "t": 3})


def test_simplex_matches_networkx_on_random_lane_graphs() -> None:
    # node-split graphs as shortest_disjoint_paths builds them, with many equal-cost
    # optima (weights 0-2): the port must pick networkx's very flow, not just its cost
    rng = np.random.default_rng(7)
    for trial in range(80):
        n = int(rng.integers(5, 50))
        p = float(rng.uniform(0.05, 0.3))
        h = nx.DiGraph()
        for v in range(n):
            h.add_edge(("in", v), ("out", v), capacity=1, weight=10)
        for u in range(n):
            for v in range(n):
                if u != v and rng.random() < p:
                    h.add_edge(("out", u), ("in", v), capacity=1, weight=int(rng.integers(3)))
        for c in rng.choice(n, size=min(n, 5), replace=False).tolist():
            h.add_edge("S", ("in", c), capacity=1, weight=0)
        for c in rng.choice(n, size=min(n, 5), replace=False).tolist():
            h.add_edge(("out", c), "T", capacity=1, weight=0)
        value = int(nx.maximum_flow_value(h, "S", "T"))
        mine = min_cost_flow_edges(h, {"S": -value, "T": value})
        assert same_edges(mine, nx_flow_edges(h, "S", "T", value)), trial


@pytest.mark.parametrize("name", ["final-act/extra-forces", "tank-chess/blank-20"])
def test_map_lanes_match_networkx_max_flow_min_cost(name: str) -> None:
    s = read_scenario(ROOT / "maps" / f"{name}.json")
    for side in Side:
        cg = cell_graph(s, side)
        assert cg is not None
        paths = shortest_disjoint_paths(cg)
        # the reference: networkx's max_flow_min_cost on the same node-split graph
        h = lane_flow_graph(cg)
        flow = nx.max_flow_min_cost(h, _SOURCE, _SINK)
        ref = [(u, v, f) for u in h for v, f in flow[u].items() if f > 0]
        assert len(paths) == sum(f for u, _, f in ref if u == _SOURCE)
        used = {
            (("out", a), ("in", b)) for path in paths for a, b in zip(path, path[1:], strict=False)
        }
        steps = {(u, v) for u, v, _ in ref if u != _SOURCE and v != _SINK and u[0] == "out"}
        assert used == steps
