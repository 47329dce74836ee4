"""How soon a run of games in the calling process stops after a cancel (the balance
dialog's Cancel, any ``--workers 1`` run, a verdict's time limit with one worker): a
one-worker run of four basic-16 ``alphabeta:25600`` games whose ``abort`` starts
answering true at 2, 5 and 9 s. Each game asks between two decisions
(``interrupt.between_decisions``); before, the run stopped at the end of its task of four
games (about 11 s in).

Wall-clock seconds on this machine; under a minute.

    python -m benchmarks cancel
"""

from __future__ import annotations

import time
from typing import Any

from tankmap.analysis.simulation.runner import simulate
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario


def _cancel_after(scenario: Any, seconds: float) -> dict[str, Any]:
    start = time.monotonic()
    df = simulate(
        scenario,
        4,
        "alphabeta:25600",
        seed=1,
        workers=1,
        abort=lambda: time.monotonic() - start >= seconds,
    )
    ended = time.monotonic() - start
    return {"ended after the cancel (s)": round(ended - seconds, 2), "games kept": len(df)}


def run() -> dict[str, Any]:
    scenario = read_scenario(map_path("tank-chess/basic-16"))  # type: ignore[arg-type]
    simulate(scenario, 1, "alphabeta:3200", seed=0)  # (loads the kernels first)
    return {f"cancel at {s:.0f} s": _cancel_after(scenario, s) for s in (2.0, 5.0, 9.0)}
