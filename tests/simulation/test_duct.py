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
from tankmap.analysis.simulation.final_act.agents.reference import RandomPolicy, RoundView
from tankmap.analysis.simulation.final_act.driver import DRIVER
from tankmap.analysis.simulation.final_act.duct.params import LIGHT
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


def _compiled(prep: Prepared, st: State, side: int, key: int, iters: int) -> tuple[object, ...]:
    """The compiled search's orders, shells and repairs for ``side`` (as ``search``)."""
    pol = DuctPolicy(prep, side, False, LIGHT, iters)
    pol.key = key
    orders, shells = pol.decide(RoundView(st, prep), np.random.default_rng(0))
    return orders, shells, pol._repairs


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
    rs = get_ruleset("final-act")
    options = rs.new_scenario(B, {}).options
    prep = DRIVER.prepare(Scenario("final-act", B, options, (swamp,), units))
    return prep, prep.game.initial_state()


@pytest.mark.parametrize("key", [1, 2, 3])
@pytest.mark.parametrize("iters", [8, 40, 200])
def test_duct_lands_the_winning_tank(key: int, iters: int) -> None:
    prep, st = _landing_position()
    a12 = (B.parse_cell("a12"), Facing.N)
    orders, _shells, _rep = search(prep, st, 0, search_key(key, 0, 0), iters)
    assert orders[0] == a12
    assert _compiled(prep, st, 0, key, iters)[0] == orders


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
    "name, seed", [("mirror", 5), ("extra-forces", 6), ("flanks-vs-centre", 7)]
)
def test_compiled_search_chooses_as_the_reference(name: str, seed: int) -> None:
    prep = DRIVER.prepare(_map(name))
    for i, st in enumerate(_random_positions(name, 10, seed)):
        side = i % 2
        key = 1000 * seed + i
        want = search(prep, st, side, search_key(key, st.round, side), 12)
        assert _compiled(prep, st, side, key, 12) == want, (name, i)


@pytest.mark.parametrize("spec", ["duct", "duct:1", "duct:8192", "duct-h:3", "duct+no-berms"])
def test_duct_names_are_accepted(spec: str) -> None:
    DRIVER.check_policy(DRIVER.prepare(_map("mirror")), spec)


@pytest.mark.parametrize("spec", ["duct:0", "duct:8193", "duct:x", "duct-h:-1"])
def test_bad_duct_budgets_are_refused_in_one_line(spec: str) -> None:
    with pytest.raises(PolicyError) as err:
        DRIVER.check_policy(DRIVER.prepare(_map("mirror")), spec)
    assert "\n" not in str(err.value) and "8192" in str(err.value)


def test_duct_family_is_the_independent_one() -> None:
    f = family("final-act", "duct")
    assert f.independent and f.base < f.limit <= 8192
    DRIVER.check_policy(None, f.agent(f.limit))


@pytest.mark.parametrize(
    "policies",
    [("duct:4", "heuristic"), ("random", "duct-h:2"), ("duct:3", "duct:5"), ("duct:2", "search:1")],
)
def test_duct_games_are_the_same_on_one_and_two_workers(policies: tuple[str, str]) -> None:
    s = _map("extra-forces")
    cols = ["winner", "length", "end", "route", "deaths"]
    one = simulate(s, 4, policies, seed=9, workers=1, batch_size=1)
    two = simulate(s, 4, policies, seed=9, workers=2, batch_size=1)
    assert one[cols].equals(two[cols])
    again = simulate(s, 4, policies, seed=9, workers=2, batch_size=3)
    assert one[cols].equals(again[cols])
