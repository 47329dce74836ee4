"""docs/rules.md §2.5 escape readings that are options: ``diagonal_escape`` (default true: a
diagonal step across the enemy edge, not through the corner point, escapes) and
``backward_escape`` (default false: the backward step never leaves the board). Hand-made
positions; the reasoning is in the comments. The rules engine (legal turns), the escape
announcements and the escape-distance helpers all follow the options."""

from __future__ import annotations

import pytest

from tankmap.rules.geometry import Side
from tankmap.rules.tank_chess.announce import side_status
from tankmap.rules.tank_chess.escape_route import escape_route, terrain_escape_turns
from tankmap.rules.tank_chess.reach import side_terrain_reach, turns_to_escape
from tankmap.rules.tank_chess.state import ESCAPE, GameState
from tests.tank_chess.tc_support import make

LONE = "B command a1 N"  # north's command tank, far away


def escapes(st: GameState) -> bool:
    return any(t[1] == ESCAPE for t in st.legal_turns())


# --- diagonal_escape ----------------------------------------------------------------------
@pytest.mark.parametrize("diagonal", [True, False])
def test_diagonal_escape_from_four_rows_away(diagonal: bool) -> None:
    # White's command tank (speed 5) on h12 facing NE, empty board. Escaping this turn needs
    # 4 steps up to row 16 and 1 off the top edge = 5 forward steps, so no step is left
    # for a rotation: the only way is NE five times (i13 j14 k15 l16, then off between
    # columns l and m: not the corner point). Default: it escapes; straight escapes only:
    # it cannot this turn (a turn to N costs the fifth step), but next turn it can.
    st = GameState(make(["W command h12 NE", LONE], diagonal_escape=diagonal))
    assert escapes(st) is diagonal
    assert side_status(st, 0).escape is diagonal
    # escape helpers: 1 turn with diagonal escapes, else 2
    assert turns_to_escape(st, 0, pieces_block=True) == (1 if diagonal else 2)
    assert escape_route(st, 0, 4).turns == (1 if diagonal else 2)
    h12_ne = (11 * 16 + 7) * 8 + 1
    assert terrain_escape_turns(st, 0, 5)[h12_ne] == (1 if diagonal else 2)


def test_straight_escape_is_allowed_either_way() -> None:
    # On h12 facing N: h13..h16 and the straight step off = 5 steps: an escape this turn
    # under both readings.
    for diagonal in (True, False):
        st = GameState(make(["W command h12 N", LONE], diagonal_escape=diagonal))
        assert escapes(st)


def test_scenario_reach_follows_diagonal_escape() -> None:
    # Terrain reach of the same position (the editor's and analysis' per-side answer).
    for diagonal, turns in ((True, 1), (False, 2)):
        sc = make(["W command h12 NE", LONE], diagonal_escape=diagonal)
        assert side_terrain_reach(sc)[Side.SOUTH].escape == turns


# --- backward_escape ----------------------------------------------------------------------
# With the published speed 5 a command tank on the enemy edge can always turn round in place
# (up to 4 rotations) and step forward off it within one turn, so the backward escape never
# changes the legal turns there; it matters for a slower command tank (a house ruleset's
# speed). Speed 1 is set on the state here: one step per turn.
@pytest.mark.parametrize(
    "facing, backward, diagonal, escaped",
    [
        ("S", False, True, False),  # default: the backward step never leaves the board
        ("S", True, True, True),  # backward from h16 facing S goes north off the top edge
        ("SE", True, True, True),  # backward is NW: diagonal, between g and h (no corner)
        ("SE", True, False, False),  # ... but not when only straight escapes count
        ("N", True, True, True),  # facing N the forward step escapes anyway
    ],
)
def test_backward_escape_of_a_slow_command_tank(
    facing: str, backward: bool, diagonal: bool, escaped: bool
) -> None:
    st = GameState(
        make(
            [f"W command h16 {facing}", LONE],
            backward_escape=backward,
            diagonal_escape=diagonal,
        )
    )
    st.speed[0] = 1
    assert escapes(st) is escaped
    if escaped:
        st.play((0, ESCAPE, -1, -1))
        assert st.outcome() is not None and st.reason == "escape" and st.winner == 0


def test_backward_escape_never_through_the_corner() -> None:
    # a16 facing SE: backward is NW, out through the board's corner point -> never.
    st = GameState(make(["W command a16 SE", LONE], backward_escape=True))
    st.speed[0] = 1
    assert not escapes(st)


def test_backward_escape_changes_nothing_at_speed_five() -> None:
    # h16 facing S at the published speed: S -> SE -> E -> NE -> N (4 rotations) and the
    # step off = 5 steps: an escape under both readings, one escape turn each.
    for backward in (False, True):
        st = GameState(make(["W command h16 S", LONE], backward_escape=backward))
        assert sum(1 for t in st.legal_turns() if t[1] == ESCAPE) == 1
