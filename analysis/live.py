"""The live-overlay API the editor calls after each edit.

    from tankmap.analysis.live import live_overlays
    ov = live_overlays(scenario)          # after every edit (undo/redo included)
    ov.violations                         # ruleset.check(scenario): list[Violation]
    ov.reach[Side.SOUTH]                  # int32 (rows, columns): rounds/turns, -1 = never
    ov.coverage[Side.NORTH]               # int32 (rows, columns): how many units fire there
    ov.contested                          # bool (rows, columns): covered by both sides
    ov.turns_to_goal[Side.SOUTH]          # int | None

Arrays are indexed ``[row][column]`` with ``[0]`` = row 1 (the JSON 2-D map layout), so
``ov.reach[side][board.row_of(c), board.col_of(c)]`` is the value of cell ``c``. They are fresh
arrays the caller may keep or modify.

Numbers are exactly those of ``tankmap analyze`` (terrain-only movement, docs/cli-json.md), from
one of two paths (identical numbers, tested in ``tests/analysis/test_live*.py``):

* **Tank Chess** (``fast_path``): ``rules.tank_chess.reach.side_terrain_reach`` — the rules'
  own multi-source search in turns over (cell, facing) bitboards, all of a side's pieces of
  one speed at once, command tanks apart for the escape. No movement tables, no networkx,
  no lock; a terrain or wreck edit costs the same as a unit edit.
* **Final Act** (``fast_path``): ``rules.final_act.reach.side_terrain_reach`` — the same
  idea in rounds: one multi-source search per side and unit kind over (cell, facing)
  bitboards, the steps taken from ``rules.final_act.tables`` (the rules' own step list and
  ``can_step`` as whole-board masks), memoised per terrain, wrecks and start states.
* **Other rulesets** (Tank Wars): movement tables cached per terrain (``analysis.graphs``) and one
  multi-source array BFS (``analysis.reach.sources_reach``) per side and shared table (the
  side's units of one kind and damage), memoised per start set, so an edit recomputes only
  the sides it touched. A terrain edit derives the new tables incrementally (only states
  near a changed cell ask ``ruleset.moves`` again).

**Speed** (``python -m benchmarks analysis``, medians, 2-core machine shared with other jobs):

| map | unit edit | terrain/wreck edit | its reach part |
|---|---|---|---|
| Tank Chess 20×20 sample | ~4-6 ms | ~4-8 ms (was 1.1-2 s) | ~0.8 ms (was ~1.1 s) |
| Tank Chess basic 16×16 | ~3 ms | ~3-4 ms (was 0.66 s) | ~0.7 ms |
| Final Act flanks-vs-centre | ~1.0 ms | ~1.5 ms (was 13-23 ms) | ~1.0 ms (was ~12.6 ms) |

The rest is ``check`` (~1.5 ms on TC 20×20) and coverage (~1.5-2 ms). The Tank Chess search
grows with the number of turns needed: ~4-5 ms on a 26×26 maze needing 50 turns.

**How the editor should call it.** After every edit (undo/redo included):

* Tank Chess and Final Act: ``live_overlays(scenario)`` on the GUI thread, always
  (``reach_ready`` is always True, ``warm`` does nothing);
* other rulesets: ``live_overlays(scenario, reach=False)`` on the GUI thread (violations +
  coverage, always fast); if ``reach_ready(scenario)`` also call ``live_overlays(scenario)``,
  otherwise ``warm(scenario)`` in a worker thread and then ``live_overlays`` (the table
  caches are guarded by a lock; ``reach_ready`` never blocks: while ``warm`` runs it answers
  False). ``editor/overlays.py`` does exactly this for both;
* ``check=False`` skips ``ruleset.check`` when only the maps are wanted.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tankmap.analysis.coverage import side_coverage
from tankmap.rules.final_act.reach import side_terrain_reach as fa_side_terrain_reach
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Unit
from tankmap.rules.tank_chess.reach import side_terrain_reach
from tankmap.rules.violations import Violation

if TYPE_CHECKING:
    from tankmap.analysis.graphs import TableKey

# analysis.graphs and analysis.reach (networkx) are imported only by the table path, so the
# fast path (Tank Chess, Final Act) loads neither (the editor's first overlay comes ~0.2 s sooner).

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
    ``rules.tank_chess.reach.side_terrain_reach``, Final Act:
    ``rules.final_act.reach.side_terrain_reach``) instead of movement tables: always fast,
    no tables, no lock."""
    return scenario.ruleset in ("tank-chess", "final-act")


