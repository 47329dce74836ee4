"""Final Act ``random``/``heuristic`` games on the compiled kernel (whole games per call).

The rules of ``rules.final_act.engine`` (the reference engine) and the decisions of the
agents described in ``agents/reference.py``, written as scalar loops over one game at a
time and compiled with numba. Each game is keyed (``analysis.simulation.noise``,
counter-based: the kernel computes only the numbers a decision reads), so its course does
not depend on the other games of a call. Floating-point sums follow numpy's order
(``base._pairwise`` is numpy's pairwise summation), so scores tie and break the same way
on every platform. Checked against the reference engine: kernel games with their records,
on every built-in map, policy pair and restriction, with and without R/M repair, are
replayed through ``Game.play_round`` and must give the same results
(tests/simulation/test_final_act_kernel.py); the rules alone are checked round by round on
given orders (``orders.given_rounds``, tests/simulation/test_final_act_kernel_rules.py).

``play_many(prep, policies, keys, record)`` plays one game per key and keeps the results
as arrays (``final_act/results.py``); with ``record`` the kernel also writes every
round's orders, shells and R/M repairs (``play.record_buffer``) and each result carries
its ``FinalActRecord``. The modules of the kernel are listed in ``kernel/__init__.py``.
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
from tankmap.analysis.simulation.final_act.kernel.play import _play, record_buffer, work
from tankmap.analysis.simulation.final_act.kernel.round import _scratch
from tankmap.analysis.simulation.final_act.kernel.tables import KINDS, tables_of
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.analysis.simulation.final_act.results import KernelResults
from tankmap.analysis.simulation.games import parse_policy

__all__ = ["HEURISTIC", "_noise", "_pairwise", "available", "play_many", "warm"]


def play_many(
    prep: Prepared, policies: tuple[str, str], keys: Sequence[int], record: bool = False
) -> KernelResults:
    """Play one game per key (``policies``: south's and north's ``random``/``heuristic``
    with restrictions); their results as arrays, with each game's record if ``record``."""
    tb = tables_of(prep)
    T = tables(tb)
    facts = tb.units
    start = facts.start()
    alive = start.alive.copy()
    bases = np.zeros(2, dtype=np.int64)
    nobs = np.zeros(2, dtype=np.bool_)
    for s, spec in enumerate(policies):
        base, restrictions = parse_policy(spec)
        bases[s] = RANDOM if base == "random" else HEURISTIC
        nobs[s] = "no-berms" in restrictions
        for r in restrictions:
            if r != "no-berms":  # +no-KIND: the side's units of that kind take no part
                alive[(facts.side == s) & (facts.kind == KINDS.index(r[3:]))] = False
    g = len(keys)
    units = facts.n_units
    key_arr = np.array(keys, dtype=np.uint64)
    out = np.zeros((g, 4), dtype=np.int64)
    out[:, 0] = start.winner
    out[:, 2] = start.end
    init = (
        start.cell,
        start.facing,
        start.damage,
        alive,
        start.wreck,
        start.wreck_cells,
        start.rm_left,
    )
    records = record_buffer(g if record else 0, T.max_rounds, units)
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
            records,
        )
        if needed <= cap:
            break
        cap = needed
    return KernelResults(
        prep.game.scenario,
        facts.side.tolist(),
        res,
        kills,
        d_count,
        d,
        route_start,
        route_flat,
        records if record else None,
    )


def warm(prep: Prepared, lookahead: bool = False, plans: bool = False) -> None:
    """Load the compiled kernel (from numba's cache, or compile it) and pack ``prep``'s
    tables: one game, with ``lookahead`` one look-ahead row of the search agent, with
    ``plans`` one decision of ``ksearch:1``."""
    play_many(prep, ("heuristic", "heuristic"), [0])
    if lookahead:
        from tankmap.analysis.simulation.final_act.kernel.lookahead import lookahead_values

        st = prep.game.initial_state()
        units = len(st.kind)
        stay = np.array([st.cell], dtype=np.int64)
        facing = np.array([[int(f) for f in st.facing]], dtype=np.int64)
        shells = np.full((1, units), -1, dtype=np.int64)
        lookahead_values(prep, st, 0, stay, facing, shells, np.zeros(1, dtype=np.uint64), 1)
    if plans:
        from tankmap.analysis.simulation.final_act.kernel.plan_search import (
            new_memory,
            plan_search,
        )

        st = prep.game.initial_state()
        nobs = np.zeros(2, dtype=np.bool_)
        plan_search(prep, st, 0, 0, 1, nobs, new_memory(len(st.kind)))
