"""How the reference Final Act policies use the advanced rules and tokens (docs/rules.md §1.8).

Only called when a game has §1.8 options on (``Game.adv``), so games without them draw
exactly the same random numbers as before. Four steps per round and side:

- ``pre_round`` (before anyone orders; the tokens are visible to both sides): quick sand
  and mine clearing.
- ``act`` (after the side's ``decide``): repairs (which turn the units' orders into stays
  and drop the repaired tank's shell), full throttle, air strike, double/quick shot (within
  the round's lost tanks' shells), and dropping the tank shells an officer loss or an air
  strike takes away. ``orders`` and ``shells`` are changed in place.
- ``after_moves`` (the engine's ``respond``, phase ``"moved"``: the moves are done, the
  shells not yet placed): smoke.
- ``after_hits`` (phase ``"hit"``): the Red Cross — its use on a tank, then laying it.

``random`` uses each available action with probability 1/2, choosing uniformly among its
legal uses; ``heuristic`` uses them when they help: repairs when the repair cell is not
under heavy fire (the R/M drives to the nearest damaged tank; a damaged tank with a berm
repair left retreats behind a berm out of fire), full throttle to win or
to gain two rounds without entering fire, a second shell on the best remaining likely
enemy cell, an air strike on the column where it finds the most likely enemies (worth
more than the tank shells it costs), quick sand in front of the enemy tank closest to its
goal, smoke where it is expected to stop the most enemy fire on its units (less the own
fire it stops; it does not see the shells), the Red Cross on a tank knocked out that
round before a damaged one, laid next to the damaged own tank furthest back; dropping the
least valuable shells.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tankmap.rules.final_act.engine import RoundReport, State
from tankmap.rules.final_act.engine_advanced import Actions
from tankmap.rules.final_act.engine_redcross import red_cross_cells, repairable
from tankmap.rules.final_act.tables import Order

if TYPE_CHECKING:
    from tankmap.analysis.simulation.final_act.agents.reference import RoundView
    from tankmap.analysis.simulation.final_act.prepared import Prepared

EXTRA_SHOTS = ("double_shot", "quick_shot")


def _chebyshev(st: State, a: int, b: int) -> int:
    board = st.game.board
    return max(abs(board.col_of(a) - board.col_of(b)), abs(board.row_of(a) - board.row_of(b)))


def _around(st: State, cell: int) -> list[int]:
    """The up to 8 cells next to ``cell``, in cell order."""
    b = st.game.board
    out = [b.offset(cell, dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]
    return [c for c in out if c >= 0]


def _stay(st: State, u: int) -> Order:
    return (st.cell[u], st.facing[u])


def _shells_to_drop(
    st: State, side: int, shells: dict[int, int], repairing: set[int], actions: Actions
) -> int:
    """How many of ``side``'s tank shells must go (officer loss, air strike), 0 if none."""
    able = [u for u in st.live(side) if st.kind[u] == "tank" and u not in repairing]
    fired = sum(1 for u in able if u in shells)
    return max(0, fired - st.game.adv.tank_shell_cap(st, side, len(able), actions))


def _column(st: State, side: int, col: int) -> tuple[int, list[int]]:
    """The air-strike token cell (own row 1) of column ``col`` and the column's other cells."""
    b = st.game.board
    token = b.cell(col, 0 if side == 0 else b.rows - 1)
    return token, [b.cell(col, r) for r in range(b.rows) if b.cell(col, r) != token]


def _tank_shooters(st: State, shells: dict[int, int]) -> list[int]:
    return sorted(u for u in shells if st.kind[u] == "tank")


# --- random -------------------------------------------------------------------------------
def random_pre_round(st: State, side: int, rng: np.random.Generator) -> Actions:
    adv = st.game.adv
    out = Actions()
    if adv.may_use(st, side, "quick_sand") and rng.random() < 0.5:
        out.quick_sand[side] = int(rng.integers(st.game.board.size))
    if adv.may_use(st, side, "mine_clearing") and rng.random() < 0.5:
        cells = adv.clearable(st, side)
        if cells:
            out.mine_clearing[side] = cells[int(rng.integers(len(cells)))]
    return out