def _search_reach(scenario: Scenario) -> dict[Side, tuple[IntGrid, int | None]]:
    """Both sides' reach (flat) and turns to the goal from the ruleset's side search."""
    if scenario.ruleset == "final-act":
        return {
            side: (r.cells, r.turns_to_goal) for side, r in fa_side_terrain_reach(scenario).items()
        }
    return {side: (r.cells, r.escape) for side, r in side_terrain_reach(scenario).items()}


def reach_ready(scenario: Scenario) -> bool:
    """True when reach can be computed fast: always on the ``fast_path``, otherwise when
    every live unit's movement table is cached with its current state explored. Never
    blocks: while another thread holds the caches (``warm`` running) the answer is False."""
    if fast_path(scenario):
        return True
    from tankmap.analysis.graphs import _TABLES, table_key

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
    thread (a new terrain's tables take tens of milliseconds); nothing to do on the
    ``fast_path`` (Tank Chess, Final Act)."""
    if fast_path(scenario):
        return
    from tankmap.analysis.graphs import movement_table

    with LOCK:
        for u in scenario.units:
            if not u.wreck:
                movement_table(scenario, u)


_SIDE_CACHE: OrderedDict[tuple[int, int, tuple[int, ...]], tuple[object, IntGrid, int | None]]
_SIDE_CACHE = OrderedDict()
_SIDE_CACHE_SIZE = 16  # it keeps its tables alive: few entries (the live path's sides)


def _table_side_reach(scenario: Scenario, side: Side) -> tuple[IntGrid, int | None]:
    """A side's reach over movement tables: one multi-source BFS per table its live units
    share (same kind, damage...: usually one per side), memoised per table and start set, so
    an edit recomputes only the sides it changed. Callers hold ``LOCK``."""
    from tankmap.analysis.graphs import movement_table, table_key
    from tankmap.analysis.reach import combine_reach, min_or_none, sources_reach

    groups: dict[TableKey, list[Unit]] = {}
    for u in scenario.units_of(side):
        if not u.wreck:
            groups.setdefault(table_key(scenario, u), []).append(u)
    maps: list[IntGrid] = []
    goals: list[int | None] = []
    for units in groups.values():
        table = movement_table(scenario, units[0], explore=False)
        starts = tuple(sorted(set(table.ensure([(u.cell, u.facing) for u in units]))))
        key = (id(table), len(table), starts)
        hit = _SIDE_CACHE.get(key)
        if hit is None or hit[0] is not table:
            hit = (table, *sources_reach(table, starts))
            _SIDE_CACHE[key] = hit
            while len(_SIDE_CACHE) > _SIDE_CACHE_SIZE:
                _SIDE_CACHE.popitem(last=False)
        else:
            _SIDE_CACHE.move_to_end(key)
        maps.append(hit[1])
        goals.append(hit[2])
    return combine_reach(maps, scenario.board.size), min_or_none(goals)


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
        for side, (cells, turns) in _search_reach(scenario).items():
            out.reach[side] = cells.reshape(shape)
            out.turns_to_goal[side] = turns
    elif reach:
        with LOCK:
            for side in Side:
                cells, turns = _table_side_reach(scenario, side)
                out.reach[side] = cells.reshape(shape).copy()
                out.turns_to_goal[side] = turns
    t3 = time.perf_counter()
    out.timings_ms = {
        "check": (t1 - t0) * 1e3,
        "coverage": (t2 - t1) * 1e3,
        "reach": (t3 - t2) * 1e3,
        "total": (t3 - t0) * 1e3,
    }
    return out
