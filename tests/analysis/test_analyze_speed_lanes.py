"""``analysis.lanes.menger_cut`` gives exactly networkx's answers (``maximum_flow_value`` on
the node-split graph and ``minimum_st_node_cut``) — the cut, not just its size — on random
digraphs with several minimum cuts and on the built-in maps' cell graphs; and hand-checked
cuts on tiny graphs."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from networkx.algorithms.connectivity import minimum_st_node_cut

from analysis.lanes import _SINK, _SOURCE, cell_graph, menger_cut
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
