"""The editor's long background jobs on one thread against every CPU (``jobs.gui_executor``:
spawned worker processes, one set per job), each in a fresh process, with the same numbers:

- **Judge board** (``verdict_panel.VerdictJob``'s climb, the default 3-minute limit): Final
  Act extra-forces with seed 2, the built-in board whose climb needs the most time (its
  ``search:24`` rung). Per way: wall seconds, the top rung, favoured side, converged.
- **Confirm with …** (the Suggestions dock's ``suggest.confirm``): the dock's default search
  on Tank Chess basic-16 (the heuristic, 60 s), then its suggestions re-measured with
  ``alphabeta``. Per way: wall seconds of the confirmation and its numbers.
- **Suggest with search** (the Suggestions dock's ``SuggestJob``: runs that would take
  10 s or more in one process on spawned workers): ``search`` asked for on Final Act
  flanks-vs-centre, 400 games a board, a 240-s budget, seed 0. Per way: wall seconds,
  candidates played, suggestions listed.
- **Run** (the balance dialog's ``balance_job.play_run``, which plays on every CPU when a
  run would take 10 s or more on one process): 600 games of the default agent
  (``alphabeta``) on Tank Chess basic-16, seed 1. Per way: wall seconds and a digest of
  the games' winners and lengths (the same games either way); with one thread, also the
  paces (seconds a game) ``pace.measure_pace`` finds with seeds 0-3 before the run, which
  the dialog's first estimate uses, beside the run's own.

Wall-clock seconds on this machine (other load counts); about 22 minutes.

    python -m benchmarks editor_jobs
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from typing import Any

JUDGE = """
import json, time
from tankmap.analysis.verdict.climb import run_verdict
from tankmap.editor.jobs import gui_executor
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario

scenario = read_scenario(map_path("final-act/extra-forces"))
start = time.monotonic()
with gui_executor(WORKERS, abortable=True) as executor:
    doc = run_verdict(scenario, seed=2, time_limit=180.0, executor=executor).to_json()
print(json.dumps({
    "seconds": round(time.monotonic() - start, 1), "top": doc["agent"],
    "favoured": doc["favoured"], "converged": doc["converged"],
}))
"""

CONFIRM = """
import json, time
from tankmap.analysis.suggest import confirm, suggest
from tankmap.editor.jobs import gui_executor
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario

scenario = read_scenario(map_path("tank-chess/basic-16"))
found = suggest(scenario, None, 400, 60.0, 0)
start = time.monotonic()
with gui_executor(WORKERS) as executor:
    confirm(scenario, found.suggestions, "alphabeta", found.games, found.check_seed,
            seed=found.seed, executor=executor)
print(json.dumps({
    "seconds": round(time.monotonic() - start, 1), "suggestions": len(found.suggestions),
    "confirmations": [m.confirmation for _edit, m in found.suggestions],
}))
"""

SUGGEST = """
import json, time
from tankmap.analysis.suggest import suggest
from tankmap.editor.jobs import gui_executor
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario

scenario = read_scenario(map_path("final-act/flanks-vs-centre"))
start = time.monotonic()
with gui_executor(WORKERS) as executor:
    found = suggest(scenario, "search", 400, 240.0, 0, workers=1, executor=executor)
print(json.dumps({
    "seconds": round(time.monotonic() - start, 1), "played": found.played,
    "listed": len(found.suggestions),
}))
"""

BALANCE = """
import hashlib, json, time
from tankmap.analysis.simulation.pace import measure_pace
from tankmap.editor.balance_job import play_run
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario

scenario = read_scenario(map_path("tank-chess/basic-16"))
agents = ("alphabeta", "alphabeta")
paces = [round(measure_pace(scenario, agents, seed=s), 3) for s in range(4)] if WORKERS == 1 else []
start = time.monotonic()
table = play_run(scenario, 600, agents, 1, workers=WORKERS)
seconds = time.monotonic() - start
games = table[["winner", "length"]].to_csv(index=False).encode()
print(json.dumps({
    "seconds": round(seconds, 1), "games": len(table),
    "digest": hashlib.sha256(games).hexdigest()[:12],
    **({"paces measured, seeds 0-3": paces, "pace of the run": round(seconds / 600, 3)}
       if paces else {}),
}))
"""


def _job(code: str, workers: int) -> dict[str, Any]:
    """``code`` with ``WORKERS`` = ``workers``, run in a fresh process with its own cache."""
    with tempfile.TemporaryDirectory() as cache:
        out = subprocess.run(
            [sys.executable, "-c", code.replace("WORKERS", str(workers))],
            capture_output=True,
            text=True,
            env=dict(os.environ, TANKMAP_CACHE_DIR=cache),
            check=False,
        )
    if out.returncode != 0:
        return {"error": out.stderr.strip()[-500:]}
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def run() -> dict[str, Any]:
    cpus = os.cpu_count() or 1
    figures: dict[str, Any] = {}
    judge = "judge board, final-act/extra-forces seed 2"
    figures[judge] = {"one thread": _job(JUDGE, 1), f"{cpus} workers": _job(JUDGE, cpus)}
    one, every = _job(CONFIRM, 1), _job(CONFIRM, cpus)
    same = {k: v for k, v in one.items() if k != "seconds"} == {
        k: v for k, v in every.items() if k != "seconds"
    }
    figures["confirm with alphabeta, tank-chess/basic-16"] = {
        "one thread": one,
        f"{cpus} workers": every,
        "same numbers": same,
    }
    figures["suggest with search, final-act/flanks-vs-centre, 240-s budget"] = {
        "one thread": _job(SUGGEST, 1),
        f"{cpus} workers": _job(SUGGEST, cpus),
    }
    one, every = _job(BALANCE, 1), _job(BALANCE, cpus)
    figures["balance dialog run, 600 alphabeta games on tank-chess/basic-16"] = {
        "one thread": one,
        f"{cpus} workers": every,
        "same games": one.get("digest") is not None and one.get("digest") == every.get("digest"),
    }
    return figures
