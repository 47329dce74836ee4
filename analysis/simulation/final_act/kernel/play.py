"""Whole Final Act games on the kernel (``games.play_many`` calls ``_play``).

A round is ``round._round``'s steps, written out here with the tables and the
work arrays taken out of their tuples once per call: numba reference-counts every array
it takes out of a tuple, so doing it once per round (about 200 arrays) cost a fifth of
the kernel's time in atomic counter updates.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.kernel.base import RANDOM, _jit, unowned
from tankmap.analysis.simulation.final_act.kernel.packed import Tables
from tankmap.analysis.simulation.final_act.kernel.policies import (
    _heuristic_side,
    _random_side,
    _start_round,
    _view,
    heuristic_tables,
)
from tankmap.analysis.simulation.final_act.kernel.repair import _random_repairs
from tankmap.analysis.simulation.final_act.kernel.rules import _apply, _check_end, rule_tables
from tankmap.analysis.simulation.final_act.kernel.tables import TANK

RECORD_ROWS = 4
"""Rows per round of a record buffer (``_play``'s ``records[g, round]``): each unit's order
(end cell, -1 for a unit out of play at the start of the round), the facing ordered, the
shell's target (-1: none), and 1 for a tank declared repaired by its R/M."""


def record_buffer(games: int, rounds: int, units: int) -> npt.NDArray[np.int64]:
    """A record buffer for ``games`` games of at most ``rounds`` rounds; ``games = 0``: no
    records (the buffer ``_play`` takes when nothing is recorded)."""
    if games == 0:
        return np.zeros((0, 1, RECORD_ROWS, 1), dtype=np.int64)
    return np.zeros((games, max(rounds, 1), RECORD_ROWS, units), dtype=np.int64)


def work(T: Tables, units: int) -> tuple[npt.NDArray[Any], ...]:
    """A game's state arrays for ``_play`` (cell, facing, damage, alive, wreck, tie_base,
    wreck_cells, rm_left, the cells of every round)."""
    i, b = np.int64, np.bool_
    return (
        *(np.empty(units, dtype=i) for _ in range(3)),
        *(np.empty(units, dtype=b) for _ in range(3)),
        np.empty(T.n, dtype=b),
        np.empty(units, dtype=i),
        np.empty((T.max_rounds + 1, units), dtype=i),
    )


@_jit
def _play(
    T: Tables,
    S: Any,
    W: Any,
    bases: Any,
    nobs: Any,
    keys: Any,
    init: Any,
    out: Any,
    kills: Any,
    deaths: Any,
    route_start: Any,
    route_flat: Any,
    records: Any,
) -> int:
    """Play one game per key from the initial arrays ``init`` (cell, facing, damage, alive,
    wreck, wreck_cells, rm_left); ``S`` is ``_scratch``'s arrays, ``W`` ``work``'s.
    ``out[g]`` = (winner, rounds, end, winning unit or -1); deaths in order in
    ``deaths[i][g, :d_count[g]]`` (i: d_count, unit, cell, round, by); the winning
    unit's cells in ``route_flat[route_start[g]:route_start[g + 1]]``. Returns the route
    cells needed in all (the caller retries with a larger ``route_flat`` when it did not
    fit). With a record buffer (``record_buffer``; one without games records nothing, at
    the cost of one test per round), ``records[g, r]`` holds round ``r + 1``'s orders,
    shells and repairs as the rules received them."""
    T, S, W, bases, nobs, keys, init = unowned((T, S, W, bases, nobs, keys, init))
    out, kills, deaths, route_start, route_flat, records = unowned(
        (out, kills, deaths, route_start, route_flat, records)
    )
    recording = records.shape[0] > 0
    d_count, d_unit, d_cell, d_round, d_by = deaths
    init_cell, init_facing, init_damage, init_alive, init_wreck, init_wreck_cells, init_rm_left = (
        init
    )
    units = init_cell.shape[0]
    cell, facing, damage, alive, wreck, tie_base, wreck_cells, rm_left, hist = W
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
    # the tables, once (see the module docstring)
    n, k, width = T.n, T.k, T.width
    ord_dest, ord_fac, dist = T.ord_dest, T.ord_fac, T.dist
    lik_cell, lik_p, tgt, bet_words = T.lik_cell, T.lik_p, T.tgt, T.bet_words
    zone_words, n_tgt, n_elev, elev = T.zone_words, T.n_tgt, T.n_elev, T.elev
    berm_words, elevating, ks, value = T.berm_words, T.elevating, T.ks, T.value
    fires, elevates, kind, side_of = T.fires, T.elevates, T.kind, T.side
    blocks, goal, had_tanks, repair_on = T.blocks, T.goal, T.had_tanks, T.repair_on
    max_rounds = T.max_rounds
    ht = heuristic_tables(T)
    ha = (
        cell, facing, damage, alive, still, wreck_cells, blk, vtgt, vpos, vn, danger,
        likely_all, dest, dest_fac, shells, claimed, likely, vals, ok, mine, keyd, order,
        rm_left, repair, busy,
    )  # fmt: skip
    rt = rule_tables(T)
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
        for u in range(units):  # tanks on the enemy line at the start do not land again
            tie_base[u] = init_alive[u] and kind[u] == TANK and goal[side_of[u], init_cell[u]]
        still[:] = 0
        best_d[:] = np.inf
        hist[0, :] = cell
        d_count[g] = 0
        end = out[g, 2]  # the initial position's end (0: the game goes on)
        winner = out[g, 0]
        rnd = 0
        while end == 0:
            # one round (round._round)
            base = rnd * width
            rnd += 1
            _start_round(
                repair_on, dist, ks, cell, facing, still, best_d, repair, dest,
                dest_fac, shells,
            )  # fmt: skip
            _view(
                berm_words, bet_words, zone_words, n_tgt, n_elev, blocks, elev, elevates,
                elevating, fires, kind, ks, lik_cell, lik_p, n, side_of, tgt, value, cell,
                facing, damage, alive, wreck, blk, vtgt, vpos, vn, danger, likely_all,
            )  # fmt: skip
            for side in range(2):
                if bases[side] == RANDOM:
                    _random_side(
                        elevating, k, kind, ks, ord_dest, ord_fac, side_of, side, nobs[side],
                        key, base, cell, facing, alive, wreck_cells, vtgt, vpos, vn, dest,
                        dest_fac, shells, ok,
                    )  # fmt: skip
                    if repair_on:
                        _random_repairs(
                            kind, side_of, side, key, base, cell, facing, damage, alive,
                            rm_left, dest, dest_fac, shells, repair,
                        )  # fmt: skip
                else:
                    _heuristic_side(ht, side, nobs[side], key, base, ha)
            if recording:
                for u in range(units):
                    records[g, rnd - 1, 0, u] = dest[u] if alive[u] else -1
                    records[g, rnd - 1, 1, u] = dest_fac[u]
                    records[g, rnd - 1, 2, u] = shells[u]
                    records[g, rnd - 1, 3, u] = 1 if repair_on and repair[u] else 0
            _apply(
                rt, g, rnd, cell, facing, damage, alive, wreck, wreck_cells, kills,
                dest, dest_fac, shells, moving, bounce, d_count, d_unit, d_cell, d_round,
                d_by, rm_left, repair, busy, grid, links,
            )  # fmt: skip
            hist[rnd, :] = cell
            end, winner = _check_end(
                goal, had_tanks, kind, max_rounds, side_of, rnd, cell, alive, tie_base
            )
        out[g, 0] = winner
        out[g, 1] = rnd
        out[g, 2] = end
        out[g, 3] = -1
        route_start[g] = needed
        if end == 1 and winner >= 0:
            for u in range(units):
                if alive[u] and side_of[u] == winner and kind[u] == TANK and goal[winner, cell[u]]:
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
