"""The ``duct`` search written plainly on the reference engine (``rules.final_act.engine``):
the same algorithm as the compiled ``duct/search.py`` — the same arms in the same
order, the same UCB choices, the same light playouts and values, the same noise — with
every round played by ``Game.apply_round``, so the two choose the same orders and shells
(``tests/simulation/test_duct.py``). Only ``duct``'s light playouts are written here:
``duct-h`` plays the kernel's heuristic, whose noise only the kernel reads.

``search(prep, state, side, key, iters)`` returns the side's orders, shells and R/M
repairs (about a thousand times slower than the kernel: for tests and reading).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tankmap.analysis.simulation.final_act.duct.params import (
    ARM_STRIDE,
    AT_WORTH,
    CLIP,
    DAMAGED_WORTH,
    DEPTH,
    DIST_CAP,
    EPSILON,
    EXPLORE,
    GUESS_TIE,
    MOVE_TIE,
    PLAYOUT_STRIDE,
    RACE,
    REPAIR_ARM,
    RM_WORTH,
    SALT_ITER,
    SALT_ROUND,
    SCALE,
    SHELL_NOISE,
    TANK_WORTH,
)
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.analysis.simulation.noise import MASK, mix64, uniform
from tankmap.rules.final_act.engine import State
from tankmap.rules.final_act.engine_actions import Actions
from tankmap.rules.final_act.tables import Order
from tankmap.rules.geometry import Facing


def search_key(key: int, rnd: int, side: int) -> int:
    """The key of the search ``side`` makes after ``rnd`` rounds of the game keyed ``key``."""
    return mix64(key ^ mix64(SALT_ROUND + 2 * rnd + side))


def iter_key(skey: int, i: int) -> int:
    """The key of iteration ``i`` of the search keyed ``skey``."""
    return mix64(skey ^ mix64(SALT_ITER + i)) & MASK


@dataclass
class Bandit:
    """One unit's arms (orders ``(dest, facing, repair)`` or shell cells), tried in this
    order first, with their tries and summed values."""

    arms: list[tuple[int, int, bool]]
    n: list[int]
    w: list[float]
    total: int = 0

    @staticmethod
    def of(arms: list[tuple[int, int, bool]]) -> Bandit:
        return Bandit(arms, [0] * len(arms), [0.0] * len(arms))

    def ucb(self) -> int:
        best, best_s = 0, -math.inf
        for a in range(len(self.arms)):
            if self.n[a] == 0:
                return a
            s = self.w[a] / self.n[a] + EXPLORE * math.sqrt(math.log(self.total) / self.n[a])
            if s > best_s:
                best, best_s = a, s
        return best

    def most_tried(self) -> int:
        best = 0
        n, w = self.n, self.w
        for a in range(1, len(self.arms)):
            if n[a] > n[best] or (n[a] == n[best] and n[a] > 0 and w[a] / n[a] > w[best] / n[best]):
                best = a
        return best

    def add(self, a: int, value: float) -> None:
        self.n[a] += 1
        self.w[a] += value
        self.total += 1


def _usable(prep: Prepared, st: State, u: int, nob: bool) -> list[tuple[int, int, float, int]]:
    """``(j, dest, rounds to goal, facing)`` of unit ``u``'s orders that may be given, in
    the kernel's table order (``Prepared.ranked``)."""
    game = prep.game
    here = st.cell[u]
    out = []
    for j, (d, to, (_t, f)) in enumerate(prep.ranked(st.kind[u], st.side[u], here, st.facing[u])):
        if to != here and (
            st.wreck_mask >> to & 1 or (nob and game.tables.elevating_mask >> to & 1)
        ):
            continue
        out.append((j, to, float(d), int(f)))
    return out


def _partner(st: State, u: int) -> int:
    for v in range(len(st.kind)):
        if (
            st.alive[v]
            and st.kind[v] == "rm"
            and st.side[v] == st.side[u]
            and st.cell[v] == st.cell[u]
            and st.adv.rm_left.get(v, 0) > 0
        ):
            return v
    return -1


def _zone(prep: Prepared, st: State, u: int, blockers: int) -> set[int]:
    return set(prep.zone(st.kind[u], st.cell[u], int(st.facing[u]), blockers)[0])


