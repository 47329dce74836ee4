"""Tank Wars reading ``hit_leaves_crater`` (docs/rules.md §3): "If artillery fire hits a
vehicle, this is considered a normal hit and the vehicle loses 1 point of armor" — by
default no crater is placed under it; with the option one is. Scripted dice; each expected
answer is derived in a comment."""

from __future__ import annotations

import pytest
from tw_support import TW, ScriptedDice, cell, cmd, names, roll, scenario, unit, whats

from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.engine import Orders, artillery_phase, initial_state, resolve_orders

S, N = Side.SOUTH, Side.NORTH


@pytest.mark.parametrize("leaves", [False, True])
def test_an_artillery_hit_on_a_vehicle_and_its_crater(leaves: bool) -> None:
    # South's artillery (4 shells) fires at north's board: c12 twice (north's heavy, 3 AP:
    # two hits -> 1 AP), d9 (empty: a crater) and a12 (empty: a crater). North has no
    # artillery vehicle: one long-range shot, f2 (empty: a crater on south's board).
    # Default: the hits leave no crater under the heavy. hit_leaves_crater: the first hit
    # leaves one on c12, the second finds it there (one crater per field).
    s = scenario(
        [unit("artillery", "south", "a1"), unit("heavy", "north", "c12")],
        supply_drops=0,
        hit_leaves_crater=leaves,
    )
    rolls = [roll(x, N) for x in ("c12", "c12", "d9", "a12")] + [roll("f2", S)]
    events: list = []
    mid = artillery_phase(initial_state(s), ScriptedDice(rolls), events)  # type: ignore[arg-type]
    heavy = next(v for v in mid.vehicles if v.kind == "heavy")
    assert heavy.armour == 1
    expected = {"a12", "d9", "f2"} | ({"c12"} if leaves else set())
    assert set(names(mid.craters)) == expected
    assert whats(events).count("crater-left") == (1 if leaves else 0)
    assert whats(events).count("shot-hit") == 2
    # the heavy drives off the crater (straight 1 S to c11): leaving a crater costs
    # nothing ("each crater crossed or entered costs 1 AP"); the crater stays on c12
    after = resolve_orders(mid, Orders(), Orders({1: cmd("straight1 S")}), ScriptedDice([]))  # type: ignore[arg-type]
    heavy = next(v for v in after.vehicles if v.kind == "heavy")
    assert (names([heavy.cell]), heavy.armour) == (["c11"], 1)
    assert (cell("c12") in after.craters) == leaves


@pytest.mark.parametrize("leaves", [False, True])
def test_a_vehicle_on_a_crater_is_a_position_only_with_the_option(leaves: bool) -> None:
    # A saved position after such a hit: north's heavy stands on a crater on c12. With the
    # option it is a position the game can reach (no unit-on-crater error, and it plays
    # on); by default a vehicle that enters a crater removes it, so it is an error.
    s = scenario(
        [unit("heavy", "south", "a1"), unit("heavy", "north", "c12")],
        craters=("c12",),
        hit_leaves_crater=leaves,
    )
    codes = [v.code for v in TW.check(s)]
    assert ("unit-on-crater" in codes) == (not leaves)
    if leaves:
        assert cell("c12") in initial_state(s).craters
