"""``rules.tank_chess.escape_route``: shortest escape routes with pieces blocking, and the
terrain-only turns-to-escape table. Hand-made corridors (answers worked out from docs/rules.md
§2.3/§2.5 in the comments) and a cross-check of the turn counts against the 0-1 search of
``reach.turns_to_escape``."""

from __future__ import annotations

import numpy as np
import pytest

from tankmap.rules.fileformat import read_scenario
from tankmap.rules.tank_chess.escape_route import escape_route, terrain_escape_turns
from tankmap.rules.tank_chess.reach import turns_to_escape
from tankmap.rules.tank_chess.state import GameState
from tests.tank_chess.tc_support import MAPS, make

# A 3 × 12 board whose columns a and c are obstacles: a one-cell corridor up column b.
WALLS = " ".join(f"{col}{row}" for col in "ac" for row in range(1, 13))
N, NE, NW, S = 0, 1, 7, 4


def _corridor(*extra: str) -> GameState:
    return GameState(make(["W command b1 N", *extra], WALLS, size=(3, 12)))


def _cell(name: str) -> int:
    return (int(name[1:]) - 1) * 3 + "abc".index(name[0])


def test_corridor_route() -> None:
    # b1 facing N: 11 steps to b12 and the step off = 12 steps = 3 turns (5 + 5 + 2).
    st = _corridor()
    r = escape_route(st, 0, 8)
    assert r.turns == 3
    # After turn 1 the tank must still escape in 2 turns (10 steps). Ending on b_r with a
    # rotation of k (45° steps) away from N: reaching it takes (r - 1) + k <= 5 steps and
    # escaping from it k + (12 - r) + 1 <= 10: k = 0 gives r = 3..6, k = 1 (NE or NW) gives
    # r = 4..5, k >= 2 nothing.
    want = {(_cell(f"b{r}"), N) for r in (3, 4, 5, 6)}
    want |= {(_cell(f"b{r}"), f) for r in (4, 5) for f in (NE, NW)}
    got = {(s >> 3, s & 7) for s in range(st.size * 8) if r.next_states >> s & 1}
    assert got == want
    # every shortest route enters b2 .. b12 and nothing else
    cells = {c for c in range(st.size) if r.cells >> (8 * c) & 1}
    assert cells == {_cell(f"b{k}") for k in range(2, 13)}
    assert escape_route(st, 0, 2).turns is None  # the search stops after 2 turns


def test_a_piece_in_the_corridor_blocks_it() -> None:
    st = _corridor("B light b8 S")
    assert escape_route(st, 0, 10) == escape_route(st, 0, 1)  # no escape at all
    assert escape_route(st, 0, 10).turns is None
    # over terrain alone (pieces ignored) it still escapes in 3 turns
    assert terrain_escape_turns(st, 0, 5)[_cell("b1") * 8 + N] == 3


def test_last_turn_needs_no_route_states() -> None:
    # b8 facing N: 4 steps to b12, then off: 5 steps = 1 turn, so no next states.
    st = GameState(make(["W command b8 N"], WALLS, size=(3, 12)))
    r = escape_route(st, 0, 3)
    assert (r.turns, r.next_states) == (1, 0)
    assert {c for c in range(st.size) if r.cells >> (8 * c) & 1} == {
        _cell(f"b{k}") for k in range(9, 13)
    }


def test_terrain_table_in_the_corridor() -> None:
    table = terrain_escape_turns(_corridor(), 0, 5)
    assert table[_cell("b12") * 8 + N] == 1
    assert table[_cell("b8") * 8 + N] == 1  # 4 steps + the step off
    assert table[_cell("b7") * 8 + N] == 2  # 5 steps + the step off
    assert table[_cell("b12") * 8 + S] == 1  # 4 rotations + the step off
    assert table[_cell("b1") * 8 + S] == 4  # 4 rotations + 11 steps + 1 = 16 steps
    assert table[_cell("a5") * 8 + N] == -1  # an obstacle cell
    # Black escapes off row 1: b1 facing S steps off at once, b1 facing N needs 4 rotations
    black = terrain_escape_turns(_corridor(), 1, 5)
    assert black[_cell("b1") * 8 + S] == 1 and black[_cell("b1") * 8 + N] == 1
    assert black[_cell("b12") * 8 + S] == 3


@pytest.mark.parametrize(("name", "strict"), [("basic-16.json", False), ("sample-20.json", True)])
def test_turns_agree_with_the_rules_search(name: str, strict: bool) -> None:
    sc = read_scenario(MAPS / name).with_options(strict_corners=strict)
    rng = np.random.default_rng(11)
    st = GameState(sc)
    checked = escapes = 0
    while st.outcome() is None and st.ply < 40:
        for p in range(len(st.kind))[st.ply % 3 :: 3]:
            if st.alive[p] and st.cell[p] >= 0:
                want = turns_to_escape(st, p, True)
                assert escape_route(st, p, 40, routes=False).turns == want
                assert escape_route(st, p, 40).turns == want
                checked += 1
                escapes += want is not None
        turns = st.legal_turns()
        st.push(turns[int(rng.integers(len(turns)))])
    assert checked > 100 and escapes > 50