def random_after_moves(st: State, side: int, rng: np.random.Generator) -> Actions:
    """Smoke on a uniformly chosen legal cell, with probability 1/2."""
    adv = st.game.adv
    out = Actions()
    if adv.may_use(st, side, "smoke") and rng.random() < 0.5:
        cells = adv.smoke_cells(st, side)
        if cells:
            out.smoke[side] = cells[int(rng.integers(len(cells)))]
    return out


def random_after_hits(
    st: State, side: int, report: RoundReport, rng: np.random.Generator
) -> Actions:
    """The Red Cross on a uniformly chosen tank it may repair, then laying it, each with
    probability 1/2."""
    adv = st.game.adv
    out = Actions()
    if side in st.adv.crosses and rng.random() < 0.5:
        tanks = [u for u in repairable(st, report) if st.side[u] == side]
        if tanks:
            out.red_cross_repair.append(tanks[int(rng.integers(len(tanks)))])
    if adv.may_use(st, side, "red_cross") and side not in st.adv.crosses and rng.random() < 0.5:
        cells = red_cross_cells(st, side)
        if cells:
            out.red_cross[side] = cells[int(rng.integers(len(cells)))]
    return out


def random_act(
    view: RoundView,
    side: int,
    orders: dict[int, Order],
    shells: dict[int, int],
    rng: np.random.Generator,
) -> Actions:
    st = view.state
    adv = st.game.adv
    out = Actions()
    mine = [u for u in view.live if st.side[u] == side]
    for u in mine:
        rm = adv.repair_partner(st, u) if st.kind[u] == "tank" else -1
        if rm >= 0 and rng.random() < 0.5:
            out.rm_repair.append(u)
            orders[u], orders[rm] = _stay(st, u), _stay(st, rm)
            shells.pop(u, None)
    berm = [u for u in mine if u not in out.rm_repair and adv.can_berm_repair(st, u)]
    if berm and rng.random() < 0.5:
        u = berm[int(rng.integers(len(berm)))]
        out.berm_repair.append(u)
        orders[u] = _stay(st, u)
        shells.pop(u, None)
    busy = set(out.rm_repair) | set(out.berm_repair)
    busy |= {adv.repair_partner(st, u) for u in out.rm_repair}
    if adv.may_use(st, side, "full_throttle") and rng.random() < 0.5:
        options = [(u, o) for u in mine if u not in busy for o in adv.throttle_orders(st, u)]
        if options:
            u, o = options[int(rng.integers(len(options)))]
            orders[u] = o
            out.full_throttle.append(u)
    if adv.may_use(st, side, "air_strike") and rng.random() < 0.5:
        token, cells = _column(st, side, int(rng.integers(st.game.board.columns)))
        picks = rng.integers(len(cells), size=2)
        out.air_strike[side] = (token, [cells[int(i)] for i in picks])
    drop = _shells_to_drop(st, side, shells, busy, out)
    for _ in range(drop):
        shooters = [u for u in _tank_shooters(st, shells) if u not in busy]
        shells.pop(shooters[int(rng.integers(len(shooters)))])
    for key in EXTRA_SHOTS:
        if (
            adv.may_use(st, side, key)
            and adv.lost_shells_left(st, side, out) > 0
            and rng.random() < 0.5
        ):
            shooters = [u for u in _tank_shooters(st, shells) if u not in getattr(out, key)]
            shooters = [u for u in shooters if u not in out.double_shot and view.zones[u]]
            if shooters:
                u = shooters[int(rng.integers(len(shooters)))]
                zone = view.zones[u]
                getattr(out, key)[u] = zone[int(rng.integers(len(zone)))]
    return out