def _arms(
    prep: Prepared, st: State, skey: int, nobs: tuple[bool, bool]
) -> tuple[dict[int, Bandit], dict[int, Bandit], dict[int, int]]:
    """Every unit's order bandit and every shooter's shell bandit, and the R/M each tank's
    repair arm would hold (``search._arms``)."""
    game = prep.game
    n = game.board.size
    blockers = st.blockers()
    reach = [[0.0] * (n + 1), [0.0] * (n + 1)]
    for v in st.live():
        usable = _usable(prep, st, v, False)
        for _j, d, _dd, _f in usable:
            reach[st.side[v]][d] += 1.0 / len(usable)
        reach[st.side[v]][usable[0][1]] += 1.0
    orders: dict[int, Bandit] = {}
    shells: dict[int, Bandit] = {}
    partner: dict[int, int] = {}
    repair_on = "rm_repair" in game.adv.on
    for u in st.live():
        side = st.side[u]
        here = st.cell[u]
        rows = []
        for j, d, dd, f in _usable(prep, st, u, nobs[side]):
            if st.kind[u] == "at" and d != here and f != int(st.facing[u]):
                continue
            rows.append((dd, uniform(skey, u * ARM_STRIDE + j), (d, f, False)))
        if repair_on and st.kind[u] == "tank" and st.damage[u] > 0:
            v = _partner(st, u)
            if v >= 0:
                partner[u] = v
                d_here = float(prep.dist["tank"][side][here * 8 + int(st.facing[u])])
                tie = uniform(skey, u * ARM_STRIDE + REPAIR_ARM)
                rows.append((d_here, tie, (here, int(st.facing[u]), True)))
        rows.sort(key=lambda r: (r[0], r[1]))
        orders[u] = Bandit.of([r[2] for r in rows])
        if game.fire_tables[st.kind[u]] is None:
            continue
        zone = _zone(prep, st, u, blockers)
        enemy = reach[1 - side]
        cells = [
            (-enemy[c], uniform(skey, u * ARM_STRIDE + SHELL_NOISE + c), (c, 0, False))
            for c in range(n)
            if enemy[c] > 0.0 and c in zone
        ]
        cells.sort(key=lambda r: (r[0], r[1]))
        shells[u] = Bandit.of([r[2] for r in cells])
    return orders, shells, partner


def _shortest(
    prep: Prepared, st: State, u: int, ikey: int, ctr: int, claimed: set[int] | None, nob: bool
) -> tuple[int, int] | None:
    """``playout._shortest``: the usable order with the fewest rounds to goal (ties:
    the smallest noise), not onto ``claimed`` cells (unless staying)."""
    best: tuple[int, int] | None = None
    best_d, best_r = math.inf, 2.0
    here = st.cell[u]
    for j, d, dd, f in _usable(prep, st, u, nob):
        if claimed is not None and d != here and d in claimed:
            continue
        if dd > best_d:
            continue
        r = uniform(ikey, ctr + j)
        if dd < best_d or r < best_r:
            best, best_d, best_r = (d, f), dd, r
    return best


def light_round(
    prep: Prepared, st: State, ikey: int, r: int, nobs: tuple[bool, bool]
) -> tuple[list[Order | None], dict[int, int]]:
    """Both sides' orders and shells of playout round ``r`` (``playout._light_round``)."""
    units = len(st.kind)
    blockers = st.blockers()
    claim: tuple[set[int], set[int]] = (set(), set())
    guess = list(st.cell)
    dest: list[tuple[int, int]] = [(st.cell[u], int(st.facing[u])) for u in range(units)]
    for u in st.live():
        if st.kind[u] != "at":
            claim[st.side[u]].add(st.cell[u])
    tanks = [u for u in st.live() if st.kind[u] == "tank"]
    for u in tanks:
        ctr = (r * units + u) * PLAYOUT_STRIDE
        g = _shortest(prep, st, u, ikey, ctr + GUESS_TIE, None, False)
        if g is not None:
            guess[u] = g[0]
    for u in tanks:
        side = st.side[u]
        here = st.cell[u]
        ctr = (r * units + u) * PLAYOUT_STRIDE
        pick: tuple[int, int] | None
        if uniform(ikey, ctr) < EPSILON:
            ok = [
                (d, f)
                for _j, d, _dd, f in _usable(prep, st, u, nobs[side])
                if d == here or d not in claim[side]
            ]
            pick = ok[min(int(uniform(ikey, ctr + 1) * len(ok)), len(ok) - 1)]
        else:
            pick = _shortest(prep, st, u, ikey, ctr + MOVE_TIE, claim[side], nobs[side])
        if pick is not None:
            dest[u] = pick
            if pick[0] != here:
                claim[side].discard(here)
                claim[side].add(pick[0])
    shells: dict[int, int] = {}
    for u in st.live():
        if prep.game.fire_tables[st.kind[u]] is None:
            continue
        if st.kind[u] != "tank" and dest[u][0] != st.cell[u]:
            continue
        zone = _zone(prep, st, u, blockers)
        start = int(uniform(ikey, (r * units + u) * PLAYOUT_STRIDE + 2) * units)
        target = -1
        for phase in range(2):
            for k in range(units):
                v = (start + k) % units
                if not st.alive[v] or st.side[v] == st.side[u]:
                    continue
                c = guess[v] if phase == 0 else st.cell[v]
                if c in zone:
                    target = c
                    break
            if target >= 0:
                break
        if target >= 0:
            shells[u] = target
    orders: list[Order | None] = [
        (d, Facing(f)) if st.alive[u] else None for u, (d, f) in enumerate(dest)
    ]
    return orders, shells


