"""How long games of an agent take on a board, so that a long run can be announced before
it starts and a default number of games can fit about a minute.

``remember_pace`` keeps the seconds per game (one process) a finished run measured, per
board (``ladder_cache.board_key``: the board's content) and pair of agents, in
``$TANKMAP_CACHE_DIR/pace.json`` (else ``$XDG_CACHE_HOME/tankmap/pace.json``, else
``~/.cache/tankmap/pace.json``); ``known_pace`` reads it back; ``measure_pace`` plays a few
seeded games to find out when nothing is known. A cache that cannot be read or written is
simply empty. ``games_for`` turns a pace into a round number of games for a time budget.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from tankmap.analysis.ladder_cache import board_key
from tankmap.rules.errors import TankmapError
from tankmap.rules.fileformat import atomic_write_text
from tankmap.rules.scenario import Scenario

MEASURE_GAMES = 2
"""Games ``measure_pace`` plays at least (after one unmeasured game that loads what the
agents need)..."""
MEASURE_SECONDS = 2.0
"""... and on until this much CPU time is spent (games' lengths vary: two games of a search
agent can be half or twice its average) ..."""
MEASURE_MOST = 50
"""... but no more games than this."""
KEEP = 200
"""At most this many board/agent entries are remembered (the oldest are dropped)."""
LONG_RUN_SECONDS = 10.0
"""A run of games that would take this long or longer in one process is worth playing on
worker processes started for it, which take a second or two to start (``processes_for``)."""


def pace_file() -> Path:
    """Where paces are kept (see the module docstring)."""
    if os.environ.get("TANKMAP_CACHE_DIR"):
        return Path(os.environ["TANKMAP_CACHE_DIR"]) / "pace.json"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tankmap" / "pace.json"


def _key(scenario: Scenario, policies: tuple[str, str]) -> str:
    return f"{board_key(scenario)} {policies[0]} {policies[1]}"


def _read() -> dict[str, float]:
    try:
        doc = json.loads(pace_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(doc, dict):
        return {}
    return {
        k: float(v)
        for k, v in doc.items()
        if isinstance(k, str) and isinstance(v, int | float) and 0 < v < 1e6
    }


def known_pace(scenario: Scenario, policies: tuple[str, str]) -> float | None:
    """Seconds per game (one process) last measured for these agents on this board."""
    return _read().get(_key(scenario, policies))


def remember_pace(scenario: Scenario, policies: tuple[str, str], seconds_per_game: float) -> None:
    """Keep a measured pace (nothing raised when the cache cannot be written)."""
    if not 0 < seconds_per_game < 1e6:
        return
    paces = _read()
    paces.pop(_key(scenario, policies), None)
    paces[_key(scenario, policies)] = seconds_per_game
    while len(paces) > KEEP:
        paces.pop(next(iter(paces)))
    try:
        path = pace_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(paces, indent=0) + "\n")
    except (OSError, TankmapError):
        return


def measure_pace(scenario: Scenario, policies: tuple[str, str], seed: int = 0) -> float:
    """Play seeded games (after a first one, not timed, that loads and warms what the
    agents need) in this process, at least ``MEASURE_GAMES`` and on until
    ``MEASURE_SECONDS`` of CPU time (at most ``MEASURE_MOST``), and return the CPU seconds
    per game; the pace is remembered. Raises what ``simulate`` raises for an unplayable
    board or agent."""
    from tankmap.analysis.simulation.runner import simulate

    simulate(scenario, 1, policies, seed=seed, workers=1)
    start = time.process_time()
    played = 0
    while played < MEASURE_GAMES or (
        played < MEASURE_MOST and time.process_time() - start < MEASURE_SECONDS
    ):
        simulate(scenario, 1, policies, seed=seed + 1, workers=1, first_game=played)
        played += 1
    pace = max(time.process_time() - start, 1e-6) / played
    remember_pace(scenario, policies, pace)
    return pace


def processes_for(games: int, pace: float | None, cpus: int) -> int:
    """The processes a run of ``games`` games at ``pace`` seconds a game (one process)
    plays on, where starting worker processes costs a second or two (the editor's balance
    dialog and Suggestions dock): all ``cpus`` when the run would take
    ``LONG_RUN_SECONDS`` or more in one process, else 1 (also when the pace is unknown).

    >>> [processes_for(400, pace, cpus) for pace, cpus in ((0.15, 2), (0.01, 2), (0.15, 1))]
    [2, 1, 1]
    """
    if pace is None or cpus <= 1 or games * pace < LONG_RUN_SECONDS:
        return 1
    return cpus


def games_for(seconds: float, pace: float, workers: int = 1, least: int = 100) -> int:
    """A round number of games that takes about ``seconds`` at ``pace`` seconds per game on
    ``workers`` processes, never under ``least`` (fewer leave a verdict undecided) nor over
    200,000.

    >>> games_for(60, 0.13), games_for(60, 0.002), games_for(60, 5.0)
    (400, 30000, 100)
    """
    raw = seconds * max(workers, 1) / max(pace, 1e-9)
    for step in (100_000, 10_000, 1000, 100):
        if raw >= step:
            raw = raw // step * step
            break
    return int(min(max(raw, least), 200_000))


def duration_text(seconds: float) -> str:
    """A time to read at a glance: ``"40 s"``, ``"12 min"``, ``"2.5 h"``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
