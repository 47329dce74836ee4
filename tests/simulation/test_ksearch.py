"""The Final Act ``ksearch`` agent (``kernel/plan_search.py``, ``agents/ksearch.py``): a
hand-worked round with one dominant order, the compiled decision equal to its plain-Python
reference (``agents/ksearch_ref.py``) on positions of random games, names and budgets, and
games that are the same on one worker and two."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tankmap.analysis.simulation.final_act.agents import ksearch_ref
from tankmap.analysis.simulation.final_act.agents.ksearch import KSearchPolicy
from tankmap.analysis.simulation.final_act.agents.reference import RoundView
from tankmap.analysis.simulation.final_act.driver import DRIVER
from tankmap.analysis.simulation.final_act.kernel.plan_search import (
    Shape,
    new_memory,
    plan_search,
)
from tankmap.analysis.simulation.games import PolicyError
from tankmap.analysis.simulation.runner import simulate
from tankmap.rules.geometry import Facing
from tests.simulation.fa_positions import B, fa_map, landing_position, random_positions


@pytest.mark.parametrize("key", [1, 2, 3])
@pytest.mark.parametrize("samples", [1, 4])
def test_ksearch_lands_the_winning_tank(key: int, samples: int) -> None:
    prep, st = landing_position()
    nobs = np.zeros(2, dtype=np.bool_)
    out, scored = plan_search(prep, st, 0, key, samples, nobs, new_memory(4))
    assert (int(out.dest[0]), int(out.facing[0])) == (B.parse_cell("a12"), int(Facing.N))
    # the heuristic's plan, then each tank's other orders (§1.5: a turn only with a
    # diagonal move, toward the side moved): a11 has stay, a12, a10, b10 facing N or E (4
    # besides a12), k1 on row 1 stay, k2, j2 facing N or W, l2 facing N or E (5 besides
    # the heuristic's); one sweep, each on every sampled future
    assert scored == (1 + 4 + 5) * samples


@pytest.mark.parametrize(
    "name, seed, samples, shape",
    [
        ("mirror", 5, 3, Shape()),
        ("extra-forces", 6, 2, Shape(passes=1, shells=False)),
        ("flanks-vs-centre", 7, 4, Shape(ahead=2)),
        ("mirror", 9, 6, Shape(ahead=0, passes=3)),
        ("extra-forces", 10, 3, Shape(passes=1)),
        ("flanks-vs-centre", 11, 5, Shape(shells=False)),
    ],
)
def test_compiled_decision_is_the_reference(
    name: str, seed: int, samples: int, shape: Shape
) -> None:
    prep = DRIVER.prepare(fa_map(name))
    for i, st in enumerate(random_positions(name, 6, seed)):
        side = i % 2
        nobs = np.array([i % 3 == 0, False])
        units = len(st.kind)
        memory, ref_memory = new_memory(units), new_memory(units)
        memory[0][:] = ref_memory[0][:] = i % 4  # rounds without progress so far
        got = plan_search(prep, st, side, 1000 * seed + i, samples, nobs, memory, shape)
        want = ksearch_ref.decide(prep, st, side, 1000 * seed + i, samples, nobs, ref_memory, shape)
        assert got[1] == want[1], (name, i)
        for a, b in zip(got[0], want[0], strict=True):
            assert a.tolist() == b.tolist(), (name, i)
        assert memory[0].tolist() == ref_memory[0].tolist()


def test_the_policy_plays_the_decision() -> None:
    prep = DRIVER.prepare(fa_map("extra-forces"))
    st = random_positions("extra-forces", 1, 3)[0]
    pol = KSearchPolicy(prep, 1, False, 3)
    pol.key = 77
    orders, shells = pol.decide(RoundView(st, prep), np.random.default_rng(0))
    from tankmap.analysis.simulation.final_act.agents.ksearch import decision_key

    out, _ = plan_search(
        prep, st, 1, decision_key(77, st.round, 1), 3, np.zeros(2, dtype=np.bool_),
        new_memory(len(st.kind)),
    )  # fmt: skip
    assert set(orders) == set(st.live(1))
    for u, (to, facing) in orders.items():
        assert (to, int(facing)) == (out.dest[u], out.facing[u])
        assert shells.get(u, -1) == out.shells[u]


@pytest.mark.parametrize("spec", ["ksearch", "ksearch:1", "ksearch:500", "ksearch+no-berms"])
def test_ksearch_names_are_accepted(spec: str) -> None:
    DRIVER.check_policy(DRIVER.prepare(fa_map("mirror")), spec)


@pytest.mark.parametrize("spec", ["ksearch:0", "ksearch:x", "ksearch:-1"])
def test_bad_ksearch_budgets_are_refused_in_one_line(spec: str) -> None:
    with pytest.raises(PolicyError) as err:
        DRIVER.check_policy(DRIVER.prepare(fa_map("mirror")), spec)
    assert "\n" not in str(err.value)


def test_ksearch_refuses_advanced_rules_in_one_line() -> None:
    s = fa_map("mirror")
    s = dataclasses.replace(s, options={**s.options, "air_strike": True})
    with pytest.raises(PolicyError) as err:
        DRIVER.check_policy(DRIVER.prepare(s), "ksearch:2")
    assert "\n" not in str(err.value) and "air_strike" in str(err.value)


@pytest.mark.parametrize("policies", [("ksearch:2", "heuristic"), ("search:1", "ksearch:1")])
def test_ksearch_games_are_the_same_on_one_and_two_workers(policies: tuple[str, str]) -> None:
    s = fa_map("extra-forces")
    cols = ["winner", "length", "end", "route", "deaths"]
    one = simulate(s, 4, policies, seed=9, workers=1, batch_size=1)
    two = simulate(s, 4, policies, seed=9, workers=2, batch_size=1)
    assert one[cols].equals(two[cols])
    assert not one[cols].equals(simulate(s, 4, policies, seed=10, workers=1)[cols])