# --- heuristic ----------------------------------------------------------------------------
def heuristic_pre_round(
    st: State, side: int, prep: Prepared, plan: dict[int, Order] | None = None
) -> Actions:
    """Start-of-round tokens; a mine clearing also fills ``plan`` with the order of the
    tank it is for (``heuristic_act`` gives it)."""
    adv = st.game.adv
    out = Actions()
    enemy = 1 - side
    if adv.may_use(st, side, "mine_clearing") and plan is not None:
        _mine_clearing(st, side, prep, out, plan)
    if adv.may_use(st, side, "quick_sand"):
        # in front of the enemy tank closest to its goal, if it is 3 rounds away or less
        best: tuple[int, int] | None = None
        for u in st.live(enemy):
            if st.kind[u] != "tank":
                continue
            ranked = prep.ranked("tank", enemy, st.cell[u], st.facing[u])
            d, to, _o = ranked[0]
            if d <= 2 and to != st.cell[u] and (best is None or d < best[0]):
                best = (d, to)
        if best is not None:
            out.quick_sand[side] = best[1]
    return out


SMOKE_WORTH = 1.0
"""The least expected worth of fire (own units' worth under enemy shells, less enemy
units' under own shells) that ``heuristic`` lays its smoke to stop."""


def heuristic_after_moves(st: State, side: int, report: RoundReport) -> Actions:
    """Smoke on the legal cell that stops the most expected fire on own units less the
    own fire it stops on enemy units, if that is at least ``SMOKE_WORTH``. Decided before
    the shells are placed (docs/rules.md §1.8), so from the shooters alone: each unit
    that placed a shell (a tank not under repair, an AT that stayed on its cell; from where
    it stood then, ``report.start``) is taken to aim at one of the cells of its fire zone
    that now hold units of its enemy, each as likely; a damaged tank counts twice."""
    adv = st.game.adv
    out = Actions()
    if not adv.may_use(st, side, "smoke"):
        return out
    cells, facings, blockers = report.start
    worth: dict[int, int] = {}  # cell * 2 + side -> worth of that side's units there
    for u in st.live():
        key = st.cell[u] * 2 + st.side[u]
        worth[key] = worth.get(key, 0) + (2 if st.kind[u] == "tank" and st.damage[u] else 1)
    repairing = set(report.actions.rm_repair) | set(report.actions.berm_repair)
    aims: list[tuple[int, list[tuple[int, int]]]] = []  # shooter, (target, worth) choices
    for v in st.live():
        kind = st.kind[v]
        if v >= len(cells) or kind == "rm" or v in repairing:
            continue
        if kind == "at" and (st.cell[v] != cells[v] or v in report.bounced):
            continue  # an AT ordered to move places no shell
        if st.side[v] == side and not adv.smoke_blocks_owner:
            continue
        them = 1 - st.side[v]
        zone = st.zone_at(v, cells[v], facings[v], blockers)
        targets = [(t, worth[t * 2 + them]) for t in zone if t * 2 + them in worth]
        if targets:
            aims.append((v, targets))
    best_gain, best_cell = 0.0, -1
    for c in adv.smoke_cells(st, side):
        gain = 0.0
        for v, targets in aims:
            seen = set(st.zone_at(v, cells[v], facings[v], blockers | 1 << c))
            hidden = sum(w for t, w in targets if t not in seen)
            gain += (-hidden if st.side[v] == side else hidden) / len(targets)
        if gain >= SMOKE_WORTH and gain > best_gain:
            best_gain, best_cell = gain, c
    if best_cell >= 0:
        out.smoke[side] = best_cell
    return out


def heuristic_after_hits(st: State, side: int, report: RoundReport) -> Actions:
    """The Red Cross on an own tank knocked out this round, else on the most damaged one it
    may repair; laid next to (or on) the damaged own tank furthest back in the own half."""
    adv = st.game.adv
    out = Actions()
    if side in st.adv.crosses:
        out_now = {u for u, *_ in report.knocked_out}
        tanks = [u for u in repairable(st, report) if st.side[u] == side]
        if tanks:
            out.red_cross_repair.append(min(tanks, key=lambda u: (u not in out_now, u)))
    elif adv.may_use(st, side, "red_cross"):  # (a second token only once the first is used)
        cells = set(red_cross_cells(st, side))
        b = st.game.board
        spots = [
            (b.own_row(cell, side), cell)
            for u in st.live(side)
            if st.kind[u] == "tank" and st.damage[u] > 0
            for cell in (st.cell[u], *_around(st, st.cell[u]))
            if cell in cells
        ]
        if spots:
            out.red_cross[side] = min(spots)[1]
    return out


