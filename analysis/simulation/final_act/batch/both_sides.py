"""Both sides' Final Act ``heuristic`` in one pass (rows = game × side).

``BatchPlayers`` decides one side after the other; its per-unit loops (orders one unit at a
time, shells one shooter at a time) then run twice per round. When both sides play the
heuristic and field the same unit kinds in the same order (every built-in map), this module
makes the same decisions for both sides at once: row ``side * G + g`` holds side ``side`` of
game ``g``, slot ``p`` its ``p``-th unit, so each loop runs once over ``2 G`` rows. Every
number is computed by the same formula on the same inputs as in
``policies/final_act_batch.py`` (that module is the readable version), so the games are
bit-identical (checked by ``tests/simulation/test_final_act_batch_both.py``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.batch import repair as _repair
from tankmap.analysis.simulation.final_act.batch.view import _TURNS, View
from tankmap.analysis.simulation.final_act.kernel.tables import NOISE_PER_UNIT, BatchTables
from tankmap.rules.final_act.engine_batch import AT, TANK, BatchState

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def stackable(tb: BatchTables, units_of: list[list[int]]) -> bool:
    """Whether both sides field the same kinds in the same unit order (and some units)."""
    kind = tb.batch.kind
    a, b = units_of
    return (
        bool(a) and len(a) == len(b) and all(kind[x] == kind[y] for x, y in zip(a, b, strict=True))
    )


def heuristic_both(
    tb: BatchTables,
    units_of: list[list[int]],
    no_berms: tuple[bool, bool],
    st: BatchState,
    view: View,
    noise: FloatArray,
    still: IntArray,
    dest: IntArray,
    dest_fac: IntArray,
    shells: IntArray,
    repair: BoolArray | None = None,
) -> None:
    """Fill ``dest``, ``dest_fac`` and ``shells`` (and ``repair``, when given: the game has
    R/M repair) for both sides (``stackable`` must hold)."""
    n = tb.size
    g = st.cell.shape[0]
    rows = np.arange(2 * g)
    grow = np.tile(np.arange(g), 2)  # the game of each row
    srow = np.repeat(np.arange(2), g)  # the side of each row
    ur = np.repeat(np.array(units_of, dtype=np.int64), g, axis=0)  # [R, P] unit of each slot
    kind_p = tb.batch.kind[ur[0]]  # the same for both sides
    gcol = grow[:, None]
    ks = tb.ks[ur]
    idx = view.idx[gcol, ur]
    cell = st.cell[gcol, ur]
    facing = st.facing[gcol, ur]
    alive = view.alive[gcol, ur]
    nob = np.array(no_berms, dtype=bool)[srow]
    wreck_cells = st.wreck_cells[grow]
    danger = view.danger[grow, 1 - srow]  # [R, cell]: the enemy's fire
    likely: FloatArray = view.likely[grow, 1 - srow] * (1.0 + 1e-9 * noise[grow, -(n + 1) :])
    here_d = tb.dist[ks, idx]
    tie = noise[gcol, ur * NOISE_PER_UNIT + 2]
    order = np.argsort(here_d + tie * 1e-3, axis=1, kind="stable")
    claimed = np.zeros((2 * g, n + 1), dtype=bool)
    mover_slots = np.nonzero(kind_p != AT)[0]
    ri, pi = np.nonzero(alive[:, mover_slots])
    claimed[ri, cell[ri, mover_slots[pi]]] = True
    dest_r = cell.copy()
    fac_r = facing.copy()
    # --- tanks and R/M: one slot at a time per row, in ``order`` (_move_orders) ---
    k_max = tb.k_move
    d_cell = tb.ord_dest[:, :, :k_max][ks, idx]  # [R, P, k]
    d_fac = tb.ord_fac[:, :, :k_max][ks, idx]
    d_rounds = tb.ord_d[:, :, :k_max][ks, idx]
    safe = np.where(d_cell >= 0, d_cell, n)
    moving_opt = d_cell != cell[:, :, None]
    ok = (d_cell >= 0) & ~(moving_opt & wreck_cells[rows[:, None, None], np.minimum(safe, n - 1)])
    if nob.any():
        ok &= ~(moving_opt & tb.elevating[safe] & nob[:, None, None])
    caution = np.where((kind_p == TANK)[None, :] & (st.damage[gcol, ur] == 0), 0.35, 0.8)
    s_ = still[gcol, ur]
    amplitude = np.where(s_ < 2, 0.3, 0.3 + np.minimum(s_, 8))  # stale_amplitude
    cols = (ur * NOISE_PER_UNIT + 8)[:, :, None] + np.arange(k_max)[None, None, :]
    nz = noise[grow[:, None, None], cols]
    score = (
        d_rounds
        + caution[:, :, None] * danger[rows[:, None, None], safe]
        + amplitude[:, :, None] * nz
    )
    score = np.where(ok, score, np.inf)
    mover = kind_p != AT
    # the movers of each row in ``order`` (ATs do not move here), gathered once
    pm = int(mover.sum())
    om = order[mover[order]].reshape(-1, pm)  # [R, pm] slots
    rcol = rows[:, None]
    o_cand = d_cell[rcol, om]  # [R, pm, k]
    o_score = score[rcol, om]
    o_safe = safe[rcol, om]
    o_here = cell[rcol, om]
    o_live = alive[rcol, om]
    o_moving = o_cand != o_here[:, :, None]
    o_to = np.empty_like(o_here)
    o_pick = np.empty_like(o_here)
    o_has = np.empty_like(o_live)
    for k in range(pm):
        here = o_here[:, k]
        sc = np.where(o_moving[:, k] & claimed[rcol, o_safe[:, k]], np.inf, o_score[:, k])
        pick = sc.argmin(axis=1)
        has = np.isfinite(sc[rows, pick]) & o_live[:, k]
        to = np.where(has, o_cand[:, k][rows, pick], here)
        o_to[:, k] = to
        o_pick[:, k] = pick
        o_has[:, k] = has
        moved = np.nonzero(has & (to != here))[0]
        claimed[moved, here[moved]] = False
        claimed[moved, to[moved]] = True
    o_fac = d_fac[rcol, om, o_pick]
    dest_r[rcol, om] = o_to
    fac_r[rcol, om] = np.where(o_has, o_fac, facing[rcol, om])
    fixed = np.zeros(ur.shape, dtype=bool)  # tanks under repair (final_act_batch_repair)
    if repair is not None:
        fixed = _repair.heuristic_repairs(
            kind_p,
            cell,
            facing,
            st.damage[gcol, ur],
            alive,
            st.rm_left[gcol, ur],
            tb.col,
            tb.row,
            d_cell,
            d_fac,
            ok,
            danger,
            claimed,
            dest_r,
            fac_r,
        )
    # --- ATs (_at_order) ---
    at_slots = np.nonzero(kind_p == AT)[0].tolist()
    words = view.words[grow]
    for p in at_slots:
        # only the rows that need each step are computed (an AT's default order: stay put)
        here = cell[:, p]
        fac = facing[:, p]
        ra = np.nonzero(alive[:, p])[0]
        valid0 = view.valid[grow[ra], ur[ra, p]]
        tgt0 = view.tgt[grow[ra], ur[ra, p]]
        zone_value = np.where(valid0, likely[ra[:, None], tgt0], 0.0).sum(1)
        ra = ra[zone_value <= 0.25]  # not worth staying: face the threat or advance
        f0 = fac[ra]
        turned = (f0[:, None] + _TURNS[None, :]) % 8
        tidx = here[ra, None] * 8 + turned
        tgt = tb.tgt[AT, tidx]
        wr = words[ra]
        acc = tb.bet_words[0][AT, tidx] & wr[:, 0, None, None]
        for w in range(1, tb.words):
            acc |= tb.bet_words[w][AT, tidx] & wr[:, w, None, None]
        valid = (tgt < n) & (acc == 0)
        v = np.where(valid, likely[ra[:, None, None], tgt], 0.0).sum(2)
        top = v.argmax(axis=1)
        rr = np.arange(len(ra))
        best_f = np.where(v[rr, top] > 0.25, turned[rr, top], f0)
        turn = best_f != f0
        fac_r[ra[turn], p] = best_f[turn]
        rb = ra[~turn]
        h = here[rb]
        o_cell = tb.ord_dest[ks[rb, p], idx[rb, p]]  # [rows, k] (every order)
        o_fac = tb.ord_fac[ks[rb, p], idx[rb, p]]
        o_rounds = tb.ord_d[ks[rb, p], idx[rb, p]]
        o_ok = o_cell >= 0
        o_safe0 = np.where(o_ok, o_cell, 0)
        o_moving = o_cell != h[:, None]
        o_ok &= ~(o_moving & wreck_cells[rb[:, None], o_safe0])
        o_ok &= ~(o_moving & tb.elevating[o_safe0] & nob[rb, None])
        o_ok &= o_cell != h[:, None]
        o_safe = np.where(o_cell >= 0, o_cell, n)
        kk = o_cell.shape[1]
        ocols = (ur[rb, p] * NOISE_PER_UNIT + 8)[:, None] + np.arange(kk)[None, :]
        o_score = o_rounds + 0.5 * danger[rb[:, None], o_safe] + 0.2 * noise[grow[rb, None], ocols]
        o_score = np.where(o_ok, o_score, np.inf)
        o_pick = o_score.argmin(axis=1)
        rr = np.arange(len(rb))
        stay_score = tb.dist[ks[rb, p], h * 8 + fac[rb]] + 0.5 * danger[rb, h]
        move = o_score[rr, o_pick] < stay_score
        dest_r[rb[move], p] = o_cell[rr, o_pick][move]
        fac_r[rb[move], p] = o_fac[rr, o_pick][move]
    # --- shells: tanks first, then ATs that stay (only rows whose shooter can fire) ---
    shells_r = np.full(ur.shape, -1, dtype=np.int64)
    shooters = np.nonzero(kind_p == TANK)[0].tolist() + at_slots
    for p in shooters:
        rc = np.nonzero(alive[:, p] & ~fixed[:, p])[0]
        valid = view.valid[grow[rc], ur[rc, p]]
        can = valid.any(axis=1)
        if kind_p[p] == AT:
            can &= dest_r[rc, p] == cell[rc, p]
        rc, valid = rc[can], valid[can]
        tgt = view.tgt[grow[rc], ur[rc, p]]
        vals = np.where(valid, likely[rc[:, None], tgt], 0.0)
        best = vals.argmax(axis=1)
        rr = np.arange(len(rc))
        chosen = tgt[rr, best]
        use = vals[rr, best] > 0
        target = chosen.copy()
        if not use.all():  # nothing likely in reach: a uniform cell of the zone
            nu = ~use
            vf = valid[nu]
            count = vf.sum(axis=1)
            r1 = noise[grow[rc[nu]], ur[rc[nu], p] * NOISE_PER_UNIT + 1]
            kx = np.minimum((r1 * count).astype(np.int64), np.maximum(count - 1, 0))
            pos = np.argmax(np.cumsum(vf, axis=1) > kx[:, None], axis=1)
            target[nu] = tgt[nu][np.arange(len(pos)), pos]
        shells_r[rc, p] = target
        likely[rc[use], chosen[use]] *= 0.45
    dest[gcol, ur] = dest_r
    dest_fac[gcol, ur] = fac_r
    shells[gcol, ur] = shells_r
    if repair is not None:
        repair[gcol, ur] = fixed
