"""Tank Wars ``regret``: the compiled search (``kernel/search.py``) against its plain-Python
reference (``agents/regret_ref.py``) on seeded positions, positions whose best plan follows
from the rule text, and determinism across worker counts."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tankmap.analysis.simulation.runner import simulate
from tankmap.analysis.simulation.tank_wars.agents.regret import (
    HEURISTIC,
    LIGHT,
    WEIGHTS,
    kernel_orders,
)
from tankmap.analysis.simulation.tank_wars.agents.regret_ref import reference_search
from tankmap.analysis.simulation.tank_wars.agents.regret_value import features, value
from tankmap.analysis.simulation.tank_wars.kernel import base
from tankmap.analysis.simulation.tank_wars.kernel import value as kvalue
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario
from tankmap.rules.tank_wars.engine import (
    TankWarsState,
    initial_state,
)
from tests.simulation.tw_positions import board, positions, roster
from tests.tank_wars.tw_support import cell, cmd, scenario, unit

CASES = [
    ("default", {}, LIGHT, 0, 6),
    ("flank-artillery", {}, LIGHT, 0, 6),
    ("default", {"stay_without_token": False, "tokens_per_kind": 1}, LIGHT, 1, 4),
    ("flank-artillery", {"shells_used_up": True}, HEURISTIC, 1, 4),
    ("default", {"gunfire_hits_stationary": False, "tokens_per_kind": 2}, HEURISTIC, 0, 4),
]


@pytest.mark.parametrize(("name", "reading", "mode", "depth", "count"), CASES)
def test_compiled_search_chooses_as_the_reference(
    name: str, reading: dict[str, object], mode: int, depth: int, count: int
) -> None:
    sc = board(name, **reading)
    kinds, sides = roster(initial_state(sc))
    for k, state in enumerate(positions(sc, count, seed=len(name) + len(reading))):
        for side in (Side.SOUTH, Side.NORTH):
            seed = 977 * k + side.index
            banned = frozenset({"artillery"}) if k % 3 == 2 else frozenset()
            want = reference_search(state, side, 3, depth, mode, WEIGHTS, seed, banned)
            got = kernel_orders(state, side, 3, depth, mode, WEIGHTS, seed, banned, kinds, sides)
            assert got == want.orders


def test_compiled_value_is_the_reference() -> None:
    for name in ("default", "flank-artillery"):
        sc = board(name)
        kinds, sides = roster(initial_state(sc))
        for state in positions(sc, 20, seed=5):
            between = replace(state, in_round=False)
            t = base.tables_of(between, kinds, sides)
            pos = base.position_of(between, len(kinds))
            w = np.asarray(WEIGHTS[:-1], dtype=np.float64)
            x = np.zeros(len(w), dtype=np.float64)
            kvalue.features(t, pos, x)
            assert x.tolist() == pytest.approx(features(between), abs=1e-12)
            assert kvalue.value(t, pos, w, x) == pytest.approx(value(between, WEIGHTS), abs=1e-12)


# Hand-worked positions (docs/rules.md §3): the planning phase of a round whose artillery
# has fired; one choice is clearly best by the rule text.
def _planning(sc: Scenario) -> TankWarsState:
    return replace(initial_state(sc), in_round=True)


def test_a_one_ap_tank_does_not_drive_into_a_crater() -> None:
    # South's medium tank has 1 AP on c2; craters on every field around it but d1. Entering
    # a crater costs 1 AP (rules §3, movement): it would be destroyed and south would lose
    # its last vehicle. North has no gunfire tokens left, so staying or d1 are both safe.
    around = ("b1", "b2", "b3", "c3", "d3", "d2", "c1")
    sc = scenario(
        [unit("medium", "south", "c2", armour=1), unit("heavy", "north", "c12")],
        craters=around,
        gunfire_tokens=0,
    )
    state = _planning(sc)
    kinds, sides = roster(state)
    for seed in range(4):
        got = kernel_orders(
            state, Side.SOUTH, 64, 0, LIGHT, WEIGHTS, seed, frozenset(), kinds, sides
        )
        command = got.commands.get(0)
        assert command in (None, cmd("diagonal1 SE")), command


def test_a_crater_at_one_ap_is_avoided_by_the_reference_too() -> None:
    around = ("b1", "b2", "b3", "c3", "d3", "d2", "c1")
    sc = scenario(
        [unit("medium", "south", "c2", armour=1), unit("heavy", "north", "c12")],
        craters=around,
        gunfire_tokens=0,
    )
    plan = reference_search(_planning(sc), Side.SOUTH, 16, 0, LIGHT, WEIGHTS, 3)
    assert plan.orders.commands.get(0) in (None, cmd("diagonal1 SE"))


def test_a_stationary_last_vehicle_is_shot_where_it_must_stay() -> None:
    # North's last vehicle, a heavy tank with 1 AP on a12 (its own row 1, corner), can
    # only stay: every field it could drive to holds a crater that would destroy it, and
    # a 2-field move is not executed at 1 AP. With gunfire hitting stationary vehicles
    # (the default), south's one gunfire token on a12 destroys it and wins the game; on
    # a11 or b12 it hits nothing.
    sc = scenario(
        [unit("heavy", "south", "c1"), unit("heavy", "north", "a12", armour=1)],
        craters=("a11", "b12"),
        gunfire_tokens=1,
    )
    state = _planning(sc)
    kinds, sides = roster(state)
    for seed in range(4):
        got = kernel_orders(
            state, Side.SOUTH, 32, 0, LIGHT, WEIGHTS, seed, frozenset(), kinds, sides
        )
        assert cell("a12") in got.gunfire


@pytest.mark.parametrize("policy", ["regret:4", "regret-heuristic:2"])
def test_regret_plays_the_same_games_on_one_and_two_workers(policy: str) -> None:
    sc = board("default")
    one = simulate(sc, 6, (policy, "heuristic"), seed=3, workers=1)
    two = simulate(sc, 6, (policy, "heuristic"), seed=3, workers=2)
    assert one.equals(two)


@pytest.mark.parametrize(
    ("spec", "refused"),
    [("regret", False), ("regret:16384", False), ("regret:16385", True), ("regret:0", True),
     ("regret-heuristic:8+no-artillery", False), ("regret:x", True)],
)  # fmt: skip
def test_regret_budgets_are_bounded(spec: str, refused: bool) -> None:
    from tankmap.analysis.simulation.budgets import check_budget
    from tankmap.analysis.simulation.games import PolicyError
    from tankmap.analysis.simulation.tank_wars.driver import DRIVER

    sc = board("default")
    if refused:
        with pytest.raises(PolicyError):
            check_budget("tank-wars", spec)
            DRIVER.check_policy(sc, spec)
    else:
        check_budget("tank-wars", spec)
        DRIVER.check_policy(sc, spec)
