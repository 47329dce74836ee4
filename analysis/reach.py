"""Reachability: rounds/turns to the goal per unit and side, reach maps, shortest routes.

Terrain-only movement (docs/cli-json.md ``analyze``): each unit is explored alone on the terrain
with the wrecks (``analysis.graphs``). Distances count rounds (Final Act, Tank Wars) or own
turns (Tank Chess): one edge of the movement graph each.

Two implementations give identical numbers (tested):

* ``unit_reach`` — numpy breadth-first search over the table's CSR arrays, memoised per start
  state (the editor's live path);
* ``unit_reach_nx`` — networkx shortest paths over ``movement_graph`` (reports, routes).

Tank Chess needs no tables at all: ``turn_search_reach`` takes every unit's reach, turns to
escape and one shortest route from the rules' bitboard search
(``rules.tank_chess.unit_reach``), the same numbers in milliseconds (``tankmap analyze``).

A unit's *goal* is the ruleset's ``goal_cells`` (standing there wins) or an escape move
(``UnitMove.to is None``, one more turn from a state that has it). Units whose ruleset says
``goal_cells is None`` have ``turns_to_goal = None``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx
import numpy as np
import numpy.typing as npt

from tankmap.analysis.graphs import (
    ESCAPE,
    IntArray,
    MovementTable,
    State,
    movement_graph,
    movement_table,
)
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Unit

UNREACHABLE = -1
"""Value of unreachable cells in the reach arrays (``None`` in JSON)."""


@dataclass(frozen=True)
class UnitReach:
    """Where one unit can get: ``cells[c]`` = fewest rounds/turns to stand on cell ``c``
    (``UNREACHABLE`` = never; 0 = its own cell); ``turns_to_goal`` (``None`` = cannot win by
    moving); ``route`` = one shortest route to the goal as states, ending with ``"escape"``
    for an escape (empty when there is no goal or no route)."""

    unit: Unit
    cells: IntArray
    turns_to_goal: int | None
    route: tuple[State | str, ...] = ()


# --- fast array implementation ------------------------------------------------------------
def successors(
    indptr: IntArray, indices: IntArray, frontier: IntArray
) -> tuple[IntArray, IntArray]:
    """Every successor of every state of ``frontier`` in a CSR graph, flat and in frontier
    order (with repeats), and how many each frontier state has."""
    starts = indptr[frontier]
    lens = indptr[frontier + 1] - starts
    offsets = np.repeat(starts - np.cumsum(lens) + lens, lens)
    return indices[offsets + np.arange(int(lens.sum()), dtype=np.int32)], lens


def bfs(table: MovementTable, start: int | Sequence[int]) -> IntArray:
    """Breadth-first distances (in moves) from state ``start`` — or from the nearest of
    several start states — to every state of ``table`` (``UNREACHABLE`` where none). Pure
    numpy: one vectorised gather per level; no parents (``bfs_tree`` also gives them), as
    this is the editor's live path."""
    indptr, indices = table.csr()
    dist = np.full(len(table), UNREACHABLE, dtype=np.int32)
    frontier = np.unique(np.asarray(start, dtype=np.int32).reshape(-1))
    dist[frontier] = 0
    level = 0
    while frontier.size:
        level += 1
        nb, _ = successors(indptr, indices, frontier)
        nb = nb[dist[nb] == UNREACHABLE]
        if nb.size == 0:
            break
        dist[nb] = level  # duplicates write the same value: no unique() needed
        frontier = np.flatnonzero(dist == level).astype(np.int32)
    return dist


def bfs_tree(table: MovementTable, start: int) -> tuple[IntArray, IntArray]:
    """``(dist, parent)``: breadth-first distances from state ``start`` and, for every
    reached state, one predecessor on a shortest path (``-1`` for the start and unreached)."""
    indptr, indices = table.csr()
    n = len(table)
    dist = np.full(n, UNREACHABLE, dtype=np.int32)
    parent = np.full(n, -1, dtype=np.int32)
    dist[start] = 0
    frontier = np.asarray([start], dtype=np.int32)
    level = 0
    while frontier.size:
        level += 1
        nb, lens = successors(indptr, indices, frontier)
        src = np.repeat(frontier, lens)
        fresh = dist[nb] == UNREACHABLE
        nb, src = nb[fresh], src[fresh]
        if nb.size == 0:
            break
        nb, first = np.unique(nb, return_index=True)
        dist[nb] = level
        parent[nb] = src[first]
        frontier = nb
    return dist, parent


