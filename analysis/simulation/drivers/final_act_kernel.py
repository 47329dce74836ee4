"""Final Act ``random``/``heuristic`` playouts compiled with numba (whole games per call).

The same rules and the same decisions as the numpy reference
(``drivers/final_act_batch.py`` with ``rules.final_act.engine_batch`` and
``policies/final_act_batch.py``, itself checked against the readable one-game engine),
written as scalar loops over one game at a time and compiled: the games are bit for bit
those of the numpy version for the same keys (``tests/simulation/test_final_act_kernel.py``
plays both on every built-in map, policy pair and restriction). Floating-point sums follow
numpy's order (``_pairwise`` is numpy's pairwise summation), so scores tie and break
exactly as there.

Random numbers come from ``analysis.simulation.noise`` (counter-based): the kernel computes
only the ones a decision reads. Records (``record=True``) are made by the numpy version.

The compiled functions live by concept: ``fa_kernel_base`` (decorators, tables, noise,
sums), ``fa_kernel_policies`` (the start-of-round view and both policies),
``fa_kernel_rules`` (a round's rules); ``fa_kernel_search`` (the search agent's look-ahead);
this module plays rounds and whole games and turns the arrays into ``GameResult``s.

When numba is not installed, or ``TANKMAP_KERNEL=numpy`` is set, ``available()`` is false
and the driver uses the numpy version (same games, about ten times slower).
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from typing import Any

import numpy as np

from tankmap.analysis.simulation.drivers.fa_kernel_base import (
    HEURISTIC,
    RANDOM,
    TANK,
    Tables,
    _inline,
    _jit,
    _noise,
    _pairwise,
    available,
    tables,
)
from tankmap.analysis.simulation.drivers.fa_kernel_policies import (
    _heuristic_side,
    _random_side,
    _view,
)
from tankmap.analysis.simulation.drivers.fa_kernel_repair import _random_repairs
from tankmap.analysis.simulation.drivers.fa_kernel_rules import _apply, _check_end
from tankmap.analysis.simulation.games import Death, GameResult, parse_policy
from tankmap.analysis.simulation.policies.final_act import Prepared
from tankmap.rules.final_act.engine import SIDES
from tankmap.rules.final_act.engine_batch import END_CODES

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


# --- one round ---------------------------------------------------------------------------
@_jit
def _scratch(T: Tables, units: int) -> Any:
    """The per-round work arrays of a game (allocated once per call, reused each round)."""
    n = T.n
    t_max = T.tgt.shape[2]
    return (
        np.empty(units, dtype=np.int64),  # still: rounds without progress
        np.empty(units, dtype=np.float64),  # best_d: best distance to the goal so far
        np.empty(units, dtype=np.int64),  # dest
        np.empty(units, dtype=np.int64),  # dest_fac
        np.empty(units, dtype=np.int64),  # shells
        np.empty(units, dtype=np.bool_),  # moving
        np.empty(units, dtype=np.bool_),  # bounce
        np.empty(T.bet_words.shape[3], dtype=np.uint64),  # blk
        np.empty((units, t_max), dtype=np.int64),  # vtgt
        np.empty((units, t_max), dtype=np.bool_),  # vvalid
        np.empty((2, n + 1), dtype=np.float64),  # danger
        np.empty((2, n + 1), dtype=np.float64),  # likely_all
        np.empty(n + 1, dtype=np.bool_),  # claimed
        np.empty(n + 1, dtype=np.float64),  # likely
        np.empty(t_max, dtype=np.float64),  # vals
        np.empty(max(T.k, 1), dtype=np.bool_),  # ok
        np.empty(units, dtype=np.int64),  # mine
        np.empty(units, dtype=np.float64),  # keyd
        np.empty(units, dtype=np.int64),  # order
        np.zeros(units, dtype=np.bool_),  # repair: tanks declared repaired (R/M repair)
        np.empty(units, dtype=np.bool_),  # busy: R/Ms repairing / rwreck in the rules
    )


@_inline
def _round(
    T: Tables,
    S: Any,
    bases: Any,
    nobs: Any,
    key: np.uint64,
    base: int,
    g: int,
    rnd: int,
    cell: Any,
    facing: Any,
    damage: Any,
    alive: Any,
    wreck: Any,
    wreck_cells: Any,
    kills: Any,
    d_count: Any,
    d_unit: Any,
    d_cell: Any,
    d_round: Any,
    d_by: Any,
    rm_left: Any,
) -> None:
    """Round ``rnd`` of game ``g``: both sides' policies (``bases[side]`` HEURISTIC or
    RANDOM, noise from counter ``base`` of ``key``) decide on the position, then the rules
    apply it (deaths recorded in ``d_*[g]``). ``S`` is ``_scratch``'s arrays; ``rm_left``
    the R/Ms' repairs left (R/M repair, ``T.repair_on``)."""
    (
        still,
        best_d,
        dest,
        dest_fac,
        shells,
        moving,
        bounce,
        blk,
        vtgt,
        vvalid,
        danger,
        likely_all,
        claimed,
        likely,
        vals,
        ok,
        mine,
        keyd,
        order,
        repair,
        busy,
    ) = S
    if T.repair_on:
        repair[:] = False
    for u in range(cell.shape[0]):
        d_here = T.dist[T.ks[u], cell[u] * 8 + facing[u]]
        if d_here < best_d[u]:
            best_d[u] = d_here
            still[u] = 0
        else:
            still[u] += 1
    dest[:] = cell
    dest_fac[:] = facing
    shells[:] = -1
    _view(
        T.berm_words,
        T.bet_words,
        T.zone_words,
        T.n_tgt,
        T.n_elev,
        T.blocks,
        T.elev,
        T.elevates,
        T.elevating,
        T.fires,
        T.kind,
        T.ks,
        T.lik_cell,
        T.lik_p,
        T.n,
        T.side,
        T.tgt,
        T.value,
        cell,
        facing,
        damage,
        alive,
        wreck,
        blk,
        vtgt,
        vvalid,
        danger,
        likely_all,
    )
    for side in range(2):
        if bases[side] == RANDOM:
            _random_side(
                T.elevating,
                T.k,
                T.kind,
                T.ks,
                T.ord_dest,
                T.ord_fac,
                T.side,
                side,
                nobs[side],
                key,
                base,
                cell,
                facing,
                alive,
                wreck_cells,
                vtgt,
                vvalid,
                dest,
                dest_fac,
                shells,
                ok,
            )
            if T.repair_on:
                _random_repairs(
                    T.kind, T.side, side, key, base, cell, facing, damage, alive, rm_left,
                    dest, dest_fac, shells, repair,
                )  # fmt: skip
        else:
            _heuristic_side(
                T.bet_words,
                T.zone_words,
                T.n_tgt,
                T.dist,
                T.elevating,
                T.k,
                T.k_move,
                T.kind,
                T.ks,
                T.n,
                T.ord_d,
                T.ord_dest,
                T.ord_fac,
                T.side,
                T.tgt,
                T.width,
                T.repair_on,
                T.col,
                T.row,
                side,
                nobs[side],
                key,
                base,
                cell,
                facing,
                damage,
                alive,
                still,
                wreck_cells,
                blk,
                vtgt,
                vvalid,
                danger,
                likely_all,
                dest,
                dest_fac,
                shells,
                claimed,
                likely,
                vals,
                ok,
                mine,
                keyd,
                order,
                rm_left,
                repair,
                busy,
            )
    _apply(
        T.forbid_tank_rm,
        T.hits,
        T.kind,
        T.max_kind,
        T.max_units,
        T.no_swap,
        T.side,
        T.wrecks,
        T.repair_on,
        g,
        rnd,
        cell,
        facing,
        damage,
        alive,
        wreck,
        wreck_cells,
        kills,
        dest,
        dest_fac,
        shells,
        moving,
        bounce,
        d_count,
        d_unit,
        d_cell,
        d_round,
        d_by,
        rm_left,
        repair,
        busy,
    )


