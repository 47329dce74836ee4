"""Lanes and choke points: cell-disjoint routes from a side's setup zone to its goal.

The **terrain cell graph** of a side is a directed graph over cells: an edge ``u → v`` when a
unit of a goal-seeking kind (``ruleset.goal_cells(...) is not None``: Final Act tanks, the
Tank Chess command tank) can make a one-cell step from ``u`` to ``v`` in some facing, as the
ruleset's own ``moves`` say (terrain-only: other live units removed, wrecks kept). Cells
nothing can enter (swamps, obstacles, minefield cells other than a lane, wrecks) are not in
it; one-way lanes stay one-way. (Tank Chess takes those steps from the rules' bitboard
search, ``rules.tank_chess.unit_reach.turn_steps``, not from movement tables: same graph.)

* **sources** = the side's ``setup_cells`` in the graph; **targets** = goal cells in the graph,
  plus the cells a move can escape from on the board edge holding most of them (Tank
  Chess: the enemy's back row).
* **lanes** — a maximum set of cell-disjoint source → target paths (Menger: their number is
  the local node connectivity between a super-source and a super-sink), each trimmed to start
  at its last setup cell and end at its first goal cell;
* **choke** — a minimum vertex cut separating sources from targets (its size = the number of
  lanes, by Menger's theorem): the narrowest place of the board for that side
  (``networkx.minimum_st_node_cut``);
* **safest route** — the least exposed path: Dijkstra with the cost of entering a cell
  ``1 + enemy coverage`` there.

``length`` of a lane or route is its number of cells (``steps`` = cells − 1); ``exposure`` is
the sum of the enemy's current coverage (``analysis.coverage``) over all its cells.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np
import numpy.typing as npt
from networkx.algorithms.connectivity import minimum_st_node_cut

from tankmap.analysis.graphs import MovementTable, movement_table
from tankmap.analysis.reach import UNREACHABLE, bfs
from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Unit

_SOURCE = "source"
_SINK = "sink"


@dataclass(frozen=True)
class Lane:
    """A route over cells with its exposure to enemy fire."""

    cells: tuple[int, ...]
    exposure: int

    @property
    def length(self) -> int:
        """Number of cells."""
        return len(self.cells)

    def to_json(self, board: Board) -> dict[str, Any]:
        return {
            "cells": [board.cell_name(c) for c in self.cells],
            "length": self.length,
            "steps": max(0, self.length - 1),
            "exposure": self.exposure,
        }


@dataclass(frozen=True)
class LaneAnalysis:
    """Lanes, choke point and safest route of one side (``None``/empty when the side has no
    goal-seeking unit kind, e.g. Tank Wars)."""

    side: Side
    applicable: bool
    lanes: tuple[Lane, ...]
    choke: tuple[int, ...]
    safest: Lane | None

    @property
    def count(self) -> int:
        return len(self.lanes)

    @property
    def mean_exposure(self) -> float | None:
        if not self.lanes:
            return None
        return float(np.mean([lane.exposure for lane in self.lanes]))

    def to_json(self, board: Board) -> dict[str, Any]:
        """Keys of issue 5 item 4: ``lanes``, ``choke`` = {width, cells}, ``safest_route``."""
        return {
            "lanes": [lane.to_json(board) for lane in self.lanes],
            "choke": {
                "width": len(self.choke) if self.applicable else None,
                "cells": [board.cell_name(c) for c in self.choke],
            },
            "safest_route": None if self.safest is None else self.safest.to_json(board),
        }


def goal_kinds(scenario: Scenario, side: Side) -> list[str]:
    """Unit kinds of the ruleset that can win by moving (``goal_cells`` is not ``None``)."""
    rs = get_ruleset(scenario.ruleset)
    probe_cell = next(iter(sorted(rs.setup_cells(scenario, side))), 0)
    out = []
    for kind in rs.unit_kinds:
        probe = Unit(kind, side, probe_cell, side.forward)
        if rs.goal_cells(scenario.with_units((probe,)), probe) is not None:
            out.append(kind)
    return out


@dataclass(frozen=True)
class CellGraph:
    """A side's terrain cell graph with its source (setup) and target (goal) cells."""

    graph: nx.DiGraph
    sources: frozenset[int]
    targets: frozenset[int]
    columns: int


