"""Analysis speed: full ``analyse`` per built-in map (cold caches), and the editor's
live-overlay path (target < 10 ms per edit on the full Tank Chess 20×20 sample).

Figures (milliseconds unless named otherwise):
* ``maps.<file>.analyse_cold_s`` — ``analysis.summary.analyse`` with empty caches (movement
  tables built from ``ruleset.moves``; Tank Chess needs none: reach, routes and the lane
  cell graph come from the rules' bitboard search), seconds; ``analyse_warm_ms`` — the same
  again. Tank Chess maps also split ``reach_ms`` (``turn_search_reach``: every unit's reach
  and route) and ``lanes_ms`` (both sides' lanes, choke and safest route).
* ``live.<file>``: ``unit_edit_ms`` — median ``live_overlays`` after moving one unit to a new
  cell, split into ``check``/``coverage``/``reach``; ``unit_edit_no_check_ms`` — the same
  without ``ruleset.check`` (the analysis part); ``terrain_edit_ms`` — median
  ``live_overlays`` after a terrain or wreck edit (each edit a terrain not seen before: an
  obstacle added on a free cell, or a live unit turned into a wreck), split likewise
  (``terrain_edit_check_ms``...); ``terrain_edit_max_ms`` — the slowest of them.
  Tank Chess and Final Act reach come from the rules' side searches
  (``rules.tank_chess.reach`` / ``rules.final_act.reach.side_terrain_reach``: no tables;
  ``side_search_ms`` = that call alone, Final Act's with its memo cleared); other rulesets
  derive movement tables incrementally (``warm_tables_s`` = building them for the map).
  Final Act also gives the table figures ``analyze`` uses: ``states_per_table``, ``bfs_ms``
  vs ``networkx_ms`` = one unit's reach over a table by array BFS vs networkx.
"""

from __future__ import annotations

import dataclasses
import statistics
import time
from pathlib import Path
from typing import Any

from benchmarks.timing import best_of
from tankmap.analysis.graphs import clear_cache
from tankmap.analysis.live import live_overlays, warm
from tankmap.analysis.reach import bfs, unit_reach_nx
from tankmap.analysis.summary import analyse
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.scenario import Scenario, Terrain

ROOT = Path(__file__).resolve().parent.parent
LIVE_MAPS = (
    "maps/tank-chess/sample-20.json",
    "maps/tank-chess/basic-16.json",
    "maps/final-act/flanks-vs-centre.json",
)


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


