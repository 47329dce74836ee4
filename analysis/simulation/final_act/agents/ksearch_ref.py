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

from tankmap.analysis.simulation.final_act.agents.reference import RoundView
from tankmap.analysis.simulation.final_act.kernel.lookahead import lookahead_values
from tankmap.analysis.simulation.final_act.kernel.orders import position_of
from tankmap.analysis.simulation.final_act.kernel.packed import tables
from tankmap.analysis.simulation.final_act.kernel.plan_search import (
    DEFAULT_SHAPE,
    SHELL_TIES,
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

    def best_of(cands: list[Decision]) -> tuple[int, float]:
        """The first candidate of the best mean value over the sampled futures, its mean."""
        rows: list[list[npt.NDArray[np.generic]]] = [[], [], [], []]
        for cand in cands:
            for f in range(samples):
                for col, (own, theirs) in enumerate(zip(cand, plans, strict=True)):
                    row = theirs[f].copy()
                    row[mine] = own[mine]
                    rows[col].append(row)
        dest, facing, shells, repair = (np.array(col) for col in rows)
        found = lookahead_values(
            prep, state, side, dest, facing, shells, np.tile(fut_keys, len(cands)),
            shape.ahead, repair.astype(np.bool_),
        )  # fmt: skip
        means = [float(np.add.reduce(v)) / samples for v in found.reshape(len(cands), samples)]
        k = max(range(len(cands)), key=means.__getitem__)  # the first best
        return k, means[k]

    plan = _copy(Decision(plans.dest[0], plans.facing[0], plans.shells[0], plans.repair[0]))
    best = best_of([plan])[1]
    scored = samples
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
            k, mean = best_of(cands)
            scored += len(cands) * samples
            if mean > best:
                best, plan, changed = mean, cands[k], True
        if shape.shells:
            zones = RoundView(state, prep).zones
            planned = {
                int(plans.dest[f, v]) for f in range(samples) for v in range(len(state.kind))
                if int(T.side[v]) != side
            }  # fmt: skip
            for u in tanks:
                aim = int(plan.shells[u])
                if aim < 0:
                    continue
                targets = sorted(
                    (uniform(keys.ties, SHELL_TIES + u * (T.n + 1) + c), c)
                    for c in zones[u]
                    if c != aim and c in planned
                )
                if not targets:
                    continue
                cands = []
                for _t, c in targets:
                    cand = _copy(plan)
                    cand.shells[u] = c
                    cands.append(cand)
                k, mean = best_of(cands)
                scored += len(cands) * samples
                if mean > best:
                    best, plan, changed = mean, cands[k], True
        if not changed:
            break
    return plan, scored


def _copy(d: Decision) -> Decision:
    return Decision(d.dest.copy(), d.facing.copy(), d.shells.copy(), d.repair.copy())
