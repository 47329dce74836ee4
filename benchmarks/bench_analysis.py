"""Analysis speed: full ``analyse`` per built-in map (cold caches), and the editor's
live-overlay path on the full Tank Chess 20×20 sample (target < 10 ms after a unit edit).

Figures (milliseconds unless named otherwise):
* ``maps.<file>.analyse_cold_s`` — ``analysis.summary.analyse`` with empty caches (movement
  tables built from ``ruleset.moves``), seconds; ``analyse_warm_ms`` — the same again.
* ``live.<file>``: ``unit_edit_ms`` — median ``live_overlays`` after moving one unit to a new
  cell (tables cached; one BFS for the moved unit), split into ``check``/``coverage``/``reach``;
  ``unit_edit_no_check_ms`` — the same without ``ruleset.check`` (the analysis part);
  ``terrain_edit_ms`` — after adding one terrain cell (incremental table update);
  ``bfs_ms`` vs ``networkx_ms`` — one unit's reach by array BFS vs networkx.
"""

from __future__ import annotations

import dataclasses
import statistics
import time
from pathlib import Path
from typing import Any

from analysis.graphs import clear_cache
from analysis.live import live_overlays, warm
from analysis.reach import bfs, unit_reach_nx
from analysis.summary import analyse
from benchmarks.timing import best_of
from rules.fileformat import read_scenario
from rules.scenario import Scenario, Terrain

ROOT = Path(__file__).resolve().parent.parent
LIVE_MAPS = ("maps/tank-chess/sample-20.json", "maps/final-act/flanks-vs-centre.json")


def _ms(seconds: float) -> float:
    return round(seconds * 1e3, 3)


def _unit_edits(s: Scenario, count: int) -> list[Scenario]:
    """Scenarios with one live unit moved one or two cells forward onto a free cell."""
    b = s.board
    taken = {u.cell for u in s.units} | {c for t in s.terrain for c in t.cells}
    out = []
    for u in s.live_units():
        for dist in (1, 2):
            to = b.offset(u.cell, 0, dist if u.side.index == 0 else -dist)
            if to >= 0 and to not in taken:
                out.append(s.replacing(u, dataclasses.replace(u, cell=to)))
                break
        if len(out) == count:
            break
    return out


def _free_cell(s: Scenario) -> int:
    b = s.board
    taken = {u.cell for u in s.units} | {c for t in s.terrain for c in t.cells}
    middle = [c for c in range(b.size) if b.rows // 2 - 1 <= b.row_of(c) <= b.rows // 2]
    return next(c for c in middle if c not in taken)


def live_figures(path: str) -> dict[str, Any]:
    s = read_scenario(ROOT / path)
    kind = "obstacle" if s.ruleset == "tank-chess" else "swamp"
    clear_cache()
    t0 = time.perf_counter()
    warm(s)
    warm_s = time.perf_counter() - t0
    live_overlays(s)
    edits = _unit_edits(s, 12)
    totals, parts = [], []
    for e in edits:
        ov = live_overlays(e)
        totals.append(ov.timings_ms["total"])
        parts.append(ov.timings_ms)
    no_check = []
    for e in _unit_edits(s.replacing(s.units[0], s.units[0]), 12):
        no_check.append(live_overlays(e, check=False).timings_ms["total"])
    terrain = s.adding(Terrain(kind, (_free_cell(s),)))
    t0 = time.perf_counter()
    live_overlays(terrain)
    terrain_ms = (time.perf_counter() - t0) * 1e3
    from analysis.graphs import movement_table

    unit = s.live_units()[0]
    table = movement_table(s, unit)
    start = table.index_of((unit.cell, unit.facing))
    return {
        "warm_tables_s": round(warm_s, 2),
        "unit_edit_ms": round(statistics.median(totals), 3),
        "unit_edit_check_ms": round(statistics.median(p["check"] for p in parts), 3),
        "unit_edit_coverage_ms": round(statistics.median(p["coverage"] for p in parts), 3),
        "unit_edit_reach_ms": round(statistics.median(p["reach"] for p in parts), 3),
        "unit_edit_no_check_ms": round(statistics.median(no_check), 3),
        "terrain_edit_ms": round(terrain_ms, 1),
        "states_per_table": len(table),
        "bfs_ms": _ms(best_of(lambda: bfs(table, start), repeat=3)),
        "networkx_ms": _ms(best_of(lambda: unit_reach_nx(s, unit), repeat=3, number=3)),
    }


def map_figures(path: str) -> dict[str, Any]:
    s = read_scenario(ROOT / path)
    clear_cache()
    t0 = time.perf_counter()
    analyse(s)
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    analyse(s)
    return {"analyse_cold_s": round(cold, 2), "analyse_warm_ms": _ms(time.perf_counter() - t0)}


def run() -> dict[str, Any]:
    maps = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "maps").glob("*/*.json"))
    out: dict[str, Any] = {"maps": {m: map_figures(m) for m in maps}}
    out["live"] = {m: live_figures(m) for m in LIVE_MAPS if (ROOT / m).exists()}
    return out