def bfs_route(
    table: MovementTable, start: int
) -> tuple[IntArray, int | None, tuple[State | str, ...]]:
    """``(dist, turns_to_goal, route)`` by array BFS: the route is one shortest path of
    states to the nearest goal (the lowest-numbered goal state at that distance), ending with
    ``"escape"`` when the goal is an escape; ``()`` without a goal or a route."""
    dist, parent = bfs_tree(table, start)
    turns = _goal_distance(table, dist)
    if turns is None:
        return dist, None, ()
    goal = table.goal_mask() & (dist == turns)
    end: int
    tail: tuple[str, ...] = ()
    if goal.any():
        end = int(np.flatnonzero(goal)[0])
    else:
        end = int(np.flatnonzero(table.escape_mask() & (dist == turns - 1))[0])
        tail = ("escape",)
    path = [end]
    while parent[path[-1]] >= 0:
        path.append(int(parent[path[-1]]))
    return dist, turns, tuple(table.states[i] for i in reversed(path)) + tail


def _goal_distance(table: MovementTable, dist: IntArray) -> int | None:
    if table.goal is None:
        return None
    best: int | None = None
    goal = table.goal_mask() & (dist >= 0)
    if goal.any():
        best = int(dist[goal].min())
    esc = table.escape_mask() & (dist >= 0)
    if esc.any():
        d = int(dist[esc].min()) + 1
        best = d if best is None else min(best, d)
    return best


def cell_distances(table: MovementTable, dist: IntArray, size: int) -> IntArray:
    """Per-cell minimum of per-state distances (``UNREACHABLE`` where no state reaches)."""
    big = np.iinfo(np.int32).max
    out = np.full(size, big, dtype=np.int32)
    ok = dist >= 0
    np.minimum.at(out, table.cells()[ok], dist[ok])
    out[out == big] = UNREACHABLE
    return out


def sources_reach(table: MovementTable, starts: Sequence[int]) -> tuple[IntArray, int | None]:
    """Per-cell distances and turns to the goal from the nearest of the start states
    ``starts`` (indices into ``table``): the element-wise minimum of their ``unit_reach``
    numbers, by one multi-source BFS (a side's units sharing one table)."""
    dist = bfs(table, starts)
    return cell_distances(table, dist, table.scenario.board.size), _goal_distance(table, dist)


def unit_reach(scenario: Scenario, unit: Unit) -> UnitReach:
    """``UnitReach`` of ``unit`` by array BFS (no route). Memoised per table and start state;
    the arrays returned are shared: do not modify them."""
    table = movement_table(scenario, unit)
    start = table.index_of((unit.cell, unit.facing))
    hit = table._dist_cache.get(start)
    if hit is None:
        dist = bfs(table, start)
        hit = (cell_distances(table, dist, scenario.board.size), _goal_distance(table, dist))
        table._dist_cache[start] = hit
        while len(table._dist_cache) > 256:
            table._dist_cache.popitem(last=False)
    return UnitReach(unit=unit, cells=hit[0], turns_to_goal=hit[1])


# --- networkx implementation --------------------------------------------------------------
def unit_reach_nx(scenario: Scenario, unit: Unit, graph: nx.DiGraph | None = None) -> UnitReach:
    """``UnitReach`` of ``unit`` by networkx shortest paths, with one shortest route."""
    table = movement_table(scenario, unit)
    if graph is None:
        graph = movement_graph(table)
    start: State = (unit.cell, unit.facing)
    paths = nx.single_source_shortest_path(graph, start)
    lengths = {node: len(path) - 1 for node, path in paths.items()}
    size = scenario.board.size
    cells = np.full(size, UNREACHABLE, dtype=np.int32)
    goal_cells = table.goal
    best: int | None = None
    best_node: object = None
    for node, d in lengths.items():
        if node == ESCAPE:
            continue
        cell = node[0]
        if cells[cell] == UNREACHABLE or d < cells[cell]:
            cells[cell] = d
    if goal_cells is not None:
        for node, d in sorted(lengths.items(), key=lambda kv: (kv[1], str(kv[0]))):
            if node == ESCAPE or node[0] in goal_cells:
                best, best_node = int(d), node
                break
    route: tuple[State | str, ...] = ()
    if best_node is not None:
        route = tuple(paths[best_node])
    return UnitReach(unit=unit, cells=cells, turns_to_goal=best, route=route)


