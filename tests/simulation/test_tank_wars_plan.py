"""Tank Wars ``plan``: the compiled search (``kernel/plan.py``) against its plain-Python
reference (``agents/plan_ref.py``) on seeded positions, positions whose best orders follow
from the rule text, and determinism across worker counts."""

from __future__ import annotations

import pytest

from tankmap.analysis.simulation.runner import simulate
from tankmap.analysis.simulation.tank_wars.agents.plan import (
    GUNFIRE_CANDIDATES,
    WEIGHTS,
    kernel_plan,
)
from tankmap.analysis.simulation.tank_wars.agents.plan_ref import reference_plan
from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.engine import initial_state
from tests.simulation.tw_positions import board, positions, roster
from tests.tank_wars.tw_support import cell, planning, scenario, unit

CASES = [
    ("default", {}, 0, 4),
    ("flank-artillery", {}, 2, 2),
    ("default", {"stay_without_token": False, "tokens_per_kind": 1}, 0, 3),
    ("flank-artillery", {"shells_used_up": True, "gunfire_hits_stationary": False}, 1, 2),
]


@pytest.mark.parametrize(("name", "reading", "lookahead", "count"), CASES)
def test_compiled_plan_chooses_as_the_reference(
    name: str, reading: dict[str, object], lookahead: int, count: int
) -> None:
    sc = board(name, **reading)
    kinds, sides = roster(initial_state(sc))
    for k, state in enumerate(positions(sc, count, seed=3 + len(reading))):
        for side in (Side.SOUTH, Side.NORTH):
            seed = 613 * k + side.index
            banned = frozenset({"artillery"}) if k % 2 == 1 else frozenset()
            want = reference_plan(
                state, side, 2, lookahead, WEIGHTS, seed, banned, GUNFIRE_CANDIDATES
            )
            got = kernel_plan(state, side, 2, lookahead, WEIGHTS, seed, banned, kinds, sides)
            assert got == want


# Hand-worked positions (docs/rules.md §3): the planning phase of a round whose artillery
# has fired; the best orders follow from the rule text.

STUCK = [
    # The enemy's last vehicle, a heavy tank with 1 AP in a corner of its own row 1, can
    # only stay: both fields it could drive to hold a crater, which would cost its last AP
    # (a 2-field move is not executed at 1 AP). Gunfire hits stationary vehicles (the
    # default), so the one gunfire token on its corner destroys it and wins the game.
    (Side.SOUTH, ("heavy", "south", "c1"), ("heavy", "north", "a12"), ("a11", "b12"), "a12"),
    (Side.NORTH, ("heavy", "north", "d12"), ("heavy", "south", "f1"), ("f2", "e1"), "f1"),
]


@pytest.mark.parametrize(("side", "mine", "stuck", "craters", "target"), STUCK)
def test_the_stuck_last_vehicle_is_shot_where_it_must_stay(
    side: Side, mine: tuple[str, str, str], stuck: tuple[str, str, str],
    craters: tuple[str, ...], target: str,
) -> None:  # fmt: skip
    units = [unit(*mine), unit(*stuck, armour=1)]
    if side is Side.NORTH:
        units.reverse()
    sc = scenario(units, craters=craters, gunfire_tokens=1)
    state = planning(sc)
    kinds, sides = roster(state)
    for seed in range(6):
        got = kernel_plan(state, side, 8, 0, WEIGHTS, seed, frozenset(), kinds, sides)
        assert got.gunfire == (cell(target),)


def test_plan_plays_the_same_games_on_its_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    # TANKMAP_KERNEL=python: every decision by plan_ref on the engine
    sc = board("default")
    compiled = simulate(sc, 2, ("plan:3", "plan:2+no-artillery"), seed=7, workers=1)
    monkeypatch.setenv("TANKMAP_KERNEL", "python")
    reference = simulate(sc, 2, ("plan:3", "plan:2+no-artillery"), seed=7, workers=1)
    assert compiled.equals(reference)


@pytest.mark.parametrize("policy", ["plan:3", "plan:2+no-artillery"])
def test_plan_plays_the_same_games_on_one_and_two_workers(policy: str) -> None:
    sc = board("default")
    one = simulate(sc, 6, (policy, "heuristic"), seed=3, workers=1)
    two = simulate(sc, 6, (policy, "heuristic"), seed=3, workers=2)
    assert one.equals(two)


@pytest.mark.parametrize(
    ("spec", "refused"),
    [("plan", False), ("plan:16384", False), ("plan:16385", True), ("plan:0", True),
     ("plan:8+no-medium", False), ("plan:x", True)],
)  # fmt: skip
def test_plan_budgets_are_bounded(spec: str, refused: bool) -> None:
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
