"""Final Act reach over terrain, a whole side at once, for the editor's live overlay.

``side_terrain_reach(scenario)`` gives, per side, the fewest rounds for any of its live units
to stand on each cell and the fewest rounds for one of its tanks to stand on the enemy's last
line of defence — the numbers of ``tankmap analyze`` (docs/cli-json.md: terrain only, each unit
moving alone; terrain, wrecks, edges, lanes and options as ``FinalAct.moves`` applies them).

It is a multi-source breadth-first search in rounds on bitboards (Python ints, bit ``c`` =
cell ``c``), one per (side, unit kind): all of a side's units of one kind start together (the
per-cell minimum over them is what a side's reach asks). The movement rules are not copied
here: the one-cell steps come from ``rules.final_act.tables`` (``tank_steps``, the step list
``Tables.orders`` uses, and ``Tables.step_sources``, the whole-board form of
``Tables.can_step``), so a round of the search moves exactly the states ``ruleset.moves``
would move (tested against the movement tables in ``tests/analysis/test_live_final_act*``).

* ``tank`` movement (tanks, R/M): states are (cell, orthogonal facing), four bitboards per
  round; a unit with a diagonal facing has no orders (it only stands where it is).
* ``any-neighbour`` movement (AT): a step to any of the eight neighbours ending in any of
  four facings, and the step itself never depends on the facing, so the search is over
  cells alone.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from tankmap.rules.final_act.data import DATA
from tankmap.rules.final_act.tables import Tables, tables_of, tank_steps, wreck_mask
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Unit

IntArray = npt.NDArray[np.int32]

_ORTHOGONAL = (Facing.N, Facing.E, Facing.S, Facing.W)


@dataclass(frozen=True)
class SideReach:
    """One side's reach over terrain only (terrain and wrecks count; other units do not).

    ``cells[c]`` = fewest rounds for any of the side's live units to stand on cell ``c``
    (0 where one stands, ``-1`` = never); ``turns_to_goal`` = fewest rounds for one of its
    units that wins by moving (tanks) to stand on a goal cell (``FinalAct.goal_cells``),
    ``None`` if none can or the side has none."""

    cells: IntArray
    turns_to_goal: int | None


@cache
def _moves_of(facing: Facing, reverse_turn: bool) -> tuple[tuple[Facing, Facing | None], ...]:
    """``tank_steps`` as ``(direction, turn)``, the direction as a ``Facing`` (the index of
    ``Tables.step_sources``)."""
    return tuple(
        (Facing.from_delta(dx, dy), turn) for dx, dy, turn in tank_steps(facing, reverse_turn)
    )


def _bits_to_cells(bits: int, size: int) -> npt.NDArray[np.intp]:
    raw = np.frombuffer(bits.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
    return np.flatnonzero(np.unpackbits(raw, bitorder="little")[:size])


def _levels_to_array(levels: list[int], size: int) -> IntArray:
    """Per-cell round numbers from the bitboards of cells first reached in each round."""
    dist = np.full(size, -1, dtype=np.int32)
    for level, bits in enumerate(levels):
        if bits:
            dist[_bits_to_cells(bits, size)] = level
    return dist


def _search_tank(
    tables: Tables, side: Side, avoid: int, starts: dict[Facing, int], stand: int, goal: int
) -> tuple[list[int], int | None]:
    """Rounds of a ``tank``-movement search: ``starts`` = start cells per orthogonal facing,
    ``stand`` = start cells of units without orders. Returns the cells first reached in each
    round and the first round a goal cell is stood on (``None`` if never; ``goal`` = 0 when
    the kind has no goal)."""
    cols = tables.board.columns
    sources = tables.step_sources(side, avoid)
    moves = {
        f: [(sources[d], d.dy * cols + d.dx, turn) for d, turn in _moves_of(f, tables.reverse_turn)]
        for f in _ORTHOGONAL
    }
    seen = dict.fromkeys(_ORTHOGONAL, 0)
    front = dict.fromkeys(_ORTHOGONAL, 0)
    reached = stand
    for f, bits in starts.items():
        seen[f] = front[f] = bits
        reached |= bits
    levels = [reached]
    found = 0 if reached & goal else None
    while True:
        new = dict.fromkeys(_ORTHOGONAL, 0)
        for f in _ORTHOGONAL:
            bits = front[f]
            if not bits:
                continue
            for src_ok, k, turn in moves[f]:
                moved = bits & src_ok
                if not moved:
                    continue
                moved = moved << k if k >= 0 else moved >> -k
                new[f] |= moved
                if turn is not None:
                    new[turn] |= moved
        any_new = 0
        for f in _ORTHOGONAL:
            fresh = new[f] & ~seen[f]
            seen[f] |= fresh
            front[f] = fresh
            any_new |= fresh
        if not any_new:
            return levels, found
        cells = any_new & ~reached
        reached |= cells
        levels.append(cells)
        if found is None and cells & goal:
            found = len(levels) - 1


def _search_cells(
    tables: Tables, side: Side, avoid: int, starts: int, goal: int
) -> tuple[list[int], int | None]:
    """Rounds of an ``any-neighbour`` search over cells (the facing never matters)."""
    cols = tables.board.columns
    sources = tables.step_sources(side, avoid)
    steps = [(sources[d], d.dy * cols + d.dx) for d in Facing]
    reached = front = starts
    levels = [starts]
    found = 0 if starts & goal else None
    while front:
        new = 0
        for src_ok, k in steps:
            moved = front & src_ok
            if moved:
                new |= moved << k if k >= 0 else moved >> -k
        front = new & ~reached
        if not front:
            break
        reached |= front
        levels.append(front)
        if found is None and front & goal:
            found = len(levels) - 1
    return levels, found


_CACHE: OrderedDict[tuple[object, ...], tuple[IntArray, int | None]] = OrderedDict()
_CACHE_SIZE = 64


def _group_reach(
    scenario: Scenario, tables: Tables, avoid: int, side: Side, kind: str, units: list[Unit]
) -> tuple[IntArray, int | None]:
    """Reach and rounds to the goal of ``side``'s live ``kind`` units (memoised on the
    tables, wrecks and start states: an edit elsewhere costs nothing here)."""
    size = scenario.board.size
    goal_cells = get_ruleset(scenario.ruleset).goal_cells(scenario, units[0])
    goal = 0
    for c in goal_cells or ():
        goal |= 1 << c
    uk = DATA.units.get(kind)
    movement = None if uk is None else uk.movement
    starts: dict[Facing, int] = {}
    stand = 0
    for u in units:
        facing = u.facing if u.facing is not None else side.forward
        if movement == "tank" and facing.is_orthogonal:
            starts[facing] = starts.get(facing, 0) | 1 << u.cell
        else:
            stand |= 1 << u.cell
    key = (tables, avoid, side, movement, goal, tuple(sorted(starts.items())), stand)
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    if movement == "tank":
        levels, found = _search_tank(tables, side, avoid, starts, stand, goal)
    elif movement == "any-neighbour":
        levels, found = _search_cells(tables, side, avoid, stand, goal)
    else:  # a kind that cannot move: it only stands where it is
        levels, found = [stand], (0 if stand & goal else None)
    hit = (_levels_to_array(levels, size), found if goal_cells is not None else None)
    _CACHE[key] = hit
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return hit


def side_terrain_reach(scenario: Scenario) -> dict[Side, SideReach]:
    """``SideReach`` of both sides of a Final Act ``scenario``: every live unit moves alone
    over terrain, wrecks (when the ``wrecks`` option is on), edges and lanes, one round's
    order at a time as ``FinalAct.moves`` moves it (a missing facing is "forward"); other
    live units neither block nor count. Never modifies ``scenario``; fresh arrays."""
    rs = get_ruleset(scenario.ruleset)
    tables = tables_of(scenario)
    avoid = wreck_mask(scenario.units, bool(rs.options(scenario)["wrecks"]))
    size = scenario.board.size
    out: dict[Side, SideReach] = {}
    big = np.iinfo(np.int32).max
    for side in Side:
        groups: dict[str, list[Unit]] = {}
        for u in scenario.units_of(side):
            if not u.wreck:
                groups.setdefault(u.kind, []).append(u)
        best = np.full(size, big, dtype=np.int32)
        turns: int | None = None
        for kind, units in groups.items():
            cells, found = _group_reach(scenario, tables, avoid, side, kind, units)
            best = np.minimum(best, np.where(cells < 0, big, cells))
            if found is not None and (turns is None or found < turns):
                turns = found
        best[best == big] = -1
        out[side] = SideReach(best.astype(np.int32), turns)
    return out
