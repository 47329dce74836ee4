"""The Tank Chess heuristic defends against the enemy command tank's escape and still
races when its own escapes first. Hand-made positions; answers worked out in comments
(docs/rules.md §2.3 moves and fire, §2.5 escape; White moves first, so with ``m`` and ``e`` the
turns to escape of ours and theirs, we win a pure race iff ``m <= e``)."""

from __future__ import annotations

import numpy as np

from tankmap.analysis.simulation.tank_chess.agents.heuristic import HeuristicPolicy
from tankmap.analysis.simulation.tank_chess.prepared import Prepared
from tankmap.rules.tank_chess.state import GameState
from tests.tank_chess.tc_support import make

# 5 × 12 board, strict corners. Column b is a corridor (walls on a and c), with a one-cell
# pocket on c5 opening onto it; column d is a wall; column e is open.
WALLS = " ".join(f"{col}{row}" for col in "acd" for row in range(1, 13) if (col, row) != ("c", 5))
BLACK_CLT = "B command b10 S"  # Black escapes off row 1: 9 steps + the step off = 2 turns


def _state(white_clt: str) -> GameState:
    units = [white_clt, "W light c5 W", BLACK_CLT]
    return GameState(make(units, WALLS, size=(5, 12), strict_corners=True))


def _col_row(st: GameState, cell: int) -> tuple[str, int]:
    return "abcde"[cell % 5], cell // 5 + 1


def test_blocks_the_corridor_when_the_enemy_escapes_first() -> None:
    # White's command tank on e1 facing N needs 11 steps + the step off = 3 turns, Black's
    # 2: Black wins a race. White's light (c5, facing W) can step into column b (b5 in one
    # step, or b4/b6 diagonally: not squeezed, as b5 is empty), and a piece anywhere in the
    # one-cell corridor below b10 cuts every escape route (strict corners: no diagonal
    # slip past it via the pocket). It cannot shoot the command tank instead: from column
    # b it would hit its front (armour 1) with gun 1. So the heuristic moves the light into
    # column b rather than racing.
    st = _state("W command e1 N")
    pol = HeuristicPolicy(Prepared(st), 0)
    for seed in range(5):
        p, c, _, target = pol.choose(st, None, np.random.default_rng(seed))
        assert (p, target) == (1, -1)
        col, row = _col_row(st, c)
        assert col == "b" and row < 10
        assert pol.choose(st, st.legal_turns(), np.random.default_rng(seed))[:2] == (p, c)


def test_races_when_its_own_command_tank_escapes_first() -> None:
    # White's command tank on e3 facing N: 9 steps + the step off = 2 turns, as many as
    # Black's, and White moves first, so it wins the race: it must not spend the tempo on
    # the light. The largest progress is e3 -> e8 (5 steps north), from where the next turn
    # escapes (4 steps + the step off).
    st = _state("W command e3 N")
    pol = HeuristicPolicy(Prepared(st), 0)
    for seed in range(5):
        p, c, f, _ = pol.choose(st, None, np.random.default_rng(seed))
        assert (p, _col_row(st, c), f) == (0, ("e", 8), 0)
