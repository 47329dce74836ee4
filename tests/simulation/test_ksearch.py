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
from tankmap.analysis.simulation.final_act.agents.reference import RandomPolicy, RoundView
from tankmap.analysis.simulation.final_act.driver import DRIVER
from tankmap.analysis.simulation.final_act.kernel.plan_search import (
    Shape,
    new_memory,
    plan_search,
)
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.analysis.simulation.games import PolicyError
from tankmap.analysis.simulation.runner import simulate
from tankmap.maps import map_path
from tankmap.rules.board import Board
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.final_act.engine import State
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit

B = Board.of(12, 12)


def _map(name: str) -> Scenario:
    path = map_path(f"final-act/{name}")
    assert path is not None
    return read_scenario(path)


def _landing_position() -> tuple[Prepared, State]:
    # docs/rules.md §1.5, §1.7: south's tank on a11 facing N, north's swamp on b11 b12 c11
    # c12 (impassable), north's tanks on k12 and l12 facing S (north's own last line, row
    # 12). A tank wins when it ends a round on the enemy line (row 12). a11's orders: stay,
    # forward a12, back a10, back-right b10 (forward-right b12 is swamp). Forward to a12
    # always wins at once: a12 is free, no north unit can enter it this round (k12 and l12
    # are 9 columns away) and north cannot land (its tanks are 11 rows from row 1); a hit
    # would only damage the tank. Every other order wins nothing this round.
    units = (
        Unit("tank", Side.SOUTH, B.parse_cell("a11"), Facing.N, "C"),
        Unit("tank", Side.SOUTH, B.parse_cell("k1"), Facing.N, "1"),
        Unit("tank", Side.NORTH, B.parse_cell("k12"), Facing.S, "C"),
        Unit("tank", Side.NORTH, B.parse_cell("l12"), Facing.S, "1"),
    )
    swamp = Terrain(
        "swamp", tuple(B.parse_cell(c) for c in ("b11", "b12", "c11", "c12")), Side.NORTH
    )
    options = get_ruleset("final-act").new_scenario(B, {}).options
    prep = DRIVER.prepare(Scenario("final-act", B, options, (swamp,), units))
    return prep, prep.game.initial_state()


@pytest.mark.parametrize("key", [1, 2, 3])
@pytest.mark.parametrize("samples", [1, 4])
def test_ksearch_lands_the_winning_tank(key: int, samples: int) -> None:
    prep, st = _landing_position()
    nobs = np.zeros(2, dtype=np.bool_)
    out, scored = plan_search(prep, st, 0, key, samples, nobs, new_memory(4))
    assert (int(out.dest[0]), int(out.facing[0])) == (B.parse_cell("a12"), int(Facing.N))
    # the heuristic's plan, then each tank's other orders (§1.5: a turn only with a
    # diagonal move, toward the side moved): a11 has stay, a12, a10, b10 facing N or E (4
    # besides a12), k1 on row 1 stay, k2, j2 facing N or W, l2 facing N or E (5 besides
    # the heuristic's); one sweep, each on every sampled future
    assert scored == (1 + 4 + 5) * samples


def _random_positions(name: str, count: int, seed: int) -> list[State]:
    """Positions of ``random``-played games of map ``name`` after 0 to 14 rounds."""
    prep = DRIVER.prepare(_map(name))
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        st = prep.game.initial_state()
        pols = [RandomPolicy(prep, s) for s in (0, 1)]
        for _ in range(int(rng.integers(0, 15))):
            view = RoundView(st, prep)
            orders: list[object] = [None] * len(st.kind)
            shells: dict[int, int] = {}
            for p in pols:
                o, s = p.decide(view, rng)
                for u, order in o.items():
                    orders[u] = order
                shells.update(s)
            prep.game.apply_round(st, orders, shells, None)  # type: ignore[arg-type]
            if st.over:
                break
        if not st.over:
            out.append(st)
    return out


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
    prep = DRIVER.prepare(_map(name))
    for i, st in enumerate(_random_positions(name, 6, seed)):
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
    prep = DRIVER.prepare(_map("extra-forces"))
    st = _random_positions("extra-forces", 1, 3)[0]
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
    DRIVER.check_policy(DRIVER.prepare(_map("mirror")), spec)


@pytest.mark.parametrize("spec", ["ksearch:0", "ksearch:x", "ksearch:-1"])
def test_bad_ksearch_budgets_are_refused_in_one_line(spec: str) -> None:
    with pytest.raises(PolicyError) as err:
        DRIVER.check_policy(DRIVER.prepare(_map("mirror")), spec)
    assert "\n" not in str(err.value)


def test_ksearch_refuses_advanced_rules_in_one_line() -> None:
    s = _map("mirror")
    s = dataclasses.replace(s, options={**s.options, "air_strike": True})
    with pytest.raises(PolicyError) as err:
        DRIVER.check_policy(DRIVER.prepare(s), "ksearch:2")
    assert "\n" not in str(err.value) and "air_strike" in str(err.value)


@pytest.mark.parametrize("policies", [("ksearch:2", "heuristic"), ("search:1", "ksearch:1")])
def test_ksearch_games_are_the_same_on_one_and_two_workers(policies: tuple[str, str]) -> None:
    s = _map("extra-forces")
    cols = ["winner", "length", "end", "route", "deaths"]
    one = simulate(s, 4, policies, seed=9, workers=1, batch_size=1)
    two = simulate(s, 4, policies, seed=9, workers=2, batch_size=1)
    assert one[cols].equals(two[cols])
    assert not one[cols].equals(simulate(s, 4, policies, seed=10, workers=1)[cols])
