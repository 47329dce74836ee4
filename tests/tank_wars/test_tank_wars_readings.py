"""Tank Wars readings that are options (docs/rules.md §3.1; the fragment is silent on
them): ``shells_used_up``, ``stay_without_token`` and ``tokens_per_kind``. Hand-made
rounds with scripted dice; each expected answer is derived in a comment."""

from __future__ import annotations

import numpy as np
import pytest
from tw_support import ScriptedDice, cell, cmd, planning, roll, scenario, unit

from tankmap.analysis.simulation.games import get_driver
from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.engine import (
    Orders,
    artillery_phase,
    command_options,
    initial_state,
    random_orders,
    resolve_orders,
)
from tankmap.rules.tank_wars.state import executes, tokens_ok

S, N = Side.SOUTH, Side.NORTH
QUIET = {"supply_drops": 0}


# --- shells_used_up -----------------------------------------------------------------------
@pytest.mark.parametrize("used_up", [False, True])
def test_artillery_shells_per_round_or_for_the_game(used_up: bool) -> None:
    # South's artillery (4 shells on its card) fires at north's board; north's heavy has no
    # shells: 1 long-range shot. Default: 4 shots every round. shells_used_up: the 4 shells
    # are the stock for the game; the vehicle fires all it has ("as many shots ... as the
    # number of shells it has available"), so after round 1 it has none and fires nothing —
    # and, still being an artillery vehicle, gets no long-range shot either.
    s = scenario(
        [unit("artillery", "south", "a1"), unit("heavy", "north", "f12")],
        shells_used_up=used_up,
        **QUIET,
    )
    st = initial_state(s)
    assert (st.artillery_shots(S), st.artillery_shots(N)) == (4, 1)
    rolls = [roll(x, N) for x in ("a9", "b9", "c9", "d9")] + [roll("f2", S)]
    mid = artillery_phase(st, ScriptedDice(rolls))  # type: ignore[arg-type]
    after = resolve_orders(mid, Orders(), Orders(), ScriptedDice([]))  # type: ignore[arg-type]
    assert after.artillery_shots(S) == (0 if used_up else 4)
    assert after.artillery_shots(N) == 1


def test_long_range_shot_without_an_artillery_vehicle_either_way() -> None:
    # A side with no vehicle whose card shows shells (here north, heavy only) fires the
    # long-range shot under both readings, every round.
    for used_up in (False, True):
        s = scenario(
            [unit("heavy", "south", "a1"), unit("heavy", "north", "f12")],
            shells_used_up=used_up,
            **QUIET,
        )
        st = initial_state(s)
        mid = artillery_phase(st, ScriptedDice([roll("c9", N), roll("c2", S)]))  # type: ignore[arg-type]
        after = resolve_orders(mid, Orders(), Orders(), ScriptedDice([]))  # type: ignore[arg-type]
        assert (after.artillery_shots(S), after.artillery_shots(N)) == (1, 1)


# --- stay_without_token -------------------------------------------------------------------
def two_heavies(**options: object) -> object:
    return scenario(
        [unit("heavy", "south", "c2"), unit("heavy", "north", "c11")], **QUIET, **options
    )


def test_no_token_is_staying_by_default() -> None:
    st = planning(two_heavies())  # type: ignore[arg-type]
    assert None in command_options(st, st.vehicles[0])
    after = resolve_orders(st, Orders(), Orders(), ScriptedDice([]))  # type: ignore[arg-type]
    assert [v.cell for v in after.vehicles] == [cell("c2"), cell("c11")]


def test_every_vehicle_needs_a_token_when_staying_without_one_is_off() -> None:
    # South gives its heavy no token: refused. Its options hold no "no token"; in its place
    # tokens that are not executed: the heavy moves straight 1 or 2 only, so a diagonal
    # token (diagonal1 NE first, diagonal2 NE) is outside its pattern; straight tokens from
    # c2 all stay on south's board except straight2 S (c0: off the board).
    st = planning(two_heavies(stay_without_token=False))  # type: ignore[arg-type]
    heavy = st.vehicles[0]
    opts = command_options(st, heavy)
    assert None not in opts
    idle = [c for c in opts if c is not None and not executes(st, heavy, c)]
    assert [str(c) for c in idle] == ["straight2 S", "diagonal1 NE", "diagonal2 NE"]
    north = Orders({1: cmd("straight1 S")})
    with pytest.raises(IllegalMoveError, match="no command token"):
        resolve_orders(st, Orders(), north, ScriptedDice([]))  # type: ignore[arg-type]
    # given a token that is not executed, it stays; north's heavy moves c11 -> c10
    after = resolve_orders(st, Orders({0: cmd("diagonal1 NE")}), north, ScriptedDice([]))  # type: ignore[arg-type]
    assert [v.cell for v in after.vehicles] == [cell("c2"), cell("c10")]


# --- tokens_per_kind ----------------------------------------------------------------------
def three_south(**options: object) -> object:
    return scenario(
        [
            unit("heavy", "south", "a1"),
            unit("medium", "south", "c1"),
            unit("artillery", "south", "e1"),
            unit("heavy", "north", "c11"),
        ],
        **QUIET,
        **options,
    )


def test_one_set_of_tokens_per_player() -> None:
    # tokens_per_kind = 1 (the box: one set of the 4 tokens per player): two south vehicles
    # both on "straight1" need two straight1 tokens -> refused; straight1 + straight2 +
    # diagonal1 is one of each -> fine. Without the limit both plans are fine.
    two_alike = Orders({0: cmd("straight1 N"), 2: cmd("straight1 N")})
    mixed = Orders({0: cmd("straight2 N"), 1: cmd("diagonal1 NE"), 2: cmd("straight1 N")})
    st = planning(three_south(tokens_per_kind=1))  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="command tokens of one kind"):
        resolve_orders(st, two_alike, Orders(), ScriptedDice([]))  # type: ignore[arg-type]
    after = resolve_orders(st, mixed, Orders(), ScriptedDice([]))  # type: ignore[arg-type]
    assert [v.cell for v in after.vehicles_of(S)] == [cell("a3"), cell("d2"), cell("e2")]
    free = planning(three_south())  # type: ignore[arg-type]
    resolve_orders(free, two_alike, Orders(), ScriptedDice([]))  # type: ignore[arg-type]


def test_random_orders_stay_within_the_tokens() -> None:
    st = planning(three_south(tokens_per_kind=1, stay_without_token=False))  # type: ignore[arg-type]
    for seed in range(50):
        orders = random_orders(st, S, np.random.default_rng(seed))
        assert tokens_ok(st.rules, orders.commands) and len(orders.commands) == 3


@pytest.mark.parametrize(
    "options",
    [
        {"shells_used_up": True},
        {"stay_without_token": False},
        {"tokens_per_kind": 1},
        {"tokens_per_kind": 1, "stay_without_token": False},
    ],
)
@pytest.mark.parametrize("policy", ["random", "heuristic", "search:2", "heuristic+no-medium"])
def test_policies_play_legal_games_under_the_readings(
    options: dict[str, object], policy: str
) -> None:
    # Every policy's orders pass the engine's checks (an illegal plan would raise) for a
    # few whole games.
    driver = get_driver("tank-wars")
    prep = driver.prepare(three_south(max_rounds=6, **options))
    for g in range(2):
        result = driver.play(prep, (policy, "random"), np.random.default_rng(g))
        assert result.length >= 1
