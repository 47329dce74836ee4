"""docs/rules.md §1.8a, readings of the advanced rules that are options: where the berm of a
repair behind a berm may be (``berm_repair_cover``) and when full throttle's passed cell is
judged (``throttle_passed``); and an air strike with three shells is refused for its
number of shells. Hand-made rounds; every expected answer is derived in a comment."""

from __future__ import annotations

import pytest
from advanced_support import FAR, N, S, c, game, play, tank

from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.final_act.engine_advanced import Actions
from tankmap.rules.geometry import Facing
from tankmap.rules.scenario import Terrain

# --- berm_repair_cover ----------------------------------------------------------------------
# "A hit tank still in your half of the battlefield can move back behind a berm and be
# repaired." South's small berm on g4 h4; for south "toward the enemy" is one row up.
BERM_S = Terrain("berm-small", (c("g4"), c("h4")), S)
BERM_N = Terrain("berm-small", (c("h10"), c("i10")), N)


@pytest.mark.parametrize(
    "cell, cover, repaired",
    [
        ("g3", "ahead", True),  # g4 straight ahead
        ("g3", "ahead-or-diagonal", True),
        ("f3", "ahead", False),  # f4 ahead is open; the berm (g4) is diagonally ahead
        ("f3", "ahead-or-diagonal", True),
        ("i3", "ahead-or-diagonal", True),  # h4 diagonally ahead on the other side
        ("e3", "ahead-or-diagonal", False),  # d4 e4 f4 ahead: no berm (g4 is two over)
        ("f2", "ahead-or-diagonal", False),  # two rows behind the berm
        ("g5", "ahead-or-diagonal", False),  # in front of the berm
    ],
)
def test_berm_repair_cover(cell: str, cover: str, repaired: bool) -> None:
    g = game(
        *FAR, tank(S, cell, "C", 1), terrain=(BERM_S,), berm_repair=True, berm_repair_cover=cover
    )
    st = g.initial_state()
    if repaired:
        play(g, st, actions=Actions(berm_repair=[2]))
        assert st.damage[2] == 0
    else:
        with pytest.raises(IllegalMoveError, match="behind a berm"):
            play(g, st, actions=Actions(berm_repair=[2]))


@pytest.mark.parametrize("cover, repaired", [("ahead", False), ("ahead-or-diagonal", True)])
def test_berm_repair_cover_for_north(cover: str, repaired: bool) -> None:
    # North 1 damaged on g11 (own row 2): toward south is one row down; g10 is open, h10
    # (diagonally toward south) is north's berm
    g = game(
        *FAR, tank(N, "g11", "1", 1), terrain=(BERM_N,), berm_repair=True, berm_repair_cover=cover
    )
    st = g.initial_state()
    if repaired:
        play(g, st, actions=Actions(berm_repair=[2]))
        assert st.damage[2] == 0
    else:
        with pytest.raises(IllegalMoveError, match="behind a berm"):
            play(g, st, actions=Actions(berm_repair=[2]))


# --- throttle_passed ------------------------------------------------------------------------
# C on c2 facing N throttles forward: its order is c3 (the dial), the token takes it on to
# c4 when the passed cell c3 is free.
def throttle(blocker_order: tuple[str, Facing], blocker_side: str, reading: str) -> tuple[str, str]:
    """Play the round; where C and the other tank (on c3 or d4 at the start) end."""
    other = tank(S, "c3", "1") if blocker_side == "south" else tank(N, "d4", "1")
    g = game(*FAR, tank(S, "c2", "C"), other, full_throttle=True, throttle_passed=reading)
    st = g.initial_state()
    moves = {2: ("c3", Facing.N), 3: blocker_order}
    play(g, st, moves, actions=Actions(full_throttle=[2]))
    name = g.board.cell_name
    return name(st.cell[2]), name(st.cell[3])


@pytest.mark.parametrize("reading, ends", [("start", ("c3", "d4")), ("after-moves", ("c4", "d4"))])
def test_a_cell_left_during_the_round(reading: str, ends: tuple[str, str]) -> None:
    # South 1 on c3 (facing N) moves forward-right to d4, leaving c3. start: c3 held a tank
    # at the start of the round -> C makes its one-cell move, to c3 (vacated: no conflict).
    # after-moves: nothing ends on c3 -> C passes it and ends on c4.
    assert throttle(("d4", Facing.N), "south", reading) == ends


@pytest.mark.parametrize("reading, ends", [("start", ("c4", "c3")), ("after-moves", ("c2", "d4"))])
def test_a_cell_entered_during_the_round(reading: str, ends: tuple[str, str]) -> None:
    # North 1 on d4 (facing S) moves diagonally forward to c3. start: c3 was free at the
    # start -> C goes on to c4 and north 1 ends on c3. after-moves: north 1 holds c3 once
    # the moves are made -> C's order is its one-cell move to c3, and C and north 1 are
    # both ordered into c3 -> neither moves (docs/rules.md §1.5).
    assert throttle(("c3", Facing.S), "north", reading) == ends


@pytest.mark.parametrize("reading", ["start", "after-moves"])
def test_a_free_passed_cell_either_way(reading: str) -> None:
    # North 1 on d4 stays: c3 is free at the start and after the moves -> c4
    assert throttle(("d4", Facing.S), "north", reading) == ("c4", "d4")


# --- an air strike's number of shells -------------------------------------------------------
@pytest.mark.parametrize(
    "targets, why",
    [
        (("c7", "c9", "c10"), "an air strike places 1 or 2 shells, not 3"),  # all on c
        ((), "an air strike places 1 or 2 shells, not 0"),
        (("d7",), "on the token's column"),  # off the column
        (("c1",), "on the token's column, not on it"),  # the token's own cell
    ],
)
def test_air_strike_refusals_say_why(targets: tuple[str, ...], why: str) -> None:
    # "lays the token on any of the squares of their Last Line of Defense ... can place 2
    # more shells anywhere you wish on that column (excluding the square area of the token)"
    g = game(*FAR, tank(S, "c2", "C"), tank(N, "c9", "1"), air_strike=True)
    strike = Actions(air_strike={0: (c("c1"), [c(t) for t in targets])})
    with pytest.raises(IllegalMoveError, match=why):
        play(g, g.initial_state(), actions=strike)
