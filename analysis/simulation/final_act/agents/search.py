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
        super().__init__(prep, side, no_berms)
        self.samples = samples

    def decide(
        self, view: RoundView, rng: np.random.Generator
    ) -> tuple[dict[int, Order], dict[int, int]]:
        orders, shells = super().decide(view, rng)
        st = view.state
        prep, side = self.prep, self.side
        futures = []
        for _ in range(self.samples):
            enemy = HeuristicPolicy(prep, 1 - side)
            futures.append((*enemy.decide(view, rng), int(rng.integers(2**63))))
        # the kernel plays the default readings only (docs/rules.md §1.8, §1.8a)
        slow = prep.game.adv.slow or prep.game.readings.changed
        fast = not slow and base.available()

        def score(plans: list[dict[int, Order]]) -> list[float]:
            if fast:
                return self._kernel_scores(st, plans, shells, futures)
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
        self,
        st: State,
        plans: list[dict[int, Order]],
        shells: dict[int, int],
        futures: list[tuple[dict[int, Order], dict[int, int], int]],
    ) -> list[float]:
        """``_play_out``'s mean over ``futures`` for every plan at once, on the compiled
        kernel (the look-ahead rounds' noise is keyed by the future's seed)."""
        units = len(st.kind)
        rows = len(plans) * len(futures)
        dest = np.tile(np.array(st.cell, dtype=np.int64), (rows, 1))
        facing = np.tile(np.array([int(f) for f in st.facing], dtype=np.int64), (rows, 1))
        fire = np.full((rows, units), -1, dtype=np.int64)
        keys = np.empty(rows, dtype=np.uint64)
        row = 0
        for plan in plans:
            for enemy_orders, enemy_shells, seed in futures:
                for orders in (plan, enemy_orders):
                    for u, (to, f) in orders.items():
                        dest[row, u] = to
                        facing[row, u] = int(f)
                for shots in (shells, enemy_shells):
                    for u, target in shots.items():
                        fire[row, u] = target
                keys[row] = seed
                row += 1
        values = lookahead.lookahead_values(
            self.prep, st, self.side, dest, facing, fire, keys, LOOKAHEAD
        )
        means: list[float] = values.reshape(len(plans), len(futures)).mean(axis=1).tolist()
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
