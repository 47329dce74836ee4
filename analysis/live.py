"""The live-overlay API the editor calls after each edit.

    from analysis.live import live_overlays
    ov = live_overlays(scenario)          # after every edit (undo/redo included)
    ov.violations                         # ruleset.check(scenario): list[Violation]
    ov.reach[Side.SOUTH]                  # int32 (rows, columns): rounds/turns, -1 = never
    ov.coverage[Side.NORTH]               # int32 (rows, columns): how many units fire there
    ov.contested                          # bool (rows, columns): covered by both sides
    ov.turns_to_goal[Side.SOUTH]          # int | None

Arrays are indexed ``[row][column]`` with ``[0]`` = row 1 (the JSON 2-D map layout), so
``ov.reach[side][board.row_of(c), board.col_of(c)]`` is the value of cell ``c``. They are fresh
arrays the caller may keep or modify.

Numbers are exactly those of ``tankmap analyze`` (terrain-only movement, CONTRACTS.md): reach
uses the array BFS of ``analysis.reach.unit_reach`` over cached movement tables.

**Speed.** Moving, adding, removing or turning a *unit* reuses the cached tables: one numpy
BFS per unit whose state changed (memoised per start state) plus ``check`` and every live
unit's ``fire_zone`` — about 9 ms on the full Tank Chess 20×20 sample (check ~1.6, coverage
~3.4, reach ~3.4 ms) and ~2 ms on Final Act (``python -m benchmarks analysis``; a 2-core
machine shared with other jobs). Changing *terrain or wrecks* needs the tables of the new
terrain: they are derived incrementally (only states within one move of a changed cell ask
the ruleset again; on a 180°-symmetric board one side's tables are the other's turned
round), ~25 ms for Final Act but 1-1.5 s for Tank Chess 20×20 (12 tables of ~2,750 states,
each asking ``ruleset.moves``, ~0.3 ms a call). For a responsive editor:

* call ``live_overlays(scenario, reach=False)`` on the GUI thread (violations + coverage,
  always fast) and ``live_overlays(scenario)`` — or ``warm(scenario)`` then
  ``live_overlays`` — in a worker thread; the caches are guarded by a lock, so this is safe;
* ``reach_ready(scenario)`` says whether reach can be computed without building tables
  (it never blocks: while ``warm`` runs it answers False);
* ``check=False`` skips ``ruleset.check`` when only the maps are wanted.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from analysis.coverage import side_coverage
from analysis.graphs import _TABLES, movement_table, table_key
from analysis.reach import combine_reach, min_or_none, unit_reach
from rules.geometry import Side
from rules.registry import get_ruleset
from rules.scenario import Scenario
from rules.tank_chess.reach import side_terrain_reach
from rules.violations import Violation

IntGrid = npt.NDArray[np.int32]
BoolGrid = npt.NDArray[np.bool_]

LOCK = threading.RLock()
"""Guards the movement-table caches (``analysis.graphs``) for callers on several threads."""


@dataclass
class LiveOverlays:
    """What the editor draws after an edit (see module doc). ``reach`` and ``turns_to_goal``
    are empty dicts when called with ``reach=False``. ``timings_ms`` has ``check``,
    ``coverage``, ``reach`` and ``total``."""

    violations: list[Violation]
    coverage: dict[Side, IntGrid]
    contested: BoolGrid
    reach: dict[Side, IntGrid] = field(default_factory=dict)
    turns_to_goal: dict[Side, int | None] = field(default_factory=dict)
    timings_ms: dict[str, float] = field(default_factory=dict)


def fast_path(scenario: Scenario) -> bool:
    """True when reach comes from the ruleset's own side search (Tank Chess:
    ``rules.tank_chess.reach.side_terrain_reach``) instead of movement tables: always fast,
    no tables, no lock."""
    return scenario.ruleset == "tank-chess"


def reach_ready(scenario: Scenario) -> bool:
    """True when reach can be computed fast: always on the Tank Chess path, otherwise when
    every live unit's movement table is cached with its current state explored. Never
    blocks: while another thread holds the caches (``warm`` running) the answer is False."""
    if fast_path(scenario):
        return True
    if not LOCK.acquire(blocking=False):
        return False
    try:
        for u in scenario.units:
            if u.wreck:
                continue
            table = _TABLES.get(table_key(scenario, u))
            if table is None or (u.cell, u.facing) not in table:
                return False
        return True
    finally:
        LOCK.release()


def warm(scenario: Scenario) -> None:
    """Build (or derive) the movement tables every live unit needs. Safe on a worker
    thread (the Final Act tables of a new terrain take tens of milliseconds); nothing to do
    for Tank Chess (``fast_path``)."""
    if fast_path(scenario):
        return
    with LOCK:
        for u in scenario.units:
            if not u.wreck:
                movement_table(scenario, u)


def live_overlays(scenario: Scenario, reach: bool = True, check: bool = True) -> LiveOverlays:
    """Violations, coverage and (with ``reach``) reach per side of ``scenario``.

    Raises ``UnknownRulesetError`` for an unknown ruleset; never modifies ``scenario``.
    """
    t0 = time.perf_counter()
    rs = get_ruleset(scenario.ruleset)
    b = scenario.board
    shape = (b.rows, b.columns)
    violations = rs.check(scenario) if check else []
    t1 = time.perf_counter()
    cov = {s: side_coverage(scenario, s).reshape(shape) for s in Side}
    contested = (cov[Side.SOUTH] > 0) & (cov[Side.NORTH] > 0)
    t2 = time.perf_counter()
    out = LiveOverlays(violations=violations, coverage=cov, contested=contested)
    if reach and fast_path(scenario):
        for side, r in side_terrain_reach(scenario).items():
            out.reach[side] = r.cells.reshape(shape)
            out.turns_to_goal[side] = r.escape
    elif reach:
        with LOCK:
            for side in Side:
                per = [unit_reach(scenario, u) for u in scenario.units_of(side) if not u.wreck]
                cells = combine_reach([r.cells for r in per], b.size)
                out.reach[side] = cells.reshape(shape).copy()
                out.turns_to_goal[side] = min_or_none(r.turns_to_goal for r in per)
    t3 = time.perf_counter()
    out.timings_ms = {
        "check": (t1 - t0) * 1e3,
        "coverage": (t2 - t1) * 1e3,
        "reach": (t3 - t2) * 1e3,
        "total": (t3 - t0) * 1e3,
    }
    return out
