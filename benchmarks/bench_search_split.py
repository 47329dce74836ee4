"""Where Final Act ``search``'s time goes (wall seconds of one process, perf counters, no
profiler: cProfile inflates the Python parts).

``search:24`` plays ``GAMES`` self-play games of extra-forces (seed 7, after one warm-up
game); ``kernel_share`` is the compiled look-ahead's part of the time
(``kernel.lookahead.lookahead_values``), ``python_heuristic_share`` the Python heuristic's
(``HeuristicPolicy.decide``: the agent's own plan and its sampled enemy plans), the rest
the Python loop around them. ``row_us``: microseconds per look-ahead row (one candidate
on one sampled future), replaying the rows those games scored with 0 and 1 heuristic
rounds after the forced round (``ahead_0`` is the forced round and the valuation alone).
``code_version_ms``: hashing the code that stamps remembered results, once per process.
"""

from __future__ import annotations

import time
from typing import Any

BOARD = "final-act/extra-forces"
AGENT = "search:24"
GAMES = 6


def run() -> dict[str, Any]:
    """The figures of the module docstring."""
    import tankmap
    from tankmap.analysis import code_version
    from tankmap.analysis.simulation.final_act.agents import reference
    from tankmap.analysis.simulation.final_act.kernel import lookahead
    from tankmap.analysis.simulation.runner import simulate

    code_version.code_version.cache_clear()
    start = time.perf_counter()
    code_version.code_version()
    hash_ms = (time.perf_counter() - start) * 1e3

    spent = {"heuristic": 0.0, "kernel": 0.0}
    rows: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    decide, values = reference.HeuristicPolicy.decide, lookahead.lookahead_values

    def timed_decide(self: Any, view: Any, rng: Any) -> Any:
        t = time.perf_counter()
        try:
            return decide(self, view, rng)
        finally:
            spent["heuristic"] += time.perf_counter() - t

    def timed_values(*args: Any, **kw: Any) -> Any:
        t = time.perf_counter()
        try:
            return values(*args, **kw)
        finally:
            spent["kernel"] += time.perf_counter() - t
            rows.append((args, kw))

    scenario = tankmap.load(BOARD)
    simulate(scenario, 1, AGENT, seed=99)  # (compiled and warm)
    reference.HeuristicPolicy.decide = timed_decide  # type: ignore[method-assign]
    lookahead.lookahead_values = timed_values
    try:
        start = time.perf_counter()
        simulate(scenario, GAMES, AGENT, seed=7)
        total = time.perf_counter() - start
    finally:
        reference.HeuristicPolicy.decide = decide  # type: ignore[method-assign]
        lookahead.lookahead_values = values
    row_us = {}
    for ahead in (0, 1):
        start = time.perf_counter()
        count = 0
        for args, kw in rows:
            count += len(values(*args[:7], ahead, *args[8:], **kw))
        row_us[f"ahead_{ahead}"] = round((time.perf_counter() - start) / count * 1e6, 2)
    return {
        "board": BOARD,
        "agent": AGENT,
        "games": GAMES,
        "seconds": round(total, 2),
        "kernel_share": round(spent["kernel"] / total, 3),
        "python_heuristic_share": round(spent["heuristic"] / total, 3),
        "rest_share": round(1 - (spent["kernel"] + spent["heuristic"]) / total, 3),
        "row_us": row_us,
        "code_version_ms": round(hash_ms, 1),
    }
