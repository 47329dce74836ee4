"""Final Act playouts: both policies decide from the same position, the engine resolves.

Policies: ``random`` and ``heuristic`` run vectorised, many games at once
(``drivers/final_act_batch.py``: numpy engine and policies, thousands of playouts per
second); ``random-ref`` and ``heuristic-ref`` are the readable one-game-at-a-time reference
implementations of the same ideas (``policies/final_act.py`` on ``rules.final_act.engine``).
Both kinds of game record replay through the reference engine.

Restrictions: ``+no-KIND`` removes the side's units of that kind before round 1 (they take
no part; they are not counted as losses); ``+no-berms`` is handled by the policy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analysis.simulation.games import (
    Death,
    GameResult,
    PolicyError,
    parse_policy,
)
from analysis.simulation.policies.final_act import Prepared, RoundView, make_policy
from rules.final_act.data import DATA
from rules.final_act.engine import END_GOAL, SIDES, Game, State
from rules.final_act.engine_record import FinalActRecord, Round
from rules.final_act.tables import Order
from rules.scenario import Scenario

BASES = ("random", "heuristic", "random-ref", "heuristic-ref")
BATCHED = ("random", "heuristic")


class FinalActDriver:
    """Plays Final Act games (see ``analysis.simulation.games.Driver``)."""

    batch_size = 500  # games per task: the vectorised policies want large batches

    def batched(self, policies: tuple[str, str]) -> bool:
        """Whether both policies run vectorised (``play_many``)."""
        return all(parse_policy(p)[0] in BATCHED for p in policies)

    def warm(self, prepared: Any, policies: tuple[str, str]) -> None:
        """Build the vectorised tables now (before worker processes fork, so they share
        them) when ``policies`` will use them."""
        if self.batched(policies):
            from analysis.simulation.drivers.final_act_batch import tables_of

            tables_of(prepared)

    def play_many(
        self,
        prepared: Any,
        policies: tuple[str, str],
        rngs: list[np.random.Generator],
        record: bool = False,
    ) -> list[GameResult]:
        """One game per Generator; vectorised when both policies allow it."""
        if self.batched(policies):
            from analysis.simulation.drivers.final_act_batch import play_many

            return play_many(prepared, policies, rngs, record)
        return [self.play(prepared, policies, rng, record) for rng in rngs]

    def prepare(self, scenario: Scenario) -> Prepared:
        return Prepared(Game(scenario))

    def policy_names(self) -> tuple[str, ...]:
        return BASES

    def check_policy(self, prepared: Any, spec: str) -> None:
        base, restrictions = parse_policy(spec)
        if base not in BASES:
            raise PolicyError(
                f"unknown Final Act policy {base!r} (known: {', '.join(BASES)}; "
                "restrictions: +no-berms, +no-tank, +no-at, +no-rm)"
            )
        for r in restrictions:
            if r != "no-berms" and r[3:] not in DATA.units:
                raise PolicyError(f"unknown restriction {r!r} for Final Act")

    def play(
        self,
        prepared: Any,
        policies: tuple[str, str],
        rng: np.random.Generator,
        record: bool = False,
    ) -> GameResult:
        if self.batched(policies):
            return self.play_many(prepared, policies, [rng], record)[0]
        prep: Prepared = prepared
        game = prep.game
        st = game.initial_state()
        players = []
        for s, spec in enumerate(policies):
            base, restrictions = parse_policy(spec)
            for r in restrictions:
                if r != "no-berms":
                    for u in range(len(st.kind)):
                        if st.side[u] == s and st.kind[u] == r[3:]:
                            st.alive[u] = False
            players.append(make_policy(base, restrictions, prep, s))
        deaths: list[Death] = []
        rounds: list[Round] = []
        n = len(st.kind)
        while not st.over:
            view = RoundView(st, prep)
            o0, s0 = players[0].decide(view, rng)
            o1, s1 = players[1].decide(view, rng)
            orders: list[Order | None] = [None] * n
            for u, o in o0.items():
                orders[u] = o
            for u, o in o1.items():
                orders[u] = o
            shells = s0
            shells.update(s1)
            if record:
                rounds.append((list(orders), dict(shells)))
            report = game.apply_round(st, orders, shells)
            for u, cell, _by, by_unit in report.knocked_out:
                deaths.append(
                    Death(SIDES[st.side[u]], st.kind[u], cell, st.round, st.kind[by_unit])
                )
        return _result(st, deaths, FinalActRecord.of(st, rounds) if record else None)


def _result(st: State, deaths: list[Death], record: Any) -> GameResult:
    g = st.game
    unit_label = None
    route: tuple[int, ...] = ()
    if st.end == END_GOAL and st.winner is not None:
        w = st.winner.index
        for u in range(len(st.kind)):
            if (
                st.alive[u]
                and st.side[u] == w
                and st.kind[u] == "tank"
                and g.goal_mask[w] >> st.cell[u] & 1
            ):
                unit_label = g.scenario.units[u].label
                route = tuple(st.routes[u])
                break
    return GameResult(
        winner=st.winner,
        length=st.round,
        end=st.end or "",
        kills=(st.kills[0], st.kills[1]),
        winning_unit=unit_label,
        route=route,
        deaths=tuple(deaths),
        record=record,
    )


DRIVER = FinalActDriver()