def _mine_clearing(
    st: State, side: int, prep: Prepared, out: Actions, plan: dict[int, Order]
) -> None:
    """Clear the minefield cell next to an own tank that shortens its route most."""
    adv = st.game.adv
    mines = set(adv.mines[0] + adv.mines[1])
    tanks = [
        u
        for u in st.live(side)
        if st.kind[u] == "tank" and any(m in mines for m in _around(st, st.cell[u]))
    ]
    cells = set(adv.clearable(st, side)) if tanks else set()
    if not cells:
        return
    dist = prep.dist["tank"][side]
    avoid = st.wreck_mask | st.no_entry
    best: tuple[int, int, Order] | None = None
    for u in tanks:
        here, facing = st.cell[u], st.facing[u]
        now = prep.ranked("tank", side, here, facing)[0][0]
        for m in _around(st, here):
            if m not in cells:
                continue
            t = adv.tables_with(frozenset({m}))
            for to, f in t.orders("tank", st.game.sides[side], here, facing, avoid):
                gain = now - dist[to * 8 + f]
                if to == m and gain > 0 and (best is None or gain > best[0]):
                    best = (gain, u, (to, f))
    if best is not None:
        _gain, u, order = best
        out.mine_clearing[side] = order[0]
        plan[u] = order


def heuristic_act(
    view: RoundView,
    side: int,
    orders: dict[int, Order],
    shells: dict[int, int],
    likely: dict[int, float],
    prep: Prepared,
    plan: dict[int, Order] | None = None,
) -> Actions:
    st = view.state
    adv = st.game.adv
    enemy = 1 - side
    out = Actions()
    for u, o in (plan or {}).items():
        if st.alive[u] and o in st.orders(u):
            orders[u] = o
    mine = [u for u in view.live if st.side[u] == side]
    damaged = [u for u in mine if st.kind[u] == "tank" and st.damage[u] > 0]
    for u in damaged:
        rm = adv.repair_partner(st, u)
        if rm >= 0 and view.danger(enemy, st.cell[u]) <= 1:
            out.rm_repair.append(u)
            orders[u], orders[rm] = _stay(st, u), _stay(st, rm)
            shells.pop(u, None)
    busy = set(out.rm_repair) | {adv.repair_partner(st, u) for u in out.rm_repair}
    if "rm_repair" in adv.on:
        _drive_rm(st, mine, damaged, busy, orders)
    for u in damaged:
        if u not in busy and adv.can_berm_repair(st, u) and view.danger(enemy, st.cell[u]) <= 2:
            out.berm_repair.append(u)
            orders[u] = _stay(st, u)
            shells.pop(u, None)
            busy.add(u)
            break
    else:
        if adv.may_use(st, side, "berm_repair"):
            _to_berm(view, side, damaged, busy, orders)
    if adv.may_use(st, side, "full_throttle"):
        _throttle(view, side, mine, busy, orders, out, prep)
    if adv.may_use(st, side, "air_strike"):
        _air_strike(st, side, shells, likely, out)
    drop = _shells_to_drop(st, side, shells, busy, out)
    if drop:
        worst = sorted(_tank_shooters(st, shells), key=lambda u: likely.get(shells[u], 0.0))
        for u in worst[:drop]:
            shells.pop(u)
    for key in EXTRA_SHOTS:
        if not adv.may_use(st, side, key) or adv.lost_shells_left(st, side, out) <= 0:
            continue
        left = dict(likely)
        for c in shells.values():
            left[c] = left.get(c, 0.0) * 0.45
        for c in out.double_shot.values():
            left[c] = left.get(c, 0.0) * 0.45
        best_u, best_c, best_v = -1, -1, 0.2
        for u in _tank_shooters(st, shells):
            if u in out.double_shot:
                continue
            for c in view.zones[u]:
                v = left.get(c, 0.0)
                if v > best_v:
                    best_u, best_c, best_v = u, c, v
        if best_u >= 0:
            getattr(out, key)[best_u] = best_c
    return out


