"""Play mode's Hint: how long the hint agent takes to answer, on every built-in map.

For each map, ``HINTS_PER_SEED`` decisions of a game of two people, for each of ``SEEDS``,
are asked of the session's Hint (``PlaySession.hint_line``) and then played; wall-clock
milliseconds per hint, mean and worst, the first hint of the run left out (it loads and
compiles the agent's kernel). ``agent`` is the agent that answered.

    python -m benchmarks play
"""

from __future__ import annotations

import time
from typing import Any

from tankmap import maps
from tankmap.analysis.play import HUMAN, open_session
from tankmap.rules.fileformat import read_scenario

SEEDS = (0, 1, 2)
HINTS_PER_SEED = 6


def run() -> dict[str, Any]:
    """Figures per built-in map of every game (see the module docstring)."""
    out: dict[str, Any] = {}
    for ruleset in ("tank-chess", "final-act", "tank-wars"):
        for path in maps.builtin_maps(ruleset):
            scenario = read_scenario(path)
            if not scenario.units:
                continue  # a blank board: nothing to play
            out[f"{ruleset}/{path.stem}"] = _hints(scenario)
    return out


def _hints(scenario: Any) -> dict[str, Any]:
    times: list[float] = []
    agent = ""
    for seed in SEEDS:
        s = open_session(scenario, (HUMAN, HUMAN), seed)
        for _ in range(HINTS_PER_SEED):
            if not s.waiting():
                break
            side = s.waiting()[0]
            start = time.perf_counter()
            line = s.hint_line(side)
            times.append(time.perf_counter() - start)
            agent = s.hint_name(side)
            s.submit(side, line)
    kept = times[1:]
    return {
        "agent": agent,
        "hints": len(kept),
        "mean_ms": round(sum(kept) / len(kept) * 1e3, 1),
        "worst_ms": round(max(kept) * 1e3, 1),
    }
