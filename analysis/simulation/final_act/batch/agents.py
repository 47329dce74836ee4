"""Final Act ``random`` and ``heuristic`` policies for many games at once (numpy).

The same decisions as described in ``policies/final_act.py`` (that module is the readable
reference), computed for ``G`` games of one scenario in lockstep on ``BatchState`` arrays
(``rules.final_act.engine_batch``). Every game draws its own random numbers from its own
Generator, the same amount every round, so a game's course does not depend on which other
games share its batch (the runner's determinism promise holds).

Precomputed per scenario (``BatchTables``): for every (unit kind, side, cell, facing) the
orders (staying put included, sorted by rounds to goal) with their rounds to goal, the
likely end cells of the unit, and the fire-zone targets with their between-cells (also as
64-bit words, so a whole batch's lines of fire are tested with a few bitwise operations).
Every game's decisions are made from its own row only, so the result does not depend on
the other games of the batch (checked by the runner tests with different batch sizes).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.batch import both_sides as _both
from tankmap.analysis.simulation.final_act.batch import repair as _repair
from tankmap.analysis.simulation.final_act.batch.view import _TURNS, View
from tankmap.analysis.simulation.final_act.kernel.tables import NOISE_PER_UNIT, BatchTables
from tankmap.rules.final_act.engine_batch import AT, TANK, BatchState

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


class BatchPlayers:
    """Both sides' policies (``random`` / ``heuristic``, optional ``no-berms``)."""

    def __init__(self, tb: BatchTables, bases: tuple[str, str], no_berms: tuple[bool, bool]):
        self.tb = tb
        self.bases = bases
        self.no_berms = no_berms
        b = tb.batch
        self.units_of = [[int(u) for u in np.nonzero(b.side == s)[0]] for s in (0, 1)]
        # both sides in one pass (final_act_batch_both; the same decisions)
        self.both = bases == ("heuristic", "heuristic") and _both.stackable(tb, self.units_of)

    def decide(
        self, st: BatchState, noise: FloatArray, still: IntArray
    ) -> tuple[IntArray, IntArray, IntArray, BoolArray | None]:
        """Orders (``dest``, ``dest_facing``), ``shells`` and R/M ``repair`` declarations
        (``None`` when the game has no R/M repair) for every unit of every game;
        ``noise[g]`` holds ``NOISE_PER_UNIT`` numbers per unit; ``still[g, u]`` counts the
        rounds since unit ``u`` last got closer to its goal (``stale_amplitude``)."""
        tb = self.tb
        view = View(tb, st)
        dest = st.cell.copy()
        dest_fac = st.facing.copy()
        shells = np.full(st.cell.shape, -1, dtype=np.int64)
        repair = np.zeros(st.cell.shape, dtype=bool) if tb.batch.repair_on else None
        if self.both:
            _both.heuristic_both(
                tb,
                self.units_of,
                self.no_berms,
                st,
                view,
                noise,
                still,
                dest,
                dest_fac,
                shells,
                repair,
            )
            return dest, dest_fac, shells, repair
        for side in (0, 1):
            if not self.units_of[side]:
                continue
            if self.bases[side] == "random":
                self._random(st, view, noise, side, dest, dest_fac, shells, repair)
            else:
                self._heuristic(st, view, noise, still, side, dest, dest_fac, shells, repair)
        return dest, dest_fac, shells, repair

    # --- helpers -------------------------------------------------------------------------
    def _options(
        self, st: BatchState, view: View, u: int, side: int, width: int | None = None
    ) -> tuple[IntArray, IntArray, FloatArray, BoolArray]:
        """Unit ``u``'s orders in every game (the first ``width`` columns): destinations,
        facings, rounds to goal, and which are usable (real, not into a wreck, not onto a
        berm if restricted)."""
        tb = self.tb
        ks = tb.ks[u]
        idx = view.idx[:, u]
        w = tb.k if width is None else width
        d_cell = tb.ord_dest[ks, :, :w][idx]
        d_fac = tb.ord_fac[ks, :, :w][idx]
        d_rounds = tb.ord_d[ks, :, :w][idx]
        here = st.cell[:, u][:, None]
        ok = d_cell >= 0
        safe = np.where(ok, d_cell, 0)
        moving = d_cell != here
        ok &= ~(moving & st.wreck_cells[view.rows[:, None], safe])
        if self.no_berms[side]:
            ok &= ~(moving & tb.elevating[safe])
        return d_cell, d_fac, d_rounds, ok

    def _random(
        self,
        st: BatchState,
        view: View,
        noise: FloatArray,
        side: int,
        dest: IntArray,
        dest_fac: IntArray,
        shells: IntArray,
        repair: BoolArray | None,
    ) -> None:
        rows = view.rows
        for u in self.units_of[side]:
            base = u * NOISE_PER_UNIT
            d_cell, d_fac, _d, ok = self._options(st, view, u, side)
            count = ok.sum(axis=1)
            pick_n = np.minimum((noise[:, base] * count).astype(np.int64), count - 1)
            pos = np.argmax(np.cumsum(ok, axis=1) > pick_n[:, None], axis=1)
            live = view.alive[:, u]
            dest[:, u] = np.where(live, d_cell[rows, pos], dest[:, u])
            dest_fac[:, u] = np.where(live, d_fac[rows, pos], dest_fac[:, u])
            self._shell_random(st, view, noise[:, base + 1], u, dest, shells)
        if repair is not None:
            _repair.side_random(
                self.tb.batch.kind,
                self.units_of[side],
                st,
                view.alive,
                noise,
                dest,
                dest_fac,
                shells,
                repair,
            )

    def _shell_random(
        self,
        st: BatchState,
        view: View,
        r: FloatArray,
        u: int,
        dest: IntArray,
        shells: IntArray,
    ) -> None:
        valid = view.valid[:, u]
        can = valid.any(axis=1)
        if self.tb.batch.kind[u] == AT:
            can &= dest[:, u] == st.cell[:, u]
        count = valid.sum(axis=1)
        k = np.minimum((r * count).astype(np.int64), np.maximum(count - 1, 0))
        pos = np.argmax(np.cumsum(valid, axis=1) > k[:, None], axis=1)
        shells[:, u] = np.where(can, view.tgt[view.rows, u, pos], -1)

    def _heuristic(
        self,
        st: BatchState,
        view: View,
        noise: FloatArray,
        still: IntArray,
        side: int,
        dest: IntArray,
        dest_fac: IntArray,
        shells: IntArray,
        repair: BoolArray | None,
    ) -> None:
        tb = self.tb
        b = tb.batch
        n = tb.size
        rows = view.rows
        enemy = 1 - side
        units = self.units_of[side]
        danger = view.danger[:, enemy]  # [g, cell]
        # [g, cell]: enemy units' likely ends, ties between equal values broken at random
        likely: FloatArray = view.likely[:, enemy] * (1.0 + 1e-9 * noise[:, -(n + 1) :])
        # unit order: closest to goal first, ties at random
        uarr = np.array(units)
        here_d = tb.dist[tb.ks[uarr][None, :], view.idx[:, uarr]]
        tie = noise[:, uarr * NOISE_PER_UNIT + 2]
        order = np.argsort(here_d + tie * 1e-3, axis=1, kind="stable")
        claimed = np.zeros((len(rows), n + 1), dtype=bool)
        movers = uarr[b.kind[uarr] != AT]
        gi, ui = np.nonzero(view.alive[:, movers])
        claimed[gi, st.cell[gi, movers[ui]]] = True
        options = self._move_orders(
            st, view, noise, still, side, units, order, danger, claimed, dest, dest_fac
        )
        if repair is not None:
            _repair.side_heuristic(
                tb, units, st, view.alive, options, danger, claimed, dest, dest_fac, repair
            )
        fixed = (
            np.zeros((len(rows), len(units)), dtype=bool) if repair is None else repair[:, units]
        )
        slot = {u: p for p, u in enumerate(units)}
        for u in units:
            if b.kind[u] == AT:
                self._at_order(st, view, noise, u, side, likely, danger, dest, dest_fac)
        # shells: tanks first, then ATs that stay
        shooters = [u for u in units if b.kind[u] == TANK] + [u for u in units if b.kind[u] == AT]
        for u in shooters:
            valid = view.valid[:, u]
            can = valid.any(axis=1) & view.alive[:, u] & ~fixed[:, slot[u]]
            if b.kind[u] == AT:
                can &= dest[:, u] == st.cell[:, u]
            tgt = view.tgt[:, u]
            vals = np.where(valid, likely[rows[:, None], tgt], 0.0)
            best = vals.argmax(axis=1)
            best_val = vals[rows, best]
            chosen = tgt[rows, best]
            use = best_val > 0
            target = chosen
            if (can & ~use).any():  # nothing likely in reach: a uniform cell of the zone
                base = u * NOISE_PER_UNIT
                count = valid.sum(axis=1)
                kk = np.minimum(
                    (noise[:, base + 1] * count).astype(np.int64), np.maximum(count - 1, 0)
                )
                pos = np.argmax(np.cumsum(valid, axis=1) > kk[:, None], axis=1)
                target = np.where(use, chosen, tgt[rows, pos])
            shells[:, u] = np.where(can, target, -1)
            hit = can & use
            likely[rows[hit], chosen[hit]] *= 0.45

    def _move_orders(
        self,
        st: BatchState,
        view: View,
        noise: FloatArray,
        still: IntArray,
        side: int,
        units: list[int],
        order: IntArray,
        danger: IntArray,
        claimed: BoolArray,
        dest: IntArray,
        dest_fac: IntArray,
    ) -> tuple[IntArray, IntArray, BoolArray]:
        """Tanks and the R/M, one at a time per game in ``order`` (reference: the scalar
        heuristic): shortest route, out of enemy fire, never into a cell another unit of
        the side holds or was just ordered into. Returns the side's units' first
        ``k_move`` ranked orders ``[g, j, k]`` (cells, facings) and which are usable."""
        tb = self.tb
        b = tb.batch
        rows = view.rows
        n = tb.size
        k_max = tb.k_move
        uarr = np.array(units)
        ks = tb.ks[uarr][None, :]
        idx = view.idx[:, uarr]
        d_cell = tb.ord_dest[:, :, :k_max][ks, idx]  # [g, j, k]
        d_fac = tb.ord_fac[:, :, :k_max][ks, idx]
        d_rounds = tb.ord_d[:, :, :k_max][ks, idx]
        safe = np.where(d_cell >= 0, d_cell, n)
        moving_opt = d_cell != st.cell[:, uarr][:, :, None]
        ok = (d_cell >= 0) & ~(
            moving_opt & st.wreck_cells[rows[:, None, None], np.minimum(safe, n - 1)]
        )
        if self.no_berms[side]:
            ok &= ~(moving_opt & tb.elevating[safe])
        caution = np.where((b.kind[uarr] == TANK)[None, :] & (st.damage[:, uarr] == 0), 0.35, 0.8)
        s_ = still[:, uarr]
        amplitude = np.where(s_ < 2, 0.3, 0.3 + np.minimum(s_, 8))  # stale_amplitude
        cols = (uarr * NOISE_PER_UNIT + 8)[:, None] + np.arange(k_max)[None, :]  # [j, k]
        nz = noise[:, cols]  # [g, j, k]
        score = (
            d_rounds
            + caution[:, :, None] * danger[rows[:, None, None], safe]
            + amplitude[:, :, None] * nz
        )
        score = np.where(ok, score, np.inf)
        mover = b.kind[uarr] != AT
        here_all = st.cell[:, uarr]
        alive_all = view.alive[:, uarr]
        for k in range(len(units)):
            j = order[:, k]
            cand = d_cell[rows, j]  # [g, k]
            sc = score[rows, j]
            here = here_all[rows, j]
            moving = cand != here[:, None]
            blocked = moving & claimed[rows[:, None], safe[rows, j]]
            sc = np.where(blocked, np.inf, sc)
            pick = sc.argmin(axis=1)
            has = np.isfinite(sc[rows, pick]) & mover[j] & alive_all[rows, j]
            to = np.where(has, cand[rows, pick], here)
            u = uarr[j]
            dest[rows, u] = np.where(mover[j], to, dest[rows, u])
            dest_fac[rows, u] = np.where(has, d_fac[rows, j, pick], dest_fac[rows, u])
            moved = has & (to != here)
            claimed[rows[moved], here[moved]] = False
            claimed[rows[moved], to[moved]] = True
        return d_cell, d_fac, ok

    def _at_order(
        self,
        st: BatchState,
        view: View,
        noise: FloatArray,
        u: int,
        side: int,
        likely: FloatArray,
        danger: IntArray,
        dest: IntArray,
        dest_fac: IntArray,
    ) -> None:
        tb = self.tb
        rows = view.rows
        n = tb.size
        live = view.alive[:, u]
        here = st.cell[:, u]
        facing = st.facing[:, u]
        zone_value = np.where(view.valid[:, u], likely[rows[:, None], view.tgt[:, u]], 0.0).sum(1)
        stay = live & (zone_value > 0.25)
        # face the threat: the other facings' zones (same blockers)
        words = view.words
        turned = (facing[:, None] + _TURNS[None, :]) % 8  # [g, 3]: the other facings
        idx = here[:, None] * 8 + turned
        tgt = tb.tgt[AT, idx]  # [g, 3, t]
        acc = tb.bet_words[0][AT, idx] & words[:, 0, None, None]
        for w in range(1, tb.words):
            acc |= tb.bet_words[w][AT, idx] & words[:, w, None, None]
        valid = (tgt < n) & (acc == 0)
        v = np.where(valid, likely[rows[:, None, None], tgt], 0.0).sum(2)  # [g, 3]
        # the first turn (2, 4, 6 eighths) whose zone beats 0.25 and every earlier one
        top = v.argmax(axis=1)
        best_f = np.where(v[rows, top] > 0.25, turned[rows, top], facing)
        turn_in_place = live & ~stay & (best_f != facing)
        # else advance (staying put is the default; in-place turns are not moves)
        d_cell, d_fac, d_rounds, ok = self._options(st, view, u, side)
        ok &= d_cell != here[:, None]
        safe = np.where(d_cell >= 0, d_cell, n)
        base = u * NOISE_PER_UNIT + 8
        k = d_cell.shape[1]
        score = d_rounds + 0.5 * danger[rows[:, None], safe] + 0.2 * noise[:, base : base + k]
        score = np.where(ok, score, np.inf)
        pick = score.argmin(axis=1)
        r = np.arange(len(rows))
        stay_score = tb.dist[tb.ks[u], here * 8 + facing] + 0.5 * danger[rows, here]
        move = live & ~stay & ~turn_in_place & (score[r, pick] < stay_score)
        dest[:, u] = np.where(move, d_cell[r, pick], here)
        dest_fac[:, u] = np.where(move, d_fac[r, pick], np.where(turn_in_place, best_f, facing))
