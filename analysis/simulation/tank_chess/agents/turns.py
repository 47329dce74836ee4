"""Fast building blocks of the Tank Chess heuristic (``heuristic``).

They give exactly the answers of the straightforward code they replace (the same turns
in the same order, the same exposure verdicts), only cheaper:

- ``TurnIndex``: the legal turns of the side to move as ``st.legal_turns()`` lists them
  (optionally without banned kinds, as ``allowed`` filters them), but materialised only
  where needed: ``at(i)`` builds turn ``i``; ``shots`` and ``clt_turns`` (the command
  tank's non-shooting turns) are built in full. End states come from the memoised
  ``movegen.cached_end_states``; a piece's turns are spelled out only if it can shoot.
- ``_Aim``: where the side to move could shoot from (``movegen.sight_map``) as bit masks,
  remembered per enemy piece and the occupancy of its rays.
- ``Threats`` (``threats``): the enemy's reachable states as bit masks, for
  the command tank's exposure checks.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import cache

from tankmap.analysis.simulation.tank_chess.agents.threats import board_rays
from tankmap.rules.tank_chess.data import COMMAND, FIRE_MORTAR, FIRE_TURRET
from tankmap.rules.tank_chess.movegen import Ends, cached_end_states, state_occupancy
from tankmap.rules.tank_chess.state import EMPTY, GameState, Turn
from tankmap.rules.tank_chess.tables import Tables


class TurnIndex:
    """The legal turns of the side to move (see the module doc). ``n`` turns; ``at(i)``
    is ``turns[i]`` of the list ``st.legal_turns()`` (filtered by ``banned``) would give;
    ``shots`` are its turns with a target, in order; ``clt_turns`` the non-shooting turns
    of piece ``clt`` in order (empty if ``clt`` is -1 or filtered out)."""

    __slots__ = (
        "n",
        "starts",
        "pieces",
        "explicit",
        "orders",
        "escs",
        "shots",
        "clt_turns",
        "occ",
    )

    def __init__(self, st: GameState, banned: frozenset[int], clt: int) -> None:
        me = st.to_move
        alive, cell, kind, fire = st.alive, st.cell, st.kind, st.fire
        pieces = [p for p in st.pieces_of[me] if alive[p] and cell[p] >= 0]
        if banned:
            kept = [p for p in pieces if kind[p] not in banned]
            if kept:
                pieces = kept
        self.occ = occ = state_occupancy(st)
        aim: _Aim | None = None
        starts: list[int] = []
        explicit: list[list[Turn] | None] = []
        orders: list[list[int]] = []
        escs: list[bool] = []
        shots: list[Turn] = []
        clt_turns: list[Turn] = []
        n = 0
        for p in pieces:
            ends = cached_end_states(st, p, occ)
            mode = fire[p]
            listed: list[Turn] | None = None
            if mode == FIRE_MORTAR:
                listed = _mortar_turns(st, p, ends)
            else:
                if aim is None:
                    aim = _Aim(st, me, occ)
                armed = aim.armed(p, ends.mask())
                if armed:
                    listed = _direct_turns(st, p, ends, armed)
            starts.append(n)
            explicit.append(listed)
            if listed is not None:
                n += len(listed)
                shots.extend(t for t in listed if t[3] >= 0)
                orders.append([])
                escs.append(False)
                if p == clt:
                    clt_turns = [t for t in listed if t[3] < 0]
            else:
                order = ends.order()
                n += len(order) + ends.escaped
                orders.append(order)
                escs.append(ends.escaped)
                if p == clt:
                    clt_turns = [(p, -1, -1, -1)] if ends.escaped else []
                    clt_turns += [(p, s >> 3, s & 7, -1) for s in order]
        self.n = n
        self.starts = starts
        self.pieces = pieces
        self.explicit = explicit
        self.orders = orders
        self.escs = escs
        self.shots = shots
        self.clt_turns = clt_turns

    def at(self, i: int) -> Turn:
        """Turn ``i`` (0 <= i < n)."""
        k = bisect_right(self.starts, i) - 1
        j = i - self.starts[k]
        listed = self.explicit[k]
        if listed is not None:
            return listed[j]
        p = self.pieces[k]
        if self.escs[k]:
            if j == 0:
                return (p, -1, -1, -1)
            j -= 1
        s = self.orders[k][j]
        return (p, s >> 3, s & 7, -1)

    def all(self) -> list[Turn]:
        """Every turn, in order (for tests and small callers)."""
        return [self.at(i) for i in range(self.n)]


def _mortar_turns(st: GameState, p: int, ends: Ends) -> list[Turn]:
    """``movegen.piece_turns`` of mortar piece ``p`` from its (cached) end states."""
    out: list[Turn] = []
    if ends.escaped:
        out.append((p, -1, -1, -1))
    grid = st.grid
    mortar = st.tables.mortar
    size = st.size
    pside = st.side
    me = pside[p]
    c0 = st.cell[p]
    grid[c0] = -1
    try:
        for s in ends.states:
            c = s >> 3
            f = s & 7
            out.append((p, c, f, -1))
            for x in mortar[f * size + c]:
                v = grid[x]
                if v >= 0 and pside[v] != me:
                    out.append((p, c, f, v))
    finally:
        grid[c0] = p
    return out


def _direct_turns(st: GameState, p: int, ends: Ends, armed: int) -> list[Turn]:
    """``movegen.piece_turns`` of direct-fire piece ``p``, given ``armed``: the mask of
    its end states from which it has a target (``_Aim.armed``). Every end state's move
    is spelled out at once; the targets of the armed states (found by walking their
    rays, ``p``'s own cell counting as empty) are then put after their moves."""
    order = ends.order()
    out = [(p, s >> 3, s & 7, -1) for s in order]
    lead = 0
    if ends.escaped:
        out.insert(0, (p, -1, -1, -1))
        lead = 1
    aims: list[int] = []  # the armed states, lowest bit first
    while armed:
        low = armed & -armed
        aims.append(low.bit_length() - 1)
        armed ^= low
    if not aims:
        return out
    if len(aims) > 8:  # many: one walk over the states is cheaper than placing each
        return _direct_turns_walk(st, p, ends, set(aims))
    places = sorted(order.index(s) for s in aims)
    t = st.tables
    first, rest = t.ray_first, t.ray_rest
    size = st.size
    grid = st.grid
    pside = st.side
    me = pside[p]
    turret = st.fire[p] == FIRE_TURRET
    c0 = st.cell[p]
    grid[c0] = EMPTY
    try:
        for q in reversed(places):  # from the last, so earlier places stay put
            s = order[q]
            c = s >> 3
            f = s & 7
            shots = []
            for d in ((f + 7) & 7, f, (f + 1) & 7) if turret else (f,):
                i = d * size + c
                a = first[i]
                if a < 0 or grid[a] != EMPTY:
                    continue
                for x in rest[i]:
                    v = grid[x]
                    if v != EMPTY:
                        if v >= 0 and pside[v] != me:
                            shots.append((p, c, f, v))
                        break
            if shots:
                q += lead + 1
                out[q:q] = shots
    finally:
        grid[c0] = p
    return out


def _direct_turns_walk(st: GameState, p: int, ends: Ends, aims: set[int]) -> list[Turn]:
    """``_direct_turns`` in one walk over the end states (``aims``: the armed states)."""
    out: list[Turn] = []
    append = out.append
    if ends.escaped:
        append((p, -1, -1, -1))
    t = st.tables
    first, rest = t.ray_first, t.ray_rest
    size = st.size
    grid = st.grid
    pside = st.side
    me = pside[p]
    turret = st.fire[p] == FIRE_TURRET
    c0 = st.cell[p]
    grid[c0] = EMPTY
    try:
        for s in ends.states:
            c = s >> 3
            f = s & 7
            append((p, c, f, -1))
            if s not in aims:
                continue
            for d in ((f + 7) & 7, f, (f + 1) & 7) if turret else (f,):
                i = d * size + c
                a = first[i]
                if a < 0 or grid[a] != EMPTY:
                    continue
                for x in rest[i]:
                    v = grid[x]
                    if v != EMPTY:
                        if v >= 0 and pside[v] != me:
                            append((p, c, f, v))
                        break
    finally:
        grid[c0] = p
    return out


class _Aim:
    """Where the pieces of side ``me`` could shoot an enemy from (the sight map of
    ``movegen.sight_map`` as masks): ``fixed`` has bit ``x * 8 + d`` if a shooter on empty
    cell ``x`` firing in direction ``d`` hits an enemy (first piece on the ray, not
    adjacent); ``turret`` the bits ``x * 8 + f`` with such a ``d`` within 45° of ``f``;
    ``blockers`` the cells where an enemy's ray stops (only a piece standing there opens
    new lines by moving away: ``movegen._open_origin``)."""

    __slots__ = ("st", "me", "fixed", "turret", "blockers")

    def __init__(self, st: GameState, me: int, occ: int) -> None:
        """``occ``: ``movegen.occupancy`` of the position."""
        self.st = st
        self.me = me
        t = st.tables
        lines = board_rays(t)[4]
        memo = _aim_memo(t)
        alive, cell = st.alive, st.cell
        fixed = turret = 0
        blockers: set[int] = set()
        for e in st.pieces_of[1 - me]:
            ce = cell[e]
            if not alive[e] or ce < 0:
                continue
            # what a piece on ``ce`` lets shoot at it depends only on which cells of its
            # eight rays are empty
            key = ((occ & lines[ce]) << 12) | ce
            found = memo.get(key)
            if found is None:
                if len(memo) >= _AIM_LIMIT:
                    memo.clear()
                found = memo[key] = _aim_at(st, ce)
            fixed |= found[0]
            turret |= found[1]
            blockers.update(found[2])
        self.fixed = fixed
        self.turret = turret
        self.blockers = blockers

    def armed(self, p: int, states: int) -> int:
        """The states of ``states`` (a state mask of direct-fire piece ``p``'s moves) from
        which ``p`` has a target once it has left its cell."""
        st = self.st
        is_turret = st.fire[p] == FIRE_TURRET
        out = states & (self.turret if is_turret else self.fixed)
        o = st.cell[p]
        if o not in self.blockers:
            return out
        # lines through ``o`` open up (as ``movegen._open_origin`` patches the sight map)
        t = st.tables
        size = st.size
        grid = st.grid
        pside = st.side
        me = self.me
        first, rest = t.ray_first, t.ray_rest
        fan = _fans(t)
        extra = 0
        grid[o] = EMPTY
        try:
            for d in range(8):
                i = d * size + o
                a = first[i]
                if a < 0:
                    continue
                hit = grid[a]
                near = hit != EMPTY
                if not near:
                    for x in rest[i]:
                        hit = grid[x]
                        if hit != EMPTY:
                            break
                if hit < 0 or pside[hit] == me:
                    continue
                marks = [] if near else [o]
                j = ((d + 4) & 7) * size + o
                x = first[j]
                if x >= 0 and grid[x] == EMPTY:
                    marks.append(x)
                    for x in rest[j]:
                        if grid[x] != EMPTY:
                            break
                        marks.append(x)
                for x in marks:
                    extra |= fan[x * 8 + d] if is_turret else 1 << (x * 8 + d)
        finally:
            grid[o] = p
        return out | (states & extra)


_AIM_LIMIT = 1 << 14


@cache
def _aim_memo(t: Tables) -> dict[int, tuple[int, int, tuple[int, ...]]]:
    """Per board, filled on demand by ``_Aim``: (rays' occupancy, cell) → ``_aim_at``."""
    return {}


def _aim_at(st: GameState, ce: int) -> tuple[int, int, tuple[int, ...]]:
    """(fixed, turret, blockers) of ``_Aim`` for one target piece on cell ``ce``: the
    sight bits of shooters that would hit it and the cells where its rays stop."""
    t = st.tables
    size = st.size
    grid = st.grid
    first, rest = t.ray_first, t.ray_rest
    prefix = _prefixes(t)
    fixed = turret = 0
    blockers: list[int] = []
    for d in range(8):
        i = ((d + 4) & 7) * size + ce
        a = first[i]
        if a < 0:
            continue
        if grid[a] != EMPTY:
            blockers.append(a)
            continue
        k = 0
        for x in rest[i]:
            if grid[x] != EMPTY:
                blockers.append(x)
                break
            k += 1
        if k:
            key = i * 64 + k
            masks = prefix.get(key)
            if masks is None:
                masks = prefix[key] = _prefix_masks(t, i, k)
            fixed |= masks[0]
            turret |= masks[1]
    return fixed, turret, tuple(blockers)


@cache
def _prefixes(t: Tables) -> dict[int, tuple[int, int]]:
    """Per board, filled on demand: ``i * 64 + k`` → ``_prefix_masks(t, i, k)``."""
    return {}


def _prefix_masks(t: Tables, i: int, k: int) -> tuple[int, int]:
    """(fixed, turret) sight bits of the first ``k`` cells of ray ``i = r * size + c``
    (``ray_rest``) for shooters firing back along it (direction ``r + 4``)."""
    d = ((i // t.size) + 4) & 7
    fan = _fans(t)
    fixed = turret = 0
    for x in t.ray_rest[i][:k]:
        fixed |= 1 << (x * 8 + d)
        turret |= fan[x * 8 + d]
    return fixed, turret


@cache
def _fans(t: Tables) -> tuple[int, ...]:
    """``fan[x * 8 + d]`` = the bits of states ``(x, d - 1)``, ``(x, d)``, ``(x, d + 1)``
    (the facings of a turret that can fire in direction ``d``)."""
    out = []
    for s in range(8 * t.size):
        base, d = s & ~7, s & 7
        out.append((1 << (base | ((d + 7) & 7))) | (1 << s) | (1 << (base | ((d + 1) & 7))))
    return tuple(out)


def command_tank(st: GameState, side: int) -> int:
    """The first live command tank of ``side`` (-1 if none)."""
    kind, alive = st.kind, st.alive
    for p in st.pieces_of[side]:
        if kind[p] == COMMAND and alive[p]:
            return p
    return -1


def allowed(st: GameState, turns: list[Turn], banned: frozenset[int]) -> list[Turn]:
    """``turns`` without those moving a banned kind (all of them if nothing is left)."""
    if not banned:
        return turns
    kind = st.kind
    kept = [t for t in turns if kind[t[0]] not in banned]
    return kept or turns
