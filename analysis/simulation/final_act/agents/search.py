"""Final Act ``search[:N]``: a simultaneous-move search over the heuristic's plan.

Orders are secret and simultaneous, so the agent plans against a *distribution* of enemy
plans: ``N`` enemy plans are drawn from the enemy heuristic (with its seeded randomness),
each paired with a seeded future. A candidate plan of ours is scored by playing the round
against each of those plans on the rules engine, then ``LOOKAHEAD`` more rounds with the
heuristic on both sides, and valuing the position reached (``value``: +/-100 for a decided
game, else material — tanks 3, damaged 2, AT and R/M 1 — and how much closer our best tank
is to the enemy's last line than theirs is to ours). Candidates: the heuristic's plan, then
— tank by tank, front tanks first — every other legal order of that tank (staying put,
backing off behind cover, turning to intercept …) in its place, kept when it scores better
on the same sampled futures (common random numbers). So it races when racing wins and
holds, blocks or trades shots when that scores better. Shells are the heuristic's. ``N``
defaults to 3. Seeded through the generator it is given. Candidates are scored on the
compiled kernel (``kernel/lookahead.lookahead_values``: the kernel's rules and heuristic,
all candidates of a tank at once), or — with advanced options on (rules §1.8), a reading
changed (§1.8a), or where numba cannot be imported — on the one-game engine.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.agents.reference import HeuristicPolicy, RoundView
from tankmap.analysis.simulation.final_act.kernel import base, lookahead
from tankmap.analysis.simulation.final_act.prepared import INF, Prepared
from tankmap.rules.final_act.engine import State
from tankmap.rules.final_act.tables import Order

DEFAULT_SAMPLES = 3
LOOKAHEAD = 1
_VALUE = {"tank": 3.0, "at": 1.0, "rm": 1.0}


def value(st: State, prep: Prepared, side: int) -> float:
    """How good ``st`` is for ``side`` (see the module docstring)."""
    if st.over:
        if st.winner is None:
            return 0.0
        return 100.0 if st.winner.index == side else -100.0
    score = 0.0
    best = [INF, INF]
    dist = prep.dist["tank"]
    for u in range(len(st.kind)):
        if not st.alive[u]:
            continue
        s = st.side[u]
        worth = _VALUE.get(st.kind[u], 1.0) - (1.0 if st.damage[u] else 0.0)
        score += worth if s == side else -worth
        if st.kind[u] == "tank":
            best[s] = min(best[s], dist[s][st.cell[u] * 8 + int(st.facing[u])])
    mine, theirs = min(best[side], 20), min(best[1 - side], 20)
    return score + 1.5 * (theirs - mine)


class SearchPolicy(HeuristicPolicy):
    """The ``search`` agent (see the module docstring); advanced-rule declarations are the
    heuristic's."""

    def __init__(
        self, prep: Prepared, side: int, no_berms: bool = False, samples: int = DEFAULT_SAMPLES
    ) -> None:
        # its own plan shares the view with the other side's draws of this side's plans
        super().__init__(prep, side, no_berms, many_per_view=True)
        self.samples = samples

    def decide(
        self, view: RoundView, rng: np.random.Generator
    ) -> tuple[dict[int, Order], dict[int, int]]:
        orders, shells = super().decide(view, rng)
        st = view.state
        prep, side = self.prep, self.side
        futures = []
        for _ in range(self.samples):
            enemy = HeuristicPolicy(prep, 1 - side, many_per_view=True)
            futures.append((*enemy.decide(view, rng), int(rng.integers(2**63))))
        # the kernel plays the default readings only (docs/rules.md §1.8, §1.8a)
        slow = prep.game.adv.slow or prep.game.readings.changed
        fast = not slow and base.available()
        rows = _FutureRows.of(st, shells, futures) if fast else None

        def score(plans: list[dict[int, Order]]) -> list[float]:
            if rows is not None:
                return self._kernel_scores(st, plans, rows)
            return [
                sum(self._play_out(st, plan, shells, *future) for future in futures) / len(futures)
                for plan in plans
            ]

        best = score([orders])[0]
        dist = prep.dist["tank"][side]
        # Scores are sums of a few whole and half numbers, so equal scores are common: the
        # tanks of one distance and each tank's orders are tried in a seeded random order,
        # or the first in cell order would win every tie and favour one side or direction.
        tanks = [u for u in orders if st.kind[u] == "tank"]
        ties = dict(zip(tanks, rng.random(len(tanks)).tolist(), strict=True))
        tanks.sort(key=lambda u: (dist[st.cell[u] * 8 + int(st.facing[u])], ties[u]))
        for u in tanks:
            options = st.orders(u)
            trials = [
                {**orders, u: options[k]}
                for k in rng.permutation(len(options)).tolist()
                if options[k] != orders[u]
            ]
            if not trials:
                continue
            scores = score(trials)
            k = max(range(len(scores)), key=scores.__getitem__)  # the first best
            if scores[k] > best:
                best, orders = scores[k], trials[k]
        return orders, shells

    def _kernel_scores(
        self, st: State, plans: list[dict[int, Order]], rows: _FutureRows
    ) -> list[float]:
        """``_play_out``'s mean over the sampled futures for every plan at once, on the
        compiled kernel (the look-ahead rounds' noise is keyed by the future's seed)."""
        dest, facing, fire, keys = rows.rows(plans)
        values = lookahead.lookahead_values(
            self.prep, st, self.side, dest, facing, fire, keys, LOOKAHEAD
        )
        means: list[float] = values.reshape(len(plans), rows.count).mean(axis=1).tolist()
        return means

    def _play_out(
        self,
        st: State,
        orders: dict[int, Order],
        shells: dict[int, int],
        enemy_orders: dict[int, Order],
        enemy_shells: dict[int, int],
        seed: int,
    ) -> float:
        work = st.copy()
        self._apply(work, (orders, shells), (enemy_orders, enemy_shells))
        r = np.random.default_rng(seed)
        players = (HeuristicPolicy(self.prep, 0), HeuristicPolicy(self.prep, 1))
        for _ in range(LOOKAHEAD):
            if work.over:
                break
            view = RoundView(work, self.prep)
            self._apply(work, players[0].decide(view, r), players[1].decide(view, r))
        return value(work, self.prep, self.side)

    def _apply(
        self,
        work: State,
        mine: tuple[dict[int, Order], dict[int, int]],
        theirs: tuple[dict[int, Order], dict[int, int]],
    ) -> None:
        full: list[Order | None] = [None] * len(work.kind)
        for plan in (mine[0], theirs[0]):
            for u, o in plan.items():
                full[u] = o
        self.prep.game.apply_round(work, full, {**mine[1], **theirs[1]}, None)


