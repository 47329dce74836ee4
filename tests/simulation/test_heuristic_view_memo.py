"""The Python heuristic keeps what every plan drawn from one round's view shares (the
enemy's likely cells, each unit's choices scored without noise) in the view when it draws
many plans from each view (``many_per_view``: ``search`` draws dozens of enemy plans from
one view). Drawing from a view used before must give the very plans a fresh view gives
to a policy that keeps nothing, whatever side, restriction or order the earlier draws
had."""

from __future__ import annotations

import numpy as np
import pytest

from tankmap.analysis.simulation.final_act.agents.reference import HeuristicPolicy, RoundView
from tankmap.analysis.simulation.final_act.driver import DRIVER
from tests.simulation.fa_positions import fa_map, random_positions

DRAWS = [(0, False, True), (1, True, True), (1, False, False), (0, True, True), (0, False, False),
         (1, False, True)]  # fmt: skip
"""(side, no_berms, many_per_view) of each plan drawn from the shared view."""


@pytest.mark.parametrize("name", ["mirror", "extra-forces"])
def test_plans_from_a_used_view_are_those_of_a_fresh_view(name: str) -> None:
    prep = DRIVER.prepare(fa_map(name))
    checked = 0
    for st in random_positions(name, 6, seed=3):
        shared = RoundView(st, prep)
        for k, (side, no_berms, many) in enumerate(DRAWS):
            fresh_plan = HeuristicPolicy(prep, side, no_berms).decide(
                RoundView(st, prep), np.random.default_rng(k)
            )
            used_plan = HeuristicPolicy(prep, side, no_berms, many_per_view=many).decide(
                shared, np.random.default_rng(k)
            )
            assert used_plan == fresh_plan
            checked += 1
        # the likely cells handed out are copies: the plans above changed theirs
        policy = HeuristicPolicy(prep, 0, many_per_view=True)
        assert shared.likely  # kept by the draws above
        assert policy._likely(shared) == policy._likely(RoundView(st, prep))
    assert checked == 6 * len(DRAWS)


def test_a_policy_refusing_berms_never_orders_a_unit_onto_one() -> None:
    """The choices kept for a unit depend on the restriction: the no-berms plan drawn after
    an unrestricted one from the same view still keeps off the berms."""
    prep = DRIVER.prepare(fa_map("mirror"))
    berms = prep.game.tables.elevating_mask
    assert berms, "the mirror map has berms"
    for st in random_positions("mirror", 8, seed=5):
        view = RoundView(st, prep)
        for side in (0, 1):
            HeuristicPolicy(prep, side, many_per_view=True).decide(view, np.random.default_rng(1))
            orders, _ = HeuristicPolicy(prep, side, no_berms=True).decide(
                view, np.random.default_rng(1)
            )
            for u, (to, _facing) in orders.items():
                assert to == st.cell[u] or not berms >> to & 1
