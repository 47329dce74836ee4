"""Tank Chess ``random``: uniform over the legal turns (every move and every legal shot);
with ``+no-KIND`` restrictions, over the turns that move the allowed kinds (``allowed``)."""

from __future__ import annotations

import numpy as np

from tankmap.analysis.simulation.tank_chess.agents.turns import TurnIndex, allowed
from tankmap.rules.tank_chess.state import GameState, Turn


class RandomPolicy:
    def __init__(self, banned: frozenset[int] = frozenset()) -> None:
        self.banned = banned

    def choose(self, st: GameState, turns: list[Turn] | None, rng: np.random.Generator) -> Turn:
        if turns is None:  # the same draw over the same list, without building it
            index = TurnIndex(st, self.banned, -1)
            return index.at(int(rng.integers(index.n)))
        turns = allowed(st, turns, self.banned)
        return turns[int(rng.integers(len(turns)))]
