"""Reference reach (docs/cli-json.md ``analyze``): plain breadth-first search over whole turns.

Terrain-only movement: the unit moves alone (other live units ignored; obstacles, swamps,
minefield lanes, wrecks and edges as in the rules), one edge per round (Final Act) or per own
turn (Tank Chess), built on the reference move generators of this folder.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

import reference_final_act as RF
import reference_tank_chess as RT

Cell = tuple[int, int]


def final_act(pos: RF.FPos, index: int) -> tuple[dict[Cell, int], int | None]:
    """(fewest rounds to stand on each reachable cell, rounds to the enemy last line or None).

    Only tanks have a goal: standing on the enemy's own row 1 (docs/rules.md §1.7)."""
    u = pos.units[index]
    start = ((u.col, u.row), u.facing)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        (col, row), facing = state
        moved = replace(u, col=col, row=row, facing=facing)
        here = replace(pos, units=pos.units[:index] + (moved,) + pos.units[index + 1 :])
        for nxt in RF.orders(here, index):
            if nxt not in dist:
                dist[nxt] = dist[state] + 1
                queue.append(nxt)
    cells: dict[Cell, int] = {}
    for (cell, _), d in dist.items():
        cells[cell] = min(d, cells.get(cell, d))
    goal_row = pos.rows - 1 if u.side == 0 else 0
    goal = None
    if u.kind == "tank":
        ds = [d for cell, d in cells.items() if cell[1] == goal_row]
        goal = min(ds) if ds else None
    return cells, goal


def tank_chess(pos: RT.Pos, index: int) -> tuple[dict[Cell, int], int | None]:
    """(fewest own turns to stand on each reachable cell, turns to escape or None).

    Only the command tank has a goal: the escape, one turn more than the state it leaves
    from (docs/rules.md §2.5)."""
    p = pos.pieces[index]
    alone = (p,) + tuple(q for q in pos.pieces if q.wreck)
    base = replace(pos, pieces=alone)
    start = (p.col, p.row, p.facing)
    dist = {start: 0}
    queue = deque([start])
    goal: int | None = None
    while queue:
        state = queue.popleft()
        col, row, facing = state
        here = replace(base, pieces=(replace(p, col=col, row=row, facing=facing),) + alone[1:])
        for end in RT.end_states(here, 0):
            if end == RT.ESCAPE:
                if goal is None:
                    goal = dist[state] + 1  # BFS order: the first escape found is the fewest
                continue
            assert isinstance(end, tuple)
            if end not in dist:
                dist[end] = dist[state] + 1
                queue.append(end)
    cells: dict[Cell, int] = {}
    for (col, row, _), d in dist.items():
        cells[(col, row)] = min(d, cells.get((col, row), d))
    return cells, goal
