"""Zones, danger and likely-target maps of many Final Act games at the start of a round
(numpy; the batch agents' shared view)."""

from __future__ import annotations

import numpy as np

from tankmap.analysis.simulation.final_act.kernel.tables import BatchTables, pack_bits
from tankmap.rules.final_act.engine_batch import AT, BatchState

_TURNS = np.array([2, 4, 6], dtype=np.int64)


class View:
    """Zones, danger and likely maps of ``G`` games at the start of a round."""

    def __init__(self, tb: BatchTables, st: BatchState) -> None:
        n = tb.size
        b = tb.batch
        g = st.cell.shape[0]
        self.rows = np.arange(g)
        alive = st.alive & ~st.over[:, None]
        self.alive = alive
        idx = st.cell * 8 + st.facing
        self.idx = idx
        blockers = np.zeros((g, n + 1), dtype=bool)
        blockers[:, :n] = st.wreck_cells
        blockers |= tb.berm[None, :]
        gi, ui = np.nonzero(alive & b.blocks)
        blockers[gi, st.cell[gi, ui]] = True
        blockers[:, n] = False
        self.blockers = blockers
        kc = np.minimum(b.kind, AT)  # R/M rows are ignored below (fires is False)
        tgt = tb.tgt[kc[None, :], idx]  # [g, u, t]
        words = pack_bits(blockers, tb.words)  # [g, w]
        self.words = words
        kcs = kc[None, :]
        acc = tb.bet_words[0][kcs, idx] & words[:, 0, None, None]  # [g, u, t]
        for w in range(1, tb.words):
            acc |= tb.bet_words[w][kcs, idx] & words[:, w, None, None]
        blocked = acc != 0
        valid = (tgt < n) & ~blocked
        on_berm = tb.elevates[None, :] & tb.elevating[st.cell]
        if on_berm.any():
            elev = tb.elev[kc[None, :], idx]
            tgt = np.where(on_berm[:, :, None], elev, tgt)
            valid = np.where(on_berm[:, :, None], elev < n, valid)
        valid &= (alive & tb.fires)[:, :, None]
        self.tgt = tgt
        self.valid = valid
        # danger[g, s, cell]: shooters of side s covering the cell
        keys = (self.rows[:, None, None] * 2 + b.side[None, :, None]) * (n + 1) + tgt
        self.danger = np.bincount(
            keys.ravel(), weights=valid.ravel(), minlength=g * 2 * (n + 1)
        ).reshape(g, 2, n + 1)
        # likely[g, s, cell]: expected value of side-s units ending the round there
        lc = tb.lik_cell[tb.ks[None, :], idx]  # [g, u, l]
        lp = tb.lik_p[tb.ks[None, :], idx] * (tb.value * 1.0)[None, :, None]
        lp = lp * (1 + st.damage)[:, :, None] * alive[:, :, None]
        sides_l = np.broadcast_to(b.side[None, :, None], lc.shape)
        keys_l = ((self.rows[:, None, None] * 2 + sides_l) * (n + 1) + lc).ravel()
        self.likely = np.bincount(keys_l, weights=lp.ravel(), minlength=g * 2 * (n + 1)).reshape(
            g, 2, n + 1
        )
