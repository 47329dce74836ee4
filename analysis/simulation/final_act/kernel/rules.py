"""The Final Act kernel's rules of a round: conflicts, moves, hits, knock-outs and the end
of the game, compiled, one game at a time — the rules of the reference engine
(``rules.final_act.engine.Game.apply_round``, conflicts in ``engine_conflicts``, the end
in ``engine_end``), checked against it round by round (``orders.given_rounds``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tankmap.analysis.simulation.final_act.kernel.base import _inline, _jit
from tankmap.analysis.simulation.final_act.kernel.repair import _finish_repairs, _repair_wrecks
from tankmap.analysis.simulation.final_act.kernel.tables import AT, RM, TANK


# --- the rules of a round (rules.final_act.engine.Game.apply_round) -----------------------
@_jit
def _group_bad(
    T_forbid_tank_rm: Any,
    T_kind: Any,
    T_max_kind: Any,
    T_max_units: Any,
    T_side: Any,
    T_repair_on: Any,
    alive: Any,
    origin: Any,
    dest: Any,
    moving: Any,
    damage: Any,
    rm_left: Any,
    judged: Any,
    bad: Any,
    pu: int,
) -> bool:
    """Whether the units in play that end on cell ``pu`` (movers at their destination,
    the others where they are) form a group the rules forbid (docs/rules.md §1.5),
    counted once per pass of ``_resolve``: the answer is kept in ``bad[pu]``, and
    ``judged[pu]`` says it is there (``_resolve`` clears both at the end of a pass)."""
    if judged[pu]:
        return bool(bad[pu])
    t0 = a0 = r0 = t1 = a1 = r1 = 0
    p0 = p1 = 0  # units that may pair up for an R/M repair
    tank_in0 = tank_in1 = False
    for v in range(origin.shape[0]):
        if not alive[v] or (dest[v] if moving[v] else origin[v]) != pu:
            continue
        kv = T_kind[v]
        if T_repair_on and ((kv == TANK and damage[v] > 0) or (kv == RM and rm_left[v] > 0)):
            if T_side[v] == 0:
                p0 += 1
            else:
                p1 += 1
        if T_side[v] == 0:
            if kv == TANK:
                t0 += 1
            elif kv == AT:
                a0 += 1
            else:
                r0 += 1
        else:
            if kv == TANK:
                t1 += 1
            elif kv == AT:
                a1 += 1
            else:
                r1 += 1
        if moving[v] and kv == TANK:
            if T_side[v] == 0:
                tank_in0 = True
            else:
                tank_in1 = True
    if tank_in1:
        a0 = 0  # ATs run over by a moving enemy tank
    if tank_in0:
        a1 = 0
    n0 = t0 + a0 + r0
    n1 = t1 + a1 + r1
    forbidden = n0 > 0 and n1 > 0
    if (
        n0 > T_max_units
        or t0 > T_max_kind[TANK]
        or a0 > T_max_kind[AT]
        or r0 > T_max_kind[RM]
        or n1 > T_max_units
        or t1 > T_max_kind[TANK]
        or a1 > T_max_kind[AT]
        or r1 > T_max_kind[RM]
    ):
        forbidden = True
    if T_forbid_tank_rm and (
        (t0 > 0 and r0 > 0 and not (t0 == 1 and r0 == 1 and a0 == 0 and p0 == 2))
        or (t1 > 0 and r1 > 0 and not (t1 == 1 and r1 == 1 and a1 == 0 and p1 == 2))
    ):
        forbidden = True
    judged[pu] = True
    bad[pu] = forbidden
    return forbidden


@_jit
def _resolve(
    T_forbid_tank_rm: Any,
    T_kind: Any,
    T_max_kind: Any,
    T_max_units: Any,
    T_no_swap: Any,
    T_side: Any,
    T_repair_on: Any,
    alive: Any,
    origin: Any,
    dest: Any,
    moving: Any,
    bounce: Any,
    damage: Any,
    rm_left: Any,
    grid: Any,
) -> None:
    """Bounce movers until every cell holds an allowed group (``engine_conflicts.resolve``; with
    ``T_repair_on`` a damaged tank and an own R/M with repairs left may pair up).
    ``grid``: ``n + 4`` rows of per-cell flags, all false on entry and on return: cells
    taken (later: cells whose group a bounce changed), cells shared, cells whose group
    was judged, cells whose group is bad, then ``grid[4 + a, b]``: a mover goes from
    ``a`` to ``b``; so that finding a shared cell or a swap is one pass (a mover has a
    swap partner when the reverse move is flagged, which is rare, where a mover leaving
    its destination is common), a mover alone on its cell (never a bad group) skips the
    group count and a cell's group is counted once per pass, not once per mover.

    After the first pass's bounces, when a unit alone is always allowed, the later passes
    look only at the movers into a cell that a bounce changed (the bounced unit's origin
    and destination): no other cell's group changed, and no swap is left (the first pass
    bounced every mover in one, and movers only drop out)."""
    units = origin.shape[0]
    taken = grid[0]
    shared = grid[1]
    judged = grid[2]
    bad = grid[3]
    going = grid[4:]
    lone_ok = T_max_units >= 1 and T_max_kind.min() >= 1  # (a unit alone is allowed)
    while True:
        # any two units on one cell, or two movers swapping cells (one pass per unit;
        # the flags are or-ed in rather than tested: which units move follows no pattern
        # the processor could predict)
        trigger = False
        for u in range(units):
            going[origin[u], dest[u]] |= moving[u]
        for u in range(units):
            a = alive[u]
            mv = moving[u]
            pu = dest[u] if mv else origin[u]
            twice = taken[pu] & a
            shared[pu] |= twice
            taken[pu] |= a
            trigger |= twice | (mv & going[dest[u], origin[u]])  # (or two movers swapping)
        any_bounce = False
        if trigger:
            # every mover in a swap or in a bad group stays (only a
            # mover with a possible swap partner or into a shared cell is looked at)
            for u in range(units):
                bounce[u] = False
                pu = dest[u]
                if not (moving[u] & (going[pu, origin[u]] | shared[pu] | (not lone_ok))):
                    continue
                swap = False
                if going[pu, origin[u]]:  # (else no mover swaps with u)
                    for v in range(units):
                        if (
                            moving[v]
                            and pu == origin[v]
                            and dest[v] == origin[u]
                            and T_no_swap[u, v]
                        ):
                            swap = True
                            break
                if swap:
                    bounce[u] = True
                    any_bounce = True
                    continue
                if lone_ok and not shared[pu]:
                    continue
                if _group_bad(
                    T_forbid_tank_rm, T_kind, T_max_kind, T_max_units, T_side, T_repair_on,
                    alive, origin, dest, moving, damage, rm_left, judged, bad, pu,
                ):  # fmt: skip
                    bounce[u] = True
                    any_bounce = True
        for u in range(units):
            pu = dest[u] if moving[u] else origin[u]
            taken[pu] = False
            shared[pu] = False
            judged[pu] = False
            bad[pu] = False
            going[origin[u], dest[u]] = False
        if not any_bounce:
            return
        if lone_ok:
            break
        for u in range(units):
            if bounce[u]:
                moving[u] = False
    changed = taken
    while True:
        # the later passes: only movers into a cell whose group a bounce changed
        for u in range(units):
            b = bounce[u]
            moving[u] &= not b
            changed[origin[u]] |= b
            changed[dest[u]] |= b
        any_bounce = False
        for u in range(units):
            bounce[u] = False
            pu = dest[u]
            if not (moving[u] & changed[pu]):
                continue
            if _group_bad(
                T_forbid_tank_rm, T_kind, T_max_kind, T_max_units, T_side, T_repair_on,
                alive, origin, dest, moving, damage, rm_left, judged, bad, pu,
            ):  # fmt: skip
                bounce[u] = True
                any_bounce = True
        for u in range(units):
            changed[origin[u]] = False
            changed[dest[u]] = False
            judged[dest[u]] = False
            bad[dest[u]] = False
        if not any_bounce:
            return


@_inline
def _knock_out(
    T_kind: Any,
    T_side: Any,
    T_wrecks: Any,
    g: int | np.int64,
    u: int,
    by: int,
    rnd: int,
    cell: Any,
    alive: Any,
    wreck: Any,
    wreck_cells: Any,
    kills: Any,
    d_count: Any,
    d_unit: Any,
    d_cell: Any,
    d_round: Any,
    d_by: Any,
    as_wreck: bool,
) -> None:
    if not alive[u]:
        return
    alive[u] = False
    kills[g, T_side[by]] += 1
    if T_wrecks and (T_kind[u] == TANK or as_wreck):
        wreck[u] = True
        wreck_cells[cell[u]] = True
    i = d_count[g]
    d_unit[g, i] = u
    d_cell[g, i] = cell[u]
    d_round[g, i] = rnd
    d_by[g, i] = by
    d_count[g] = i + 1


@_inline
def rule_tables(T: Any) -> Any:
    """``_apply``'s tables from the kernel's ``Tables``."""
    return (
        T.forbid_tank_rm, T.hits, T.kind, T.max_kind, T.max_units, T.no_swap, T.side, T.wrecks,
        T.repair_on,
    )  # fmt: skip


@_jit
def _apply(
    RT: Any,
    g: int | np.int64,
    rnd: int,
    cell: Any,
    facing: Any,
    damage: Any,
    alive: Any,
    wreck: Any,
    wreck_cells: Any,
    kills: Any,
    dest: Any,
    dest_fac: Any,
    shells: Any,
    moving: Any,
    bounce: Any,
    d_count: Any,
    d_unit: Any,
    d_cell: Any,
    d_round: Any,
    d_by: Any,
    rm_left: Any,
    repair: Any,
    rwreck: Any,
    grid: Any,
    links: Any,
) -> None:
    """One round's rules (``Game.apply_round``). With ``T_repair_on``: ``repair[u]`` marks the
    tanks declared repaired (R/M repair), ``rm_left`` the R/Ms' repairs left, ``rwreck``
    scratch space (the repairing R/Ms); ``grid`` as for ``_resolve``; ``links`` -1 on
    entry and on return: the units on each cell, in unit order, as linked lists (the first
    unit of cell ``c`` is ``links[c]``, the one after unit ``u`` is ``links[n + u]``).
    ``RT``: the tables it reads (``rule_tables``), one tuple so that the call has few enough
    arguments for numba to compile it into its caller."""
    (
        T_forbid_tank_rm, T_hits, T_kind, T_max_kind, T_max_units, T_no_swap, T_side, T_wrecks,
        T_repair_on,
    ) = RT  # fmt: skip
    units = cell.shape[0]
    for u in range(units):
        stay = dest[u] == cell[u]
        moving[u] = alive[u] and not stay
        if alive[u] and stay:
            facing[u] = dest_fac[u]  # an order that keeps the cell may turn
    _resolve(
        T_forbid_tank_rm,
        T_kind,
        T_max_kind,
        T_max_units,
        T_no_swap,
        T_side,
        T_repair_on,
        alive,
        cell,
        dest,
        moving,
        bounce,
        damage,
        rm_left,
        grid,
    )
    for u in range(units):
        if moving[u]:
            cell[u] = dest[u]
            facing[u] = dest_fac[u]
    n = grid.shape[1]
    for u in range(units - 1, -1, -1):  # each cell's units, in unit order
        links[n + u] = links[cell[u]]
        links[cell[u]] = u
    # enemy tanks that moved onto enemy ATs eliminate them
    for v in range(units):
        if not (alive[v] and T_kind[v] == AT):
            continue
        u = links[cell[v]]
        while u >= 0:
            if moving[u] and T_kind[u] == TANK and T_side[u] != T_side[v]:
                _knock_out(
                    T_kind,
                    T_side,
                    T_wrecks,
                    g,
                    v,
                    u,
                    rnd,
                    cell,
                    alive,
                    wreck,
                    wreck_cells,
                    kills,
                    d_count,
                    d_unit,
                    d_cell,
                    d_round,
                    d_by,
                    False,
                )
                break
            u = links[n + u]
    # R/Ms repairing this round: knocked out with their tank, they stay as wrecks
    repairing = T_repair_on and _repair_wrecks(
        T_kind, T_side, cell, damage, alive, rm_left, repair, rwreck
    )
    # hits, shell by shell in unit order
    for s in range(units):
        target = shells[s]
        if target < 0 or target >= n:
            continue  # (no unit stands off the board)
        first_tank = -1
        first_at = -1
        first_any = -1
        u = links[target]
        while u >= 0:
            if alive[u] and T_side[u] != T_side[s]:
                if first_any < 0:
                    first_any = u
                if T_kind[u] == TANK and first_tank < 0:
                    first_tank = u
                if T_kind[u] == AT and first_at < 0:
                    first_at = u
            u = links[n + u]
        if first_any < 0:
            continue
        # who the shell hits (``bounce`` is free scratch space after the moves): a tank
        # there takes it, and at its last hit everything of that side on the cell goes
        # with it; else one AT (the first) and every R/M there (no tank covers them)
        covered = first_tank >= 0
        tank_out = False
        if covered:
            damage[first_tank] += 1
            tank_out = damage[first_tank] >= T_hits[first_tank]
        u = links[target]
        while u >= 0:
            hit = alive[u] and T_side[u] != T_side[s]
            bounce[u] = hit and (tank_out if covered else u == first_at or T_kind[u] == RM)
            u = links[n + u]
        u = links[target]
        while u >= 0:
            if bounce[u]:
                if not covered:
                    damage[u] += 1
                if covered or damage[u] >= T_hits[u]:
                    _knock_out(
                        T_kind,
                        T_side,
                        T_wrecks,
                        g,
                        u,
                        s,
                        rnd,
                        cell,
                        alive,
                        wreck,
                        wreck_cells,
                        kills,
                        d_count,
                        d_unit,
                        d_cell,
                        d_round,
                        d_by,
                        covered and repairing and rwreck[u],
                    )
            u = links[n + u]
    for u in range(units):
        links[cell[u]] = -1
    if T_repair_on:
        _finish_repairs(T_kind, T_side, cell, damage, alive, rm_left, repair)


@_inline
def _check_end(
    T_goal: Any,
    T_had_tanks: Any,
    T_kind: Any,
    T_max_rounds: Any,
    T_side: Any,
    rnd: int,
    cell: Any,
    alive: Any,
    tie_base: Any,
) -> tuple[int, int]:
    """``(end, winner)`` after round ``rnd`` (end 0 = the game goes on).
    ``tie_base[u]``: unit ``u`` is a tank on the enemy's last line (before the round on
    entry, now on return); the side that landed more tanks (on the line now, not before)
    wins — docs/rules.md §1.7, ``simultaneous_landing`` ``count`` (``engine_end``)."""
    units = cell.shape[0]
    tanks0 = tanks1 = 0
    landed0 = landed1 = 0
    for u in range(units):
        there = False
        if alive[u] and T_kind[u] == TANK:
            if T_side[u] == 0:
                tanks0 += 1
            else:
                tanks1 += 1
            there = T_goal[T_side[u], cell[u]]
            if there and not tie_base[u]:
                if T_side[u] == 0:
                    landed0 += 1
                else:
                    landed1 += 1
        tie_base[u] = there
    if landed0 != landed1:
        return 1, 0 if landed0 > landed1 else 1
    lost0 = tanks0 == 0 and T_had_tanks[0]
    lost1 = tanks1 == 0 and T_had_tanks[1]
    if lost0 or lost1:
        winner = -1
        if lost0 != lost1:
            winner = 1 if lost0 else 0
        return 2, winner
    if rnd >= T_max_rounds:
        return 3, -1
    return 0, -1
