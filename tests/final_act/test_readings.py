"""docs/rules.md §1.8a: the basic-rule readings that are options (``engine_readings``), each
value played in a small hand-made round; the compiled kernel plays only the defaults, so a
changed reading sends random/heuristic playouts to the reference engine."""

from __future__ import annotations

import numpy as np
import pytest
from advanced_support import FAR, N, S, at, c, game, play, rm, tank

from tankmap.analysis.simulation.final_act.driver import DRIVER
from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.final_act.data import DATA
from tankmap.rules.final_act.engine import END_GOAL
from tankmap.rules.final_act.engine_readings import DEFAULTS, NAMES, Readings
from tankmap.rules.geometry import Facing
from tankmap.rules.scenario import Unit


def test_defaults_are_the_ruleset_defaults() -> None:
    specs = {o.name: o.default for o in DATA.options}
    assert {n: specs[n] for n in NAMES} == {n: getattr(DEFAULTS, n) for n in NAMES}
    assert Readings.of({}).changed == ()
    assert Readings.of({"tank_at_pass": "bounce", "wrecks": False}).changed == ("tank_at_pass",)


# --- tank_rotation ------------------------------------------------------------------------
# Three south tanks round the triangle c3 -> c4 -> d4 -> c3: A on c3 facing N forward to
# c4; B on c4 facing E forward to d4; C on d4 facing N back-left to c3 (back = south, left
# of N = west). Each enters the cell the next one leaves; no two of them swap.
def rotation(third: str = "tank", **opts: object) -> list[int]:
    b_unit = Unit("tank", S, c("c4"), Facing.E, "1")
    c_unit = tank(S, "d4", "2") if third == "tank" else rm(S, "d4")
    g = game(*FAR, tank(S, "c3", "C"), b_unit, c_unit, **opts)
    st = g.initial_state()
    play(g, st, {2: ("c4", Facing.N), 3: ("d4", Facing.E), 4: ("c3", Facing.N)})
    return [st.cell[u] for u in (2, 3, 4)]


@pytest.mark.parametrize("third", ["tank", "rm"])
def test_three_tank_rotation_moves_by_default(third: str) -> None:
    assert rotation(third) == [c("c4"), c("d4"), c("c3")]


@pytest.mark.parametrize("third", ["tank", "rm"])
def test_three_tank_rotation_stays_when_off(third: str) -> None:
    assert rotation(third, tank_rotation=False) == [c("c3"), c("c4"), c("d4")]


def test_a_chain_that_is_no_cycle_moves_either_way() -> None:
    # A c3 -> c4, B c4 -> d4 (facing E), C d4 -> d5 (forward): C leaves the chain's end,
    # nothing comes back to c3: all three move under both readings.
    for opts in ({}, {"tank_rotation": False}):
        b_unit = Unit("tank", S, c("c4"), Facing.E, "1")
        g = game(*FAR, tank(S, "c3", "C"), b_unit, tank(S, "d4", "2"), **opts)  # type: ignore[arg-type]
        st = g.initial_state()
        play(g, st, {2: ("c4", Facing.N), 3: ("d4", Facing.E), 4: ("d5", Facing.N)})
        assert [st.cell[u] for u in (2, 3, 4)] == [c("c4"), c("d4"), c("d5")]


# --- at_turn_fires ------------------------------------------------------------------------
@pytest.mark.parametrize("fires", [True, False])
def test_at_turning_in_place_fires_by_option(fires: bool) -> None:
    # South AT on f3 facing N turns to E in place and shells f5 (2 ahead in its N cone,
    # placed from its current facing). Default: a turn is not a move, it fires; false:
    # "cannot move and shoot at the same turn" counts the turn, the shell is refused.
    g = game(*FAR, at(S, "f3"), at_turn_fires=fires)
    st = g.initial_state()
    turn = {2: ("f3", Facing.E)}
    if fires:
        play(g, st, turn, shells={2: "f5"})
        assert st.facing[2] is Facing.E
    else:
        with pytest.raises(IllegalMoveError, match="may not fire"):
            play(g, st, turn, shells={2: "f5"})
        play(g, st, {2: ("f3", Facing.N)}, shells={2: "f5"})  # staying unturned still fires


