"""The search agent's look-ahead on the Final Act kernel: a forced round (the candidate plan
and a sampled enemy plan), then heuristic rounds on both sides, and the value of the
position reached (``agents/search.py``; one round is checked against the reference
engine's ``apply_round`` + ``value`` in ``tests/simulation/test_final_act_kernel.py``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.kernel.base import HEURISTIC, _jit, unowned
from tankmap.analysis.simulation.final_act.kernel.orders import position_of
from tankmap.analysis.simulation.final_act.kernel.packed import Tables, tables
from tankmap.analysis.simulation.final_act.kernel.round import _round, _scratch
from tankmap.analysis.simulation.final_act.kernel.rules import _apply, _check_end, rule_tables
from tankmap.analysis.simulation.final_act.kernel.tables import TANK, tables_of
from tankmap.analysis.simulation.final_act.prepared import Prepared


# --- the search agent's look-ahead -------------------------------------------------------
@_jit
def _work(T: Tables, units: int) -> Any:
    """``_lookahead``'s own arrays: a position (cell, facing, damage, alive, wreck,
    tie_base, wreck_cells, rm_left), the rules' kills and deaths (one game row), and the
    agents (the heuristic on both sides, no restrictions)."""
    return (
        np.empty(units, dtype=np.int64),
        np.empty(units, dtype=np.int64),
        np.empty(units, dtype=np.int64),
        np.empty(units, dtype=np.bool_),
        np.empty(units, dtype=np.bool_),
        np.empty(units, dtype=np.bool_),
        np.empty(T.n, dtype=np.bool_),
        np.empty(units, dtype=np.int64),
        np.zeros((1, 2), dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros((1, units), dtype=np.int64),
        np.zeros((1, units), dtype=np.int64),
        np.zeros((1, units), dtype=np.int64),
        np.zeros((1, units), dtype=np.int64),
        np.full(2, HEURISTIC, dtype=np.int64),
        np.zeros(2, dtype=np.bool_),
    )


@_jit
def _lookahead(
    T: Tables,
    me: int,
    done: int,
    ahead: int,
    keys: Any,
    cell0: Any,
    facing0: Any,
    damage0: Any,
    alive0: Any,
    wreck0: Any,
    wreck_cells0: Any,
    tie0: Any,
    rm_left0: Any,
    forced_dest: Any,
    forced_fac: Any,
    forced_shells: Any,
    forced_repair: Any,
    values: Any,
    W: Any,
    S: Any,
) -> None:
    """For each row ``g``: from the position given (``done`` rounds played), play the
    forced round ``forced_*[g]`` (every unit's order and shell, -1 for none, and the tanks
    declared repaired by their R/M), then up to
    ``ahead`` rounds of the heuristic on both sides (noise keyed ``keys[g]``); set
    ``values[g]`` to ``agents.search.value`` of the position reached for side ``me``.
    ``W``: ``_work``'s arrays, ``S``: ``round._scratch``'s, all owned by the caller (the
    look-ahead takes every array as a view numba does not count: ``base.unowned``)."""
    T, keys, values, W, S = unowned((T, keys, values, W, S))
    cell0, facing0, damage0, alive0, wreck0, wreck_cells0, tie0, rm_left0 = unowned(
        (cell0, facing0, damage0, alive0, wreck0, wreck_cells0, tie0, rm_left0)
    )
    forced_dest, forced_fac, forced_shells, forced_repair = unowned(
        (forced_dest, forced_fac, forced_shells, forced_repair)
    )
    g0 = np.int64(0)  # game row 0, not the literal 0: one compiled _apply for every caller
    units = cell0.shape[0]
    cell, facing, damage, alive, wreck, tie_base, wreck_cells, rm_left = W[:8]
    kills, d_count, d_unit, d_cell, d_round, d_by, bases, nobs = W[8:]
    still, best_d, dest, dest_fac, shells = S[0], S[1], S[2], S[3], S[4]
    moving, bounce, repair, rwreck = S[5], S[6], S[19], S[20]
    grid, links = S[21], S[22]
    for g in range(keys.shape[0]):
        key = keys[g]
        cell[:] = cell0
        facing[:] = facing0
        damage[:] = damage0
        alive[:] = alive0
        wreck[:] = wreck0
        wreck_cells[:] = wreck_cells0
        tie_base[:] = tie0
        rm_left[:] = rm_left0
        still[:] = 0
        best_d[:] = np.inf
        d_count[0] = 0
        dest[:] = forced_dest[g]
        dest_fac[:] = forced_fac[g]
        shells[:] = forced_shells[g]
        repair[:] = forced_repair[g]
        rnd = done + 1
        _apply(
            rule_tables(T),
            g0,
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
            rwreck,
            grid,
            links,
        )
        end, winner = _check_end(
            T.goal, T.had_tanks, T.kind, T.max_rounds, T.side, rnd, cell, alive, tie_base
        )
        for r in range(ahead):
            if end != 0:
                break
            rnd += 1
            _round(
                T, S, bases, nobs, key, r * T.width, g0, rnd, cell, facing, damage,
                alive, wreck, wreck_cells, kills, d_count, d_unit, d_cell, d_round, d_by,
                rm_left,
            )  # fmt: skip
            end, winner = _check_end(
                T.goal, T.had_tanks, T.kind, T.max_rounds, T.side, rnd, cell, alive, tie_base
            )
        if end != 0:
            values[g] = 0.0 if winner < 0 else (100.0 if winner == me else -100.0)
            continue
        score = 0.0
        best0 = np.inf
        best1 = np.inf
        for u in range(units):
            if not alive[u]:
                continue
            worth = 3.0 if T.kind[u] == TANK else 1.0
            if damage[u] > 0:
                worth -= 1.0
            score += worth if T.side[u] == me else -worth
            if T.kind[u] == TANK:
                d = float(T.dist[T.ks[u], cell[u] * 8 + facing[u]])
                if T.side[u] == 0:
                    best0 = min(best0, d)
                else:
                    best1 = min(best1, d)
        ours = min(best0 if me == 0 else best1, 20.0)
        theirs = min(best1 if me == 0 else best0, 20.0)
        values[g] = score + 1.5 * (theirs - ours)


def lookahead_values(
    prep: Prepared,
    state: Any,
    me: int,
    dest: npt.NDArray[np.int64],
    facing: npt.NDArray[np.int64],
    shells: npt.NDArray[np.int64],
    keys: npt.NDArray[np.uint64],
    ahead: int,
    repair: npt.NDArray[np.bool_] | None = None,
) -> npt.NDArray[np.float64]:
    """The search agent's scores: for each row ``g`` of ``dest``/``facing``/``shells``
    (every unit's order and shell for the next round, -1 for no shell) and ``repair``
    (tanks declared repaired by their R/M that round; none if omitted), play that round
    from the reference-engine ``state``, then up to ``ahead`` rounds of the heuristic on both
    sides with noise keyed ``keys[g]``, and value the position for side ``me`` (as
    ``agents.search.value``). Only for games without advanced options the kernel does
    not model (rules §1.8; Extra Forces R/M repair is modelled)."""
    T = tables(tables_of(prep))
    pos = position_of(T, state)
    if repair is None:
        repair = np.zeros(dest.shape, dtype=np.bool_)
    values = np.empty(dest.shape[0], dtype=np.float64)
    _lookahead(
        T,
        me,
        state.round,
        ahead,
        keys,
        *pos,
        dest,
        facing,
        shells,
        np.ascontiguousarray(repair, dtype=np.bool_),
        values,
        _work(T, pos[0].shape[0]),
        _scratch(T, pos[0].shape[0]),
    )
    return values
