"""Tank Chess ``search[:N]``: a two-ply minimax (alpha–beta) over the heuristic's best turns.

For each of our ``WIDTH`` best turns (the heuristic's ranking: immediate wins first), the
opponent's ``REPLIES`` best answers are tried — its own immediate wins are always among
them, since the ranking puts them first — and each line is scored by a short heuristic
playout (``DEPTH`` plies for both sides) and the static value of ``uct.evaluate``
(material and the command tanks' escape distances). A turn is worth its worst reply; the
best turn is played. Alpha–beta stops trying replies once a turn cannot beat the best one
found. ``N`` caps the scored lines per decision (default 60 = 10 turns × 6 replies); a
smaller budget narrows the search. Seeded through the generator it is given, so a seed
plays the same game on any worker.
"""

from __future__ import annotations

import numpy as np

from tankmap.analysis.simulation.tank_chess.agents.heuristic import HeuristicPolicy
from tankmap.analysis.simulation.tank_chess.agents.uct import evaluate
from tankmap.analysis.simulation.tank_chess.prepared import Prepared
from tankmap.rules.tank_chess.state import GameState, Turn

DEFAULT_BUDGET = 60
REPLIES = 6
DEPTH = 2


class SearchPolicy:
    """Two-ply alpha–beta over heuristic candidates (see the module docstring)."""

    def __init__(
        self,
        prep: Prepared,
        side: int,
        budget: int = DEFAULT_BUDGET,
        banned: frozenset[int] = frozenset(),
    ) -> None:
        self.prep = prep
        self.side = side
        self.replies = min(REPLIES, max(1, budget // 4))
        self.width = max(1, budget // self.replies)
        self.heuristic = HeuristicPolicy(prep, side, banned)
        self.players = (HeuristicPolicy(prep, 0), HeuristicPolicy(prep, 1))

    def _value(self, work: GameState, rng: np.random.Generator) -> float:
        """Our value of ``work`` after a short heuristic playout (``work`` is restored)."""
        plies = 0
        while plies < DEPTH and work.outcome() is None:
            work.push(self.players[work.to_move].choose(work, None, rng))
            plies += 1
        value = evaluate(work, self.prep, self.side)
        for _ in range(plies):
            work.pop()
        return value

    def choose(self, st: GameState, turns: list[Turn] | None, rng: np.random.Generator) -> Turn:
        top = self.heuristic.ranked(st, turns, rng, self.width)
        if len(top) == 1:
            return top[0][1]
        work = st.copy()
        best_turn, best = top[0][1], -1.0
        for _score, turn in top:
            work.push(turn)
            outcome = work.outcome()
            if outcome is not None:
                value = evaluate(work, self.prep, self.side)
                work.pop()
                if value >= 1.0:
                    return turn  # a win now: nothing to search
            else:
                value = 1.0
                opponent = self.players[work.to_move]
                for _s, reply in opponent.ranked(work, None, rng, self.replies):
                    work.push(reply)
                    value = min(value, self._value(work, rng))
                    work.pop()
                    if value <= best:  # alpha cut: this turn cannot beat the best one
                        break
                work.pop()
            if value > best:
                best_turn, best = turn, value
        return best_turn
