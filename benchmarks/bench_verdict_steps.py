"""How many default-length ``tankmap verdict`` runs a board's verdict takes when each run goes
on from the games the runs before it kept (``analysis.verdict.played``), and what each run
says meanwhile.

For the board whose climb does not fit the default 3 minutes in ``python -m benchmarks
verdict`` but fits a few runs — Final Act extra-forces with seed 1 (since 2026-12-07 its
self-plays of ``search:24`` and ``search:48`` go on to 800 games each to settle a
disagreement within noise) — the same ``tankmap verdict NAME --seed S --workers 2 --json``
runs again and again in fresh processes with one cache folder, until the verdict converges
or the board's run count is spent. (Tank Chess needs far more: its longest climb measured
took 29 minutes and had not converged; it is left out.) Per run: wall seconds, games taken
from the runs before, the rungs of the trace (self-play and match games), the agent the
verdict is read from, its favoured side and whether it converged. Wall-clock seconds (other
load on the machine counts); about a quarter of an hour.

    python -m benchmarks verdict_steps
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

BOARDS = (("final-act/extra-forces", 1, 6),)
"""(board, seed, most runs)."""


def verdict(name: str, seed: int, cache: str) -> dict[str, Any]:
    """One ``tankmap verdict NAME --seed SEED --workers 2 --json`` in a fresh process."""
    env = dict(os.environ, TANKMAP_CACHE_DIR=cache)
    args = ["verdict", name, "--seed", str(seed), "--workers", "2", "--json"]
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "tankmap", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    seconds = round(time.perf_counter() - start, 1)
    if out.returncode != 0:
        return {"error": out.stderr.strip()[-500:], "seconds": seconds}
    doc = json.loads(out.stdout)
    return {
        "seconds": seconds,
        "reused_games": doc["reused_games"],
        "rungs": [
            f"{t['agent']} ({t['games']} self-play, {t['match_games']} match)" for t in doc["trace"]
        ],
        "agent": doc["agent"],
        "favoured": doc["favoured"],
        "converged": doc["converged"],
        "reason": doc["reason"],
    }


def run() -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for name, seed, most in BOARDS:
        with tempfile.TemporaryDirectory() as cache:
            runs: list[dict[str, Any]] = []
            while len(runs) < most:
                runs.append(verdict(name, seed, cache))
                if runs[-1].get("converged") or "error" in runs[-1]:
                    break
        figures[f"{name} seed {seed}"] = {
            "runs": runs,
            "converged": bool(runs[-1].get("converged")),
            "runs needed": len(runs) if runs[-1].get("converged") else None,
            "total seconds": round(sum(r["seconds"] for r in runs), 1),
        }
    return figures
