"""Movement graphs: every (cell, facing) state a unit kind can be in, and one round/turn of
legal movement between them, built from the ruleset's own ``moves`` (no second copy of any
game's rules).

The terrain-only convention of docs/cli-json.md ``analyze`` applies: the graph is explored on the
scenario with *only* the explored unit and the wrecks (other live units are removed, so they
neither block nor conflict). Wrecks, terrain, edges and options all come from the scenario.

Two views of the same data:

* ``MovementTable`` — compact arrays (CSR adjacency over state indices) for fast breadth-first
  search without networkx (the editor's live path, ``analysis.reach.bfs``).
* ``movement_graph`` — a ``networkx.DiGraph`` over ``(cell, facing)`` nodes (``facing`` is a
  ``Facing`` or ``None``), plus the node ``ESCAPE`` for moves that leave the board (a Tank Chess
  command tank's escape). Edges carry no weight: each is one round/turn.

Tables are cached per (ruleset, board, terrain, wrecks, options, unit kind, side, armour,
damage) and grow lazily: ``table.ensure(states)`` explores everything reachable from new start
states. Exploring calls ``ruleset.moves`` once per reachable state.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import networkx as nx
import numpy as np
import numpy.typing as npt

from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.ruleset import Ruleset
from tankmap.rules.scenario import Scenario, Unit

ESCAPE = "escape"
"""The networkx node every escape move (``UnitMove.to is None``) leads to."""

State = tuple[int, Facing | None]


def state_code(cell: int, facing: Facing | None) -> int:
    """A state as one int (``cell * 9 + facing + 1``, 0 for no facing): fast dict keys."""
    return cell * 9 + (0 if facing is None else int(facing) + 1)


IntArray = npt.NDArray[np.int32]

_CACHE_SIZE = 48  # a full Tank Chess 20x20 needs 12 tables of a few MB each


@dataclass(frozen=True)
class TableKey:
    """What a movement table depends on. Two scenarios with equal keys share a table."""

    ruleset: str
    columns: int
    rows: int
    terrain: tuple[Any, ...]
    wrecks: tuple[Unit, ...]
    options: tuple[tuple[str, Any], ...]
    kind: str
    side: Side
    armour: int | None
    damage: int


def table_key(scenario: Scenario, unit: Unit) -> TableKey:
    """The cache key of ``unit``'s movement table in ``scenario`` (its cell, facing and name
    do not matter: the table covers every state of that kind)."""
    return TableKey(
        ruleset=scenario.ruleset,
        columns=scenario.board.columns,
        rows=scenario.board.rows,
        terrain=scenario.terrain,
        wrecks=tuple(u for u in scenario.units if u.wreck),
        options=tuple(sorted(scenario.options.items())),
        kind=unit.kind,
        side=unit.side,
        armour=unit.armour,
        damage=unit.damage,
    )


@dataclass
class MovementTable:
    """All explored states of one unit kind on one terrain, with their one-round successors.

    ``states[i]`` is ``(cell, facing)``; ``index_of(state)`` gives ``i`` back. ``succ[i]``
    lists successor indices; ``escapes[i]`` is True when a move from state ``i`` leaves the
    board. ``goal`` is the set of cells where the unit wins by standing (``None`` if it cannot
    win by moving; an empty set if only an escape wins). ``csr()`` gives the adjacency as
    numpy arrays. Build with ``movement_table``; grow with ``ensure``.
    """

    key: TableKey
    scenario: Scenario
    probe: Unit
    ruleset: Ruleset
    goal: frozenset[int] | None
    states: list[State] = field(default_factory=list)
    codes: dict[int, int] = field(default_factory=dict)
    succ: list[list[int]] = field(default_factory=list)
    escapes: list[bool] = field(default_factory=list)
    _csr: tuple[IntArray, IntArray] | None = None
    _cells: IntArray | None = None
    _graph: nx.DiGraph | None = None
    _dist_cache: OrderedDict[int, tuple[IntArray, int | None]] = field(default_factory=OrderedDict)

    def __len__(self) -> int:
        return len(self.states)

    def ensure(self, starts: Iterable[State]) -> list[int]:
        """Explore everything reachable from ``starts``; return the starts' indices."""
        out = [self._add(s) for s in starts]
        while len(self.succ) < len(self.states):
            self._expand(len(self.succ))
        return out

    def index_of(self, state: State) -> int:
        """Index of an explored ``state``; ``KeyError`` if it is not in the table."""
        return self.codes[state_code(*state)]

    def __contains__(self, state: object) -> bool:
        return isinstance(state, tuple) and len(state) == 2 and state_code(*state) in self.codes

    def _add(self, state: State) -> int:
        code = state_code(*state)
        i = self.codes.get(code)
        if i is None:
            i = len(self.states)
            self.states.append(state)
            self.codes[code] = i
            self._changed()
        return i

    def _changed(self) -> None:
        self._csr = None
        self._cells = None
        self._graph = None
        self._dist_cache.clear()

    def _expand(self, i: int) -> None:
        """Compute state ``i``'s successors (states are expanded in index order)."""
        succ, escape = self._successors(i)
        self.succ.append(succ)
        self.escapes.append(escape)

    def _successors(self, i: int) -> tuple[list[int], bool]:
        cell, facing = self.states[i]
        probe = Unit(
            kind=self.probe.kind,
            side=self.probe.side,
            cell=cell,
            facing=facing,
            name=self.probe.name,
            damage=self.probe.damage,
            armour=self.probe.armour,
        )
        scen = self.scenario.with_units(self.scenario.units + (probe,))
        targets: set[int] = set()
        escape = False
        codes = self.codes
        for m in self.ruleset.moves(scen, probe):
            to, f = m.to, m.facing
            if to is None:
                escape = True
                continue
            # int arithmetic on the IntEnum: hashing Facing itself is slow (Enum.__hash__)
            j = codes.get(to * 9 + (0 if f is None else f + 1))
            targets.add(self._add((to, f)) if j is None else j)
        targets.discard(i)
        return sorted(targets), escape

    # --- array views --------------------------------------------------------------------
    def csr(self) -> tuple[IntArray, IntArray]:
        """``(indptr, indices)``: successors of state ``i`` are
        ``indices[indptr[i]:indptr[i + 1]]``. Only expanded states have successors."""
        if self._csr is None:
            lens = np.zeros(len(self.states) + 1, dtype=np.int32)
            lens[1 : len(self.succ) + 1] = [len(s) for s in self.succ]
            indptr = np.cumsum(lens, dtype=np.int32)
            flat = [j for s in self.succ for j in s]
            self._csr = (indptr, np.asarray(flat, dtype=np.int32))
        return self._csr

    def cells(self) -> IntArray:
        """Cell of every state, as an array aligned with ``states``."""
        if self._cells is None:
            self._cells = np.asarray([s[0] for s in self.states], dtype=np.int32)
        return self._cells

    def goal_mask(self) -> npt.NDArray[np.bool_]:
        """States standing on a goal cell (escapes are separate: ``escape_mask``)."""
        if not self.goal:
            return np.zeros(len(self.states), dtype=bool)
        goal = np.zeros(self.scenario.board.size, dtype=bool)
        goal[list(self.goal)] = True
        return goal[self.cells()]

    def escape_mask(self) -> npt.NDArray[np.bool_]:
        """States from which one move leaves the board (reaches the goal by escaping)."""
        return np.asarray(self.escapes + [False] * (len(self.states) - len(self.escapes)))


