"""Final Act playouts for many games at once (``BatchGame`` + ``BatchPlayers``).

``play_many(prep, policies, keys, record)`` plays one game per key in ``keys``
(``analysis.simulation.noise.game_key``) and returns their ``GameResult``s in order. Round
``r`` of a game reads the numbers ``r * M .. r * M + M - 1`` of its key's stream, so its
course is the same whatever other games share the batch. Finished games are dropped from
the arrays as the batch thins out. This is the numpy reference of the compiled kernel
(``final_act_kernel``), which plays the same games bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tankmap.analysis.simulation.final_act.batch.agents import BatchPlayers
from tankmap.analysis.simulation.final_act.kernel.tables import NOISE_PER_UNIT, tables_of
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.analysis.simulation.games import Death, GameResult, parse_policy
from tankmap.analysis.simulation.noise import uniforms
from tankmap.rules.final_act.engine import SIDES
from tankmap.rules.final_act.engine_actions import Actions
from tankmap.rules.final_act.engine_batch import END_CODES, BatchState
from tankmap.rules.final_act.engine_record import FinalActRecord, Round
from tankmap.rules.final_act.tables import Order
from tankmap.rules.geometry import Facing


def _take(st: BatchState, keep: Any) -> BatchState:
    return BatchState(
        cell=st.cell[keep],
        facing=st.facing[keep],
        damage=st.damage[keep],
        alive=st.alive[keep],
        wreck=st.wreck[keep],
        wreck_cells=st.wreck_cells[keep],
        round=st.round[keep],
        over=st.over[keep],
        winner=st.winner[keep],
        end=st.end[keep],
        kills=st.kills[keep],
        tie_base=st.tie_base[keep],
        rm_left=st.rm_left[keep],
    )


def play_many(
    prep: Prepared,
    policies: tuple[str, str],
    keys: Sequence[int],
    record: bool = False,
) -> list[GameResult]:
    """Play ``len(keys)`` games (``policies`` = south, north specs without ``-ref``)."""
    tb = tables_of(prep)
    batch = tb.batch
    scenario = prep.game.scenario
    n_games = len(keys)
    u_count = batch.n_units
    bases = []
    no_berms = []
    st = batch.initial(n_games)
    for s, spec in enumerate(policies):
        base, restrictions = parse_policy(spec)
        bases.append(base)
        no_berms.append("no-berms" in restrictions)
        for r in restrictions:
            if r != "no-berms":
                gone = (batch.side == s) & (batch.kind == ("tank", "at", "rm").index(r[3:]))
                st.alive[:, gone] = False
    players = BatchPlayers(tb, (bases[0], bases[1]), (no_berms[0], no_berms[1]))
    width = u_count * NOISE_PER_UNIT + tb.size + 1
    ids = np.arange(n_games)
    still = np.zeros((n_games, u_count), dtype=np.int64)  # rounds without progress
    best_d = np.full((n_games, u_count), np.inf)
    history = np.zeros((batch.max_rounds + 2, n_games, u_count), dtype=np.int64)
    history[0] = st.cell
    deaths: list[list[Death]] = [[] for _ in range(n_games)]
    rounds: list[list[Round]] = [[] for _ in range(n_games)]
    actions: list[dict[int, Actions]] = [{} for _ in range(n_games)]
    final: dict[int, tuple[int, int, int, int, int, Any, Any]] = {}
    for row in np.nonzero(st.over)[0]:
        final[int(row)] = _final(st, int(row))
    key_arr = np.array(keys, dtype=np.uint64)
    while True:
        active = np.nonzero(~st.over)[0]
        if not len(active):
            break
        if len(active) < 0.6 * len(ids) and len(ids) > 8:
            st = _take(st, active)
            ids, still, best_d = ids[active], still[active], best_d[active]
            active = np.arange(len(ids))
        # every active game is in the same round (they all started together)
        noise = np.zeros((len(ids), width))
        noise[active] = uniforms(key_arr[ids[active]], int(st.round[active[0]]) * width, width)
        d_here = tb.dist[tb.ks[None, :], st.cell * 8 + st.facing]
        better = d_here < best_d
        best_d = np.where(better, d_here, best_d)
        still = np.where(better, 0, still + 1)
        dest, dest_fac, shells, repair = players.decide(st, noise, still)
        if record:
            _record(st, active, ids, dest, dest_fac, shells, repair, rounds, actions)
        gi, ui, cells, by = batch.apply(st, dest, dest_fac, shells, repair)
        for g, u, c, b in zip(gi.tolist(), ui.tolist(), cells.tolist(), by.tolist(), strict=True):
            deaths[ids[g]].append(
                Death(
                    SIDES[int(batch.side[u])],
                    scenario.units[u].kind,
                    c,
                    int(st.round[g]),
                    scenario.units[b].kind,
                )
            )
        history[st.round[active], ids[active]] = st.cell[active]
        for row in active[st.over[active]].tolist():
            final[int(ids[row])] = _final(st, row)
    out = []
    for g in range(n_games):
        winner, length, end, k0, k1, cell, alive = final[g]
        unit_label = None
        route: tuple[int, ...] = ()
        if END_CODES[end] == "goal" and winner >= 0:
            for u in range(u_count):
                if (
                    alive[u]
                    and batch.side[u] == winner
                    and batch.is_tank[u]
                    and batch.goal[winner, cell[u]]
                ):
                    unit_label = scenario.units[u].label
                    path = history[: length + 1, g, u].tolist()
                    route = tuple(c for i, c in enumerate(path) if i == 0 or c != path[i - 1])
                    break
        rec = None
        if record:
            rec = FinalActRecord(
                scenario,
                rounds[g],
                {
                    "winner": None if winner < 0 else SIDES[winner].value,
                    "end": END_CODES[end],
                    "rounds": length,
                },
                actions[g],
            )
        out.append(
            GameResult(
                winner=None if winner < 0 else SIDES[winner],
                length=length,
                end=END_CODES[end],
                kills=(k0, k1),
                winning_unit=unit_label,
                route=route,
                deaths=tuple(deaths[g]),
                record=rec,
            )
        )
    return out


def _final(st: BatchState, row: int) -> tuple[int, int, int, int, int, Any, Any]:
    return (
        int(st.winner[row]),
        int(st.round[row]),
        int(st.end[row]),
        int(st.kills[row, 0]),
        int(st.kills[row, 1]),
        st.cell[row].copy(),
        st.alive[row].copy(),
    )


def _record(
    st: BatchState,
    active: Any,
    ids: Any,
    dest: Any,
    dest_fac: Any,
    shells: Any,
    repair: Any,
    rounds: list[list[Round]],
    actions: list[dict[int, Actions]],
) -> None:
    for row in active:
        orders: list[Order | None] = []
        for u in range(st.cell.shape[1]):
            if st.alive[row, u]:
                orders.append((int(dest[row, u]), Facing(int(dest_fac[row, u]))))
            else:
                orders.append(None)
        fired = {int(u): int(shells[row, u]) for u in np.nonzero(shells[row] >= 0)[0]}
        game = rounds[int(ids[row])]
        if repair is not None and repair[row].any():
            actions[int(ids[row])][len(game)] = Actions(
                rm_repair=[int(u) for u in np.nonzero(repair[row])[0]]
            )
        game.append((orders, fired))
