"""Tank Chess engine speed: perft from the basic 16×16 setup and move generation per position.

Figures (all single-process, CPU time of this process):
- ``perft{d}_nodes``, ``perft{d}_seconds``, ``perft{d}_nodes_per_second`` for d = 1, 2;
- ``perft3_*``: perft(3) summed over every ``PERFT3_STRIDE``-th first turn (a fixed,
  deterministic sample; set ``TANKMAP_BENCH_FULL=1`` for the full perft(3)), with the
  fraction sampled — nodes/s is what the issue's target (≥ 100,000) is about;
- ``legal_turns_us`` / ``count_turns_us``: mean microseconds per position over positions
  from seeded random games on basic-16 and sample-20, with ``turns_per_position``;
- ``apply_undo_us``: one push + pop.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np

from tankmap.rules.fileformat import read_scenario
from tankmap.rules.tank_chess.state import GameState, initial_state, perft

MAPS = Path(__file__).resolve().parent.parent / "maps" / "tank-chess"
PERFT3_STRIDE = 10
T = TypeVar("T")


def _cpu(fn: Callable[[], T]) -> tuple[T, float]:
    start = time.process_time()
    value = fn()
    return value, time.process_time() - start


def _positions(path: Path, games: int, plies: int, seed: int) -> list[GameState]:
    rng = np.random.default_rng(seed)
    start = initial_state(read_scenario(path))
    out = []
    for _ in range(games):
        st = start.copy()
        for _ply in range(plies):
            turns = st.legal_turns()
            if not turns or st.outcome() is not None:
                break
            out.append(st.copy())
            st.push(turns[int(rng.integers(len(turns)))])
    return out


def _movegen(path: Path) -> dict[str, float]:
    positions = _positions(path, games=4, plies=60, seed=11)
    counts = [p.count_turns() for p in positions]
    best_legal = best_count = float("inf")
    for _ in range(3):
        _, t = _cpu(lambda: [p.legal_turns() for p in positions])
        best_legal = min(best_legal, t)
        _, t = _cpu(lambda: [p.count_turns() for p in positions])
        best_count = min(best_count, t)
    n = len(positions)
    return {
        "positions": n,
        "turns_per_position": round(sum(counts) / n, 1),
        "legal_turns_us": round(best_legal / n * 1e6, 1),
        "count_turns_us": round(best_count / n * 1e6, 1),
    }


def _check_escape(path: Path) -> dict[str, float]:
    """Check/Escape of one side (``announce.side_status``) against one legal-turn generation
    of that side, microseconds each, and what the dropped ``first-reply-win`` check (the
    reply side's status after every first turn) would cost per ``check``, milliseconds."""
    from tankmap.rules.tank_chess.announce import side_status

    st = initial_state(read_scenario(path))
    reps = 100
    side_status(st, 0)  # warm the move-tree caches
    t0 = time.process_time()
    for _ in range(reps):
        side_status(st, 0)
    t1 = time.process_time()
    for _ in range(reps):
        st.legal_turns()
    t2 = time.process_time()
    for turn in st.legal_turns():
        st.push(turn)
        side_status(st, 1)
        st.pop()
    t3 = time.process_time()
    return {
        "side_status_us": round((t1 - t0) / reps * 1e6, 1),
        "legal_turns_us": round((t2 - t1) / reps * 1e6, 1),
        "first_reply_win_ms": round((t3 - t2) * 1000, 1),
    }


def run() -> dict[str, object]:
    basic = initial_state(read_scenario(MAPS / "basic-16.json"))
    perft(basic, 2)  # warm the per-board move-tree caches (built lazily, once per process)
    out: dict[str, object] = {}
    for depth in (1, 2):
        nodes, seconds = _cpu(lambda d=depth: perft(basic, d))  # type: ignore[misc]
        out[f"perft{depth}_nodes"] = nodes
        out[f"perft{depth}_seconds"] = round(seconds, 3)
        out[f"perft{depth}_nodes_per_second"] = round(nodes / max(seconds, 1e-9))

    full = os.environ.get("TANKMAP_BENCH_FULL") == "1"
    stride = 1 if full else PERFT3_STRIDE
    first = basic.legal_turns()[::stride]

    def sampled() -> int:
        total = 0
        for turn in first:
            basic.push(turn)
            total += 1 if basic.winner >= 0 else perft(basic, 2)
            basic.pop()
        return total

    nodes3, seconds3 = _cpu(sampled)
    out["perft3_first_turns"] = f"{len(first)} of {len(basic.legal_turns())}"
    out["perft3_nodes"] = nodes3
    out["perft3_seconds"] = round(seconds3, 2)
    out["perft3_nodes_per_second"] = round(nodes3 / max(seconds3, 1e-9))

    for name in ("basic-16", "sample-20"):
        out[f"movegen_{name}"] = _movegen(MAPS / f"{name}.json")
        out[f"check_escape_{name}"] = _check_escape(MAPS / f"{name}.json")

    st = basic.copy()
    turn = st.legal_turns()[len(st.legal_turns()) // 2]
    reps = 20000

    def cycle() -> None:
        for _ in range(reps):
            st.push(turn)
            st.pop()

    _, t = _cpu(cycle)
    out["apply_undo_us"] = round(t / reps * 1e6, 2)
    return out