# --- whole games --------------------------------------------------------------------------
@_jit
def _play(
    T: Tables,
    bases: Any,
    nobs: Any,
    keys: Any,
    init_cell: Any,
    init_facing: Any,
    init_damage: Any,
    init_alive: Any,
    init_wreck: Any,
    init_wreck_cells: Any,
    init_rm_left: Any,
    out: Any,
    kills: Any,
    d_count: Any,
    d_unit: Any,
    d_cell: Any,
    d_round: Any,
    d_by: Any,
    route_start: Any,
    route_flat: Any,
) -> int:
    """Play one game per key from the initial arrays. ``out[g]`` = (winner, rounds, end,
    winning unit or -1); deaths in order in ``d_*[g, :d_count[g]]``; the winning unit's
    cells in ``route_flat[route_start[g]:route_start[g + 1]]``. Returns the route cells
    needed in all (the caller retries with a larger ``route_flat`` when it did not fit)."""
    units = init_cell.shape[0]
    cell = np.empty(units, dtype=np.int64)
    facing = np.empty(units, dtype=np.int64)
    damage = np.empty(units, dtype=np.int64)
    alive = np.empty(units, dtype=np.bool_)
    wreck = np.empty(units, dtype=np.bool_)
    tie_base = np.empty(units, dtype=np.bool_)
    wreck_cells = np.empty(T.n, dtype=np.bool_)
    rm_left = np.empty(units, dtype=np.int64)
    hist = np.empty((T.max_rounds + 1, units), dtype=np.int64)
    S = _scratch(T, units)
    still, best_d = S[0], S[1]
    needed = 0
    cap = route_flat.shape[0]
    for g in range(keys.shape[0]):
        key = keys[g]
        cell[:] = init_cell
        facing[:] = init_facing
        damage[:] = init_damage
        alive[:] = init_alive
        wreck[:] = init_wreck
        wreck_cells[:] = init_wreck_cells
        rm_left[:] = init_rm_left
        tie_base[:] = False
        still[:] = 0
        best_d[:] = np.inf
        hist[0, :] = cell
        d_count[g] = 0
        end = out[g, 2]  # the initial position's end (0: the game goes on)
        winner = out[g, 0]
        rnd = 0
        while end == 0:
            _round(
                T, S, bases, nobs, key, rnd * T.width, g, rnd + 1, cell, facing, damage,
                alive, wreck, wreck_cells, kills, d_count, d_unit, d_cell, d_round, d_by,
                rm_left,
            )  # fmt: skip
            rnd += 1
            hist[rnd, :] = cell
            end, winner = _check_end(
                T.goal, T.had_tanks, T.kind, T.max_rounds, T.side, rnd, cell, alive, tie_base
            )
        out[g, 0] = winner
        out[g, 1] = rnd
        out[g, 2] = end
        out[g, 3] = -1
        route_start[g] = needed
        if end == 1 and winner >= 0:
            for u in range(units):
                if (
                    alive[u]
                    and T.side[u] == winner
                    and T.kind[u] == TANK
                    and T.goal[winner, cell[u]]
                ):
                    out[g, 3] = u
                    for r in range(rnd + 1):
                        c = hist[r, u]
                        if r == 0 or c != hist[r - 1, u]:
                            if needed < cap:
                                route_flat[needed] = c
                            needed += 1
                    break
        route_start[g + 1] = needed
    return needed


