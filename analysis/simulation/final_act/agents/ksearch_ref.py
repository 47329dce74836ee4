"""The ``ksearch`` decision written plainly (``kernel/plan_search.py`` compiles it): the
same sampled plans, the same sweep over the tanks in the same order, the same candidates
in the same order, the same scores, so the two decide the same
(``tests/simulation/test_ksearch.py``). The heuristic's plans are drawn by the compiled
``sample_plans`` (only the kernel reads its noise) and candidates are scored by
``lookahead.lookahead_values``, one call per tank: what is written here is the search
around them.

``decide(prep, state, side, skey, samples, nobs, memory, shape)`` returns the decision and
the rows scored, as ``plan_search``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.kernel.lookahead import lookahead_values
from tankmap.analysis.simulation.final_act.kernel.orders import position_of
from tankmap.analysis.simulation.final_act.kernel.packed import tables
from tankmap.analysis.simulation.final_act.kernel.plan_search import (
    DEFAULT_SHAPE,
    TIE_STRIDE,
    Decision,
    Shape,
    plan_keys,
    sample_plans,
)
from tankmap.analysis.simulation.final_act.kernel.tables import TANK, tables_of
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.analysis.simulation.noise import uniform
from tankmap.rules.final_act.engine import State


def decide(
    prep: Prepared,
    state: State,
    side: int,
    skey: int,
    samples: int,
    nobs: npt.NDArray[np.bool_],
    memory: tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]],
    shape: Shape = DEFAULT_SHAPE,
) -> tuple[Decision, int]:
    """Side ``side``'s decision from ``state`` (as ``plan_search.plan_search``)."""
    T = tables(tables_of(prep))
    keys = plan_keys(skey, samples)
    plans = sample_plans(prep, state, nobs, keys.plans, samples, memory)
    fut_keys = np.array(keys.futures, dtype=np.uint64)
    mine = [u for u in range(len(state.kind)) if int(T.side[u]) == side]

    def values(cands: list[Decision], f0: int, f1: int) -> list[float]:
        """Each candidate's sum of values over futures ``f0 .. f1 - 1``."""
        rows: list[list[npt.NDArray[np.generic]]] = [[], [], [], []]
        for cand in cands:
            for f in range(f0, f1):
                for col, (own, theirs) in enumerate(zip(cand, plans, strict=True)):
                    row = theirs[f].copy()
                    row[mine] = own[mine]
                    rows[col].append(row)
        dest, facing, shells, repair = (np.array(col) for col in rows)
        found = lookahead_values(
            prep, state, side, dest, facing, shells, np.tile(fut_keys[f0:f1], len(cands)),
            shape.ahead, repair.astype(np.bool_),
        )  # fmt: skip
        return [float(np.add.reduce(v)) for v in found.reshape(len(cands), f1 - f0)]

    def race(cands: list[Decision], racing: int) -> tuple[int, float, int]:
        """The first best candidate left, its mean, the rows scored (``_race``)."""
        sums = [0.0] * len(cands)
        live = list(range(len(cands)))
        f0, f1 = 0, samples if racing <= 0 else min(racing, samples)
        rows = 0
        while True:
            for c, v in zip(live, values([cands[c] for c in live], f0, f1), strict=True):
                sums[c] += v
            rows += len(live) * (f1 - f0)
            if f1 >= samples:
                break
            live = sorted(sorted(live, key=lambda c: -sums[c])[: (len(live) + 1) // 2])
            f0, f1 = f1, min(2 * f1, samples)
        k = max(live, key=sums.__getitem__)  # the first best
        return k, sums[k] / samples, rows

    plan = _copy(Decision(plans.dest[0], plans.facing[0], plans.shells[0], plans.repair[0]))
    best, scored = race([plan], 0)[1:]
    cells, facings = state.cell, [int(f) for f in state.facing]
    tanks = [u for u in mine if state.alive[u] and int(T.kind[u]) == TANK]
    tanks.sort(
        key=lambda u: (float(T.dist[T.ks[u], cells[u] * 8 + facings[u]]), uniform(keys.ties, u))
    )
    wrecks = position_of(T, state).wreck_cells
    for _ in range(shape.passes):
        changed = False
        for u in tanks:
            ks, here = int(T.ks[u]), cells[u]
            idx = here * 8 + facings[u]
            options = []
            for j in range(T.k):
                d, f = int(T.ord_dest[ks, idx, j]), int(T.ord_fac[ks, idx, j])
                if d < 0 or (d != here and (wrecks[d] or (nobs[side] and T.elevating[d]))):
                    continue
                if (d, f) != (plan.dest[u], plan.facing[u]):
                    options.append((uniform(keys.ties, TIE_STRIDE * (1 + u) + j), d, f))
            if not options:
                continue
            options.sort()
            cands = []
            for _t, d, f in options:
                cand = _copy(plan)
                cand.dest[u], cand.facing[u], cand.repair[u] = d, f, False
                cands.append(cand)
            k, mean, rows = race(cands, shape.race)
            scored += rows
            if mean > best:
                best, plan, changed = mean, cands[k], True
        if not changed:
            break
    return plan, scored


def _copy(d: Decision) -> Decision:
    return Decision(d.dest.copy(), d.facing.copy(), d.shells.copy(), d.repair.copy())
