"""Fast building blocks of the Tank Chess heuristic (``policies.tank_chess``).

They give exactly the answers of the straightforward code they replace (the same turns
in the same order, the same exposure verdicts), only cheaper:

- ``TurnIndex``: the legal turns of the side to move as ``st.legal_turns()`` lists them
  (optionally without banned kinds, as ``allowed`` filters them), but materialised only
  where needed: ``at(i)`` builds turn ``i``; ``shots`` and ``clt_turns`` (the command
  tank's non-shooting turns) are built in full. End states come from the memoised
  ``movegen.cached_end_states``; a piece's turns are spelled out only if it can shoot.
- ``Threats``: the enemy's reachable states (``reachable``) as one bit mask per enemy
  piece over state ids ``cell * 8 + facing``, merged per armour value and fire mode, so
  that ``exposed`` is a few mask operations per direction instead of a dictionary walk.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import cache

from rules.tank_chess.data import COMMAND, FIRE_MORTAR, FIRE_TURRET
from rules.tank_chess.movegen import Ends, cached_end_states, state_occupancy
from rules.tank_chess.state import EMPTY, GameState, Turn
from rules.tank_chess.tables import Tables


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
                    aim = _Aim(st, me)
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
    its end states from which it has a target (``_Aim.armed``). The targets of those
    states are found by walking their rays (``p``'s own cell counting as empty)."""
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
            if not (armed >> s) & 1:
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

    def __init__(self, st: GameState, me: int) -> None:
        self.st = st
        self.me = me
        t = st.tables
        size = st.size
        grid = st.grid
        first, rest = t.ray_first, t.ray_rest
        prefix = _prefixes(t)
        alive, cell = st.alive, st.cell
        fixed = turret = 0
        blockers: set[int] = set()
        for e in st.pieces_of[1 - me]:
            ce = cell[e]
            if not alive[e] or ce < 0:
                continue
            for d in range(8):
                i = ((d + 4) & 7) * size + ce
                a = first[i]
                if a < 0:
                    continue
                if grid[a] != EMPTY:
                    blockers.add(a)
                    continue
                k = 0
                for x in rest[i]:
                    if grid[x] != EMPTY:
                        blockers.add(x)
                        break
                    k += 1
                if k:
                    key = i * 64 + k
                    masks = prefix.get(key)
                    if masks is None:
                        masks = prefix[key] = _prefix_masks(t, i, k)
                    fixed |= masks[0]
                    turret |= masks[1]
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


@cache
def _rays(
    t: Tables,
) -> tuple[tuple[int, ...], tuple[int, ...], int, tuple[bool, ...], tuple[int, ...]]:
    """Cell masks of a board, bit ``8 * cell`` per cell (as ``movegen.occupancy``):
    ``(rest, mortar, cells, rising, lines)``: ``rest[d * size + c]`` = the cells 2, 3, …
    away from ``c`` in direction ``d``; ``mortar[d * size + c]`` = those 3..5 away;
    ``cells`` = every cell; ``rising[d]``: cell numbers grow along direction ``d``;
    ``lines[c]`` = every cell on the eight rays from ``c``."""
    rest = []
    mortar = []
    lines = [0] * t.size
    for i in range(8 * t.size):
        ray = t.ray_rest[i]
        rest.append(sum(1 << (8 * x) for x in ray))
        mortar.append(sum(1 << (8 * x) for x in ray[1:4]))
        if t.ray_first[i] >= 0:
            lines[i % t.size] |= rest[-1] | (1 << (8 * t.ray_first[i]))
    rising = tuple(dy > 0 or (dy == 0 and dx > 0) for dx, dy in _DXY)
    cells = sum(1 << (8 * c) for c in range(t.size))
    return tuple(rest), tuple(mortar), cells, rising, tuple(lines)


_DXY = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
# direction of a unit step (sx, sy) in -1..1: _DIR_OF[(sy + 1) * 3 + sx + 1]
_DIR_OF = [-1] * 9
for _d, (_dx, _dy) in enumerate(_DXY):
    _DIR_OF[(_dy + 1) * 3 + _dx + 1] = _d


