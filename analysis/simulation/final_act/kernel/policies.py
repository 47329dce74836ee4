"""The Final Act kernel's agents, compiled: each unit's fire zone and the danger and
likely-target maps at the start of a round (``_view``: what ``agents.reference.RoundView``
and ``Prepared.likely`` give the reference agents), and the ``random`` and ``heuristic``
orders and shells of one side — the decisions ``agents/reference.py`` describes, each
game drawing its numbers from its key (``NOISE_PER_UNIT`` per unit and round)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tankmap.analysis.simulation.final_act.kernel.base import _inline, _jit, _noise, _psum
from tankmap.analysis.simulation.final_act.kernel.repair import _heuristic_repairs
from tankmap.analysis.simulation.final_act.kernel.tables import AT, NOISE_PER_UNIT, TANK


# --- the position at the start of a round -------------------------------------------------
@_inline
def _blocked(T_bet_words: Any, kc: int, idx: int, t: int, blk: Any) -> bool:
    """Whether a blocker stands between the shooter and target ``t`` of ``(kc, idx)``
    (every word is read: a loop of a fixed length, not an exit that depends on the data,
    which the processor mispredicted)."""
    hit = np.uint64(0)
    for w in range(blk.shape[0]):
        hit |= T_bet_words[kc, idx, t, w] & blk[w]
    out: bool = hit != 0
    return out


@_inline
def _view(
    T_berm_words: Any,
    T_bet_words: Any,
    T_zone_words: Any,
    T_n_tgt: Any,
    T_n_elev: Any,
    T_blocks: Any,
    T_elev: Any,
    T_elevates: Any,
    T_elevating: Any,
    T_fires: Any,
    T_kind: Any,
    T_ks: Any,
    T_lik_cell: Any,
    T_lik_p: Any,
    T_n: Any,
    T_side: Any,
    T_tgt: Any,
    T_value: Any,
    cell: Any,
    facing: Any,
    damage: Any,
    alive: Any,
    wreck: Any,
    blk: Any,
    vtgt: Any,
    vpos: Any,
    vn: Any,
    danger: Any,
    likely: Any,
) -> None:
    """Fire zones: ``vtgt[u, :vn[u]]`` the targets unit ``u`` can shoot at (line of fire
    not blocked), in zone order, and ``vpos[u, :vn[u]]`` their positions in its zone;
    ``vn[u]`` is 0 for a unit that cannot fire (only those entries are read). Also
    ``danger[side, cell]`` and ``likely[side, cell]`` (View). ``blk``: the cells that block
    fire (wrecks, berms, blocking units) as 64-bit words."""
    units = cell.shape[0]
    blk[:] = T_berm_words  # berms, then wrecks (knocked-out tanks) and blocking units
    for u in range(units):
        if wreck[u] or (alive[u] and T_blocks[u]):
            c = cell[u]
            blk[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
    danger[:, :] = 0.0
    likely[:, :] = 0.0
    for u in range(units):
        idx = cell[u] * 8 + facing[u]
        vn[u] = 0
        if alive[u] and T_fires[u]:
            kc = min(T_kind[u], AT)
            side = T_side[u]
            if T_elevates[u] and T_elevating[cell[u]]:  # on a berm: the elevated zone
                vn[u] = T_n_elev[kc, idx]
                for t in range(T_n_elev[kc, idx]):
                    tg = T_elev[kc, idx, t]
                    vtgt[u, t] = tg
                    vpos[u, t] = t
                    danger[side, tg] += 1.0
            else:
                # (targets come first in the tables, padding after them)
                clear = True
                for w in range(blk.shape[0]):
                    if T_zone_words[kc, idx, w] & blk[w]:
                        clear = False
                count = 0
                for t in range(T_n_tgt[kc, idx]):
                    tg = T_tgt[kc, idx, t]
                    ok = clear or not _blocked(T_bet_words, kc, idx, t, blk)
                    # (written whatever ``ok``: a blocked target is overwritten by the next)
                    vtgt[u, count] = tg
                    vpos[u, count] = t
                    count += ok
                    # (whole counts: adding +0.0 leaves them as they are, without a branch)
                    danger[side, tg] += 1.0 if ok else 0.0
                vn[u] = count
        if alive[u]:
            ks = T_ks[u]
            scale = 1.0 + damage[u]
            side = T_side[u]
            val = T_value[u]
            # every entry, a loop of a fixed length without branches (the loop's exit and a
            # test of p, both on data just loaded, were mispredicted): an entry worth 0
            # adds +0.0 to a spare cell past the board (``Tables.lik_cell``)
            for j in range(T_lik_p.shape[2]):
                likely[side, T_lik_cell[ks, idx, j]] += (T_lik_p[ks, idx, j] * val) * scale


@_inline
def _start_round(
    repair_on: bool,
    dist: Any,
    ks: Any,
    cell: Any,
    facing: Any,
    still: Any,
    best_d: Any,
    repair: Any,
    dest: Any,
    dest_fac: Any,
    shells: Any,
) -> None:
    """Before a round's decisions: no R/M repair declared yet (with R/M repair on), each
    unit's progress counter advanced (``best_d``: its closest distance to its goal so far,
    ``still``: rounds since it got closer, which the heuristic's noise grows with), and
    every unit's order "stay, same facing, no shell" (``dest``, ``dest_fac``, ``shells``)."""
    if repair_on:
        repair[:] = False
    for u in range(cell.shape[0]):
        d_here = dist[ks[u], cell[u] * 8 + facing[u]]
        if d_here < best_d[u]:
            best_d[u] = d_here
            still[u] = 0
        else:
            still[u] += 1
    dest[:] = cell
    dest_fac[:] = facing
    shells[:] = -1