# --- sides ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class SideReach:
    """One side's reach: ``cells[c]`` = fewest rounds/turns for any of its live units to stand
    on ``c`` (``UNREACHABLE`` if none can); ``turns_to_goal`` = min over its units."""

    side: Side
    cells: IntArray
    turns_to_goal: int | None
    units: tuple[UnitReach, ...]


def unit_reach_route(scenario: Scenario, unit: Unit) -> UnitReach:
    """``UnitReach`` with one shortest route, by array BFS (same numbers as the others)."""
    table = movement_table(scenario, unit)
    dist, turns, route = bfs_route(table, table.index_of((unit.cell, unit.facing)))
    cells = cell_distances(table, dist, scenario.board.size)
    return UnitReach(unit=unit, cells=cells, turns_to_goal=turns, route=route)


def side_reach(
    scenario: Scenario, side: Side, use_networkx: bool = False, routes: bool = False
) -> SideReach:
    """Combine the reach of every live unit of ``side``: array BFS (with one shortest route
    per unit if ``routes``), or networkx (always with routes)."""
    units = [u for u in scenario.units_of(side) if not u.wreck]
    if use_networkx:
        per = tuple(unit_reach_nx(scenario, u) for u in units)
    elif routes:
        per = tuple(unit_reach_route(scenario, u) for u in units)
    else:
        per = tuple(unit_reach(scenario, u) for u in units)
    return SideReach(
        side=side,
        cells=combine_reach([r.cells for r in per], scenario.board.size),
        turns_to_goal=min_or_none(r.turns_to_goal for r in per),
        units=per,
    )


def turn_search_reach(scenario: Scenario) -> dict[Side, SideReach]:
    """Both sides' ``SideReach`` (with routes) of a Tank Chess ``scenario`` from the rules'
    bitboard search (``rules.tank_chess.unit_reach``) instead of movement tables: the same
    numbers as ``side_reach(..., routes=True)`` (tested), in milliseconds instead of
    seconds. Each route is one shortest route (several may exist); a unit whose route the
    search does not walk (one standing on a blocked cell) gets it from its table. Raises
    ``PositionError`` for a scenario of another ruleset or an unknown piece kind."""
    from tankmap.rules.tank_chess.unit_reach import unit_terrain_reach

    found = unit_terrain_reach(scenario)
    per_side: dict[Side, list[UnitReach]] = {side: [] for side in Side}
    for u, r in zip(scenario.units, found, strict=True):
        if r is None:
            continue
        route: tuple[State | str, ...] = ()
        if r.escape is not None:
            if r.route is None:
                route = unit_reach_route(scenario, u).route
            else:
                states: list[State | str] = [(u.cell, u.facing)]
                states += [(c, Facing(f)) for c, f in r.route[1:]]
                route = (*states, ESCAPE)
        per_side[u.side].append(UnitReach(u, r.cells, r.escape, route))
    out = {}
    for side in Side:
        per = tuple(per_side[side])
        out[side] = SideReach(
            side=side,
            cells=combine_reach([r.cells for r in per], scenario.board.size),
            turns_to_goal=min_or_none(r.turns_to_goal for r in per),
            units=per,
        )
    return out


def combine_reach(maps: list[IntArray], size: int) -> IntArray:
    """Element-wise minimum of reach arrays, ignoring ``UNREACHABLE``."""
    if not maps:
        return np.full(size, UNREACHABLE, dtype=np.int32)
    big = np.iinfo(np.int32).max
    stack = np.stack(maps)
    stack = np.where(stack < 0, big, stack)
    out: IntArray = stack.min(axis=0).astype(np.int32)
    out[out == big] = UNREACHABLE
    return out


def min_or_none(values: Iterable[int | None]) -> int | None:
    """Minimum of the non-``None`` values, or ``None``."""
    vals = [v for v in values if v is not None]
    return min(vals) if vals else None


def reach_grid(cells: IntArray, columns: int, rows: int) -> list[list[int | None]]:
    """A reach array as the JSON 2-D map (rows, ``[0]`` = row 1; ``None`` = unreachable)."""
    grid = cells.reshape(rows, columns)
    return [[None if v < 0 else int(v) for v in row] for row in grid]


def as_mask(cells: IntArray) -> npt.NDArray[np.bool_]:
    """Cells reachable at all."""
    return cells >= 0
