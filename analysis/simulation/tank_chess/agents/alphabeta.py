"""Tank Chess ``alphabeta[:N]``: iterative-deepening alpha-beta on the compiled move
generator, with a transposition table and an evaluation of its own (it never asks the
heuristic: its verdict family is independent).

The search (``kernel/alphabeta.py``): negamax alpha-beta, fail-soft, depth 1, 2, 3, …
until ``N`` nodes (positions visited below the root) are spent; the root's turns are
tried best first by the previous iteration's scores, and when the budget runs out in
the middle of an iteration the turns it finished count (the previous best is always the
first of them). Every node tries the transposition table's turn first, then winning
turns (an escape, a shot that destroys the command tank), destroying shots (most
valuable target first), two killer turns per ply, then turns by their history score.
Terminal positions are scored as the rules end games (docs/rules.md §2.5: a win for the
side that destroyed the enemy command tank or escaped, a draw with no legal turn or at
``max_turns``); a node whose side to move has a win in hand scores as won without being
searched; a leaf is scored by ``kernel/evaluation.py`` (a win in hand, material, the
command tanks' race to escape, the enemy's win in hand), only as far as its window needs:
the win-in-hand checks are left out where the rest already puts the value beyond it
(``evaluate_within``; a fail-soft search takes the bound). Between turns of equal priority
the root follows a random order drawn from the game's generator, and of turns with equal
scores the first tried stays.

Why alpha-beta: Tank Chess is a two-player, perfect-information game of alternating turns
whose short tactics (a shot at the command tank, an escape two turns away) decide most
games, which a full-width search with a transposition table sees exactly and playouts only
sample. Measured on a 2-core machine (CPU per self-play game, one process; side-swapped
200-game matches, ``benchmarks/strength_per_cpu.py``, 2026-12-07): on basic-16
``alphabeta:6400`` (0.29 s a game) scored 0.965 [0.930, 0.983] against ``search:180``
(0.31 s); on sample-20 ``alphabeta:4800`` (0.38 s) scored 0.955 [0.917, 0.976] against
``search:180`` (0.54 s). Its strength comes in steps: a position has about 500 turns on
basic-16, so depth 1 takes about 500 positions and depth 2 about 2,500-3,200; at 1,600
(depth 1 and part of depth 2) it scored only 0.39 [0.33, 0.46] against ``search:180``.
A compiled MCTS was not built (the heuristic-guided ``uct`` rates about as high as
``search`` at three times its cost).

Deterministic: nothing is remembered from one decision to the next but the move
generator's memo of end states, which never changes an answer, so a seed plays the same
game on any worker. ``agents/alphabeta_ref.py`` is the same search in plain Python over
``GameState``; the tests compare their choices.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import numpy as np

from tankmap.analysis.simulation.budgets import BUDGETS
from tankmap.analysis.simulation.tank_chess.kernel import base as kb
from tankmap.analysis.simulation.tank_chess.prepared import Prepared
from tankmap.rules.tank_chess.state import GameState, Turn

if TYPE_CHECKING:
    from tankmap.analysis.simulation.tank_chess.kernel.alphabeta import SearchWork

DEFAULT_BUDGET = BUDGETS[("tank-chess", "alphabeta")].default
"""Nodes per decision of the bare ``alphabeta`` (``budgets.BUDGETS``)."""
MAX_BUDGET = BUDGETS[("tank-chess", "alphabeta")].limit
"""The largest budget ``alphabeta:N`` accepts (``budgets.BUDGETS``)."""

_LOCAL = threading.local()


def _tools(prep: Prepared, st: GameState) -> tuple[kb.Board, SearchWork]:
    """The kernel's board and this thread's search arrays for ``prep``'s scenario (made
    once per ``Prepared`` and thread)."""
    from tankmap.analysis.simulation.tank_chess.kernel.alphabeta import search_work
    from tankmap.analysis.simulation.tank_chess.kernel.evaluation import piece_values

    held = getattr(_LOCAL, "held", None)
    if held is None or held[0] is not prep:
        b = kb.board_of(st)
        values = piece_values(b.gun, b.armour, b.kind)
        lower = np.asarray(prep.escape, dtype=np.int64)
        held = _LOCAL.held = (prep, b, search_work(b, values, lower))
    return held[1], held[2]


class AlphaBetaPolicy:
    """``alphabeta:budget`` for one side (see the module docstring); ``banned``: kind codes
    this side never moves."""

    def __init__(self, prep: Prepared, side: int, budget: int = DEFAULT_BUDGET,
                 banned: frozenset[int] = frozenset()) -> None:  # fmt: skip
        if not 1 <= budget <= MAX_BUDGET:
            raise ValueError(budget)
        self.prep = prep
        self.side = side
        self.budget = budget
        self.banned = sum(1 << k for k in banned)

    def choose(self, st: GameState, turns: list[Turn] | None, rng: np.random.Generator) -> Turn:
        """The chosen turn of the side to move (``turns`` is not needed: the search lists
        the legal turns itself, in the same order). With more than one turn, draws a
        random order of them from ``rng`` (``Generator.permutation``), which decides
        between turns of equal priority and score."""
        from tankmap.analysis.simulation.tank_chess.kernel.alphabeta import (
            root_turns,
            search_root,
        )

        b, w = _tools(self.prep, st)
        pos = kb.position_of(st)
        n = root_turns(b, pos, w, self.banned)
        if n == 0:
            raise ValueError("the game is over: no turn to choose")
        rank = rng.permutation(n) if n > 1 else np.zeros(1, np.int64)
        i = search_root(b, pos, w, self.budget, self.banned, rank.astype(np.int64))
        row = w.stack[i]
        return (int(row[0]), int(row[1]), int(row[2]), int(row[3]))
