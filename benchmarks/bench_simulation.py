"""Playouts per second per core for each ruleset and policy, and 1 → 2 worker scaling.

Targets (issue 12, one core): Final Act heuristic ≥ 20,000 playouts/s on each built-in map;
Tank Chess heuristic on basic-16 ≥ 2,000 playouts/s; ``simulate`` with 2 local workers ≥
1.7× one worker on 20,000 Final Act games. (Issue 6's targets were 1,000 and 200.) Each
figure is the best of a few timed runs of whole games and their table rows (after a warm-up)
in the calling process, in CPU seconds (other work on a shared machine does not count);
``scaling`` times ``simulate`` (wall clock, best of three) with 1 and 2 local workers on the
same seeded games, in a fresh Python process as ``tankmap simulate`` runs it; the same
measured in the benchmark's own process after all the rows above is printed next to it (that
process holds the memos of thousands of Tank Chess games, about 670 MB: forking it and
copying the pages it writes cost the 2-worker run about a tenth). Final Act
``heuristic``/``random`` play on the compiled kernel (tasks of the driver's batch size);
``-ref`` rows are the one-game reference implementations on the reference engine.
``… microseconds per game`` rows split a Final Act heuristic playout's time into the compiled
games, their table rows and (not part of a run) ``GameResult`` objects.

Tank Chess policies remember move-generation answers across positions and games
(``movegen.cached_end_states``, the sight masks of ``tank_chess.agents.turns``) and the
heuristic remembers each position's facts (``tank_chess.agents.heuristic_memo``: self-play meets
the same positions again and again), as a long simulation does; the warm-up games fill
those memos. ``… positions remembered or not`` rows play the same games with the
position memo on and off (``heuristic_memo.LIMIT = 0``, the policy as it was before the
memo), timed alternately, and ``memo_speedup`` is their ratio; ``… after 1,000 games``
times 200 new games of a run that has played 1,000 (the steady state of a long
simulation: fewer new positions per game). Tank Chess ``random`` and ``heuristic`` games
play on the compiled kernel (``tank_chess.kernel.games``), so the plain rows are the
kernel's; ``… kernel or python`` rows time the same games on it and with
``TANKMAP_KERNEL=python`` (the Python policies with their memos, warm after the warm-up)
alternately, ``kernel_speedup`` their ratio. The memo rows play on the Python path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tankmap.analysis.simulation.games import get_driver
from tankmap.analysis.simulation.runner import play_games, result_columns, simulate
from tankmap.rules.fileformat import read_scenario

ROOT = Path(__file__).resolve().parent.parent

CASES = (
    ("final-act/mirror.json", "heuristic", 10000),
    ("final-act/mirror.json", "random", 5000),
    ("final-act/flanks-vs-centre.json", "heuristic", 10000),
    ("final-act/extra-forces.json", "heuristic", 10000),
    ("final-act/mirror.json", "heuristic-ref", 120),
    ("final-act/mirror.json", "random-ref", 30),
    ("tank-chess/basic-16.json", "heuristic", 40),
    ("tank-chess/basic-16.json", "random", 4),
    ("tank-chess/basic-16.json", "uct:16", 4),
    ("tank-chess/sample-20.json", "heuristic", 20),
    ("tank-wars/default.json", "heuristic", 80),
    ("tank-wars/default.json", "random", 80),
    ("final-act/mirror.json", "search", 12),
    ("tank-chess/basic-16.json", "search", 12),
    ("tank-wars/default.json", "search", 12),
    # the verdict families' everyday agents (compiled searches)
    ("tank-chess/basic-16.json", "alphabeta:3200", 6),
    ("tank-wars/default.json", "regret:64", 20),
    ("tank-wars/default.json", "plan:128", 20),
)


FINAL_ACT_MAPS = ("mirror", "flanks-vs-centre", "extra-forces")
"""The built-in Final Act maps: the heuristic target (>= 20,000 playouts/s) is for each."""
FINAL_ACT_TARGET = 20_000
TANK_CHESS_TARGET = 2_000
SCALING_TARGET = 1.7

ADVANCED_OPTIONS = (
    "officer_loss", "double_shot", "berm_repair", "rm_repair", "air_strike", "full_throttle",
    "quick_shot", "mine_clearing", "smoke", "quick_sand", "red_cross",
)  # fmt: skip
"""rules §1.8 (Final Act advanced rules and tokens): only the reference engine models them."""


def playouts_per_second(
    path: str, policy: str, games: int, repeat: int = 3, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Whole games per second in this process (CPU time), with the mean game length.
    Games are played as the runner's worker tasks play them (``play_games`` then their
    table rows, ``result_columns``), in tasks of the driver's ``batch_size`` games, or of
    one game for a driver without one: a conservative figure, since ``simulate`` gives
    those drivers tasks of ``runner.DEFAULT_BATCH`` games and so spreads the per-task cost
    (the kernel call, the table's labels). ``options`` override the map's."""
    scenario = read_scenario(ROOT / "maps" / path)
    if options:
        scenario = scenario.with_options(**options)
    driver = get_driver(scenario.ruleset)
    prepared = driver.prepare(scenario)
    pols = (policy, policy)
    batch = int(getattr(driver, "batch_size", 1))

    def play(seed: int, n: int) -> int:
        total = 0
        for lo in range(0, n, batch):
            games = range(lo, min(n, lo + batch))
            results = play_games(driver, prepared, pols, seed, games)
            total += sum(result_columns(scenario.board, pols, results, games)["length"])
        return total

    play(99, min(5, games))
    best = 0.0
    length = 0.0
    for r in range(repeat):
        start = time.process_time()
        total = play(r, games)
        rate = games / max(time.process_time() - start, 1e-9)
        if rate > best:
            best, length = rate, total / games
    return {"playouts_per_second": round(best, 1), "mean_length": round(length, 2)}