class _FutureRows:
    """The sampled futures of one decision as the kernel's rows: each future's enemy
    orders and both sides' shells (ours the heuristic's, the same in every candidate) as
    arrays, made once; ``rows`` lays a list of candidate plans over them, one row per
    (plan, future), plan-major. An entry of the enemy's overrides the plan's, as when the
    rows were filled one order at a time."""

    def __init__(
        self,
        standing: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]],
        dest: npt.NDArray[np.int64],
        facing: npt.NDArray[np.int64],
        given: npt.NDArray[np.bool_],
        fire: npt.NDArray[np.int64],
        keys: npt.NDArray[np.uint64],
    ) -> None:
        self.cell, self.facing0 = standing  # every unit's cell and facing now
        self.dest, self.facing, self.given, self.fire, self.keys = dest, facing, given, fire, keys
        self.count = len(keys)

    @classmethod
    def of(
        cls,
        st: State,
        shells: dict[int, int],
        futures: list[tuple[dict[int, Order], dict[int, int], int]],
    ) -> _FutureRows:
        units = len(st.kind)
        n = len(futures)
        dest = np.zeros((n, units), dtype=np.int64)
        facing = np.zeros((n, units), dtype=np.int64)
        given = np.zeros((n, units), dtype=np.bool_)
        fire = np.full((n, units), -1, dtype=np.int64)
        for u, target in shells.items():
            fire[:, u] = target
        keys = np.empty(n, dtype=np.uint64)
        for f, (enemy_orders, enemy_shells, seed) in enumerate(futures):
            for u, (to, face) in enemy_orders.items():
                dest[f, u] = to
                facing[f, u] = int(face)
                given[f, u] = True
            for u, target in enemy_shells.items():
                fire[f, u] = target
            keys[f] = seed
        standing = (
            np.array(st.cell, dtype=np.int64),
            np.array([int(f) for f in st.facing], dtype=np.int64),
        )
        return cls(standing, dest, facing, given, fire, keys)

    def rows(
        self, plans: list[dict[int, Order]]
    ) -> tuple[
        npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.uint64]
    ]:
        """Every unit's destination, facing and shell, and the look-ahead key, for each
        (plan, future) row (a unit with no order in either stays as it is)."""
        p = len(plans)
        units = len(self.cell)
        plan_dest = np.tile(self.cell, (p, 1))
        plan_facing = np.tile(self.facing0, (p, 1))
        for i, plan in enumerate(plans):
            for u, (to, face) in plan.items():
                plan_dest[i, u] = to
                plan_facing[i, u] = int(face)
        given = self.given[None, :, :]
        dest = np.where(given, self.dest[None, :, :], plan_dest[:, None, :])
        facing = np.where(given, self.facing[None, :, :], plan_facing[:, None, :])
        shape = (p * self.count, units)
        fire = np.broadcast_to(self.fire[None, :, :], (p, self.count, units)).reshape(shape)
        return (
            dest.reshape(shape),
            facing.reshape(shape),
            np.ascontiguousarray(fire),
            np.tile(self.keys, p),
        )