def cell_graph(scenario: Scenario, side: Side, use_tables: bool = False) -> CellGraph | None:
    """The terrain cell graph of ``side`` (see module doc); ``None`` if no kind of this
    ruleset wins by moving. Tank Chess steps come from the rules' bitboard search, unless
    ``use_tables`` (movement tables, as for the other games: the same graph, slower)."""
    kinds = goal_kinds(scenario, side)
    if not kinds:
        return None
    rs = get_ruleset(scenario.ruleset)
    board = scenario.board
    setup = sorted(rs.setup_cells(scenario, side))
    wrecks = tuple(u for u in scenario.units if u.wreck)
    base = scenario.with_units(wrecks)
    edges: set[tuple[int, int]] = set()
    far_edges: set[tuple[int, int]] = set()
    targets: set[int] = set()
    escapes: set[int] = set()
    goal: set[int] = set()
    for kind in kinds:
        real = [u for u in scenario.units_of(side) if u.kind == kind and not u.wreck]
        probe = Unit(kind, side, setup[0] if setup else 0, side.forward)
        if real:
            probe = Unit(kind, side, real[0].cell, real[0].facing, real[0].name)
        starts = [(c, side.forward) for c in setup] + [(u.cell, u.facing) for u in real]
        if scenario.ruleset == "tank-chess" and not use_tables:
            near, far, kind_escapes = _turn_search_steps(base, kind, side, starts)
            goal |= rs.goal_cells(base.adding(probe), probe) or set()
            escapes |= kind_escapes
        else:
            table = movement_table(base, probe, explore=False)
            seeds = table.ensure(starts)
            live = _reachable(table, seeds)  # a derived table may hold states of old terrain
            goal |= table.goal or set()
            escapes |= {table.states[i][0] for i, e in enumerate(table.escapes) if e and live[i]}
            near, far = _cell_steps(table, board, live)
        edges |= near
        far_edges |= far
    if not edges:
        edges = far_edges
    targets = _escape_edge(board, escapes)
    entered = {v for _, v in edges}
    g = nx.DiGraph()
    g.add_nodes_from(entered)
    g.add_edges_from((u, v) for u, v in edges if u in entered)
    targets = (targets | goal) & entered
    sources = frozenset(c for c in setup if c in entered)
    return CellGraph(graph=g, sources=sources, targets=frozenset(targets), columns=board.columns)


def _reachable(table: MovementTable, seeds: list[int]) -> npt.NDArray[np.bool_]:
    """States reachable from ``seeds``."""
    reached: npt.NDArray[np.bool_] = bfs(table, seeds) != UNREACHABLE
    return reached