def final_act_breakdown(path: str, games: int = 10000, repeat: int = 3) -> dict[str, Any]:
    """Where a Final Act heuristic playout's CPU time goes, in microseconds per game (best
    of ``repeat``, tasks of the driver's batch size): ``kernel`` the compiled games
    (``kernel_games.play_many``: the kernel call and its arrays), ``rows`` the table
    rows made from them (``runner.result_columns``), ``objects`` the ``GameResult``s made
    only when a caller reads them (not part of a simulation's rows)."""
    from tankmap.analysis.simulation.final_act.kernel import games as kernel_games
    from tankmap.analysis.simulation.noise import game_key

    scenario = read_scenario(ROOT / "maps" / path)
    driver = get_driver(scenario.ruleset)
    prepared = driver.prepare(scenario)
    pols = ("heuristic", "heuristic")
    batch = int(getattr(driver, "batch_size", 1))
    kernel_games.warm(prepared)
    best = {"kernel": float("inf"), "rows": float("inf"), "objects": float("inf")}
    for r in range(repeat):
        spent = dict.fromkeys(best, 0.0)
        for lo in range(0, games, batch):
            numbers = range(lo, min(games, lo + batch))
            keys = [game_key(r, g) for g in numbers]
            start = time.process_time()
            results = kernel_games.play_many(prepared, pols, keys)
            spent["kernel"] += time.process_time() - start
            start = time.process_time()
            result_columns(scenario.board, pols, results, numbers)
            spent["rows"] += time.process_time() - start
            start = time.process_time()
            results.results()
            spent["objects"] += time.process_time() - start
        for name, seconds in spent.items():
            best[name] = min(best[name], seconds)
    return {f"{name}_us": round(seconds / games * 1e6, 1) for name, seconds in best.items()}


def kernel_pair(path: str, policy: str, games: int, repeat: int = 3) -> dict[str, Any]:
    """Playouts per second (CPU time, best of ``repeat``) of the same seeded games on the
    compiled kernel and with ``TANKMAP_KERNEL=python`` (the reference), taking turns to
    go first, and their ratio ``kernel_speedup``."""
    scenario = read_scenario(ROOT / "maps" / path)
    driver = get_driver(scenario.ruleset)
    prepared = driver.prepare(scenario)
    pols = (policy, policy)
    saved = os.environ.get("TANKMAP_KERNEL")
    best = {"kernel": 0.0, "python": 0.0}
    try:
        for r in range(-1, repeat):
            for engine in ("kernel", "python") if r % 2 else ("python", "kernel"):
                os.environ["TANKMAP_KERNEL"] = "" if engine == "kernel" else "python"
                start = time.process_time()
                play_games(driver, prepared, pols, 99 if r < 0 else r, range(games))
                if r >= 0:
                    rate = games / max(time.process_time() - start, 1e-9)
                    best[engine] = max(best[engine], rate)
    finally:
        if saved is None:
            os.environ.pop("TANKMAP_KERNEL", None)
        else:
            os.environ["TANKMAP_KERNEL"] = saved
    return {
        "kernel": round(best["kernel"], 1),
        "python": round(best["python"], 1),
        "kernel_speedup": round(best["kernel"] / best["python"], 2),
    }


def tank_chess_memo_pair(path: str, policy: str, games: int, repeat: int = 4) -> dict[str, Any]:
    """Playouts per second (CPU time, best of ``repeat``) with the heuristic's position
    memo on and off (``heuristic_memo.LIMIT = 0``: the policy as it was before the memo)
    on the same seeded games after the same warm-up. The second to play a seed finds the
    engine's own memos warm, so the two take turns to go first."""
    from tankmap.analysis.simulation.tank_chess.agents import heuristic_memo

    saved_engine = os.environ.get("TANKMAP_KERNEL")
    os.environ["TANKMAP_KERNEL"] = "python"  # the memo serves the Python policy
    scenario = read_scenario(ROOT / "maps" / path)
    driver = get_driver(scenario.ruleset)
    preps = {True: driver.prepare(scenario), False: driver.prepare(scenario)}
    pols = (policy, policy)
    saved = heuristic_memo.LIMIT
    best = {True: 0.0, False: 0.0}
    try:
        for r in range(-1, repeat):
            for remember in (True, False) if r % 2 else (False, True):
                heuristic_memo.LIMIT = saved if remember else 0
                start = time.process_time()
                play_games(driver, preps[remember], pols, 99 if r < 0 else r, range(games))
                if r >= 0:
                    rate = games / max(time.process_time() - start, 1e-9)
                    best[remember] = max(best[remember], rate)
    finally:
        heuristic_memo.LIMIT = saved
        if saved_engine is None:
            os.environ.pop("TANKMAP_KERNEL", None)
        else:
            os.environ["TANKMAP_KERNEL"] = saved_engine
    return {
        "remembered": round(best[True], 1),
        "not_remembered": round(best[False], 1),
        "memo_speedup": round(best[True] / best[False], 2),
    }