@_inline
def _pick_nth(flags: Any, count: int, r: float) -> int:
    """The position of the ``min(int(r * count), count - 1)``-th true flag (0 if none):
    ``argmax(cumsum(flags) > k)`` of the numpy version."""
    k = min(int(r * count), max(count - 1, 0)) if count > 0 else -1
    seen = 0
    for i in range(flags.shape[0]):
        if flags[i]:
            seen += 1
        if seen > k:
            return i
    return 0


@_inline
def _nth(count: int, r: float) -> int:
    """``_pick_nth``'s rank: ``min(int(r * count), count - 1)`` (``count > 0``)."""
    k: int = min(int(r * count), count - 1)
    return k


@_inline
def _options(
    T_elevating: Any,
    T_ks: Any,
    T_ord_dest: Any,
    u: int,
    side_nob: bool,
    cell: Any,
    facing: Any,
    wreck_cells: Any,
    width: int,
    ok: Any,
) -> None:
    """``ok[j]``: order ``j`` of unit ``u`` is usable (a real order, not into a wreck, not
    onto a berm with ``+no-berms``)."""
    ks = T_ks[u]
    idx = cell[u] * 8 + facing[u]
    here = cell[u]
    for j in range(width):
        d = T_ord_dest[ks, idx, j]
        good = d >= 0
        safe = d if good else 0
        moving = d != here
        if moving and wreck_cells[safe]:
            good = False
        if side_nob and moving and T_elevating[safe]:
            good = False
        ok[j] = good


@_jit
def _random_side(
    T_elevating: Any,
    T_k: Any,
    T_kind: Any,
    T_ks: Any,
    T_ord_dest: Any,
    T_ord_fac: Any,
    T_side: Any,
    side: int,
    nob: bool,
    key: np.uint64,
    base: int,
    cell: Any,
    facing: Any,
    alive: Any,
    wreck_cells: Any,
    vtgt: Any,
    vpos: Any,
    vn: Any,
    dest: Any,
    dest_fac: Any,
    shells: Any,
    ok: Any,
) -> None:
    units = cell.shape[0]
    for u in range(units):
        if T_side[u] != side:
            continue
        nb = base + u * NOISE_PER_UNIT
        _options(T_elevating, T_ks, T_ord_dest, u, nob, cell, facing, wreck_cells, T_k, ok)
        count = 0
        for j in range(T_k):
            if ok[j]:
                count += 1
        pos = _pick_nth(ok[:T_k], count, _noise(key, nb))
        if alive[u]:
            idx = cell[u] * 8 + facing[u]
            dest[u] = T_ord_dest[T_ks[u], idx, pos]
            dest_fac[u] = T_ord_fac[T_ks[u], idx, pos]
        # _shell_random
        count = vn[u]
        can = count > 0
        if T_kind[u] == AT:
            can = can and dest[u] == cell[u]
        if can:
            shells[u] = vtgt[u, _nth(count, _noise(key, nb + 1))]
        else:
            shells[u] = -1


@_inline
def heuristic_tables(T: Any) -> Any:
    """``_heuristic_side``'s tables (its ``HT``) from the kernel's ``Tables``."""
    return (
        T.bet_words, T.zone_words, T.n_tgt, T.dist, T.elevating, T.k, T.k_move, T.kind, T.ks,
        T.n, T.ord_d, T.ord_dest, T.ord_fac, T.side, T.tgt, T.width, T.repair_on, T.col,
        T.row, T.n_move, T.adv, T.n_adv,
    )  # fmt: skip