class Threats:
    """Where the pieces of ``side`` can stand after one move (their current state
    included) as bit masks over state ids (bit ``s = cell * 8 + facing``), for
    ``exposed`` checks of an enemy piece whose armour values are ``armours``.

    A state mask shifted right by ``f`` and cut to the cell bits (``8 * cell``) is the
    mask of the cells where a piece can stand facing ``f``: the same bit layout as
    ``movegen.occupancy``, so rays, blockers and shooters meet in plain int operations."""

    __slots__ = ("st", "pieces", "armours", "union", "memo", "rays")

    def __init__(
        self, st: GameState, side: int, armours: tuple[int, int, int], occ: int = -1
    ) -> None:
        self.st = st
        if occ < 0:
            occ = state_occupancy(st)
        alive, cell, facing = st.alive, st.cell, st.facing
        gun, fire = st.gun, st.fire
        self.pieces = [
            (
                e,
                gun[e],
                fire[e],
                cached_end_states(st, e, occ).mask() | (1 << (cell[e] * 8 + facing[e])),
            )
            for e in st.pieces_of[side]
            if alive[e] and cell[e] >= 0
        ]
        self.armours = armours
        self.union = self._merge(-1)
        self.memo: dict[int, tuple[int, int]] = {}
        self.rays: dict[int, bool] = {}

    def _merge(self, skip: int) -> dict[int, tuple[int, int, int]]:
        """Armour value → (turret, fixed, mortar) masks of the pieces whose gun beats it."""
        out: dict[int, tuple[int, int, int]] = {}
        for a in self.armours:
            if a in out:
                continue
            tu = fx = mo = 0
            for e, g, mode, m in self.pieces:
                if g <= a or e == skip:
                    continue
                if mode == FIRE_TURRET:
                    tu |= m
                elif mode == FIRE_MORTAR:
                    mo |= m
                else:
                    fx |= m
            out[a] = (tu, fx, mo)
        return out

    def _shooters(
        self, union: dict[int, tuple[int, int, int]], armour: int, back: int, cells: int
    ) -> tuple[int, int]:
        """(direct, mortar) cell masks: where a piece beating ``armour`` can stand so as
        to fire in direction ``back`` (a turret within 45° of it, a fixed gun or a mortar
        exactly along it)."""
        tu, fx, mo = union[armour]
        direct = (fx >> back) & cells
        if tu:
            direct |= ((tu >> ((back + 7) & 7)) | (tu >> back) | (tu >> ((back + 1) & 7))) & cells
        return direct, (mo >> back) & cells

    def lines(self, c: int) -> int:
        """The cells on the eight rays from cell ``c`` (``exposed`` of a piece on ``c``
        only looks at those cells of the grid)."""
        return _rays(self.st.tables)[4][c]

    def exposed(self, p: int, skip: int = -1, occ: int = -1, moved_from: int = -1) -> bool:
        """``policies.tank_chess.exposed(st, reachable(st, side), p, skip)`` (same answer)
        in the current position of ``st`` (the masks stay those of the position ``Threats``
        was built in): could a piece of ``side`` move and then destroy piece ``p``?
        ``occ``: ``movegen.occupancy`` of the current position if the caller has it.

        ``moved_from`` (with ``skip`` -1) promises that the current position is the one
        ``Threats`` was built in except that ``p`` moved from that cell to where it is now
        (or turned there): then the verdict along each ray that does not pass through
        ``moved_from`` is remembered and reused by later such calls."""
        st = self.st
        t = st.tables
        size = st.size
        first = t.ray_first
        if occ < 0:
            occ = state_occupancy(st)
        c0 = st.cell[p]
        f0 = st.facing[p]
        front, side_armour, rear = st.armour[p]
        memo = self.memo
        union = self.union if skip < 0 else self._merge(skip)
        through = -1  # the direction from c0 whose ray passes through ``moved_from``
        rays: dict[int, bool] | None = None
        if moved_from >= 0 and skip < 0:
            rays = self.rays
            cols = st.columns
            dx = moved_from % cols - c0 % cols
            dy = moved_from // cols - c0 // cols
            if dx == 0 or dy == 0 or dx == dy or dx == -dy:
                through = _DIR_OF[((dy > 0) - (dy < 0) + 1) * 3 + (dx > 0) - (dx < 0) + 1]
        for d in range(8):
            i = d * size + c0
            a = first[i]
            if a < 0:
                continue
            armour = front if d == f0 else rear if d == (f0 + 4) & 7 else side_armour
            if rays is not None and d != through:
                key = i * 8 + armour
                hit = rays.get(key)
                if hit is None:
                    hit = rays[key] = self._ray(i, d, a, armour, occ, union, memo)
                if hit:
                    return True
            elif self._ray(i, d, a, armour, occ, union, memo if skip < 0 else None):
                return True
        return False

    def _ray(
        self,
        i: int,
        d: int,
        a: int,
        armour: int,
        occ: int,
        union: dict[int, tuple[int, int, int]],
        memo: dict[int, tuple[int, int]] | None,
    ) -> bool:
        """Can a shooter hit armour ``armour`` along ray ``i = d * size + cell`` (first
        cell ``a``), the grid occupied as ``occ``?"""
        rest, mortar, cells, rising, _ = _rays(self.st.tables)
        back = (d + 4) & 7
        if memo is not None:
            key = armour * 8 + back
            found = memo.get(key)
            if found is None:
                found = memo[key] = self._shooters(union, armour, back, cells)
            direct, lobbed = found
        else:
            direct, lobbed = self._shooters(union, armour, back, cells)
        if lobbed & mortar[i]:
            return True
        if not direct or self.st.grid[a] != EMPTY:
            return False
        r = rest[i]
        m = r & occ
        if m:  # the ray up to and including its first occupied cell
            if rising[d]:
                r &= ((m & -m) << 1) - 1
            else:
                r &= -(1 << (m.bit_length() - 1))
        return bool(direct & r)


def command_tank(st: GameState, side: int) -> int:
    """The first live command tank of ``side`` (-1 if none)."""
    kind, alive = st.kind, st.alive
    for p in st.pieces_of[side]:
        if kind[p] == COMMAND and alive[p]:
            return p
    return -1
