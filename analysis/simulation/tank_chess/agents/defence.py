"""Defence of the Tank Chess heuristic against the enemy command tank's escape.

The enemy command tank is a *threat* when it can escape within ``HORIZON`` turns and
sooner than ours: with ``e`` and ``m`` the turns to escape of theirs and ours (every piece
blocking, ``rules.tank_chess.escape_route``), we move first, so we win a pure race iff
``m <= e``; we defend iff ``e < m`` (or we cannot escape at all). Terrain-only turns
(``terrain_escape_turns``, never more than the real ones) skip the searches when they
cannot matter. Against a threat the heuristic adds to candidate turns

- ``W_BLOCK`` per turn (at most 2) that a move of one of our pieces onto a cell of the
  threat's shortest routes delays its escape (checked exactly, at most ``DEFEND`` such
  moves), and
- ``W_COVER`` times the share of the threat's next route states (where it must end its
  next turn to stay on a shortest route) that the moved piece could destroy it in from
  where it ends (its fire lines after the move: gun over the armour side; at most
  ``COVER`` candidates are looked at).
"""

from __future__ import annotations

from tankmap.rules.tank_chess.data import FIRE_MORTAR, FIRE_TURRET
from tankmap.rules.tank_chess.escape_route import escape_route
from tankmap.rules.tank_chess.movegen import cached_end_states
from tankmap.rules.tank_chess.state import EMPTY, GameState, Turn

HORIZON = 3
DEFEND = 6
COVER = 12
W_BLOCK = 4.0
W_COVER = 3.0


class Threat:
    """The enemy command tank ``enemy`` escaping in ``turns``; ``cells`` its route cells
    (bit ``8 * cell``), ``route_states`` the same as a state mask (every facing),
    ``nxt`` its next route states by cell (cell → facings), ``n_next`` their count."""

    __slots__ = ("enemy", "turns", "cells", "route_states", "nxt", "n_next")

    def __init__(self, enemy: int, turns: int, next_states: int, cells: int) -> None:
        self.enemy = enemy
        self.turns = turns
        self.cells = cells
        self.route_states = cells * 0xFF
        nxt: dict[int, list[int]] = {}
        x = next_states
        while x:
            low = x & -x
            s = low.bit_length() - 1
            nxt.setdefault(s >> 3, []).append(s & 7)
            x ^= low
        self.nxt = nxt
        self.n_next = next_states.bit_count()


def find_threat(
    st: GameState, table: list[list[int]], me: int, clt: int, enemy: int, occ: int
) -> Threat | None:
    """The enemy command tank ``enemy`` as a ``Threat`` to side ``me`` (our command tank
    ``clt``, -1 if none), or ``None`` (see the module doc). ``table``: the terrain-only
    turns to escape per side and state; ``occ``: ``movegen.state_occupancy(st)``."""
    if enemy < 0:
        return None
    lo = table[1 - me][st.cell[enemy] * 8 + st.facing[enemy]]
    if lo < 0 or lo > HORIZON:
        return None
    r = escape_route(st, enemy, HORIZON, occ, routes=False)
    if r.turns is None:
        return None
    e = r.turns
    if clt >= 0:
        lm = table[me][st.cell[clt] * 8 + st.facing[clt]]
        if 0 <= lm <= e and escape_route(st, clt, e, occ, routes=False).turns is not None:
            return None  # we escape first
    r = escape_route(st, enemy, HORIZON, occ)  # the routes of the search just made
    return Threat(enemy, e, r.next_states, r.cells)


def blocking_turns(st: GameState, pieces: list[int], clt: int, occ: int, th: Threat) -> list[Turn]:
    """The non-shooting moves of ``pieces`` (not the command tank ``clt``) that end on a
    route cell of ``th``, in legal-turn order."""
    out: list[Turn] = []
    rs = th.route_states
    for p in pieces:
        if p == clt:
            continue
        ends = cached_end_states(st, p, occ)
        if ends.mask() & rs:
            out += [(p, s >> 3, s & 7, -1) for s in ends.order() if rs >> s & 1]
    return out


def delay(st: GameState, th: Threat, t: Turn, occ: int) -> int:
    """Turns (at most 2; negative if it opens a shorter route) the non-shooting move ``t``
    delays the threat's escape; ``occ`` is the occupancy before it."""
    p, c, _, _ = t
    old = st.cell[p]
    st.push(t)
    try:
        after = (occ & ~(1 << (8 * old))) | (1 << (8 * c))
        # beyond ``th.turns + 1`` the answer is 2 whatever the turns
        turns = escape_route(st, th.enemy, th.turns + 1, after, routes=False).turns
    finally:
        st.pop()
    return min((turns if turns is not None else th.turns + 2) - th.turns, 2)


def coverage(st: GameState, th: Threat, t: Turn) -> float:
    """The share of the threat's next route states in which the piece moved by ``t`` could
    destroy it by firing from the end of ``t`` (the threat's own cell counts as empty: it
    will have moved)."""
    if not th.n_next:
        return 0.0
    st.push(t)
    try:
        hit = _covered(st, th, t[0])
    finally:
        st.pop()
    return hit / th.n_next


def _covered(st: GameState, th: Threat, q: int) -> int:
    tb = st.tables
    size = st.size
    grid = st.grid
    c, f, gun = st.cell[q], st.facing[q], st.gun[q]
    front, side_armour, rear = st.armour[th.enemy]
    ec = st.cell[th.enemy]
    nxt = th.nxt
    hit = 0
    if st.fire[q] == FIRE_MORTAR:
        for x in tb.mortar[f * size + c]:
            for g in nxt.get(x, ()):
                d = (f + 4) & 7  # direction from the target back to the mortar
                armour = front if g == d else rear if g == f else side_armour
                hit += gun > armour
        return hit
    dirs = ((f + 7) & 7, f, (f + 1) & 7) if st.fire[q] == FIRE_TURRET else (f,)
    for d in dirs:
        i = d * size + c
        a = tb.ray_first[i]
        if a < 0 or (grid[a] != EMPTY and a != ec):
            continue
        back = (d + 4) & 7
        for x in tb.ray_rest[i]:
            for g in nxt.get(x, ()):
                armour = front if g == back else rear if g == d else side_armour
                hit += gun > armour
            if grid[x] != EMPTY and x != ec:
                break
    return hit
