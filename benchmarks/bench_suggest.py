"""The design assistant against issue 17's bar, on ``final-act/flanks-vs-centre`` and on a
deliberately lopsided Tank Chess board (``docs/examples/tank-chess-lopsided-16.json``:
basic-16 with White's I-tromino moved from o2–o4 to g2–i2, in front of White's command
tank). ``suggest`` runs with the heuristic, 400 games per board, 2 local workers and a
300 s budget. The bar: at least one suggestion whose balance, re-measured on fresh seeds,
is above the original's by >= 0.10 with its 95 % interval above the original's interval,
or whose interval reaches 1 (an even game cannot be ruled out). ``seconds`` is the wall
clock of the whole search (other load on the machine counts).

    python -m benchmarks suggest
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tankmap import maps
from tankmap.analysis.suggest import suggest
from tankmap.rules.fileformat import read_scenario

ROOT = Path(__file__).resolve().parent.parent
BOARDS = {
    "final-act/flanks-vs-centre": maps.map_path("final-act/flanks-vs-centre"),
    "docs/examples/tank-chess-lopsided-16": ROOT / "docs/examples/tank-chess-lopsided-16.json",
}


def meets_bar(before: dict[str, Any], after: dict[str, Any]) -> bool:
    risen = after["balance"] >= before["balance"] + 0.10 and after["ci95"][0] > before["ci95"][1]
    return risen or after["ci95"][1] >= 1.0


def run() -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for name, path in BOARDS.items():
        assert path is not None
        start = time.perf_counter()
        result = suggest(read_scenario(path), "heuristic", 400, 300.0, seed=1, workers=2)
        seconds = time.perf_counter() - start
        doc = result.to_json()
        before = doc["before"]
        rows = [
            {"edits": s["edits"], "balance": s["balance"], "ci95": s["ci95"]}
            for s in doc["suggestions"]
        ]
        figures[name] = {
            "before": {"balance": before["balance"], "ci95": before["ci95"]},
            "suggestions": rows,
            "seconds": round(seconds, 1),
            "meets_bar": any(meets_bar(before, s) for s in doc["suggestions"]),
        }
    return figures
