"""The wall time of ``tankmap verdict`` on every playable built-in map, and whether its
verdict converges and names the same favoured side for two seeds.

Issue 29's targets: the verdict converges on every built-in map in at most 3 minutes with 2
workers (the default time limit is 180 s), says ``even`` on a point-symmetric board
(``final-act/mirror``), and gives the same favoured side for seeds 1 and 2. Each map's
verdict runs in a fresh ``tankmap verdict`` process (as a user runs it), with the default
family, games and time limit, and ``--workers 2``; wall-clock seconds (other load on the
machine counts).

    python -m benchmarks verdict
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

from benchmarks.bench_agents import playable

SEEDS = (1, 2)
SYMMETRIC = ("final-act/mirror",)


def verdict(name: str, seed: int, cache: str) -> dict[str, Any]:
    """One ``tankmap verdict NAME --seed SEED --workers 2 --json`` in a fresh process."""
    env = dict(os.environ, TANKMAP_CACHE_DIR=cache)
    start = time.perf_counter()
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "tankmap",
            "verdict",
            name,
            "--seed",
            str(seed),
            "--workers",
            "2",
            "--json",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    seconds = time.perf_counter() - start
    if out.returncode != 0:
        return {"error": out.stderr.strip()[-500:], "seconds": round(seconds, 1)}
    doc = json.loads(out.stdout)
    return {
        "favoured": doc["favoured"],
        "converged": doc["converged"],
        "agent": doc["agent"],
        "balance": doc["balance"],
        "balance_ci95": doc["balance_ci95"],
        "rungs": [t["agent"] for t in doc["trace"]],
        "reason": doc["reason"],
        "cross_check": (doc.get("cross_check") or {}).get("agrees"),
        "seconds": round(seconds, 1),
    }


def run() -> dict[str, Any]:
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as cache:
        for name, _scenario in playable():
            runs = {seed: verdict(name, seed, cache) for seed in SEEDS}
            favoured = {r.get("favoured") for r in runs.values()}
            figures[name] = {
                **{f"seed {s}": r for s, r in runs.items()},
                "same favoured side": len(favoured) == 1 and None not in favoured,
                "converged in 180 s": all(
                    r.get("converged") and r["seconds"] <= 180 for r in runs.values()
                ),
                **({"even": favoured == {"even"}} if name in SYMMETRIC else {}),
            }
    figures["targets"] = {
        "converges everywhere in 3 min": all(
            v["converged in 180 s"] for v in figures.values() if isinstance(v, dict)
        ),
        "same side for seeds 1 and 2 everywhere": all(
            v["same favoured side"] for v in figures.values() if isinstance(v, dict)
        ),
        "symmetric board even": all(
            v.get("even", True) for v in figures.values() if isinstance(v, dict)
        ),
    }
    return figures
