"""Tank Chess ``uct[:N]``: UCT (UCB1 tree search) with a budget of ``N`` playouts per turn
(default 48). Each node expands the heuristic's best ``WIDTH`` turns; playouts are
``DEPTH`` heuristic plies, then ``evaluate``'s static value (material and the command tanks'
escape distances, a turn of escape progress weighing about a heavy tank) through a logistic.
"""

from __future__ import annotations

import math

import numpy as np

from tankmap.analysis.simulation.tank_chess.agents.heuristic import HeuristicPolicy
from tankmap.analysis.simulation.tank_chess.agents.scoring import VALUE
from tankmap.analysis.simulation.tank_chess.prepared import Prepared
from tankmap.rules.tank_chess.data import COMMAND
from tankmap.rules.tank_chess.state import GameState, Turn

WIDTH = 8
DEPTH = 4


def evaluate(st: GameState, prep: Prepared, side: int) -> float:
    """Static value of a position for ``side`` in [0, 1]: 1 won, 0 lost, 0.5 drawn or even;
    otherwise a logistic of material and command-tank escape progress."""
    o = st.outcome()
    if o is not None:
        if o.winner is None:
            return 0.5
        return 1.0 if o.winner.index == side else 0.0
    score = 0.0
    for s, sign in ((side, 1.0), (1 - side, -1.0)):
        for p in st.pieces_of[s]:
            if st.alive[p] and st.cell[p] >= 0:
                k = st.kind[p]
                if k == COMMAND:
                    d = prep.escape[s][st.cell[p] * 8 + st.facing[p]]
                    score -= sign * 2.0 * min(d, 60)  # one turn (5 steps) ~ a heavy tank
                else:
                    score += sign * VALUE[k]
    return 1.0 / (1.0 + math.exp(-score / 8.0))


class _Node:
    __slots__ = ("turn", "children", "untried", "visits", "value")

    def __init__(self, turn: Turn | None) -> None:
        self.turn = turn
        self.children: list[_Node] = []
        self.untried: list[Turn] | None = None
        self.visits = 0
        self.value = 0.0  # sum of rewards for the side that played ``turn``


class UctPolicy:
    """UCT with a playout budget (see the module docstring)."""

    def __init__(
        self, prep: Prepared, side: int, budget: int = 48, banned: frozenset[int] = frozenset()
    ) -> None:
        self.prep = prep
        self.side = side
        self.budget = budget
        self.banned = banned
        self.heuristic = HeuristicPolicy(prep, side, banned)
        self.expander = HeuristicPolicy(prep, side)
        self.rollout = (HeuristicPolicy(prep, 0), HeuristicPolicy(prep, 1))

    def _expand_list(self, st: GameState, rng: np.random.Generator, root: bool) -> list[Turn]:
        """The heuristic's best ``WIDTH`` turns (the game must not be over: then there
        always are legal turns)."""
        pol = self.heuristic if root else self.expander
        return [t for _, t in pol.ranked(st, None, rng, WIDTH)]

    def choose(self, st: GameState, turns: list[Turn] | None, rng: np.random.Generator) -> Turn:
        top = self.heuristic.ranked(st, turns, rng, WIDTH)
        if len(top) == 1:
            return top[0][1]
        root = _Node(None)
        root.untried = [t for _, t in top]
        work = st.copy()
        for _ in range(self.budget):
            node = root
            path = [root]
            depth = 0
            # selection
            while node.untried == [] and node.children:
                log_n = math.log(node.visits)
                node = max(
                    node.children,
                    key=lambda ch: ch.value / ch.visits + 1.4 * math.sqrt(log_n / ch.visits),
                )
                work.push(node.turn)  # type: ignore[arg-type]
                depth += 1
                path.append(node)
            # expansion
            if node.untried is None:
                node.untried = (
                    [] if work.outcome() is not None else self._expand_list(work, rng, False)
                )
            if node.untried:
                t = node.untried.pop(0)
                child = _Node(t)
                node.children.append(child)
                work.push(t)
                depth += 1
                path.append(child)
            # playout: the heuristic for both sides, a few plies, then the static value
            plies = 0
            while plies < DEPTH and work.outcome() is None:
                work.push(self.rollout[work.to_move].choose(work, None, rng))
                plies += 1
            reward = evaluate(work, self.prep, self.side)
            for _ in range(plies + depth):
                work.pop()
            # backpropagation: a node's value is from the view of the side that moved into it
            for k, nd in enumerate(path):
                nd.visits += 1
                mover = self.side if k % 2 == 1 else 1 - self.side
                nd.value += reward if mover == self.side else 1.0 - reward
        best = max(root.children, key=lambda ch: ch.visits)
        assert best.turn is not None
        return best.turn