def _turn_search_steps(
    base: Scenario, kind: str, side: Side, starts: list[tuple[int, Facing | None]]
) -> tuple[set[tuple[int, int]], set[tuple[int, int]], set[int]]:
    """Tank Chess: the ``_cell_steps`` pairs and the escape cells of ``kind`` from the
    rules' bitboard search (``rules.tank_chess.unit_reach.turn_steps``), no movement table:
    the same sets as the table path (tested). There are no longer steps to return: any move
    to a farther cell starts with a step that is a move of its own, so the one-cell pairs
    are never empty when a longer move exists."""
    from tankmap.rules.tank_chess.unit_reach import turn_steps

    size = base.board.size
    states = [(c, int(f) if f is not None else 4 * side.index) for c, f in starts]
    steps = turn_steps(base, kind, side.index, states)
    one = set(steps.pairs.tolist())  # built as _cell_steps builds it: same set order
    near = {(int(p) // size, int(p) % size) for p in one}
    return near, set(), set(steps.escapes)


def _cell_steps(
    table: MovementTable, board: Board, live: npt.NDArray[np.bool_]
) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """Distinct (from cell, to cell) pairs of the moves of the ``live`` states between
    different cells: one-cell steps (Chebyshev distance 1) and longer moves, vectorised over
    the CSR arrays."""
    indptr, indices = table.csr()
    cells = table.cells()
    lens = np.diff(indptr)
    src = np.repeat(cells[: len(lens)], lens).astype(np.int64)
    dst = cells[indices].astype(np.int64)
    keep = (src != dst) & np.repeat(live[: len(lens)], lens)
    src, dst = src[keep], dst[keep]
    cheb = np.maximum(
        np.abs(src % board.columns - dst % board.columns),
        np.abs(src // board.columns - dst // board.columns),
    )
    pairs = np.unique(src * board.size + dst)
    one = set(np.unique(src[cheb == 1] * board.size + dst[cheb == 1]).tolist())
    near = {(int(p) // board.size, int(p) % board.size) for p in one}
    far = {(int(p) // board.size, int(p) % board.size) for p in pairs.tolist() if p not in one}
    return near, far


def _escape_edge(board: Board, escapes: set[int]) -> set[int]:
    """The escape cells on the board edge that holds the most of them (the edge units leave
    by: for Tank Chess the enemy's back row; a cell near a corner can also reach the edge,
    hence "most")."""
    edges = [
        {c for c in escapes if board.row_of(c) == 0},
        {c for c in escapes if board.row_of(c) == board.rows - 1},
        {c for c in escapes if board.col_of(c) == 0},
        {c for c in escapes if board.col_of(c) == board.columns - 1},
    ]
    most = max(len(e) for e in edges)
    return set().union(*(e for e in edges if len(e) == most)) if most else set()


def _exposure(cells: Sequence[int], enemy: npt.NDArray[np.int32]) -> int:
    return int(sum(int(enemy[c]) for c in cells))


def _trim(path: list[int], sources: frozenset[int], targets: frozenset[int]) -> tuple[int, ...]:
    """Cut a source→target path to start at its last source and end at its first target."""
    end = next(i for i, c in enumerate(path) if c in targets)
    path = path[: end + 1]
    start = max(i for i, c in enumerate(path) if c in sources)
    return tuple(path[start:])


def analyse_lanes(
    scenario: Scenario, side: Side, enemy_coverage: npt.NDArray[np.int32]
) -> LaneAnalysis:
    """Lanes, choke point and safest route of ``side`` (see module doc)."""
    found = cell_graph(scenario, side)
    if found is None:
        return LaneAnalysis(side, False, (), (), None)
    if not found.sources or not found.targets:
        return LaneAnalysis(side, True, (), (), None)
    # everything is found in the side's own frame (north's board turned 180°), so that
    # ties between equally good lanes, cuts and routes break the same way for both sides
    # and a point-symmetric board gets mirror-image answers
    board = scenario.board
    to = _frame(board, side)
    cg = _in_frame(found, to)
    coverage = enemy_coverage[np.array([to(c) for c in range(board.size)], dtype=np.intp)]
    g = cg.graph.copy()
    g.add_edges_from((_SOURCE, c) for c in sorted(cg.sources))
    g.add_edges_from((c, _SINK) for c in sorted(cg.targets))
    if not nx.has_path(g, _SOURCE, _SINK):
        return LaneAnalysis(side, True, (), (), None)
    cut = tuple(sorted(to(c) for c in minimum_st_node_cut(g, _SOURCE, _SINK)))
    paths = shortest_disjoint_paths(cg, len(cut))  # Menger: as many lanes as cut cells
    lanes = sorted(
        (
            Lane(tuple(to(c) for c in cells), _exposure(cells, coverage))
            for cells in (_trim(p, cg.sources, cg.targets) for p in paths)
        ),
        key=lambda lane: (lane.cells[0] % board.columns, lane.cells),
    )
    route = safest_route(cg, coverage)
    if route is not None:
        route = Lane(tuple(to(c) for c in route.cells), route.exposure)
    return LaneAnalysis(side, True, tuple(lanes), cut, route)


def _frame(board: Board, side: Side) -> Callable[[int], int]:
    """A cell in ``side``'s own frame and back (the same map): north's is the board turned
    180° (``Board.mirror``), south's the board as it is."""
    return board.mirror if side is Side.NORTH else (lambda c: c)


def _in_frame(cg: CellGraph, to: Callable[[int], int]) -> CellGraph:
    """``cg`` with every cell taken through ``to``, its cells and steps added in order of
    their new numbers (the order the graph searches break ties in)."""
    g = nx.DiGraph()
    g.add_nodes_from(sorted(to(v) for v in cg.graph.nodes))
    g.add_edges_from(sorted((to(u), to(v)) for u, v in cg.graph.edges))
    return CellGraph(
        graph=g,
        sources=frozenset(to(c) for c in cg.sources),
        targets=frozenset(to(c) for c in cg.targets),
        columns=cg.columns,
    )


def lane_flow_graph(cg: CellGraph) -> nx.DiGraph:
    """The node-split flow graph of ``shortest_disjoint_paths``: arc ``("in", v) → ("out",
    v)`` per cell (capacity 1, cost 10), ``("out", u) → ("in", v)`` per step (capacity 1,
    cost 1 if diagonal else 0), ``"source"`` → setup cells, target cells → ``"sink"``."""
    h = nx.DiGraph()
    columns = cg.columns
    for v in cg.graph.nodes:
        h.add_edge(("in", v), ("out", v), capacity=1, weight=10)
    for u, v in cg.graph.edges:
        diagonal = u % columns != v % columns and u // columns != v // columns
        h.add_edge(("out", u), ("in", v), capacity=1, weight=1 if diagonal else 0)
    for c in sorted(cg.sources):
        h.add_edge(_SOURCE, ("in", c), capacity=1, weight=0)
    for c in sorted(cg.targets):
        h.add_edge(("out", c), _SINK, capacity=1, weight=0)
    return h


def shortest_disjoint_paths(cg: CellGraph, width: int | None = None) -> list[list[int]]:
    """A maximum set of cell-disjoint source → target paths with the fewest cells in total
    (a networkx minimum-cost flow on ``lane_flow_graph``: each cell is an arc of capacity 1
    and cost 10, a diagonal step costs 1 more than a straight one), so lanes run as short
    and straight as the terrain allows. Their number is the Menger number: ``width`` when
    the caller knows it (the size of the minimum vertex cut), else networkx's maximum flow
    value. This is ``networkx.max_flow_min_cost`` with its first half skipped: the same
    network simplex on the same demands, hence the same flow."""
    h = lane_flow_graph(cg)
    if width is None:
        width = int(nx.maximum_flow_value(h, _SOURCE, _SINK))
    h.nodes[_SOURCE]["demand"] = -width
    h.nodes[_SINK]["demand"] = width
    flow = nx.min_cost_flow(h)
    nxt: dict[int, int] = {}
    starts: list[int] = []
    for a, targets in flow.items():
        for b, f in targets.items():
            if f <= 0:
                continue
            if a == _SOURCE:
                starts.append(b[1])
            elif b != _SINK and a[0] == "out":
                nxt[a[1]] = b[1]
    paths = []
    for c in sorted(starts):
        path = [c]
        while path[-1] in nxt:
            path.append(nxt[path[-1]])
        paths.append(path)
    return paths


def safest_route(cg: CellGraph, enemy_coverage: npt.NDArray[np.int32]) -> Lane | None:
    """The least exposed source → target path: entering a cell costs 1 + enemy coverage
    there (the start cell too); among equal routes the one with fewer diagonal steps."""
    g = cg.graph.copy()
    g.add_edges_from((_SOURCE, c) for c in sorted(cg.sources))
    g.add_edges_from((c, _SINK) for c in sorted(cg.targets))

    columns = cg.columns

    def cost(u: Any, v: Any, data: dict[str, Any]) -> float:
        if v == _SINK:
            return 0.0
        bend = 0.0
        if u != _SOURCE and u % columns != v % columns and u // columns != v // columns:
            bend = 0.001  # among equally safe routes prefer straight steps
        return 1.0 + float(enemy_coverage[v]) + bend

    try:
        path = nx.dijkstra_path(g, _SOURCE, _SINK, weight=cost)
    except nx.NetworkXNoPath:
        return None
    cells = _trim(path[1:-1], cg.sources, cg.targets)
    return Lane(cells, _exposure(cells, enemy_coverage))
