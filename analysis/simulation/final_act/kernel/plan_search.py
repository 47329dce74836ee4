"""The ``ksearch`` agent's whole decision in one compiled call (``agents/ksearch.py`` says
what it plays and why): sample the heuristic's plans, improve the side's plan tank by
tank (orders, then shells) on the sampled futures, return the orders and shells.

``plan_search(prep, state, side, skey, samples, nobs, memory, shape)`` plays it from a
reference-engine position; ``sample_plans`` is its first step on its own (for the
plain-Python reference, ``agents/ksearch_ref.py``). Candidates are scored by the search
agent's look-ahead (``lookahead._lookahead``: the forced round, ``Shape.ahead`` heuristic
rounds, ``agents.search.value``), so a score is exactly ``lookahead.lookahead_values``'s.

Noise: the keys ``plan_keys(skey, samples)`` derives (plans, futures, ties); every
number is a counter of one of them, so a decision is a pure function of the position,
the heuristic's memory, ``skey`` and the budget.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.kernel.base import _jit, _noise, _psum
from tankmap.analysis.simulation.final_act.kernel.lookahead import _lookahead, _work
from tankmap.analysis.simulation.final_act.kernel.orders import position_of
from tankmap.analysis.simulation.final_act.kernel.packed import tables
from tankmap.analysis.simulation.final_act.kernel.round import _heuristic_round, _scratch
from tankmap.analysis.simulation.final_act.kernel.tables import TANK, tables_of
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.analysis.simulation.noise import MASK, mix64
from tankmap.rules.final_act.engine import State


class Shape(NamedTuple):
    """The search's settings besides its budget (the defaults are ``ksearch``'s):
    heuristic rounds played after the forced round before a candidate is valued
    (``ahead``, as ``search``'s ``LOOKAHEAD``), sweeps over the tanks (``passes``; one
    that changes nothing ends the search), and whether each sweep ends with the tanks'
    shells (``shells``: in the tanks' order, every other cell of the tank's fire zone
    that an enemy unit ends on in a sampled plan, tried in place of its shell)."""

    ahead: int = 1
    passes: int = 2
    shells: bool = True


DEFAULT_SHAPE = Shape()

SALT_PLANS = 0x6B73_6561_7263_6801
SALT_FUTURES = 0x6B73_6561_7263_6802
SALT_TIES = 0x6B73_6561_7263_6803
TIE_STRIDE = 64
SHELL_TIES = 1 << 32
"""Counters of the tie key: ``u`` for tank ``u``'s place in the sweep, ``TIE_STRIDE *
(1 + u) + j`` for its order ``j``, ``SHELL_TIES + u * (cells + 1) + c`` for its shell on
cell ``c``."""

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


class Keys(NamedTuple):
    """The keys of one decision: the heuristic's plans, each sampled future's look-ahead,
    the ties."""

    plans: int
    futures: list[int]
    ties: int


def plan_keys(skey: int, samples: int) -> Keys:
    """The keys of the decision keyed ``skey`` with ``samples`` sampled futures."""
    plans = mix64(skey ^ mix64(SALT_PLANS))
    futures = [mix64(skey ^ mix64(SALT_FUTURES + f)) for f in range(samples)]
    return Keys(plans, futures, mix64(skey ^ mix64(SALT_TIES)) & MASK)


@_jit
def _sample_plans(
    T: Any,
    S: Any,
    nobs: Any,
    plan_key: np.uint64,
    state0: Any,
    still0: Any,
    best0: Any,
    plans: Any,
) -> None:
    """``plans`` = (dest, facing, shells, repair) ``[f, unit]``: the heuristic's orders of
    both sides in sample ``f`` (noise counter ``f * T.width`` of ``plan_key``; ``nobs``
    per side), each from the heuristic's memory ``still0``/``best0`` (rounds without
    progress, best distance so far); the memory after sample 0 is left in
    ``still0``/``best0``."""
    still, best_d, dest, dest_fac, shells, repair = S[0], S[1], S[2], S[3], S[4], S[19]
    p_dest, p_fac, p_shells, p_repair = plans
    memory_still = still0.copy()
    memory_best = best0.copy()
    for f in range(p_dest.shape[0]):
        still[:] = still0
        best_d[:] = best0
        repair[:] = False  # (_heuristic_round clears it only with R/M repair on)
        _heuristic_round(T, S, plan_key, f * T.width, nobs, state0)
        p_dest[f, :] = dest
        p_fac[f, :] = dest_fac
        p_shells[f, :] = shells
        p_repair[f, :] = repair
        if f == 0:
            memory_still[:] = still
            memory_best[:] = best_d
    still0[:] = memory_still
    best0[:] = memory_best


@_jit
def _score(
    T: Any,
    me: int,
    rnd0: int,
    ahead: int,
    state0: Any,
    plans: Any,
    fut_keys: Any,
    cands: Any,
    count: int | np.int64,
    rows: Any,
    means: Any,
) -> int:
    """``means[c]``: candidate ``c``'s mean look-ahead value (``ahead`` heuristic rounds)
    over the sampled futures, for ``c < count`` (summed in numpy's order). ``cands`` =
    (dest, facing, shells, repair) ``[c, unit]``: every unit's order, shell and repair;
    the side ``me``'s entries are the candidate's, the others are replaced by each
    future's enemy plan. ``rows`` = (dest, facing, shells, repair, keys, values) work
    arrays of at least ``count * samples`` rows. Returns the first candidate of the best
    mean."""
    cell0, facing0, damage0, alive0, wreck0, wreck_cells0, tie0, rm_left0 = state0
    p_dest, p_fac, p_shells, p_repair = plans
    c_dest, c_fac, c_shells, c_repair = cands
    r_dest, r_fac, r_shells, r_repair, r_keys, r_values = rows
    samples = fut_keys.shape[0]
    units = cell0.shape[0]
    n = count * samples
    for c in range(count):
        for f in range(samples):
            g = c * samples + f
            for u in range(units):
                if T.side[u] == me:
                    r_dest[g, u] = c_dest[c, u]
                    r_fac[g, u] = c_fac[c, u]
                    r_shells[g, u] = c_shells[c, u]
                    r_repair[g, u] = c_repair[c, u]
                else:
                    r_dest[g, u] = p_dest[f, u]
                    r_fac[g, u] = p_fac[f, u]
                    r_shells[g, u] = p_shells[f, u]
                    r_repair[g, u] = p_repair[f, u]
            r_keys[g] = fut_keys[f]
    _lookahead(
        T, me, rnd0, ahead, r_keys[:n], cell0, facing0, damage0, alive0, wreck0,
        wreck_cells0, tie0, rm_left0, r_dest[:n], r_fac[:n], r_shells[:n], r_repair[:n],
        r_values[:n], _work(T, cell0.shape[0]), _scratch(T, cell0.shape[0]),
    )  # fmt: skip
    best = 0
    for c in range(count):
        means[c] = _psum(r_values[c * samples :], samples) / samples
        if means[c] > means[best]:
            best = c
    return best


@_jit
def _insert_by_noise(
    opt: Any, opt_t: Any, count: np.int64, value: int | np.int64, noise: float
) -> np.int64:
    """Insert ``value`` with tie noise ``noise`` into ``opt[:count]``, kept in ascending
    noise order (``opt_t``: the noises; an equal noise goes after the ones already there).
    Returns the new count, ``count + 1``; the arrays must have room for it."""
    k = count
    while k > 0 and opt_t[k - 1] > noise:
        opt[k], opt_t[k] = opt[k - 1], opt_t[k - 1]
        k -= 1
    opt[k], opt_t[k] = value, noise
    return count + 1


@_jit
def _copy_plan(out: Any, cands: Any, count: np.int64) -> None:
    """Candidate rows ``0 .. count - 1`` of ``cands`` = the plan ``out`` (dest, facing,
    shells, repair: every unit's entry)."""
    o_dest, o_fac, o_shells, o_repair = out
    c_dest, c_fac, c_shells, c_repair = cands
    for c in range(count):
        c_dest[c] = o_dest
        c_fac[c] = o_fac
        c_shells[c] = o_shells
        c_repair[c] = o_repair


@_jit
def _take(out: Any, cands: Any, k: int | np.int64, u: int | np.int64) -> None:
    """Unit ``u``'s order, shell and repair in the plan ``out`` = its entries in candidate
    row ``k`` of ``cands``."""
    out[0][u] = cands[0][k, u]
    out[1][u] = cands[1][k, u]
    out[2][u] = cands[2][k, u]
    out[3][u] = cands[3][k, u]


@_jit
def _plan_search(
    T: Any,
    S: Any,
    me: int,
    rnd0: int,
    ahead: int,
    passes: int,
    shells: bool,
    nobs: Any,
    state0: Any,
    still0: Any,
    best0: Any,
    plan_key: np.uint64,
    fut_keys: Any,
    tie_key: np.uint64,
    out: Any,
) -> int:
    """Side ``me``'s orders, shells and repairs (``out``, every unit's entry; the side's
    are the decision) from ``state0``: the heuristic's plan of sample 0, then up to
    ``passes`` sweeps over the side's tanks (nearest the goal first, ties by noise): each
    tank's other usable orders tried in its place (in noise order), then with
    ``shells`` each firing tank's other targets (``Shape``), the first best kept when
    its mean value beats the plan's. A tank given another order declares no repair.
    Returns the rows scored (candidates times futures)."""
    cell0, facing0, _damage0, alive0, _wreck0, wreck_cells0, _tie0, _rm_left0 = state0
    o_dest, o_fac, o_shells, o_repair = out
    samples = fut_keys.shape[0]
    units = cell0.shape[0]
    plans = (
        np.empty((samples, units), dtype=np.int64),
        np.empty((samples, units), dtype=np.int64),
        np.empty((samples, units), dtype=np.int64),
        np.empty((samples, units), dtype=np.bool_),
    )
    _sample_plans(T, S, nobs, plan_key, state0, still0, best0, plans)
    width = max(T.k, T.tgt.shape[2]) + 1
    c_dest = np.empty((width, units), dtype=np.int64)
    c_fac = np.empty((width, units), dtype=np.int64)
    c_shells = np.empty((width, units), dtype=np.int64)
    c_repair = np.empty((width, units), dtype=np.bool_)
    cands = (c_dest, c_fac, c_shells, c_repair)
    means = np.empty(width, dtype=np.float64)
    rows = (
        np.empty((width * samples, units), dtype=np.int64),
        np.empty((width * samples, units), dtype=np.int64),
        np.empty((width * samples, units), dtype=np.int64),
        np.empty((width * samples, units), dtype=np.bool_),
        np.empty(width * samples, dtype=np.uint64),
        np.empty(width * samples, dtype=np.float64),
    )
    o_dest[:] = plans[0][0]
    o_fac[:] = plans[1][0]
    o_shells[:] = plans[2][0]
    o_repair[:] = plans[3][0]
    c_dest[0] = o_dest
    c_fac[0] = o_fac
    c_shells[0] = o_shells
    c_repair[0] = o_repair
    one = np.int64(1)  # (not the literal 1: one compiled _score)
    _score(T, me, rnd0, ahead, state0, plans, fut_keys, cands, one, rows, means)
    best = means[0]
    scored = samples
    # the side's tanks, nearest their goal first (ties by noise: no side or direction wins)
    tanks = np.empty(units, dtype=np.int64)
    keyd = np.empty(units, dtype=np.float64)
    noise = np.empty(units, dtype=np.float64)
    m = 0
    for u in range(units):
        if alive0[u] and T.side[u] == me and T.kind[u] == TANK:
            d = T.dist[T.ks[u], cell0[u] * 8 + facing0[u]]
            t = _noise(tie_key, u)
            i = m
            while i > 0 and (keyd[i - 1] > d or (keyd[i - 1] == d and noise[i - 1] > t)):
                tanks[i], keyd[i], noise[i] = tanks[i - 1], keyd[i - 1], noise[i - 1]
                i -= 1
            tanks[i], keyd[i], noise[i] = u, d, t
            m += 1
    opt = np.empty(width, dtype=np.int64)
    opt_t = np.empty(width, dtype=np.float64)
    for _p in range(passes):
        changed = False
        for i in range(m):
            u = tanks[i]
            ks = T.ks[u]
            here = cell0[u]
            idx = here * 8 + facing0[u]
            count = np.int64(0)  # (an int64 count: one compiled _score and helpers)
            for j in range(T.k):
                d = T.ord_dest[ks, idx, j]
                if d < 0 or (d != here and (wreck_cells0[d] or (nobs[me] and T.elevating[d]))):
                    continue
                if d == o_dest[u] and T.ord_fac[ks, idx, j] == o_fac[u]:
                    continue
                t = _noise(tie_key, TIE_STRIDE * (1 + u) + j)
                count = _insert_by_noise(opt, opt_t, count, j, t)
            if count == 0:
                continue
            _copy_plan(out, cands, count)
            for c in range(count):
                c_dest[c, u] = T.ord_dest[ks, idx, opt[c]]
                c_fac[c, u] = T.ord_fac[ks, idx, opt[c]]
                c_repair[c, u] = False
            k = _score(T, me, rnd0, ahead, state0, plans, fut_keys, cands, count, rows, means)
            scored += count * samples
            if means[k] > best:
                best = means[k]
                _take(out, cands, k, u)
                changed = True
        if shells:
            vtgt, vn = S[8], S[23]  # (the targets of the position: _sample_plans's _view)
            for i in range(m):
                u = tanks[i]
                if o_shells[u] < 0:
                    continue
                count = np.int64(0)
                for t in range(vn[u]):
                    target = np.int64(vtgt[u, t])
                    if target == o_shells[u] or not _planned(T, me, plans, target):
                        continue
                    noise_t = _noise(tie_key, SHELL_TIES + u * (T.n + 1) + target)
                    count = _insert_by_noise(opt, opt_t, count, target, noise_t)
                if count == 0:
                    continue
                _copy_plan(out, cands, count)
                for c in range(count):
                    c_shells[c, u] = opt[c]
                k = _score(T, me, rnd0, ahead, state0, plans, fut_keys, cands, count, rows,
                           means)  # fmt: skip
                scored += count * samples
                if means[k] > best:
                    best = means[k]
                    _take(out, cands, k, u)
                    changed = True
        if not changed:
            break
    total: int = scored
    return total


@_jit
def _planned(T: Any, me: int, plans: Any, c: int | np.int64) -> bool:
    """Whether an enemy unit ends on cell ``c`` in one of the sampled plans."""
    p_dest = plans[0]
    for f in range(p_dest.shape[0]):
        for v in range(p_dest.shape[1]):
            if T.side[v] != me and p_dest[f, v] == c:
                return True
    return False


class Decision(NamedTuple):
    """Every unit's order (end cell, facing), shell (-1: none) and repair declaration; the
    deciding side's entries are its decision."""

    dest: IntArray
    facing: IntArray
    shells: IntArray
    repair: BoolArray


def new_memory(units: int) -> tuple[IntArray, npt.NDArray[np.float64]]:
    """The heuristic's memory at the start of a game: no round without progress, no
    distance reached yet (``_sample_plans``)."""
    return np.zeros(units, dtype=np.int64), np.full(units, np.inf, dtype=np.float64)


def sample_plans(
    prep: Prepared,
    state: State,
    nobs: BoolArray,
    plan_key: int,
    samples: int,
    memory: tuple[IntArray, npt.NDArray[np.float64]],
) -> Decision:
    """The heuristic's plans of both sides in ``samples`` samples (``[f, unit]`` arrays)
    from the reference-engine ``state``, as ``plan_search`` draws them; ``memory`` (as
    ``new_memory``) is updated as by ``plan_search``."""
    T = tables(tables_of(prep))
    units = len(state.kind)
    plans = Decision(
        np.empty((samples, units), dtype=np.int64),
        np.empty((samples, units), dtype=np.int64),
        np.empty((samples, units), dtype=np.int64),
        np.empty((samples, units), dtype=np.bool_),
    )
    S = _scratch(T, units)
    _sample_plans(T, S, nobs, np.uint64(plan_key), tuple(position_of(T, state)), *memory,
                  tuple(plans))  # fmt: skip
    return plans


def plan_search(
    prep: Prepared,
    state: State,
    side: int,
    skey: int,
    samples: int,
    nobs: BoolArray,
    memory: tuple[IntArray, npt.NDArray[np.float64]],
    shape: Shape = DEFAULT_SHAPE,
    work: Any = None,
) -> tuple[Decision, int]:
    """Side ``side``'s decision from the reference-engine ``state`` (module docstring):
    ``samples`` sampled futures, ``shape`` the search's other settings, ``nobs[s]``: side
    ``s``'s heuristic never enters a berm. ``memory`` (as ``new_memory``, kept by the
    caller from round to round) is updated; ``work``: ``round._scratch(T, units)`` to
    reuse (allocated when ``None``). Returns the decision and how many rows (a candidate
    on a sampled future) were scored. Only for games the kernel models (no advanced
    options but R/M repair, default readings)."""
    T = tables(tables_of(prep))
    units = len(state.kind)
    keys = plan_keys(skey, samples)
    out = Decision(
        np.zeros(units, dtype=np.int64),
        np.zeros(units, dtype=np.int64),
        np.full(units, -1, dtype=np.int64),
        np.zeros(units, dtype=np.bool_),
    )
    S = work if work is not None else _scratch(T, units)
    scored = _plan_search(
        T, S, side, state.round, shape.ahead, shape.passes, shape.shells, nobs,
        tuple(position_of(T, state)), *memory,
        np.uint64(keys.plans), np.array(keys.futures, dtype=np.uint64), np.uint64(keys.ties),
        tuple(out),
    )  # fmt: skip
    return out, int(scored)
