"""The Tank Chess agent of a name (``random``, ``heuristic``, ``uct[:N]``, ``search[:N]``,
``alphabeta[:N]``, with ``+no-KIND`` restrictions), as the driver's Python loop plays it."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from tankmap.analysis.simulation.tank_chess.agents import alphabeta
from tankmap.analysis.simulation.tank_chess.agents.heuristic import HeuristicPolicy
from tankmap.analysis.simulation.tank_chess.agents.random import RandomPolicy
from tankmap.analysis.simulation.tank_chess.agents.search import DEFAULT_BUDGET, SearchPolicy
from tankmap.analysis.simulation.tank_chess.agents.uct import UctPolicy
from tankmap.analysis.simulation.tank_chess.prepared import Prepared
from tankmap.rules.tank_chess.data import KIND_CODE
from tankmap.rules.tank_chess.state import GameState, Turn


class Policy(Protocol):
    """Chooses the turn of the side to move (``turns``: the legal turns, or ``None`` to let
    the agent find them itself)."""

    def choose(self, st: GameState, turns: list[Turn] | None, rng: np.random.Generator) -> Turn: ...


def make_policy(name: str, restrictions: tuple[str, ...], prep: Prepared, side: int) -> Policy:
    """Build policy ``name`` (``random``, ``heuristic``, ``uct[:N]``, ``search[:N]`` or
    ``alphabeta[:N]``) for ``side``.
    ``KeyError`` for an unknown name or kind, ``ValueError`` for a bad budget."""
    banned = frozenset(KIND_CODE[r[3:]] for r in restrictions)
    if name == "random":
        return RandomPolicy(banned)
    if name == "heuristic":
        return HeuristicPolicy(prep, side, banned)
    if name == "uct" or name.startswith("uct:"):
        budget = int(name[4:]) if name.startswith("uct:") else 48
        if budget < 1:
            raise ValueError(budget)
        return UctPolicy(prep, side, budget, banned)
    if name == "search" or name.startswith("search:"):
        budget = int(name[7:]) if name.startswith("search:") else DEFAULT_BUDGET
        if budget < 1:
            raise ValueError(budget)
        return SearchPolicy(prep, side, budget, banned)
    if name == "alphabeta" or name.startswith("alphabeta:"):
        budget = int(name[10:]) if name.startswith("alphabeta:") else alphabeta.DEFAULT_BUDGET
        return alphabeta.AlphaBetaPolicy(prep, side, budget, banned)
    raise KeyError(name)