@_jit
def _heuristic_side(HT: Any, side: int, nob: bool, key: np.uint64, base: int, HA: Any) -> None:
    """One side's heuristic orders and shells (BatchPlayers._heuristic); with
    ``T_repair_on`` its R/M repairs too (``repair``: the tanks declared). Expects
    ``dest``/``dest_fac``/``shells`` as the round starts them (every unit stays, no
    shell): only units in play are given orders and shells. ``HT``: the
    tables it reads, ``HA`` the arrays; as two tuples, so that the
    call has few enough arguments for numba to compile it into its caller."""
    (
        T_bet_words,
        T_zone_words,
        T_n_tgt,
        T_dist,
        T_elevating,
        T_k,
        T_k_move,
        T_kind,
        T_ks,
        T_n,
        T_ord_d,
        T_ord_dest,
        T_ord_fac,
        T_side,
        T_tgt,
        T_width,
        T_repair_on,
        T_col,
        T_row,
        T_n_move,
        T_adv,
        T_n_adv,
    ) = HT
    (
        cell,
        facing,
        damage,
        alive,
        still,
        wreck_cells,
        blk,
        vtgt,
        vpos,
        vn,
        danger_all,
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
    ) = HA
    n = T_n
    units = cell.shape[0]
    enemy = 1 - side
    danger = danger_all[enemy]
    tail = base + T_width - (n + 1)
    for c in range(n + 1):  # 0 stays 0 whatever the noise: only the others draw theirs
        x = likely_all[enemy, c]
        likely[c] = x * (1.0 + 1e-9 * _noise(key, tail + c)) if x != 0.0 else x
    # the side's units in play: ``mine[:m]`` in unit order, and its tanks and R/Ms (the
    # movers) in ``order[:mm]``, closest to goal first: a stable sort of distance + tie
    # noise, each mover inserted as it comes (the ATs choose apart and draw no tie noise);
    # units out of play keep the orders and shells the round started with (stay, no
    # shell), as the numpy version gives them
    claimed[:] = False
    m = 0
    mm = 0
    for u in range(units):
        if T_side[u] == side and alive[u]:
            mine[m] = u
            m += 1
            if T_kind[u] != AT:
                claimed[cell[u]] = True
                kd = (
                    T_dist[T_ks[u], cell[u] * 8 + facing[u]]
                    + _noise(key, base + u * NOISE_PER_UNIT + 2) * 1e-3
                )
                j = mm
                while j > 0 and keyd[j - 1] > kd:  # (strictly: stable, like kind="stable")
                    keyd[j] = keyd[j - 1]
                    order[j] = order[j - 1]
                    j -= 1
                keyd[j] = kd
                order[j] = u
                mm += 1
    # tanks and R/M, one at a time in ``order`` (_move_orders)
    km = T_k_move
    pad, last = np.uint64(n), np.uint64(n - 1)  # the padding cell, the last cell
    for i in range(mm):
        u = order[i]
        here = cell[u]
        ks = T_ks[u]
        idx = here * 8 + facing[u]
        caution = 0.35 if (T_kind[u] == TANK and damage[u] == 0) else 0.8
        s_ = still[u]
        amplitude = 0.3 if s_ < 2 else 0.3 + min(s_, 8)
        nb = base + u * NOISE_PER_UNIT + 8
        best = 0
        best_sc = np.inf
        for j in range(min(km, T_n_move[ks, idx])):  # (only padding after them)
            d = T_ord_dest[ks, idx, j]
            safe = np.uint64(d) if d >= 0 else pad  # (unsigned: indices without wrap-around)
            moving = d != here
            # every option is scored, a closed one as inf, and the first smallest score
            # wins (BatchPlayers' argmin): a loop without data-dependent exits, faster than
            # skipping the noise of options that cannot win, whose branches mispredicted
            closed = (d < 0) | (
                moving & (wreck_cells[min(safe, last)] | (nob & T_elevating[safe]) | claimed[safe])
            )
            sc = (T_ord_d[ks, idx, j] + caution * danger[safe]) + amplitude * _noise(key, nb + j)
            sc = np.inf if closed else sc
            if sc < best_sc:
                best_sc = sc
                best = j
        if best_sc < np.inf:
            to = T_ord_dest[ks, idx, best]
            dest[u] = to
            dest_fac[u] = T_ord_fac[ks, idx, best]
            if to != here:
                claimed[here] = False
                claimed[to] = True
    if T_repair_on:
        _heuristic_repairs(
            T_col,
            T_row,
            T_elevating,
            T_k_move,
            T_kind,
            T_ks,
            T_ord_dest,
            T_ord_fac,
            T_side,
            side,
            nob,
            cell,
            facing,
            damage,
            rm_left,
            wreck_cells,
            danger,
            claimed,
            dest,
            dest_fac,
            repair,
            busy,
            ok,
            mine,
            np.int64(m),  # not the literal 0 of type inference: one compiled function
        )
    # ATs (_at_order)
    t_max = T_tgt.shape[2]
    for i in range(m):
        u = mine[i]
        if T_kind[u] != AT:
            continue
        here = cell[u]
        fac = facing[u]
        vals[:] = 0.0  # (each valid target at its place in the zone, for the sum)
        nonzero = False
        for i in range(vn[u]):
            x = likely[vtgt[u, i]]
            vals[vpos[u, i]] = x
            nonzero |= x != 0.0
        if nonzero and _psum(vals, t_max) > 0.25:
            continue  # worth staying: the default order (stay, same facing)
        top = -1
        top_v = 0.0
        for r in range(3):
            f = (fac + 2 * (r + 1)) % 8
            tidx = here * 8 + f
            clear = True
            for w in range(blk.shape[0]):
                if T_zone_words[AT, tidx, w] & blk[w]:
                    clear = False
            filled = T_n_tgt[AT, tidx]  # (targets first, padding after them)
            nonzero = False
            for t in range(filled):
                x = likely[T_tgt[AT, tidx, t]]
                # (a target worth 0 counts 0 whether or not it is in line of fire)
                if x != 0.0 and not clear and _blocked(T_bet_words, AT, tidx, t, blk):
                    x = 0.0
                vals[t] = x
                nonzero |= x != 0.0
            for t in range(filled, t_max):
                vals[t] = 0.0
            v = _psum(vals, t_max) if nonzero else 0.0  # (a sum of zeros is 0.0)
            if top < 0 or v > top_v:
                top, top_v = r, v
        if top_v > 0.25:
            best_f = (fac + 2 * (top + 1)) % 8
            if best_f != fac:
                dest_fac[u] = best_f
                continue
        # advance, or stay: the first order with the smallest score among the usable ones
        # that leave the cell, if below staying's. They are read by their ``ord_d``, a
        # lower bound of their scores (danger and noise add nothing negative), so the
        # search stops at the first that can neither beat the best so far nor staying;
        # a tie goes to the first order (as in order number, BatchPlayers' argmin)
        ks = T_ks[u]
        idx = here * 8 + fac
        nb = base + u * NOISE_PER_UNIT + 8
        stay_score = T_dist[ks, idx] + 0.5 * danger[here]
        best = 0
        best_sc = np.inf
        for r in range(T_n_adv[ks, idx]):
            j = T_adv[ks, idx, r]
            lo = T_ord_d[ks, idx, j]
            if lo >= stay_score or lo > best_sc:
                break
            d = T_ord_dest[ks, idx, j]
            if wreck_cells[d] or (nob and T_elevating[d]):
                continue  # (closed: _options)
            sc = lo + 0.5 * danger[d]
            if sc > best_sc:
                continue  # (as for the movers above)
            sc = sc + 0.2 * _noise(key, nb + j)
            if sc < best_sc or (sc == best_sc and j < best):
                best_sc = sc
                best = j
        if best_sc < stay_score:
            dest[u] = T_ord_dest[ks, idx, best]
            dest_fac[u] = T_ord_fac[ks, idx, best]
    # shells: tanks first, then ATs that stay
    for phase in range(2):
        for i in range(m):
            u = mine[i]
            if (phase == 0 and T_kind[u] != TANK) or (phase == 1 and T_kind[u] != AT):
                continue
            count = vn[u]
            can = count > 0 and not (T_repair_on and repair[u])
            if T_kind[u] == AT:
                can = can and dest[u] == cell[u]
            if not can:
                shells[u] = -1
                continue
            # the first of the most likely valid targets (only a valid target's value can
            # be above 0: an invalid one, worth 0 in BatchPlayers, never wins; with no
            # value above 0 the pick is random)
            best = 0
            best_v = -1.0
            for t in range(count):
                v = likely[vtgt[u, t]]
                if v > best_v:
                    best_v = v
                    best = t
            if best_v > 0:
                chosen = vtgt[u, best]
                shells[u] = chosen
                likely[chosen] *= 0.45
            else:
                nb = base + u * NOISE_PER_UNIT + 1
                shells[u] = vtgt[u, _nth(count, _noise(key, nb))]
