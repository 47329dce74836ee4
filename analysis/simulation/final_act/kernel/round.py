"""One round of the Final Act kernel for the search agent's look-ahead (``lookahead.py``):
both sides' policies decide on the position, then the rules apply it. Whole games
(``play._play``) run the same steps with the tables unpacked once per call.
``_heuristic_round`` is the decision part alone with the heuristic on both sides (for
``duct``'s heuristic playouts and ``ksearch``'s sampled plans)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tankmap.analysis.simulation.final_act.kernel.base import RANDOM, _jit
from tankmap.analysis.simulation.final_act.kernel.packed import Tables
from tankmap.analysis.simulation.final_act.kernel.policies import (
    _heuristic_side,
    _random_side,
    _start_round,
    _view,
    heuristic_tables,
)
from tankmap.analysis.simulation.final_act.kernel.repair import _random_repairs
from tankmap.analysis.simulation.final_act.kernel.rules import _apply, rule_tables


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
        # vtgt: the targets each unit can shoot at, vpos: their positions in the zone (cells
        # as in the tables: unsigned, read back as indices without a wrap-around)
        np.empty((units, t_max), dtype=T.tgt.dtype),
        np.empty((units, t_max), dtype=T.tgt.dtype),
        np.empty((2, n + 1), dtype=np.float64),  # danger
        # likely_all (with _view's spare cells past the board: Tables.lik_cell)
        np.empty((2, n + 1 + T.lik_cell.shape[2]), dtype=np.float64),
        np.empty(n + 1, dtype=np.bool_),  # claimed
        np.empty(n + 1, dtype=np.float64),  # likely
        np.empty(t_max, dtype=np.float64),  # vals
        np.empty(max(T.k, 1), dtype=np.bool_),  # ok
        np.empty(units, dtype=np.uint32),  # mine (unsigned: indices without wrap-around)
        np.empty(units, dtype=np.float64),  # keyd: the movers' sort keys
        np.empty(units, dtype=np.uint32),  # order: the movers, sorted (as mine)
        np.zeros(units, dtype=np.bool_),  # repair: tanks declared repaired (R/M repair)
        np.empty(units, dtype=np.bool_),  # busy: R/Ms repairing / rwreck in the rules
        np.zeros((n + 4, n), dtype=np.bool_),  # grid: per-cell flags of the rules (_resolve)
        np.full(n + units, -1, dtype=np.int64),  # links: each cell's units (_apply)
        np.zeros(units, dtype=np.int64),  # vn: how many targets each unit can shoot at
    )


@_jit
def _heuristic_round(T: Any, S: Any, key: np.uint64, base: int, nobs: Any, state: Any) -> None:
    """Both sides' heuristic orders, shells and repairs for the round about to be played
    from ``state`` (cell, facing, damage, alive, wreck, wreck_cells, tie, rm_left): the
    decisions of ``_round`` with both sides the heuristic (noise from counter ``base`` of
    ``key``; ``S`` is ``_scratch``'s arrays, each unit's progress counter ``still``/``best_d``
    advanced from what they hold). Used by ``duct``'s heuristic playouts and ``ksearch``'s
    sampled plans (``plan_search._sample_plans``)."""
    cell, facing, damage, alive, wreck, wreck_cells, _tie, rm_left = state
    (
        still, best_d, dest, dest_fac, shells, _moving, _bounce, blk, vtgt, vpos, danger,
        likely_all, claimed, likely, vals, ok, mine, keyd, order, repair, busy, _grid,
        _links, vn,
    ) = S  # fmt: skip
    _start_round(
        T.repair_on, T.dist, T.ks, cell, facing, still, best_d, repair, dest,
        dest_fac, shells,
    )  # fmt: skip
    _view(
        T.berm_words, T.bet_words, T.zone_words, T.n_tgt, T.n_elev, T.blocks, T.elev,
        T.elevates, T.elevating, T.fires, T.kind, T.ks, T.lik_cell, T.lik_p, T.n, T.side,
        T.tgt, T.value, cell, facing, damage, alive, wreck, blk, vtgt, vpos, vn, danger,
        likely_all,
    )  # fmt: skip
    ha = (
        cell, facing, damage, alive, still, wreck_cells, blk, vtgt, vpos, vn, danger,
        likely_all, dest, dest_fac, shells, claimed, likely, vals, ok, mine, keyd, order,
        rm_left, repair, busy,
    )  # fmt: skip
    for side in range(2):
        _heuristic_side(heuristic_tables(T), side, nobs[side], key, base, ha)


@_jit
def _round(
    T: Tables,
    S: Any,
    bases: Any,
    nobs: Any,
    key: np.uint64,
    base: int,
    g: int | np.int64,
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
        vpos,
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
        grid,
        links,
        vn,
    ) = S
    _start_round(
        T.repair_on, T.dist, T.ks, cell, facing, still, best_d, repair, dest,
        dest_fac, shells,
    )  # fmt: skip
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
        vpos,
        vn,
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
                vpos,
                vn,
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
            ha = (
                cell, facing, damage, alive, still, wreck_cells, blk, vtgt, vpos, vn, danger,
                likely_all, dest, dest_fac, shells, claimed, likely, vals, ok, mine, keyd, order,
                rm_left, repair, busy,
            )  # fmt: skip
            _heuristic_side(heuristic_tables(T), side, nobs[side], key, base, ha)
    _apply(
        rule_tables(T),
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
        grid,
        links,
    )
