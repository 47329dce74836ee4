"""What every Tank Chess agent and the compiled kernel share about one scenario
(``Prepared``): each piece state's steps to escape through obstacles alone, the command
tanks' turns to escape, and the heuristic's remembered positions. Built once per scenario
and worker (``TankChessDriver.prepare``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tankmap.rules.tank_chess.data import COMMAND
from tankmap.rules.tank_chess.escape_route import terrain_escape_turns
from tankmap.rules.tank_chess.state import BLOCKED, GameState

if TYPE_CHECKING:
    from tankmap.analysis.simulation.tank_chess.agents.heuristic_memo import Facts, Key

INF = 1 << 30


class Prepared:
    """Per-scenario data: ``escape[side][cell * 8 + facing]`` = fewest single steps (45°
    turns or forward steps, the final step off the enemy edge included) for a piece of
    ``side`` to escape through obstacles alone (``INF`` if it cannot); ``turns[side][s]``
    = fewest turns for a command tank of ``side`` (``rules.tank_chess.escape_route``, -1
    if it cannot); ``positions`` and ``seen``: the heuristic's remembered position facts
    and the positions met once (``agents/heuristic_memo.py``)."""

    def __init__(self, state: GameState) -> None:
        t = state.tables
        n = state.size * 8
        blocked = [state.grid[s >> 3] == BLOCKED for s in range(n)]
        pred: list[list[int]] = [[] for _ in range(n)]
        for r in range(n):
            nx = t.fwd[r]
            if nx >= 0 and not blocked[r] and not blocked[nx]:
                pred[nx].append(r)
        self.escape: list[list[int]] = []
        for side in (0, 1):
            dist = [INF] * n
            frontier = [s for s in range(n) if t.escape[side][s] and not blocked[s]]
            for s in frontier:
                dist[s] = 1
            d = 1
            while frontier:
                d += 1
                nxt = []
                for s in frontier:
                    base, f = s & ~7, s & 7
                    for r in (base | ((f + 1) & 7), base | ((f + 7) & 7), *pred[s]):
                        if dist[r] == INF:
                            dist[r] = d
                            nxt.append(r)
                frontier = nxt
            self.escape.append(dist)
        speed = [5, 5]
        for p, k in enumerate(state.kind):
            if k == COMMAND:
                speed[state.side[p]] = state.speed[p]
        self.turns = [terrain_escape_turns(state, side, speed[side]) for side in (0, 1)]
        self.positions: dict[Key, Facts] = {}  # the heuristic's memo (``agents/heuristic_memo.py``)
        self.seen: set[Key] = set()  # positions met once (remembered when met again)
