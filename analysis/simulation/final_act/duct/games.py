"""Whole Final Act games with ``duct`` players on the kernel: every round, each side is
decided by its agent — ``random``, ``heuristic`` (the kernel's, with the noise its games
read) or a ``duct``/``duct-h`` search (``search``) — and the kernel's rules play it.

A game's course is a pure function of its key (``noise.game_key``): the heuristic reads
the counters of ``play._play`` and a search the key ``_search_key(key, rounds played,
side)``, so a game is the same in any batch, on any worker, and with ``record`` (each
round's orders, shells and repairs kept, and the game's record built from them:
``FinalActRecord``, which replays through the reference engine's checks).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.duct.params import DEPTH, LIGHT
from tankmap.analysis.simulation.final_act.duct.players import SidePlayer
from tankmap.analysis.simulation.final_act.duct.playout import _search_key
from tankmap.analysis.simulation.final_act.duct.search import duct_search
from tankmap.analysis.simulation.final_act.duct.tables import duct_tables
from tankmap.analysis.simulation.final_act.kernel.base import (
    HEURISTIC,
    RANDOM,
    _jit,
    unowned,
)
from tankmap.analysis.simulation.final_act.kernel.play import work
from tankmap.analysis.simulation.final_act.kernel.policies import (
    _heuristic_side,
    _random_side,
    _start_round,
    _view,
    heuristic_tables,
)
from tankmap.analysis.simulation.final_act.kernel.repair import _random_repairs
from tankmap.analysis.simulation.final_act.kernel.round import _scratch
from tankmap.analysis.simulation.final_act.kernel.rules import _apply, _check_end, rule_tables
from tankmap.analysis.simulation.final_act.kernel.tables import TANK
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.analysis.simulation.final_act.results import KernelResults
from tankmap.analysis.simulation.games import GameResult
from tankmap.rules.final_act.engine import END_ANNIHILATION, END_GOAL, END_LIMIT, State
from tankmap.rules.final_act.engine_actions import Actions
from tankmap.rules.final_act.engine_record import FinalActRecord, Round
from tankmap.rules.final_act.tables import Order
from tankmap.rules.geometry import Facing

SEARCH = 2
"""A side's agent code for a ``duct`` search (``RANDOM``, ``HEURISTIC``: the kernel's)."""
_CODES = {"random": RANDOM, "heuristic": HEURISTIC}
_END_CODE = {None: 0, END_GOAL: 1, END_ANNIHILATION: 2, END_LIMIT: 3}


@_jit
def _play_duct(
    T: Any,
    X: Any,
    S: Any,
    SS: Any,
    W: Any,
    codes: Any,
    budgets: Any,
    playouts: Any,
    nobs: Any,
    keys: Any,
    init: Any,
    out: Any,
    kills: Any,
    deaths: Any,
    route_start: Any,
    route_flat: Any,
    rec: Any,
) -> int:
    """``play._play`` with ``SEARCH`` sides (``codes[side]``; a search plays
    ``budgets[side]`` iterations with ``playouts[side]``; ``SS``: its work space, as ``S``
    the game's, ``round._scratch``; ``W``: ``play.work``). ``rec`` = (dest, facing, shells,
    repair) arrays ``[game, round, unit]`` that keep every round's decisions, or arrays
    with no games (nothing kept)."""
    T, X, S, SS, W, codes, budgets, playouts, nobs, keys, init = unowned(
        (T, X, S, SS, W, codes, budgets, playouts, nobs, keys, init)
    )
    out, kills, deaths, route_start, route_flat, rec = unowned(
        (out, kills, deaths, route_start, route_flat, rec)
    )
    d_count, d_unit, d_cell, d_round, d_by = deaths
    rec_dest, rec_fac, rec_shells, rec_repair = rec
    init_cell, init_facing, init_damage, init_alive, init_wreck, init_wreck_cells, init_rm = init
    units = init_cell.shape[0]
    cell, facing, damage, alive, wreck, tie_base, wreck_cells, rm_left, hist = W
    still, best_d, dest, dest_fac, shells = S[0], S[1], S[2], S[3], S[4]
    moving, bounce, blk, vtgt, vpos, danger, likely_all = S[5], S[6], S[7], S[8], S[9], S[10], S[11]
    claimed, likely, vals, ok, mine, keyd, order = S[12], S[13], S[14], S[15], S[16], S[17], S[18]
    repair, busy, grid, links, vn = S[19], S[20], S[21], S[22], S[23]
    ht = heuristic_tables(T)
    ha = (
        cell, facing, damage, alive, still, wreck_cells, blk, vtgt, vpos, vn, danger,
        likely_all, dest, dest_fac, shells, claimed, likely, vals, ok, mine, keyd, order,
        rm_left, repair, busy,
    )  # fmt: skip
    rt = rule_tables(T)
    state = (cell, facing, damage, alive, wreck, wreck_cells, tie_base, rm_left)
    decided = (dest, dest_fac, shells, repair)
    own = np.zeros(2, dtype=np.bool_)
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
        rm_left[:] = init_rm
        tie_base[:] = False
        still[:] = 0
        best_d[:] = np.inf
        hist[0, :] = cell
        d_count[g] = 0
        end = out[g, 2]
        winner = out[g, 0]
        rnd = 0
        while end == 0:
            base = rnd * T.width
            _start_round(
                T.repair_on, T.dist, T.ks, cell, facing, still, best_d, repair, dest,
                dest_fac, shells,
            )  # fmt: skip
            _view(
                T.berm_words, T.bet_words, T.zone_words, T.n_tgt, T.n_elev, T.blocks, T.elev,
                T.elevates, T.elevating, T.fires, T.kind, T.ks, T.lik_cell, T.lik_p, T.n,
                T.side, T.tgt, T.value, cell, facing, damage, alive, wreck, blk, vtgt, vpos,
                vn, danger, likely_all,
            )  # fmt: skip
            for side in range(2):
                code = codes[side]
                if code == RANDOM:
                    _random_side(
                        T.elevating, T.k, T.kind, T.ks, T.ord_dest, T.ord_fac, T.side, side,
                        nobs[side], key, base, cell, facing, alive, wreck_cells, vtgt, vpos, vn,
                        dest, dest_fac, shells, ok,
                    )  # fmt: skip
                    if T.repair_on:
                        _random_repairs(
                            T.kind, T.side, side, key, base, cell, facing, damage, alive,
                            rm_left, dest, dest_fac, shells, repair,
                        )  # fmt: skip
                elif code == HEURISTIC:
                    _heuristic_side(ht, side, nobs[side], key, base, ha)
                else:
                    own[:] = False
                    own[side] = nobs[side]
                    skey = _search_key(key, rnd, side)
                    # np.int64: one compiled search, not one per literal argument
                    duct_search(
                        T, X, side, skey, budgets[side], np.int64(DEPTH), playouts[side], own,
                        np.int64(rnd), state, decided, SS,
                    )  # fmt: skip
            if rec_dest.shape[0] > 0:
                rec_dest[g, rnd, :] = dest
                rec_fac[g, rnd, :] = dest_fac
                rec_shells[g, rnd, :] = shells
                rec_repair[g, rnd, :] = repair
            rnd += 1
            _apply(
                rt, g, rnd, cell, facing, damage, alive, wreck, wreck_cells, kills,
                dest, dest_fac, shells, moving, bounce, d_count, d_unit, d_cell, d_round,
                d_by, rm_left, repair, busy, grid, links,
            )  # fmt: skip
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


def state_arrays(st: State, repair_on: bool) -> tuple[npt.NDArray[Any], ...]:
    """The kernel's arrays of a reference-engine position: (cell, facing, damage, alive,
    wreck, wreck_cells, tie_base, rm_left) (``search``'s ``state``)."""
    units = len(st.kind)
    n = st.game.board.size
    wreck_cells = np.zeros(n, dtype=np.bool_)
    for u in range(units):
        if st.wreck[u] and st.game.wrecks:
            wreck_cells[st.cell[u]] = True
    tie = np.zeros(units, dtype=np.bool_)
    if st.tie_base:
        tie[list(st.tie_base)] = True
    rm_left = np.zeros(units, dtype=np.int64)
    if repair_on:
        for u, left in st.adv.rm_left.items():
            rm_left[u] = left
    return (
        np.array(st.cell, dtype=np.int64),
        np.array([int(f) for f in st.facing], dtype=np.int64),
        np.array(st.damage, dtype=np.int64),
        np.array(st.alive, dtype=np.bool_),
        np.array(st.wreck, dtype=np.bool_),
        wreck_cells,
        tie,
        rm_left,
    )


def play_many(
    prep: Prepared, players: tuple[SidePlayer, SidePlayer], keys: Sequence[int], record: bool
) -> Sequence[GameResult]:
    """One game per key (``noise.game_key``), south and north playing as ``players`` say;
    with ``record`` each result carries its ``FinalActRecord``. Only for games the kernel
    models (no advanced option but R/M repair, default readings)."""
    T, X = duct_tables(prep)
    st = prep.game.initial_state()
    for s, p in enumerate(players):
        for u in range(len(st.kind)):
            if st.side[u] == s and st.kind[u] in p.removed:
                st.alive[u] = False
    init = state_arrays(st, T.repair_on)
    init = (*init[:6], init[7])  # (no tie before round 1)
    g = len(keys)
    units = len(st.kind)
    codes = np.array([_CODES.get(p.agent, SEARCH) for p in players], dtype=np.int64)
    budgets = np.array([p.budget for p in players], dtype=np.int64)
    playouts = np.array([p.playout for p in players], dtype=np.int64)
    nobs = np.array([p.no_berms for p in players], dtype=np.bool_)
    key_arr = np.array(keys, dtype=np.uint64)
    out = np.zeros((g, 4), dtype=np.int64)
    out[:, 0] = -1 if st.winner is None else st.winner.index
    out[:, 2] = _END_CODE[st.end]
    kept = g if record else 0
    rows = T.max_rounds + 1
    rec = (
        np.zeros((kept, rows, units), dtype=np.int64),
        np.zeros((kept, rows, units), dtype=np.int64),
        np.zeros((kept, rows, units), dtype=np.int64),
        np.zeros((kept, rows, units), dtype=np.bool_),
    )
    cap = 16 * g + 16
    while True:
        kills = np.zeros((g, 2), dtype=np.int64)
        d_count = np.zeros(g, dtype=np.int64)
        d = [np.zeros((g, units), dtype=np.int64) for _ in range(4)]
        route_start = np.zeros(g + 1, dtype=np.int64)
        route_flat = np.zeros(cap, dtype=np.int64)
        res = out.copy()
        needed = _play_duct(
            T, X, _scratch(T, units), _scratch(T, units), work(T, units), codes, budgets,
            playouts, nobs, key_arr, init, res, kills, (d_count, *d), route_start, route_flat,
            rec,
        )  # fmt: skip
        if needed <= cap:
            break
        cap = needed
    side = [int(s) for s in st.side]
    results = KernelResults(
        prep.game.scenario, side, res, kills, d_count, d, route_start, route_flat
    )
    if not record:
        return results
    return [
        replace(r, record=_record(st, res[i], [a[i] for a in rec]))
        for i, r in enumerate(results.results())
    ]


def _record(start: State, res: npt.NDArray[np.int64], rec: list[Any]) -> FinalActRecord:
    """The record of one kernel game: its rounds' orders (the units in play at the start
    of each round, replayed through the reference engine to know which), shells and
    repairs."""
    dest, fac, shells, repair = rec
    game = start.game
    st = start.copy()
    rounds: list[Round] = []
    actions: dict[int, Actions] = {}
    for r in range(int(res[1])):
        orders: list[Order | None] = [
            (int(dest[r, u]), Facing(int(fac[r, u]))) if st.alive[u] else None
            for u in range(len(st.kind))
        ]
        fired = {u: int(c) for u, c in enumerate(shells[r].tolist()) if c >= 0 and st.alive[u]}
        acts = Actions(rm_repair=[u for u in range(len(st.kind)) if repair[r, u]])
        if acts.rm_repair:
            actions[r] = acts
        rounds.append((orders, fired))
        game.apply_round(st, orders, fired, acts if acts.rm_repair else None)
    return FinalActRecord.of(st, rounds, actions)


def warm(prep: Prepared) -> None:
    """Load the compiled games and search (from numba's cache, or compile them) and build
    ``prep``'s tables: one search iteration a round of one game."""
    player = SidePlayer("duct", 1, LIGHT)
    play_many(prep, (player, player), [0], False)
