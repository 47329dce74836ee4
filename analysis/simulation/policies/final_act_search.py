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
defaults to 3. Seeded through the generator it is given; it plays on the one-game engine.
"""

from __future__ import annotations

import numpy as np

from tankmap.analysis.simulation.policies.final_act import (
    INF,
    HeuristicPolicy,
    Prepared,
    RoundView,
)
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

        def score(plan: dict[int, Order]) -> float:
            total = 0.0
            for enemy_orders, enemy_shells, seed in futures:
                total += self._play_out(st, plan, shells, enemy_orders, enemy_shells, seed)
            return total / len(futures)

        best = score(orders)
        dist = prep.dist["tank"][side]
        tanks = sorted(
            (u for u in orders if st.kind[u] == "tank"),
            key=lambda u: dist[st.cell[u] * 8 + int(st.facing[u])],
        )
        for u in tanks:
            for order in st.orders(u):
                if order == orders[u]:
                    continue
                trial = dict(orders)
                trial[u] = order
                s = score(trial)
                if s > best:
                    best, orders = s, trial
        return orders, shells

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