def play_many(prep: Prepared, policies: tuple[str, str], keys: Sequence[int]) -> list[GameResult]:
    """Play one game per key (the same games as ``final_act_batch.play_many``)."""
    from tankmap.analysis.simulation.drivers.final_act_batch import tables_of

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
            bases,
            nobs,
            key_arr,
            st.cell[0],
            st.facing[0],
            st.damage[0],
            st.alive[0],
            st.wreck[0],
            st.wreck_cells[0],
            st.rm_left[0],
            res,
            kills,
            d_count,
            d[0],
            d[1],
            d[2],
            d[3],
            route_start,
            route_flat,
        )
        if needed <= cap:
            break
        cap = needed
    collecting = gc.isenabled()
    gc.disable()  # thousands of small acyclic objects: collections would only cost time
    try:
        most = int(d_count.max()) if g else 0  # deaths of the bloodiest game: columns used
        d_unit, d_cell, d_round, d_by = (a[:, :most].tolist() for a in d)
        flat = route_flat.tolist()
        starts = route_start.tolist()
        counts = d_count.tolist()
        kill_rows = kills.tolist()
        side_of = [SIDES[int(x)] for x in batch.side]
        kind_of = [u.kind for u in scenario.units]
        label_of = [u.label for u in scenario.units]
        results = []
        for i, (winner, length, end, wu) in enumerate(res.tolist()):
            units_i, cells_i, rounds_i, by_i = d_unit[i], d_cell[i], d_round[i], d_by[i]
            deaths = tuple(
                Death(
                    side_of[units_i[j]],
                    kind_of[units_i[j]],
                    cells_i[j],
                    rounds_i[j],
                    kind_of[by_i[j]],
                )
                for j in range(counts[i])
            )
            results.append(
                GameResult(
                    winner=None if winner < 0 else SIDES[winner],
                    length=length,
                    end=END_CODES[end],
                    kills=(kill_rows[i][0], kill_rows[i][1]),
                    winning_unit=None if wu < 0 else label_of[wu],
                    route=tuple(flat[starts[i] : starts[i + 1]]),
                    deaths=deaths,
                    record=None,
                )
            )
    finally:
        if collecting:
            gc.enable()
    return results


def warm(prep: Prepared, lookahead: bool = False) -> None:
    """Load the compiled kernel (from numba's cache, or compile it) and pack ``prep``'s
    tables: one game, and with ``lookahead`` one look-ahead row of the search agent."""
    play_many(prep, ("heuristic", "heuristic"), [0])
    if lookahead:
        from tankmap.analysis.simulation.drivers.fa_kernel_search import lookahead_values

        st = prep.game.initial_state()
        units = len(st.kind)
        stay = np.array([st.cell], dtype=np.int64)
        facing = np.array([[int(f) for f in st.facing]], dtype=np.int64)
        shells = np.full((1, units), -1, dtype=np.int64)
        lookahead_values(prep, st, 0, stay, facing, shells, np.zeros(1, dtype=np.uint64), 1)