def value(prep: Prepared, st: State) -> float:
    """The position's value for south (``playout._value``)."""
    if st.over:
        if st.winner is None:
            return 0.0
        return 1.0 if st.winner.index == 0 else -1.0
    score = 0.0
    best: tuple[list[float], list[float]] = ([DIST_CAP] * 3, [DIST_CAP] * 3)
    for u in st.live():
        kind = st.kind[u]
        if kind == "tank":
            worth = DAMAGED_WORTH if st.damage[u] > 0 else TANK_WORTH
        else:
            worth = AT_WORTH if kind == "at" else RM_WORTH
        side = st.side[u]
        score += worth if side == 0 else -worth
        if kind != "tank":
            continue
        d = min(float(prep.dist["tank"][side][st.cell[u] * 8 + int(st.facing[u])]), DIST_CAP)
        top = best[side]
        if d < top[0]:
            top[:] = [d, top[0], top[1]]
        elif d < top[1]:
            top[1:] = [d, top[1]]
        elif d < top[2]:
            top[2] = d
    a, b = best
    score += RACE[0] * (b[0] - a[0]) + RACE[1] * (b[1] - a[1]) + RACE[2] * (b[2] - a[2])
    return min(max(score / SCALE, -CLIP), CLIP)


def search(
    prep: Prepared,
    state: State,
    side: int,
    skey: int,
    iters: int,
    nobs: tuple[bool, bool] = (False, False),
    depth: int = DEPTH,
) -> tuple[dict[int, Order], dict[int, int], list[int]]:
    """``side``'s orders, shells and tanks declared repaired for the next round by
    ``iters`` iterations of the search keyed ``skey`` (``search_key``) with light playouts
    ``depth`` rounds deep; ``state`` is not changed."""
    game = prep.game
    orders, shells, partner = _arms(prep, state, skey, nobs)
    live = state.live()
    for i in range(iters):
        ikey = iter_key(skey, i)
        work = state.copy()
        plan: list[Order | None] = [None] * len(state.kind)
        chosen: dict[int, int] = {}
        for u in live:
            a = orders[u].ucb()
            chosen[u] = a
            d, f, _rep = orders[u].arms[a]
            plan[u] = (d, Facing(f))
        repairs = [u for u in live if orders[u].arms[chosen[u]][2]]
        held = set()
        for u in repairs:
            v = partner[u]
            plan[v] = (state.cell[v], state.facing[v])
            held.add(v)
        fired: dict[int, int] = {}
        aimed: dict[int, int] = {}
        for u in live:
            bandit = shells.get(u)
            if not bandit or not bandit.arms or u in repairs:
                continue
            step = plan[u]
            if state.kind[u] == "at" and step is not None and step[0] != state.cell[u]:
                continue
            s = bandit.ucb()
            aimed[u] = s
            fired[u] = bandit.arms[s][0]
        game.apply_round(work, plan, fired, Actions(rm_repair=repairs) if repairs else None)
        for r in range(depth):
            if work.over:
                break
            o, s_ = light_round(prep, work, ikey, r, nobs)
            game.apply_round(work, o, s_, None)
        v0 = value(prep, work)
        for u in live:
            worth = v0 if state.side[u] == 0 else -v0
            if u not in held:
                orders[u].add(chosen[u], worth)
            if u in aimed:
                shells[u].add(aimed[u], worth)
    out_orders: dict[int, Order] = {}
    out_shells: dict[int, int] = {}
    mine = [u for u in live if state.side[u] == side]
    repaired = []
    for u in mine:
        d, f, rep = orders[u].arms[orders[u].most_tried()]
        out_orders[u] = (d, Facing(f))
        if rep:
            repaired.append(u)
    for u in repaired:
        v = partner[u]
        out_orders[v] = (state.cell[v], state.facing[v])
    for u in mine:
        bandit = shells.get(u)
        if not bandit or not bandit.arms or u in repaired:
            continue
        if state.kind[u] == "at" and out_orders[u][0] != state.cell[u]:
            continue
        out_shells[u] = bandit.arms[bandit.most_tried()][0]
    return out_orders, out_shells, repaired
