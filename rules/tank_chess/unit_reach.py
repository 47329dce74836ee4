"""Reach of single pieces in turns over terrain, with routes, and the one-turn cell steps of
a piece kind — the numbers of ``tankmap analyze`` (``analysis.reach``, ``analysis.lanes``)
without movement tables.

Same turn logic and bitboard layout as ``rules.tank_chess.reach`` (see its layout note): a
turn is up to ``speed`` steps (45° rotation or a forward step into a free cell, under
``strict_corners`` not squeezed diagonally between two blocked cells) or the lone backward
step; a command tank escapes by a forward step off the enemy edge (not through its corner
point), which counts as a turn (docs/rules.md §2.3, §2.5). Terrain only: obstacles and wrecks block,
live pieces do not; a piece standing on a blocked cell has its own cell empty while it moves.

- ``unit_terrain_reach``: per live piece, the fewest turns to stand on each cell, its turns
  to escape (command tanks) and one shortest escape route — one search for all pieces, each
  in its own block of the bitboards; the route is walked back from the turn the escape
  happens: a *reverse* turn from a state, intersected with the states first reached one turn
  earlier, gives a predecessor (checked forwards before it is used).
- ``turn_steps``: for a piece kind and side, the cells its pieces can reach from some start
  states, the (cell, adjacent cell) pairs one turn can join, and the cells from which one
  turn can escape — the terrain cell graph of ``analysis.lanes``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tankmap.rules.errors import short
from tankmap.rules.scenario import Scenario
from tankmap.rules.tank_chess.data import COMMAND, kind_facts
from tankmap.rules.tank_chess.reach import (
    _closure,
    _Layout,
    _layout,
    _search_setup,
    _sh,
    _step_masks,
    _turn,
    diagonal_escape_of,
    pack_cells,
    terrain_of,
)
from tankmap.rules.tank_chess.state import PositionError

IntArray = npt.NDArray[np.int32]
Route = tuple[tuple[int, int], ...]
"""States ``(cell, facing)`` (facing as an int, ``Facing`` order) from a piece's start state
to the state its escaping turn starts from."""


@dataclass(frozen=True)
class UnitTerrainReach:
    """One live piece moving alone over the terrain: ``cells[c]`` = fewest own turns to stand
    on cell ``c`` (0 on its own cell, ``-1`` = never); ``escape`` = fewest turns to step off
    the enemy edge (command tanks only; ``None`` if it cannot or is not a command tank);
    ``route`` = one shortest route to that escape (``escape`` states, the start first: the
    escape itself is the turn after the last state), ``None`` without an escape or when the
    piece starts on a blocked cell (no route is walked back from such a start)."""

    cells: IntArray
    escape: int | None
    route: Route | None


def _speed_and_command(kind: str) -> tuple[int, bool]:
    info = kind_facts().get(kind)
    if info is None:
        raise PositionError(f"unknown tank-chess piece kind {short(kind)}")
    return info[1], info[0] == COMMAND


def _turns(
    lay: _Layout,
    free: int,
    strict: bool,
    starts: list[list[int]],
    speeds: list[int],
    escapes: dict[int, int],
) -> tuple[IntArray, dict[int, int | None], list[list[int]]]:
    """Breadth-first search in turns of every block until nothing new is reached (unlike
    ``reach._search``, no early stop: every block's distances are exact). ``starts[g]`` =
    block ``g``'s start states (``cell * 8 + facing``), ``speeds[g]`` its speed, ``escapes``
    maps the blocks whose turns to escape are wanted to their side index. Returns per-block
    cell distances ``(blocks, size)``, the turns to escape and the levels (level ``t`` = the
    facing sets of the states first reached in ``t`` turns, all blocks)."""
    active, escape_at, fwd_ok, back_ok, frontier = _search_setup(
        lay, free, strict, starts, speeds, escapes
    )
    visited = list(frontier)
    levels = [list(frontier)]
    found: dict[int, int | None] = dict.fromkeys(escapes)
    turn = 0
    while True:
        turn += 1
        reached, hits = _turn(
            lay, frontier, free, strict, fwd_ok, back_ok, active, escape_at, every_block=False
        )
        if hits:
            for g in escapes:
                if found[g] is None and hits & lay.block_mask(g):
                    found[g] = turn
        new = [a & ~b for a, b in zip(reached, visited, strict=True)]
        if not any(new):
            break
        visited = [a | b for a, b in zip(visited, new, strict=True)]
        levels.append(new)
        frontier = new
    dist = np.full((lay.blocks, lay.columns * lay.rows), -1, dtype=np.int32)
    seen = 0
    for t, level in enumerate(levels):
        cells = 0
        for x in level:
            cells |= x
        fresh = cells & ~seen
        seen |= cells
        if fresh:
            dist[lay.cells_of(fresh)] = t
    return dist, found, levels


# --- routes ---------------------------------------------------------------------------------
class _RouteWalker:
    """Walks one piece's escape route back through its levels, on a one-block layout."""

    def __init__(self, columns: int, rows: int, free0: int, strict: bool, speed: int) -> None:
        self.lay = _layout(columns, rows, 1)
        self.speed = speed
        self.fwd_ok, self.back_ok = _step_masks(self.lay, free0, strict)

    def back_closure(self, states: list[int], steps: int) -> list[int]:
        """Every state from which ``states`` can be reached by up to ``steps`` single steps
        (rotations and forward steps) of one turn."""
        sh, fwd_ok = self.lay.shift, self.fwd_ok
        r = list(states)
        for _ in range(steps):
            r = [
                r[f] | r[(f + 1) & 7] | r[(f + 7) & 7] | (_sh(r[f], -sh[f]) & fwd_ok[f])
                for f in range(8)
            ]
        return r

    def back_turn(self, states: list[int]) -> list[int]:
        """Every state from which one turn can end in ``states``."""
        r = self.back_closure(states, self.speed)
        sh, back_ok = self.lay.shift, self.back_ok
        return [r[f] | (_sh(states[f], sh[f]) & back_ok[f]) for f in range(8)]

    def turn(self, states: list[int], escape: list[int] | None) -> tuple[list[int], int]:
        """One turn forwards (the states reached, and the escape hits with ``escape``)."""
        at: list[list[int] | None] = [None] * self.speed
        at[-1] = escape
        return _closure(self.lay, states, self.fwd_ok, self.back_ok, [None] * self.speed, at)

    def pick(self, states: list[int]) -> tuple[int, int] | None:
        """The lowest state of a facing set as ``(cell, facing)``, ``None`` if empty."""
        lay = self.lay
        for f in range(8):
            if states[f]:
                pos = (states[f] & -states[f]).bit_length() - 1
                return (pos // lay.width) * lay.columns + pos % lay.width, f
        return None

    def one(self, state: tuple[int, int]) -> list[int]:
        out = [0] * 8
        out[state[1]] = self.lay.bit(0, state[0])
        return out

    def route(self, levels: list[list[int]], escape: list[int]) -> Route | None:
        """A shortest route through ``levels`` (one block's, moved to block 0) ending with a
        state of the last level from which one turn escapes; ``None`` if a step fails its
        forward check (it should not)."""
        last = self.back_closure(escape, self.speed - 1)
        state = self.pick([a & b for a, b in zip(last, levels[-1], strict=True)])
        if state is None or not self.turn(self.one(state), escape)[1]:
            return None
        path = [state]
        for k in range(len(levels) - 2, -1, -1):
            before = self.back_turn(self.one(path[-1]))
            prev = self.pick([a & b for a, b in zip(before, levels[k], strict=True)])
            if prev is None:
                return None
            reached, _ = self.turn(self.one(prev), None)
            if not reached[path[-1][1]] & self.lay.bit(0, path[-1][0]):
                return None
            path.append(prev)
        return tuple(reversed(path))


def unit_terrain_reach(scenario: Scenario) -> list[UnitTerrainReach | None]:
    """``UnitTerrainReach`` of every unit of a Tank Chess ``scenario``, in scenario order
    (``None`` for wrecks): each live piece moves alone over the terrain, as ``ruleset.moves``
    would move it one turn at a time (a missing facing is "toward the enemy"). Raises
    ``PositionError`` for an unknown piece kind or a scenario of another ruleset."""
    if scenario.ruleset != "tank-chess":
        raise PositionError(f"this is a {scenario.ruleset!r} scenario, not tank-chess")
    board = scenario.board
    strict, free_cells = terrain_of(scenario)
    live = [(i, u) for i, u in enumerate(scenario.units) if not u.wreck]
    out: list[UnitTerrainReach | None] = [None] * len(scenario.units)
    if not live:
        return out
    facts = [_speed_and_command(u.kind) for _, u in live]
    starts = []
    for _, u in live:
        facing = int(u.facing) if u.facing is not None else 4 * u.side.index
        starts.append([u.cell * 8 + facing])
    lay = _layout(board.columns, board.rows, len(live), diagonal_escape_of(scenario))
    free0 = pack_cells(lay, free_cells)
    escapes = {g: u.side.index for g, (_, u) in enumerate(live) if facts[g][1]}
    dist, found, levels = _turns(
        lay, free0 * lay.rep, strict, starts, [f[0] for f in facts], escapes
    )
    one = lay.block_mask(0)
    for g, (i, u) in enumerate(live):
        turns = found.get(g)
        route: Route | None = None
        if turns is not None and free_cells[u.cell]:
            walker = _RouteWalker(board.columns, board.rows, free0, strict, facts[g][0])
            mine = [[(x >> (g * lay.stride)) & one for x in level] for level in levels[:turns]]
            route = walker.route(mine, list(lay.escape[u.side.index]))
        out[i] = UnitTerrainReach(dist[g].copy(), turns, route)
    return out


# --- one-turn cell steps (lanes) ------------------------------------------------------------
@dataclass(frozen=True)
class TurnSteps:
    """What one piece kind of one side can do over the terrain from some start states:
    ``live[c]`` — some start can get to cell ``c`` (in any number of turns); ``pairs`` —
    sorted codes ``u * size + v`` of the cells ``u`` (live) and ``v`` (one of its 8
    neighbours) such that one turn from some facing on ``u`` ends on ``v``; ``escapes`` —
    the live cells from which one turn (in some facing) escapes, ascending."""

    live: npt.NDArray[np.bool_]
    pairs: npt.NDArray[np.int64]
    escapes: tuple[int, ...]


def turn_steps(
    scenario: Scenario, kind: str, side_index: int, starts: list[tuple[int, int]]
) -> TurnSteps:
    """``TurnSteps`` of piece kind ``kind`` of side index ``side_index`` from the start
    states ``(cell, facing)`` in ``scenario``'s terrain (its live pieces are ignored). Every
    live cell is searched in its own block, in all 8 facings (a piece can turn to any facing
    over turns, so a reachable cell is reachable in every facing), its own cell empty.
    Escapes are only a command tank's; other kinds get none. Raises ``PositionError`` for an
    unknown kind."""
    board = scenario.board
    size = board.size
    speed, command = _speed_and_command(kind)
    strict, free_cells = terrain_of(scenario)
    lay1 = _layout(board.columns, board.rows, 1)
    free0 = pack_cells(lay1, free_cells)
    dist, _, _ = _turns(lay1, free0, strict, [[c * 8 + f for c, f in starts]], [speed], {})
    live = dist[0] >= 0
    origins = np.flatnonzero(live)
    if not origins.size:
        return TurnSteps(live, np.zeros(0, dtype=np.int64), ())
    lay = _layout(board.columns, board.rows, len(origins), diagonal_escape_of(scenario))
    own = 0
    for g, u in enumerate(origins.tolist()):
        own |= lay.bit(g, u)
    fwd_ok, back_ok = _step_masks(lay, free0 * lay.rep | own, strict)
    escape_at: list[list[int] | None] = [None] * speed
    if command:
        escape_at[-1] = [e * lay.rep for e in lay.escape[side_index]]
    reached, hits = _closure(lay, [own] * 8, fwd_ok, back_ok, [None] * speed, escape_at)
    cells = 0
    for x in reached:
        cells |= x
    ends = lay.cells_of(cells)
    col, row = np.arange(size) % board.columns, np.arange(size) // board.columns
    ocol, orow = col[origins][:, None], row[origins][:, None]
    adjacent = (np.abs(col[None, :] - ocol) <= 1) & (np.abs(row[None, :] - orow) <= 1)
    adjacent[np.arange(len(origins)), origins] = False
    g_idx, v_idx = np.nonzero(ends & adjacent)
    pairs = np.unique(origins[g_idx].astype(np.int64) * size + v_idx)
    escapes: tuple[int, ...] = ()
    if hits:
        escapes = tuple(origins[lay.cells_of(hits).any(axis=1)].tolist())
    return TurnSteps(live, pairs, escapes)
