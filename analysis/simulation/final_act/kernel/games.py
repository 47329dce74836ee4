"""Final Act ``random``/``heuristic`` playouts compiled with numba (whole games per call).

The same rules and the same decisions as the numpy batch engine
(``batch/games.py`` with ``rules.final_act.engine_batch`` and ``batch/agents.py``,
itself checked against the readable one-game engine),
written as scalar loops over one game at a time and compiled: the games are bit for bit
those of the numpy version for the same keys (``tests/simulation/test_final_act_kernel.py``
plays both on every built-in map, policy pair and restriction). Floating-point sums follow
numpy's order (``_pairwise`` is numpy's pairwise summation), so scores tie and break
exactly as there.

Random numbers come from ``analysis.simulation.noise`` (counter-based): the kernel computes
only the ones a decision reads. Records (``record=True``) are made by the numpy version.

The compiled functions live by concept (``kernel/__init__.py`` lists the modules); this
module is the entry point: it packs the tables, calls ``play._play`` for whole games and
keeps their results as arrays (``final_act/results.py``).

When numba is not installed, or ``TANKMAP_KERNEL=numpy`` is set, ``available()`` is false
and the driver uses the numpy version (same games, about ten times slower).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tankmap.analysis.simulation.final_act.kernel.base import (
    HEURISTIC,
    RANDOM,
    _noise,
    _pairwise,
    available,
)
from tankmap.analysis.simulation.final_act.kernel.packed import tables
from tankmap.analysis.simulation.final_act.kernel.play import _play, work
from tankmap.analysis.simulation.final_act.kernel.round import _scratch
from tankmap.analysis.simulation.final_act.kernel.tables import tables_of
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.analysis.simulation.final_act.results import KernelResults
from tankmap.analysis.simulation.games import parse_policy

__all__ = [
    "HEURISTIC",
    "MIN_GAMES",
    "_noise",
    "_pairwise",
    "available",
    "play_many",
    "warm",
    "worth_it",
]


MIN_GAMES = 400
"""Fewer games than this in one call play on the numpy engine unless the kernel is loaded
already: loading it from numba's cache takes about half a second, the numpy engine plays
a few hundred games in less. The games are the same either way."""


def worth_it(games: int) -> bool:
    """Whether ``games`` games in one call should play on the kernel (``MIN_GAMES``)."""
    if not available():
        return False
    return games >= MIN_GAMES or bool(getattr(_play, "signatures", ()))


def play_many(prep: Prepared, policies: tuple[str, str], keys: Sequence[int]) -> KernelResults:
    """Play one game per key (the same games as ``final_act_batch.play_many``); their
    results as arrays (``final_act_results``)."""
    tb = tables_of(prep)
    T = tables(tb)
    batch = tb.batch
    scenario = prep.game.scenario
    st = batch.initial(1)
    bases = np.zeros(2, dtype=np.int64)
    nobs = np.zeros(2, dtype=np.bool_)
    for s, spec in enumerate(policies):
        base, restrictions = parse_policy(spec)
        bases[s] = RANDOM if base == "random" else HEURISTIC
        nobs[s] = "no-berms" in restrictions
        for r in restrictions:
            if r != "no-berms":
                gone = (batch.side == s) & (batch.kind == ("tank", "at", "rm").index(r[3:]))
                st.alive[:, gone] = False
    g = len(keys)
    units = batch.n_units
    key_arr = np.array(keys, dtype=np.uint64)
    out = np.zeros((g, 4), dtype=np.int64)
    out[:, 0] = st.winner[0]
    out[:, 2] = st.end[0]
    init = tuple(a[0] for a in (st.cell, st.facing, st.damage, st.alive, st.wreck))
    init += (st.wreck_cells[0], st.rm_left[0])
    S = _scratch(T, units)
    W = work(T, units)
    cap = 16 * g + 16
    while True:
        kills = np.zeros((g, 2), dtype=np.int64)
        d_count = np.zeros(g, dtype=np.int64)
        d = [np.zeros((g, units), dtype=np.int64) for _ in range(4)]
        route_start = np.zeros(g + 1, dtype=np.int64)
        route_flat = np.zeros(cap, dtype=np.int64)
        res = out.copy()
        needed = _play(
            T,
            S,
            W,
            bases,
            nobs,
            key_arr,
            init,
            res,
            kills,
            (d_count, *d),
            route_start,
            route_flat,
        )
        if needed <= cap:
            break
        cap = needed
    return KernelResults(
        scenario, batch.side.tolist(), res, kills, d_count, d, route_start, route_flat
    )


def warm(prep: Prepared, lookahead: bool = False) -> None:
    """Load the compiled kernel (from numba's cache, or compile it) and pack ``prep``'s
    tables: one game, and with ``lookahead`` one look-ahead row of the search agent."""
    play_many(prep, ("heuristic", "heuristic"), [0])
    if lookahead:
        from tankmap.analysis.simulation.final_act.kernel.lookahead import lookahead_values

        st = prep.game.initial_state()
        units = len(st.kind)
        stay = np.array([st.cell], dtype=np.int64)
        facing = np.array([[int(f) for f in st.facing]], dtype=np.int64)
        shells = np.full((1, units), -1, dtype=np.int64)
        lookahead_values(prep, st, 0, stay, facing, shells, np.zeros(1, dtype=np.uint64), 1)
