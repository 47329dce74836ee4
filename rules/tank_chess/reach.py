"""How many turns a command tank needs to escape (terrain-only or with pieces blocking).

Used by the ``command-cannot-escape`` check and available to analysis (``turns_to_goal``).
A turn is up to ``speed`` steps (45° rotation, forward step, or the escape step off the
enemy edge) or one backward step on its own, so the search runs over ``(state, steps left
in this turn)`` with a 0-1 BFS: a step inside a turn costs 0, starting a turn costs 1.
"""

from __future__ import annotations

from collections import deque

from rules.tank_chess.state import BLOCKED, EMPTY, GameState


def escape_region(state: GameState, side: int) -> set[int]:
    """Cells from which a piece of ``side`` can reach its enemy edge and step off, over
    terrain only (obstacles and wrecks block; pieces move, so they do not). Turning is free
    over several turns, so this is 8-connectivity (a diagonal step squeezed between two
    blocked cells is refused under ``strict_corners``) flooded from the enemy's back row."""
    t = state.tables
    cols = state.columns
    grid = state.grid
    row = state.scenario.board.rows - 1 if side == 0 else 0
    seen = {c for c in range(row * cols, row * cols + cols) if grid[c] != BLOCKED}
    frontier = list(seen)
    strict = state.strict_corners
    fwd, side_a, side_b = t.fwd, t.side_a, t.side_b
    while frontier:
        nxt = []
        for c in frontier:
            for f in range(8):
                s = c * 8 + f
                n = fwd[s]
                if n < 0:
                    continue
                n >>= 3
                if n in seen or grid[n] == BLOCKED:
                    continue
                if strict and f & 1:
                    a = side_a[s]
                    if a >= 0 and grid[a] == BLOCKED and grid[side_b[s]] == BLOCKED:
                        continue
                seen.add(n)
                nxt.append(n)
        frontier = nxt
    return seen


def turns_to_escape(state: GameState, p: int, pieces_block: bool = False) -> int | None:
    """Fewest turns for piece ``p`` to step off its enemy edge (RULES §2.5), moving alone
    (the other side never moves), or ``None`` if it cannot. With ``pieces_block`` False
    only obstacles and wrecks block; otherwise every other live piece blocks too. The
    escape rule itself (forward, not through a corner point) applies to any piece kind
    asked about; only command tanks win by it."""
    t = state.tables
    if state.cell[p] < 0 or not state.alive[p]:
        return None
    if pieces_block:
        grid = state.grid.copy()
        grid[state.cell[p]] = EMPTY
    else:
        grid = [EMPTY if v != BLOCKED else BLOCKED for v in state.grid]
    speed = state.speed[p]
    strict = state.strict_corners
    esc = t.escape[state.side[p]]
    fwd, back, side_a, side_b = t.fwd, t.back, t.side_a, t.side_b
    width = speed + 1
    n_states = state.size * 8
    best = [1 << 30] * (n_states * width)

    def corner_ok(s: int) -> bool:
        """A diagonal step from state ``s`` is not squeezed between two blockers."""
        if not (strict and s & 1):
            return True
        a = side_a[s]
        return a < 0 or grid[a] == EMPTY or grid[side_b[s]] == EMPTY

    start = (state.cell[p] * 8 + state.facing[p]) * width
    best[start] = 0
    queue: deque[tuple[int, int, int]] = deque([(0, state.cell[p] * 8 + state.facing[p], 0)])
    while queue:
        cost, s, left = queue.popleft()
        if best[s * width + left] < cost:
            continue
        if left > 0:
            base, f = s & ~7, s & 7
            nexts = [base | ((f + 1) & 7), base | ((f + 7) & 7)]
            n = fwd[s]
            if n >= 0:
                if grid[n >> 3] == EMPTY and corner_ok(s):
                    nexts.append(n)
            elif esc[s]:
                return cost
            for s2 in nexts:
                k = s2 * width + left - 1
                if best[k] > cost:
                    best[k] = cost
                    queue.appendleft((cost, s2, left - 1))
        # start a new turn here: full speed, or the lone backward step
        k = s * width + speed
        if best[k] > cost + 1:
            best[k] = cost + 1
            queue.append((cost + 1, s, speed))
        b = back[s]
        if b >= 0 and grid[b >> 3] == EMPTY and corner_ok(s ^ 4):
            k = b * width
            if best[k] > cost + 1:
                best[k] = cost + 1
                queue.append((cost + 1, b, 0))
    return None
