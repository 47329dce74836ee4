"""The Final Act ``duct`` agents (``analysis/simulation/final_act/duct/``): a hand-worked
round with one dominant order, the compiled search equal to its plain-Python reference
(``agents/duct_ref.py``) on random positions, names and budgets, and games that are the same
on one worker and two."""

from __future__ import annotations

import numpy as np
import pytest

from tankmap.analysis.simulation.families import family
from tankmap.analysis.simulation.final_act.agents.duct import DuctPolicy
from tankmap.analysis.simulation.final_act.agents.duct_ref import search, search_key
from tankmap.analysis.simulation.final_act.agents.reference import RoundView
from tankmap.analysis.simulation.final_act.driver import DRIVER
from tankmap.analysis.simulation.final_act.duct.params import LIGHT
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.analysis.simulation.games import PolicyError
from tankmap.analysis.simulation.runner import simulate
from tankmap.rules.final_act.engine import State
from tankmap.rules.geometry import Facing
from tests.simulation.fa_positions import B, fa_map, landing_position, random_positions


def _compiled(prep: Prepared, st: State, side: int, key: int, iters: int) -> tuple[object, ...]:
    """The compiled search's orders, shells and repairs for ``side`` (as ``search``)."""
    pol = DuctPolicy(prep, side, False, LIGHT, iters)
    pol.key = key
    orders, shells = pol.decide(RoundView(st, prep), np.random.default_rng(0))
    return orders, shells, pol._repairs


@pytest.mark.parametrize("key", [1, 2, 3])
@pytest.mark.parametrize("iters", [8, 40, 200])
def test_duct_lands_the_winning_tank(key: int, iters: int) -> None:
    prep, st = landing_position()
    a12 = (B.parse_cell("a12"), Facing.N)
    orders, _shells, _rep = search(prep, st, 0, search_key(key, 0, 0), iters)
    assert orders[0] == a12
    assert _compiled(prep, st, 0, key, iters)[0] == orders


@pytest.mark.parametrize(
    "name, seed", [("mirror", 5), ("extra-forces", 6), ("flanks-vs-centre", 7)]
)
def test_compiled_search_chooses_as_the_reference(name: str, seed: int) -> None:
    prep = DRIVER.prepare(fa_map(name))
    for i, st in enumerate(random_positions(name, 10, seed)):
        side = i % 2
        key = 1000 * seed + i
        want = search(prep, st, side, search_key(key, st.round, side), 12)
        assert _compiled(prep, st, side, key, 12) == want, (name, i)


@pytest.mark.parametrize("spec", ["duct", "duct:1", "duct:8192", "duct-h:3", "duct+no-berms"])
def test_duct_names_are_accepted(spec: str) -> None:
    DRIVER.check_policy(DRIVER.prepare(fa_map("mirror")), spec)


@pytest.mark.parametrize("spec", ["duct:0", "duct:8193", "duct:x", "duct-h:-1"])
def test_bad_duct_budgets_are_refused_in_one_line(spec: str) -> None:
    with pytest.raises(PolicyError) as err:
        DRIVER.check_policy(DRIVER.prepare(fa_map("mirror")), spec)
    assert "\n" not in str(err.value) and "8,192" in str(err.value)


def test_duct_family_is_the_independent_one() -> None:
    f = family("final-act", "duct")
    assert f.independent and f.base < f.limit <= 8192
    DRIVER.check_policy(None, f.agent(f.limit))


@pytest.mark.parametrize(
    "policies",
    [("duct:4", "heuristic"), ("random", "duct-h:2"), ("duct:3", "duct:5"), ("duct:2", "search:1")],
)
def test_duct_games_are_the_same_on_one_and_two_workers(policies: tuple[str, str]) -> None:
    s = fa_map("extra-forces")
    cols = ["winner", "length", "end", "route", "deaths"]
    one = simulate(s, 4, policies, seed=9, workers=1, batch_size=1)
    two = simulate(s, 4, policies, seed=9, workers=2, batch_size=1)
    assert one[cols].equals(two[cols])
    again = simulate(s, 4, policies, seed=9, workers=2, batch_size=3)
    assert one[cols].equals(again[cols])