_TABLES: OrderedDict[TableKey, MovementTable] = OrderedDict()
_GRAPH_HOLDERS: list[MovementTable] = []
_GRAPHS_KEPT = 2
_RADIUS: dict[tuple[Any, ...], int] = {}


def _family(key: TableKey) -> tuple[Any, ...]:
    """Everything of a key except the terrain and wrecks."""
    return (
        key.ruleset,
        key.columns,
        key.rows,
        key.options,
        key.kind,
        key.side,
        key.armour,
        key.damage,
    )


def move_radius(table: MovementTable) -> int:
    """Upper bound of how far (Chebyshev) a single move of this kind reaches, measured once
    per family on an empty board from its centre, in every facing the table has seen; the
    whole board's size when a move from the centre reaches as far as the nearest edge (the
    edge may have cut it short).

    Incremental updates assume the moves from a state only depend on terrain within this
    distance of its cell (true when moves are paths of one-cell steps: Final Act, Tank
    Chess, Tank Wars)."""
    fam = _family(table.key)
    if fam not in _RADIUS:
        b = table.scenario.board
        centre = b.cell(b.columns // 2, b.rows // 2)
        empty = table.scenario.with_terrain(()).with_units(())
        facings = {f for _, f in table.states} or {table.probe.facing}
        radius = 1
        for f in facings:
            probe = Unit(
                table.probe.kind,
                table.probe.side,
                centre,
                f,
                table.probe.name,
                table.probe.damage,
                table.probe.armour,
            )
            for m in table.ruleset.moves(empty.with_units((probe,)), probe):
                if m.to is not None:
                    radius = max(
                        radius,
                        abs(b.col_of(m.to) - b.col_of(centre)),
                        abs(b.row_of(m.to) - b.row_of(centre)),
                    )
        # A board edge closer to the centre than the farthest move may have cut moves
        # short (a speed-5 piece on 8x8): then nothing smaller than the board is safe.
        room = min(
            b.col_of(centre),
            b.columns - 1 - b.col_of(centre),
            b.row_of(centre),
            b.rows - 1 - b.row_of(centre),
        )
        if radius >= room:
            radius = max(b.columns, b.rows)
        _RADIUS[fam] = radius
    return _RADIUS[fam]


def _blocking_cells(scenario: Scenario) -> dict[int, tuple[Any, ...]]:
    """Per cell, the terrain pieces and wrecks on it (what moves may depend on)."""
    out: dict[int, list[Any]] = {}
    for t in scenario.terrain:
        for c in t.cells:
            out.setdefault(c, []).append(t)
    for u in scenario.units:
        if u.wreck:
            out.setdefault(u.cell, []).append(u)
    return {c: tuple(v) for c, v in out.items()}


def _derive(
    old: MovementTable,
    key: TableKey,
    base: Scenario,
    goal: frozenset[int] | None,
) -> MovementTable:
    """A table for new terrain made from ``old``: only states within ``move_radius`` of a
    changed cell are asked again; new states are explored by the next ``ensure``."""
    b = base.board
    before, after = _blocking_cells(old.scenario), _blocking_cells(base)
    changed = [c for c in set(before) | set(after) if before.get(c) != after.get(c)]
    radius = move_radius(old)
    near = np.zeros(b.size, dtype=bool)
    cols = np.arange(b.size) % b.columns
    rows = np.arange(b.size) // b.columns
    for c in changed:
        near |= (np.abs(cols - b.col_of(c)) <= radius) & (np.abs(rows - b.row_of(c)) <= radius)
    table = MovementTable(key=key, scenario=base, probe=old.probe, ruleset=old.ruleset, goal=goal)
    table.states = list(old.states)
    table.codes = dict(old.codes)
    table.succ = [list(s) for s in old.succ]
    table.escapes = list(old.escapes)
    for i in range(len(table.succ)):
        if near[table.states[i][0]]:
            table.succ[i], table.escapes[i] = table._successors(i)
    return table


def base_scenario(scenario: Scenario) -> Scenario:
    """``scenario`` with only its wrecks left as units (the terrain-only view)."""
    return scenario.with_units(u for u in scenario.units if u.wreck)


def movement_table(scenario: Scenario, unit: Unit, explore: bool = True) -> MovementTable:
    """The (cached) movement table of ``unit``'s kind, explored from ``unit``'s state.

    Raises whatever ``get_ruleset`` raises for an unknown ruleset. Wrecks get a table too
    (its exploration is the ruleset's business), but callers normally skip them.
    """
    key = table_key(scenario, unit)
    table = _TABLES.get(key)
    if table is None:
        rs = get_ruleset(scenario.ruleset)
        base = base_scenario(scenario)
        probe = Unit(
            kind=unit.kind,
            side=unit.side,
            cell=unit.cell,
            facing=unit.facing,
            name=unit.name,
            damage=unit.damage,
            armour=unit.armour,
        )
        goal = rs.goal_cells(base.adding(probe), probe)
        fam = _family(key)
        old = next((t for t in reversed(_TABLES.values()) if _family(t.key) == fam), None)
        twin = _TABLES.get(replace(key, side=key.side.other))
        mirrored = None
        if twin is not None and len(twin.succ) == len(twin.states) and is_symmetric(base):
            mirrored = _mirrored(twin, key, base, probe, goal)
        if mirrored is not None:
            table = mirrored
        elif old is not None and len(old.succ) == len(old.states):
            table = _derive(old, key, base, goal)
        else:
            table = MovementTable(key=key, scenario=base, probe=probe, ruleset=rs, goal=goal)
        _TABLES[key] = table
        while len(_TABLES) > _CACHE_SIZE:
            _TABLES.popitem(last=False)
    else:
        _TABLES.move_to_end(key)
    if explore:
        table.ensure([(unit.cell, unit.facing)])
    return table


# --- 180° symmetry (rules §0 mirror) --------------------------------------------------------
def _piece_key(scenario: Scenario, piece: Any, mirror: bool) -> tuple[Any, ...]:
    """A comparable form of a terrain piece or wreck, optionally turned 180° (cells and
    lanes mirrored, facings/arrows reversed, owner side swapped)."""
    b = scenario.board

    def cell(c: int | None) -> int | None:
        return None if c is None else (b.mirror(c) if mirror else c)

    def facing(f: Facing | None) -> Facing | None:
        return None if f is None else (f.opposite if mirror else f)

    def side(sd: Side | None) -> Side | None:
        return None if sd is None else (sd.other if mirror else sd)

    if isinstance(piece, Unit):
        return (
            "unit",
            piece.kind,
            side(piece.side),
            cell(piece.cell),
            facing(piece.facing),
            piece.name,
            piece.damage,
            piece.armour,
        )
    return (
        "terrain",
        piece.kind,
        tuple(sorted(b.mirror(c) if mirror else c for c in piece.cells)),
        side(piece.side),
        cell(piece.lane),
        facing(piece.arrow),
        piece.shape,
    )


def is_symmetric(scenario: Scenario) -> bool:
    """Whether terrain and wrecks are unchanged by the 180° mirror (docs/rules.md §0)."""
    pieces = list(scenario.terrain) + [u for u in scenario.units if u.wreck]
    plain = sorted(repr(_piece_key(scenario, p, False)) for p in pieces)
    turned = sorted(repr(_piece_key(scenario, p, True)) for p in pieces)
    return plain == turned


def _mirror_state(board_size: int, state: State) -> State:
    cell, facing = state
    return (board_size - 1 - cell, None if facing is None else facing.opposite)


def _mirrored(
    twin: MovementTable, key: TableKey, base: Scenario, probe: Unit, goal: frozenset[int] | None
) -> MovementTable | None:
    """The other side's table turned 180° — valid when the board is symmetric and the rules
    treat both sides alike (every game of docs/rules.md). Checked, not assumed: the goal must be
    the mirrored goal and a sample of states must have exactly the ruleset's own moves;
    otherwise ``None`` (the caller builds the table the ordinary way)."""
    size = base.board.size
    twin_goal = None if twin.goal is None else frozenset(size - 1 - c for c in twin.goal)
    if twin_goal != goal:
        return None
    table = MovementTable(key=key, scenario=base, probe=probe, ruleset=twin.ruleset, goal=goal)
    table.states = [_mirror_state(size, st) for st in twin.states]
    table.codes = {state_code(*st): i for i, st in enumerate(table.states)}
    table.succ = [list(sc) for sc in twin.succ]
    table.escapes = list(twin.escapes)
    n = len(table.states)
    for i in sorted({0, n // 3, (2 * n) // 3, n - 1}) if n else []:
        cell, facing = table.states[i]
        p = replace(probe, cell=cell, facing=facing)
        moves = table.ruleset.moves(base.with_units(base.units + (p,)), p)
        ends = {state_code(m.to, m.facing) for m in moves if m.to is not None}
        ends.discard(state_code(cell, facing))
        expect = {state_code(*table.states[j]) for j in table.succ[i]}
        if ends != expect or any(m.to is None for m in moves) != table.escapes[i]:
            return None
    return table


def clear_cache() -> None:
    """Forget every cached movement table (tests and benchmarks use this)."""
    _TABLES.clear()
    _RADIUS.clear()


def movement_graph(table: MovementTable) -> nx.DiGraph:
    """The table as a ``networkx.DiGraph``: nodes ``(cell, facing)`` (with attributes
    ``cell``, ``facing``, ``goal``) and ``ESCAPE``; one edge per one-round/turn move.
    Cached (for the last few tables only: they are large); do not modify it."""
    if table._graph is not None:
        return table._graph
    g = nx.DiGraph()
    goal = table.goal or frozenset()
    for state in table.states:
        g.add_node(state, cell=state[0], facing=state[1], goal=state[0] in goal)
    for i, succ in enumerate(table.succ):
        src = table.states[i]
        g.add_edges_from((src, table.states[j]) for j in succ)
        if table.escapes[i]:
            g.add_edge(src, ESCAPE)
    table._graph = g
    _GRAPH_HOLDERS.append(table)
    while len(_GRAPH_HOLDERS) > _GRAPHS_KEPT:  # a Tank Chess graph is ~35 MB: keep few
        _GRAPH_HOLDERS.pop(0)._graph = None
    return g


def unit_graph(scenario: Scenario, unit: Unit) -> tuple[nx.DiGraph, Hashable]:
    """The networkx movement graph of ``unit`` and its start node."""
    table = movement_table(scenario, unit)
    return movement_graph(table), (unit.cell, unit.facing)
