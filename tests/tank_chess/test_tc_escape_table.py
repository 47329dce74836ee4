"""``rules.tank_chess.escape_table``: turns to escape from many states with one search.

A hand-made position with its answers worked out from the rules (docs/rules.md §2.3: a turn is up
to ``speed`` rotations/forward steps, or the lone backward step; §2.5: the step off the
enemy edge escapes; command tank speed 5), and seeded game positions where every answer
must equal the rules' own 0-1 search (``reach.turns_to_escape`` with the pieces blocking)
after the piece is moved there.
"""

from __future__ import annotations

import numpy as np
import pytest

from tankmap.rules.fileformat import read_scenario
from tankmap.rules.tank_chess.data import COMMAND
from tankmap.rules.tank_chess.escape_route import terrain_escape_turns
from tankmap.rules.tank_chess.escape_table import escape_turns_from
from tankmap.rules.tank_chess.reach import turns_to_escape
from tankmap.rules.tank_chess.state import GameState
from tests.tank_chess.tc_support import MAPS, make

# 5 × 12 board, strict corners. Column b is a corridor (walls on columns a and c from row 2
# up); the only way east is c1. White's own light on b9 closes the corridor.
WALLS = " ".join(f"{col}{row}" for col in "ac" for row in range(2, 13))


def test_a_corridor_closed_by_a_piece() -> None:
    # Over the terrain the corridor is shortest: b1 -> b12 is 11 steps + the step off = 12
    # single steps (3 turns). With the light on b9 it is a dead end. The way round: rotate
    # to E (2), c1 (3), rotate NE (4), d2 (5, a diagonal beside the wall c2 and the empty
    # d1: allowed), rotate N (6), d3 .. d12 (16), off (17): 17 steps = 4 turns (5+5+5+2),
    # and no route is shorter (c1 is the only gate, 3 steps away, and d2 2 more).
    st = GameState(
        make(["W command b1 N", "W light b9 N"], WALLS, size=(5, 12), strict_corners=True)
    )
    cell = st.scenario.board.parse_cell
    ids = [cell("b1") * 8 + 0, cell("d2") * 8 + 1, cell("b6") * 8 + 0, cell("b11") * 8 + 0]
    # b1 N: 4 turns; d2 facing NE (5 steps done): 3 turns; b6 facing N, in the corridor,
    # must come back out: rotate to S (4) + b5 (5); b4, b3, b2, rotate SE, c1 (a diagonal
    # beside the wall c2 and the empty b1) (10); rotate E, rotate NE, d2, rotate N, d3 (15);
    # d4 .. d8; d9 .. d12 + off: 5 turns (24 steps at least: not 4; the lone backward step
    # moves one cell a turn, no better). b11 (beyond the light): b12 + off, 1 turn.
    assert escape_turns_from(st, 0, ids, 8) == [4, 3, 5, 1]
    assert escape_turns_from(st, 0, ids, 4) == [4, 3, None, 1]  # beyond the limit
    # without the light the corridor is open: 3 turns from b1 (5 + 5 + 1 step + off)
    open_st = GameState(make(["W command b1 N"], WALLS, size=(5, 12), strict_corners=True))
    assert escape_turns_from(open_st, 0, ids[:1], 8) == [3]


@pytest.mark.parametrize(
    ("name", "strict", "plies"),
    [("basic-16.json", False, 16), ("sample-20.json", False, 6), ("sample-20.json", True, 6)],
)
def test_matches_the_rules_search_after_each_move(name: str, strict: bool, plies: int) -> None:
    st = GameState(read_scenario(MAPS / name).with_options(strict_corners=strict))
    rng = np.random.default_rng(3)
    terrain = [terrain_escape_turns(st, side, 5) for side in (0, 1)]
    checked = blocked = 0
    for _ in range(plies):  # the reference search is slow on 20 x 20: fewer there
        turns = st.legal_turns()
        if not turns:
            break
        me = st.to_move
        clt = next((p for p in st.pieces_of[me] if st.kind[p] == COMMAND and st.alive[p]), -1)
        if clt >= 0:
            moves = [t for t in turns if t[0] == clt and t[3] < 0 and t[1] >= 0]
            ids = [st.cell[clt] * 8 + st.facing[clt]] + [t[1] * 8 + t[2] for t in moves]
            want = [turns_to_escape(st, clt, True)]
            for t in moves:
                st.push(t)
                want.append(turns_to_escape(st, clt, True))
                st.pop()
            assert escape_turns_from(st, clt, ids, 30) == want
            assert escape_turns_from(st, clt, ids, 3) == [
                w if w is not None and w <= 3 else None for w in want
            ]
            checked += len(moves)
            # the pieces matter: some answers differ from the terrain-only turns
            blocked += sum(
                terrain[me][s] != (w if w is not None else -1)
                for s, w in zip(ids, want, strict=True)
            )
        # forward moves mostly, so pieces come to stand in each other's way
        quiet = [t for t in turns if t[3] < 0 and t[1] >= 0]
        pool = quiet or turns
        st.push(pool[int(rng.integers(len(pool)))])
    assert checked > 50, checked
    assert blocked > 0