def _air_strike(
    st: State, side: int, shells: dict[int, int], likely: dict[int, float], out: Actions
) -> None:
    """Strike the column with the most likely enemy value on its two best cells when that
    beats the tank shells the strike would cost."""
    left = dict(likely)
    for cell in shells.values():
        left[cell] = left.get(cell, 0.0) * 0.45
    tank_values = sorted(likely.get(shells[u], 0.0) for u in _tank_shooters(st, shells))
    cost = sum(tank_values[: max(0, 2 - st.adv.tanks_lost[side])])
    best: tuple[float, int, list[int]] | None = None
    for col in range(st.game.board.columns):
        token, cells = _column(st, side, col)
        top = sorted(cells, key=lambda cell: -left.get(cell, 0.0))[:2]
        gain = sum(left.get(cell, 0.0) for cell in top) - cost
        if gain > 0.3 and (best is None or gain > best[0]):
            best = (gain, token, top)
    if best is not None:
        out.air_strike[side] = (best[1], best[2])


def _to_berm(
    view: RoundView, side: int, damaged: list[int], busy: set[int], orders: dict[int, Order]
) -> None:
    """ "A hit tank still in your half ... can move back behind a berm and be repaired":
    send the first damaged tank that can reach such a cell this round out of enemy fire
    there (no other own unit ordered onto it)."""
    st = view.state
    mask = st.game.adv.behind_berm[side]
    taken = {o[0] for o in orders.values()}
    for u in damaged:
        if u in busy:
            continue
        for o in st.orders(u):
            if o[0] != st.cell[u] and mask >> o[0] & 1 and o[0] not in taken:
                if view.danger(1 - side, o[0]) == 0:
                    orders[u] = o
                    busy.add(u)
                    return


def _drive_rm(
    st: State, mine: list[int], damaged: list[int], busy: set[int], orders: dict[int, Order]
) -> None:
    """Send each free R/M with repairs left toward the nearest damaged own tank; the tank
    waits when the R/M can join it this round."""
    for rm in mine:
        if st.kind[rm] != "rm" or rm in busy or st.adv.rm_left.get(rm, 0) <= 0:
            continue
        free = [u for u in damaged if u not in busy and st.cell[u] != st.cell[rm]]
        if not free or any(st.cell[u] == st.cell[rm] for u in damaged):
            continue
        tank = min(free, key=lambda u: (_chebyshev(st, st.cell[u], st.cell[rm]), u))
        target = st.cell[tank]
        best = orders.get(rm, _stay(st, rm))
        best_d = _chebyshev(st, best[0], target)
        for o in st.orders(rm):
            d = _chebyshev(st, o[0], target)
            if d < best_d:
                best, best_d = o, d
        orders[rm] = best
        if best[0] == target:
            orders[tank] = _stay(st, tank)
            busy.add(tank)


def _throttle(
    view: RoundView,
    side: int,
    mine: list[int],
    busy: set[int],
    orders: dict[int, Order],
    out: Actions,
    prep: Prepared,
) -> None:
    st = view.state
    enemy = 1 - side
    taken = {o[0] for u, o in orders.items()} | {st.cell[u] for u in mine}
    best: tuple[float, int, Order] | None = None
    for u in mine:
        if u in busy or st.kind[u] != "tank":
            continue
        dist = prep.dist["tank"][side]
        here = dist[st.cell[u] * 8 + st.facing[u]]
        chosen = orders.get(u, _stay(st, u))
        for o in st.game.adv.throttle_orders(st, u):
            end = st.game.adv.throttle_end(st, u, o)
            if end == o[0] or end in taken:
                continue
            d = dist[end * 8 + o[1]]
            danger = view.danger(enemy, end)
            if d == 0 or (d <= here - 2 and danger <= view.danger(enemy, chosen[0])):
                score = d + 0.35 * danger
                if best is None or score < best[0]:
                    best = (score, u, o)
    if best is not None:
        _s, u, o = best
        orders[u] = o
        out.full_throttle.append(u)