# --- at_into_tank -------------------------------------------------------------------------
@pytest.mark.parametrize("reading", ["stays", "eliminated"])
def test_at_walking_into_a_standing_enemy_tank(reading: str) -> None:
    # North 1 stays on d5; south AT on d4 steps onto d5. "stays": the cell is held by a
    # unit that did not move, the AT stays on d4. "eliminated": it walks in and is out,
    # credited to north.
    g = game(*FAR, at(S, "d4"), tank(N, "d5", "1"), at_into_tank=reading)
    st = g.initial_state()
    play(g, st, {2: ("d5", Facing.N)})
    if reading == "stays":
        assert st.alive[2] and st.cell[2] == c("d4") and st.kills == [0, 0]
    else:
        assert not st.alive[2] and st.kills == [0, 1]
    assert st.cell[3] == c("d5") and st.alive[3]


# --- tank_at_pass -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "reading, tank_cell, at_cell, at_alive",
    [
        ("pass", "d5", "d4", True),  # both move, nothing happens
        ("run-over", "d5", "d4", False),  # both move, the tank drove over the AT
        ("bounce", "d4", "d5", True),  # both stay, like two tanks
    ],
)
def test_tank_and_enemy_at_trading_cells(
    reading: str, tank_cell: str, at_cell: str, at_alive: bool
) -> None:
    # South C on d4 facing N forward to d5; north AT on d5 steps to d4.
    g = game(*FAR, tank(S, "d4", "C"), at(N, "d5"), tank_at_pass=reading)
    st = g.initial_state()
    play(g, st, {2: ("d5", Facing.N), 3: ("d4", Facing.S)})
    assert st.cell[2] == c(tank_cell) and st.alive[3] is at_alive
    if at_alive:
        assert st.cell[3] == c(at_cell)
    else:
        assert st.kills == [1, 0]


# --- arrival_hit_wins ---------------------------------------------------------------------
@pytest.mark.parametrize("wins", [False, True])
def test_tank_knocked_out_on_arrival_at_the_goal(wins: bool) -> None:
    # South C (damaged) on e11 facing N moves forward-right to f12, north's last line. North
    # AT on f10 facing N shells f12 (2 straight ahead; f11 empty): C's second hit, out on
    # arrival. Default: a tank must end the round there alive -> play goes on; true: it
    # landed -> south wins by the goal.
    g = game(
        *FAR,
        tank(S, "e11", "C", 1),
        Unit("at", N, c("f10"), Facing.N),
        arrival_hit_wins=wins,
    )
    st = g.initial_state()
    play(g, st, {2: ("f12", Facing.N)}, shells={3: "f12"})
    assert not st.alive[2]
    if wins:
        assert st.end == END_GOAL and st.winner is S
    else:
        assert not st.over


def test_a_tank_standing_on_the_line_when_hit_is_no_arrival() -> None:
    # Only a tank that moved onto the line counts: with both sides tied on the line (C on
    # f12, north 1 on a1 at the start: a tie is played on), C stays and is knocked out;
    # north 1 stays too. Nothing lands: play goes on under either reading.
    for wins in (False, True):
        g = game(
            *FAR,
            tank(S, "f12", "C", 1),
            tank(N, "b1", "1"),
            Unit("at", N, c("f10"), Facing.N),
            arrival_hit_wins=wins,
        )
        st = g.initial_state()
        assert not st.over
        play(g, st, shells={4: "f12"})
        assert not st.alive[2] and not st.over


# --- the compiled kernel plays the defaults only -------------------------------------------
@pytest.mark.parametrize(
    "option, value",
    [
        ("tank_rotation", False),
        ("at_turn_fires", False),
        ("at_into_tank", "eliminated"),
        ("tank_at_pass", "run-over"),
        ("arrival_hit_wins", True),
    ],
)
def test_changed_reading_falls_back_to_the_reference_engine(option: str, value: object) -> None:
    g = game(*FAR, tank(S, "c3", "C"))
    assert DRIVER.batched(("random", "heuristic"), DRIVER.prepare(g.scenario))
    assert DRIVER.fallback_note(g.scenario, ("random", "random")) is None
    g = game(*FAR, tank(S, "c3", "C"), **{option: value})
    assert not DRIVER.batched(("random", "heuristic"), DRIVER.prepare(g.scenario))
    note = DRIVER.fallback_note(g.scenario, ("random", "random"))
    assert note is not None and option in note
    r = DRIVER.play(
        DRIVER.prepare(g.scenario),
        ("random", "heuristic"),
        np.random.default_rng(1),
    )
    assert r.length >= 1
