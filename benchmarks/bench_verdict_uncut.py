"""How far the Final Act verdicts that do not converge within the default 3 minutes are:
the same climb with the time limit out of the way.

For the boards ``python -m benchmarks verdict`` leaves unconverged on Final Act
(extra-forces and flanks-vs-centre, seed 2), ``tankmap verdict NAME --seed 2 --workers 2
--time-limit 900 --no-cross-check --json`` runs once in a fresh process with an empty cache
(as a user runs it; the cross-check, which only uses the time the climb leaves, is off).
Per board: wall seconds, whether and where it converged, the score of the last match, and
each run's wall seconds from the kept-games file (``analysis.verdict.played``: self-play
and match halves, in the order played), so that the one-run gap to 180 s is measured. About
7 minutes; wall-clock seconds (other load on the machine counts).

    python -m benchmarks verdict_uncut
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BOARDS = ("final-act/extra-forces", "final-act/flanks-vs-centre")
SEED = 2
LIMIT = 900


def _climb(name: str, cache: str) -> dict[str, Any]:
    env = dict(os.environ, TANKMAP_CACHE_DIR=cache)
    args = ["verdict", name, "--seed", str(SEED), "--workers", "2"]
    args += ["--time-limit", str(LIMIT), "--no-cross-check", "--json"]
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "tankmap", *args], capture_output=True, text=True, env=env
    )
    seconds = time.perf_counter() - start
    if out.returncode != 0:
        return {"error": out.stderr.strip()[-500:], "seconds": round(seconds, 1)}
    doc = json.loads(out.stdout)
    runs: dict[str, float] = {}
    for path in (Path(cache) / "verdict" / "games").glob("*.json"):
        kept = json.loads(path.read_text(encoding="utf-8"))
        for run, entry in kept["runs"].items():
            pair = " vs ".join(run.split(" | ")[:2])
            runs[pair] = round(runs.get(pair, 0.0) + entry["seconds"], 1)
    last = doc["trace"][-1]
    return {
        "converged": doc["converged"],
        "favoured": doc["favoured"],
        "agent": doc["agent"],
        "last_score": last["score_vs_previous"],
        "last_score_ci95": last["score_ci95"],
        "seconds": round(seconds, 1),
        "climb_seconds": doc["seconds"],
        "over_180_s": round(doc["seconds"] / 180, 2),
        "runs_seconds": runs,
    }


def run() -> dict[str, Any]:
    """The figures of the module docstring, per board."""
    out: dict[str, Any] = {}
    for name in BOARDS:
        with tempfile.TemporaryDirectory() as cache:
            out[f"{name} seed {SEED}"] = _climb(name, cache)
    return out
