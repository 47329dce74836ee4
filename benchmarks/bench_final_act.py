"""Final Act speed: setup check, fire zones and orders of every unit on the built-in maps.

Figures (milliseconds per call, best of 5): ``check_ms`` (full ``check``),
``fire_zones_all_units_ms`` (``ruleset.fire_zone`` for every unit, tables warm),
``check_and_fire_zones_ms`` (both: the editor's live-feedback work), ``moves_all_units_ms``
(``ruleset.moves`` for every unit), ``tables_fire_zones_all_units_us`` (the engine path:
``Tables.fire_zone`` with a prebuilt blocker mask, microseconds), ``can_place_ms`` (one
tank placement question) and, once per run, ``cold_tables_ms`` (building the fire and
order tables from scratch for one terrain) and ``prepare_board_ms`` (what a simulation
builds for a board it has not seen: ``Prepared`` and the kernel's ``ScenarioTables``, the
rules' tables cold; best of 3).

``search_speed`` (per map, for ``search`` and ``search:9``): self-play games and rounds per
CPU second (``bench_simulation.playouts_per_second``, best of 3; rounds per second is the
steadier figure, since the best repeat's games may be longer or shorter).
"""

from __future__ import annotations

from typing import Any

from benchmarks.bench_simulation import playouts_per_second
from benchmarks.timing import best_of
from tankmap import maps
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.final_act import tables as fa_tables
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario

SEARCH_GAMES = {"search": 20, "search:9": 10}
"""Self-play games per repeat of ``search_speed``."""


def run() -> dict[str, Any]:
    """Figures per built-in Final Act map (see the module docstring)."""
    out = {}
    for path in maps.builtin_maps("final-act"):
        figures = _measure(read_scenario(path))
        figures["search_speed"] = _search_speed(f"final-act/{path.name}")
        out[path.stem] = figures
    return out


def _search_speed(path: str) -> dict[str, Any]:
    """Self-play games and rounds per CPU second of ``search`` and ``search:9``."""
    speed = {}
    for agent, games in SEARCH_GAMES.items():
        r = playouts_per_second(path, agent, games)
        speed[agent] = {
            "games_per_s": r["playouts_per_second"],
            "rounds_per_s": round(r["playouts_per_second"] * r["mean_length"], 1),
        }
    return speed


def _measure(sc: Scenario) -> dict[str, Any]:
    rs = get_ruleset("final-act")
    units = sc.units
    facing = [u.facing if u.facing is not None else u.side.forward for u in units]

    def check() -> None:
        rs.check(sc)

    def fire() -> None:
        for u in units:
            rs.fire_zone(sc, u)

    def both() -> None:
        rs.check(sc)
        for u in units:
            rs.fire_zone(sc, u)

    def moves() -> None:
        for u in units:
            rs.moves(sc, u)

    t = fa_tables.tables_of(sc)
    masks = [fa_tables.unit_blockers(units, u) for u in units]

    def engine_fire() -> None:
        for u, f, m in zip(units, facing, masks, strict=True):
            t.fire_zone(u.kind, u.cell, f, m)

    probe = units[0]
    removed = sc.removing(probe)

    def can_place() -> None:
        rs.can_place(removed, probe)

    def cold() -> None:
        fa_tables.fire_table.cache_clear()
        fa_tables._tables.cache_clear()
        tt = fa_tables.tables_of(sc)
        for u in units:
            tt.order_table(u.kind, u.side)
            tt.fire_table(u.kind)

    def prepare() -> None:
        from tankmap.analysis.simulation.final_act.kernel.tables import ScenarioTables
        from tankmap.analysis.simulation.final_act.prepared import Prepared
        from tankmap.rules.final_act.engine import Game

        fa_tables._tables.cache_clear()
        ScenarioTables(Prepared(Game(sc)))

    both()
    return {
        "units": len(units),
        "check_ms": round(best_of(check) * 1e3, 4),
        "fire_zones_all_units_ms": round(best_of(fire) * 1e3, 4),
        "check_and_fire_zones_ms": round(best_of(both) * 1e3, 4),
        "moves_all_units_ms": round(best_of(moves) * 1e3, 4),
        "tables_fire_zones_all_units_us": round(best_of(engine_fire) * 1e6, 2),
        "can_place_ms": round(best_of(can_place) * 1e3, 4),
        "cold_tables_ms": round(best_of(cold, repeat=3, number=1) * 1e3, 1),
        "prepare_board_ms": round(best_of(prepare, repeat=3, number=1) * 1e3, 1),
    }