def tank_chess_long_run(
    path: str = "tank-chess/basic-16.json", played: int = 1000, games: int = 200
) -> dict[str, Any]:
    """Playouts per second (CPU time) of heuristic games ``played`` … ``played + games - 1``
    of one seeded run, after games 0 … ``played - 1`` (best of two such blocks)."""
    scenario = read_scenario(ROOT / "maps" / path)
    driver = get_driver(scenario.ruleset)
    prepared = driver.prepare(scenario)
    pols = ("heuristic", "heuristic")
    play_games(driver, prepared, pols, 0, range(played))
    best = 0.0
    for k in range(2):
        lo = played + k * games
        start = time.process_time()
        play_games(driver, prepared, pols, 0, range(lo, lo + games))
        best = max(best, games / max(time.process_time() - start, 1e-9))
    return {"playouts_per_second": round(best, 1)}


def scaling_in_fresh_process() -> dict[str, Any]:
    """``scaling()`` run by a new Python interpreter (what ``tankmap simulate`` starts)."""
    code = (
        "import json; from benchmarks.bench_simulation import scaling; print(json.dumps(scaling()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def scaling(
    path: str = "final-act/mirror.json", games: int = 20000, repeat: int = 3
) -> dict[str, Any]:
    """``simulate`` wall-clock playouts/s with 1 and 2 local worker processes (best of
    ``repeat`` runs each, after a warm-up run that builds the map's tables once)."""
    scenario = read_scenario(ROOT / "maps" / path)
    out: dict[str, Any] = {"map": path, "games": games}
    simulate(scenario, 200, "heuristic", seed=0, workers=1)
    for workers in (1, 2):
        best = max(
            float(
                simulate(scenario, games, "heuristic", seed=r, workers=workers).attrs[
                    "playouts_per_second"
                ]
            )
            for r in range(repeat)
        )
        out[f"workers_{workers}"] = round(best, 1)
    out["speedup"] = round(out["workers_2"] / out["workers_1"], 2)
    return out


def run() -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for path, policy, games in CASES:
        figures[f"{path.removesuffix('.json')} {policy}"] = playouts_per_second(path, policy, games)
    figures["final-act/extra-forces heuristic-ref, all §1.8 options on"] = playouts_per_second(
        "final-act/extra-forces.json",
        "heuristic-ref",
        60,
        options=dict.fromkeys(ADVANCED_OPTIONS, True),
    )
    for name in FINAL_ACT_MAPS:
        path = f"final-act/{name}.json"
        figures[f"final-act/{name} heuristic, microseconds per game"] = final_act_breakdown(path)
    for path, policy, games in (
        ("tank-chess/basic-16.json", "heuristic", 40),
        ("tank-chess/sample-20.json", "heuristic", 20),
    ):
        name = f"{path.removesuffix('.json')} {policy}, positions remembered or not"
        figures[name] = tank_chess_memo_pair(path, policy, games)
    figures["tank-chess/basic-16 heuristic, after 1,000 games"] = tank_chess_long_run()
    for path, policy, games in (
        ("tank-chess/basic-16.json", "heuristic", 40),
        ("tank-chess/sample-20.json", "heuristic", 20),
        ("tank-chess/basic-16.json", "random", 8),
    ):
        name = f"{path.removesuffix('.json')} {policy}, kernel or python"
        figures[name] = kernel_pair(path, policy, games)
    figures["scaling"] = scaling_in_fresh_process()
    figures["scaling, in this process after the rows above"] = scaling()
    figures["targets"] = {
        f"final-act/{name} heuristic >= {FINAL_ACT_TARGET}/s": figures[
            f"final-act/{name} heuristic"
        ]["playouts_per_second"]
        >= FINAL_ACT_TARGET
        for name in FINAL_ACT_MAPS
    } | {
        f"tank-chess basic-16 heuristic >= {TANK_CHESS_TARGET}/s": figures[
            "tank-chess/basic-16 heuristic"
        ]["playouts_per_second"]
        >= TANK_CHESS_TARGET,
        f"simulate 2 workers >= {SCALING_TARGET}x 1 worker": figures["scaling"]["speedup"]
        >= SCALING_TARGET,
    }
    return figures
