"""Where a Tank Chess ``alphabeta`` node's time goes (wall microseconds of one process, best
of 3, the compiled kernel warm).

Positions: those of ``bench_tank_chess``'s seeded random basic-16 games (6 games, up to 40
plies), and each one's children (every legal turn played). Figures per child, each part
timed alone on every child that does not end the game (less the time of playing the turn
and taking it back, itself ``make_pop_us``):

- ``make_pop_us``: playing the turn and taking it back (the hash kept);
- ``evaluate_us``: the leaf evaluation (``kernel.evaluation.evaluate``: it stops at a win
  in hand for the side to move, so its parts below add up to more);
- ``wins_now_both_us``: the "win in hand" check for both sides (``wins_now``), and of it
  ``mark_lines_both_us``: marking the cells a shot at the command tank could come from
  (the rest finds the pieces within a move of them, lists their end states and tries
  their shots);
- ``escape_steps_both_us``: both command tanks' escape searches;
- ``legal_turns_us``: listing a position's legal turns (what an inner node does).

``decision_ms`` / ``node_us``: ``alphabeta:3200``'s search from every fourth position.
``decisions_ms``: the same at the budgets a verdict climbs through (``DECISIONS``), on
basic-16 and on sample-20's positions made the same way (best of 2).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

BUDGET = 3200
DECISIONS = (
    ("basic-16", 3200),
    ("basic-16", 12800),
    ("basic-16", 25600),
    ("sample-20", 12800),
    ("sample-20", 25600),
)
"""(map, budget) of ``decisions_ms``."""


def _harness() -> Any:
    """The timing loops, compiled here (not cached): each plays every child of a position
    and times one part (``mode``) on it. Every argument reaches the kernel's functions typed
    as the kernel passes it (``int64`` values, ``STEP_CAP`` a constant): any other type
    would compile them once more, into their cache
    (``tests/simulation/test_kernel_signatures.py``)."""
    import numba

    from tankmap.analysis.simulation.tank_chess.kernel.evaluation import (
        STEP_CAP,
        _mark_lines,
        command_of,
        escape_steps,
        evaluate,
        wins_now,
    )
    from tankmap.analysis.simulation.tank_chess.kernel.moves import legal_turns, pop
    from tankmap.analysis.simulation.tank_chess.kernel.search_moves import make

    @numba.njit
    def marked(b: Any, pos: Any, me: int, ws: Any) -> int:
        # ``wins_now``'s first step, as it takes it
        target = command_of(b, pos, 1 - me)
        if target < 0:
            return 0
        ws[7][0] += 1
        _mark_lines(b, pos, me, target, ws[6], ws[7][0])
        return 1

    @numba.njit
    def children(b: Any, pos: Any, w: Any, mode: int, k: Any) -> tuple[int, int]:
        none, one, far = k[0], k[1], k[2]
        n = legal_turns(b, pos, none, w.work, w.states, w.stack)
        total = 0
        timed = 0
        for i in range(n):
            make(b, pos, w.zobrist, none, w.stack[i], w.save[0])
            if pos.meta[2] < 0:
                timed += 1
                if mode == 1:
                    total += evaluate(
                        b, pos, one, w.values, w.lower, w.banned, w.ev, w.work, w.states
                    )
                elif mode == 2:
                    for s in range(2):
                        total += wins_now(b, pos, s, far, none, w.ev, w.work, w.states)
                elif mode == 3:
                    for s in range(2):
                        total += marked(b, pos, s, w.ev)
                elif mode == 5:
                    for s in range(2):
                        c = command_of(b, pos, s)
                        if c >= 0:
                            # (the constant, as ``evaluate`` passes it)
                            total += escape_steps(b, pos, c, STEP_CAP, w.lower[s], w.ev)
                elif mode == 6:
                    total += legal_turns(b, pos, none, w.work, w.states, w.stack[n:])
            pop(pos, w.stack[i], w.save[0])
        return timed, total

    return children


def run() -> dict[str, Any]:
    """The figures of the module docstring."""
    from benchmarks.bench_tank_chess import MAPS, _positions
    from tankmap.analysis.simulation.tank_chess.driver import DRIVER
    from tankmap.analysis.simulation.tank_chess.kernel import base as kb
    from tankmap.analysis.simulation.tank_chess.kernel.alphabeta import (
        root_turns,
        search_root,
        search_work,
    )
    from tankmap.analysis.simulation.tank_chess.kernel.evaluation import piece_values
    from tankmap.rules.fileformat import read_scenario

    path = MAPS / "basic-16.json"
    prep = DRIVER.prepare(read_scenario(path))
    states = _positions(path, games=6, plies=40, seed=3)
    b = kb.board_of(states[0])
    escape = np.asarray(prep.policy_data.escape, dtype=np.int64)
    w = search_work(b, piece_values(b.gun, b.armour, b.kind), escape)
    positions = [kb.position_of(s) for s in states]
    children = _harness()
    k = np.array([0, 1, 99], dtype=np.int64)
    names = {
        0: "make_pop_us",
        1: "evaluate_us",
        2: "wins_now_both_us",
        3: "mark_lines_both_us",
        5: "escape_steps_both_us",
        6: "legal_turns_us",
    }
    out: dict[str, Any] = {"board": "tank-chess/basic-16", "positions": len(positions)}
    for mode, name in names.items():
        children(b, positions[0], w, mode, k)  # (compiled)
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            timed = 0
            for pos in positions:
                timed += children(b, pos, w, mode, k)[0]
            best = min(best, time.perf_counter() - start)
        us = best / timed * 1e6
        out[name] = round(us if mode == 0 else us - out["make_pop_us"], 2)
    out["children"] = timed
    rng = np.random.default_rng(1)
    n = root_turns(b, positions[0], w, 0)
    search_root(b, positions[0], w, BUDGET, 0, rng.permutation(n).astype(np.int64))  # (compiled)
    start = time.perf_counter()
    nodes = decisions = 0
    for pos in positions[::4]:
        n = root_turns(b, pos, w, 0)
        search_root(b, pos, w, BUDGET, 0, rng.permutation(n).astype(np.int64))
        nodes += min(int(w.counters[0]), BUDGET)
        decisions += 1
    seconds = time.perf_counter() - start
    out[f"alphabeta_{BUDGET}_decision_ms"] = round(seconds / decisions * 1e3, 1)
    out[f"alphabeta_{BUDGET}_node_us"] = round(seconds / nodes * 1e6, 1)
    out["decisions_ms"] = _decisions()
    return out


def _decisions() -> dict[str, float]:
    """Milliseconds per ``alphabeta`` decision from every fourth position, per ``DECISIONS``
    entry (best of 2; the rank of equal turns drawn with a fixed seed)."""
    from benchmarks.bench_tank_chess import MAPS, _positions
    from tankmap.analysis.simulation.tank_chess.driver import DRIVER
    from tankmap.analysis.simulation.tank_chess.kernel import base as kb
    from tankmap.analysis.simulation.tank_chess.kernel.alphabeta import (
        root_turns,
        search_root,
        search_work,
    )
    from tankmap.analysis.simulation.tank_chess.kernel.evaluation import piece_values
    from tankmap.rules.fileformat import read_scenario

    out: dict[str, float] = {}
    for name, budget in DECISIONS:
        path = MAPS / f"{name}.json"
        prep = DRIVER.prepare(read_scenario(path))
        states = _positions(path, games=6, plies=40, seed=3)
        b = kb.board_of(states[0])
        escape = np.asarray(prep.policy_data.escape, dtype=np.int64)
        w = search_work(b, piece_values(b.gun, b.armour, b.kind), escape)
        positions = [kb.position_of(st) for st in states][::4]
        best = float("inf")
        for _ in range(2):
            rng = np.random.default_rng(1)
            start = time.perf_counter()
            for pos in positions:
                n = root_turns(b, pos, w, 0)
                search_root(b, pos, w, budget, 0, rng.permutation(n).astype(np.int64))
            best = min(best, time.perf_counter() - start)
        out[f"{name} alphabeta:{budget}"] = round(best / len(positions) * 1e3, 1)
    return out