def _terrain_edits(s: Scenario, count: int) -> list[Scenario]:
    """Scenarios with one new obstacle/swamp cell (on free cells spread over the board) or
    one live unit turned into a wreck: every one a terrain the caches have not seen."""
    kind = "obstacle" if s.ruleset == "tank-chess" else "swamp"
    b = s.board
    taken = {u.cell for u in s.units} | {c for t in s.terrain for c in t.cells}
    free = [c for c in range(b.size) if c not in taken and 2 < b.row_of(c) < b.rows - 3]
    step = max(1, len(free) // count)
    out = [s.adding(Terrain(kind, (c,))) for c in free[::step][: count - 2]]
    for u in s.live_units()[:2]:
        out.append(s.replacing(u, dataclasses.replace(u, wreck=True)))
    return out


def _median_parts(parts: list[dict[str, float]], prefix: str) -> dict[str, float]:
    out = {f"{prefix}_ms": round(statistics.median(p["total"] for p in parts), 3)}
    for key in ("check", "coverage", "reach"):
        out[f"{prefix}_{key}_ms"] = round(statistics.median(p[key] for p in parts), 3)
    return out


def live_figures(path: str) -> dict[str, Any]:
    s = read_scenario(ROOT / path)
    clear_cache()
    t0 = time.perf_counter()
    warm(s)
    warm_s = time.perf_counter() - t0
    live_overlays(s)
    parts = [live_overlays(e).timings_ms for e in _unit_edits(s, 12)]
    no_check = [live_overlays(e, check=False).timings_ms["total"] for e in _unit_edits(s, 12)]
    terrain = []
    for e in _terrain_edits(s, 10):
        t0 = time.perf_counter()
        ov = live_overlays(e)
        ov.timings_ms["total"] = (time.perf_counter() - t0) * 1e3
        terrain.append(ov.timings_ms)
    out: dict[str, Any] = {"warm_tables_s": round(warm_s, 2)}
    out.update(_median_parts(parts, "unit_edit"))
    out["unit_edit_no_check_ms"] = round(statistics.median(no_check), 3)
    out.update(_median_parts(terrain, "terrain_edit"))
    out["terrain_edit_max_ms"] = round(max(p["total"] for p in terrain), 3)
    out["terrain_edits"] = len(terrain)
    if s.ruleset == "tank-chess":
        from tankmap.rules.tank_chess.reach import side_terrain_reach

        out["side_search_ms"] = _ms(best_of(lambda: side_terrain_reach(s), repeat=5))
        return out
    if s.ruleset == "final-act":
        from tankmap.rules.final_act import reach

        def cold_search() -> None:
            reach._CACHE.clear()  # every (side, kind) searched again, as after a terrain edit
            reach.side_terrain_reach(s)

        out["side_search_ms"] = _ms(best_of(cold_search, repeat=5))
    from tankmap.analysis.graphs import movement_table

    unit = s.live_units()[0]
    table = movement_table(s, unit)
    start = table.index_of((unit.cell, unit.facing))
    out["states_per_table"] = len(table)
    out["bfs_ms"] = _ms(best_of(lambda: bfs(table, start), repeat=3))
    out["networkx_ms"] = _ms(best_of(lambda: unit_reach_nx(s, unit), repeat=3, number=3))
    return out


def map_figures(path: str) -> dict[str, Any]:
    s = read_scenario(ROOT / path)
    clear_cache()
    t0 = time.perf_counter()
    analyse(s)
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    analyse(s)
    out: dict[str, Any] = {
        "analyse_cold_s": round(cold, 2),
        "analyse_warm_ms": _ms(time.perf_counter() - t0),
    }
    if s.ruleset == "tank-chess":
        from tankmap.analysis.coverage import summarize
        from tankmap.analysis.lanes import analyse_lanes
        from tankmap.analysis.reach import turn_search_reach
        from tankmap.rules.geometry import Side

        cov = summarize(s)
        out["reach_ms"] = _ms(best_of(lambda: turn_search_reach(s), repeat=3))
        out["lanes_ms"] = _ms(
            best_of(
                lambda: [analyse_lanes(s, side, cov.per_side[side.other]) for side in Side],
                repeat=3,
            )
        )
    return out


def run_live() -> dict[str, Any]:
    """The live-overlay figures only (``python -c 'from benchmarks.bench_analysis import
    run_live; print(run_live())'``: seconds, not the minute ``run`` takes)."""
    return {m: live_figures(m) for m in LIVE_MAPS if (ROOT / m).exists()}


def board_picture(path: str = "maps/tank-chess/sample-20.json", repeat: int = 5) -> dict[str, Any]:
    """Seconds to draw a board and save it as a PNG, as ``tankmap render`` does (best and
    median of ``repeat``, after one warm-up drawing)."""
    import matplotlib.pyplot as plt

    from tankmap.analysis.board_figure import board_figure
    from tankmap.analysis.outputs import figure_bytes

    scenario = read_scenario(ROOT / path)

    def draw() -> float:
        start = time.perf_counter()
        fig = board_figure(scenario)
        figure_bytes(fig, "png", 150)  # render's default resolution
        plt.close(fig)
        return time.perf_counter() - start

    draw()
    times = [draw() for _ in range(repeat)]
    return {
        "map": path,
        "best_s": round(min(times), 3),
        "median_s": round(statistics.median(times), 3),
    }


def run() -> dict[str, Any]:
    maps = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "maps").glob("*/*.json"))
    out: dict[str, Any] = {"maps": {m: map_figures(m) for m in maps}}
    out["live"] = run_live()
    out["board_picture"] = board_picture()
    return out
