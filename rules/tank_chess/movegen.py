"""The Tank Chess move generator behind ``GameState`` (hot path; read ``state.py`` first).

Two precomputations make it fast:

- **Move trees.** Every way a piece of speed ``v`` can move from state ``s0`` on an empty
  board is a sequence "turn a₁, step, turn a₂, step, …" with Σ|aᵢ| + steps ≤ v. These
  paths are stored once per ``(board, s0, v)`` as a prefix tree flattened in pre-order
  (``Tree``): node = a forward step into a cell, with ``skip`` and ``ends``. ``ends``
  are the state ids the piece may stop in after that step (plus rotations with the steps
  left), ``skip`` is the index after the node's subtree: a blocked cell skips all paths
  through it. A state is reachable iff some path to it has every entered cell empty, which
  is exactly what walking the tree checks, so no search is needed at run time.
- **Sight maps.** ``sees[d * size + x]`` = the enemy piece a shooter on empty cell ``x``
  firing in direction ``d`` would hit (first piece on the ray, not adjacent, nothing
  between), built by walking back from each enemy. The moving piece's own cell opens up
  when it leaves; ``_open_origin`` patches the map for the lines through it (and undoes
  the patch afterwards).

``cached_end_states`` remembers ``end_states`` answers per move tree, keyed by the
occupancy of the cells that tree looks at (simulations meet the same local situations over
and over); it gives the very same sets, so turn lists built from them do not change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tankmap.rules.tank_chess.data import COMMAND, FIRE_MORTAR, FIRE_TURRET
from tankmap.rules.tank_chess.tables import EMPTY, NO_TARGET, Tables

if TYPE_CHECKING:
    from tankmap.rules.tank_chess.state import GameState, Turn


class Tree:
    """The move tree of one start state and speed, flattened in pre-order as parallel
    tuples (node ``i``: ``cells[i]`` entered, ``skip[i]`` = index after its subtree,
    ``ends[i]`` = state ids to stop in, ``side_a/side_b[i]`` the cells a diagonal step
    squeezes between (-1 if none), ``esc[side][i]`` = an escape step follows).
    ``root`` are the rotations in place, ``root_esc[side]`` an escape from the start.
    ``rel``/``memo`` serve ``cached_end_states`` (``relevant`` cells, remembered answers)."""

    __slots__ = (
        "root",
        "root_esc",
        "cells",
        "skip",
        "ends",
        "side_a",
        "side_b",
        "esc",
        "rel",
        "memo",
    )

    def __init__(self, t: Tables, s0: int, speed: int) -> None:
        cells: list[int] = []
        skip: list[int] = []
        ends: list[tuple[int, ...]] = []
        side_a: list[int] = []
        side_b: list[int] = []
        esc: tuple[list[bool], list[bool]] = ([], [])

        def grow(s: int, left: int) -> None:
            if left < 1:
                return
            base, f = s & ~7, s & 7
            k = min(left - 1, 4)
            for a in range(-k, k + 1):
                if a == -4:  # the same facing as +4
                    continue
                s1 = base | ((f + a) & 7)
                n = t.fwd[s1]
                if n < 0:
                    continue
                rest = left - abs(a) - 1
                at = len(cells)
                cells.append(n >> 3)
                skip.append(-1)
                ends.append(tuple(_rotations(n, rest)))
                side_a.append(t.side_a[s1])
                side_b.append(t.side_b[s1])
                esc[0].append(_escapes(t, n, rest, 0))
                esc[1].append(_escapes(t, n, rest, 1))
                grow(n, rest)
                skip[at] = len(cells)

        grow(s0, speed)
        self.root = tuple(x for x in _rotations(s0, speed) if x != s0)
        self.root_esc = (_escapes(t, s0, speed, 0), _escapes(t, s0, speed, 1))
        self.cells = tuple(cells)
        self.skip = tuple(skip)
        self.ends = tuple(ends)
        self.side_a = tuple(side_a)
        self.side_b = tuple(side_b)
        self.esc = (tuple(esc[0]), tuple(esc[1]))
        self.rel = -1  # see ``relevant`` (computed on first use)
        self.memo: dict[int, Ends] = {}

    def relevant(self, t: Tables, s0: int) -> int:
        """``occupancy`` bits of every cell the walk (or the backward step) from start
        state ``s0`` looks at, the start cell excluded (it is always empty while its piece
        moves): ``end_states`` depends on the grid only through ``occupancy & rel``."""
        if self.rel < 0:
            looked = set(self.cells) | {x for x in self.side_a + self.side_b if x >= 0}
            b = t.back[s0]
            if b >= 0:
                looked.add(b >> 3)
                looked.update(x for x in (t.side_a[s0 ^ 4], t.side_b[s0 ^ 4]) if x >= 0)
            looked.discard(s0 >> 3)
            self.rel = sum(1 << (8 * x) for x in looked)
        return self.rel


_TREES: dict[tuple[int, int, int, bool], list[Tree | None]] = {}


def _rotations(s: int, steps: int) -> list[int]:
    base, f = s & ~7, s & 7
    k = min(steps, 4)
    return sorted({base | ((f + b) & 7) for b in range(-k, k + 1)})


def _escapes(t: Tables, s: int, steps: int, side: int) -> bool:
    """From state ``s`` with ``steps`` left: some turn then a step escapes for ``side``."""
    if steps < 1:
        return False
    esc = t.escape[side]
    return any(esc[x] for x in _rotations(s, steps - 1))


def move_tree(t: Tables, s0: int, speed: int) -> Tree:
    """The (cached) move tree of a piece of ``speed`` starting in state ``s0``."""
    key = (t.columns, t.rows, speed, t.diagonal_escape)
    trees = _TREES.get(key)
    if trees is None:
        trees = _TREES[key] = [None] * (t.size * 8)
    tree = trees[s0]
    if tree is None:
        tree = trees[s0] = Tree(t, s0, speed)
    return tree


def end_states(st: GameState, p: int, c0: int, f0: int) -> tuple[set[int], bool]:
    """State ids piece ``p`` (on ``c0`` facing ``f0``; that cell already emptied by the
    caller) can end a move in, distinct and excluding the start, and whether it can escape
    (command tanks only)."""
    t = st.tables
    grid = st.grid
    s0 = c0 * 8 + f0
    tree = move_tree(t, s0, st.speed[p])
    out = set(tree.root)
    update = out.update
    cells, skip, ends = tree.cells, tree.skip, tree.ends
    n = len(cells)
    i = 0
    strict = st.strict_corners
    escaped = False
    if st.kind[p] == COMMAND:
        side = st.side[p]
        esc = tree.esc[side]
        # option backward_escape: the backward step off the enemy edge escapes too
        escaped = tree.root_esc[side] or (st.backward_escape and t.back_escape[side][s0])
        side_a, side_b = tree.side_a, tree.side_b
        while i < n:
            sa = side_a[i]
            if grid[cells[i]] != EMPTY or (
                strict and sa >= 0 and grid[sa] != EMPTY and grid[side_b[i]] != EMPTY
            ):
                i = skip[i]
                continue
            update(ends[i])
            if esc[i]:
                escaped = True
            i += 1
    elif strict:
        side_a, side_b = tree.side_a, tree.side_b
        while i < n:
            sa = side_a[i]
            if grid[cells[i]] != EMPTY or (
                sa >= 0 and grid[sa] != EMPTY and grid[side_b[i]] != EMPTY
            ):
                i = skip[i]
                continue
            update(ends[i])
            i += 1
    else:
        while i < n:
            if grid[cells[i]] != EMPTY:
                i = skip[i]
                continue
            update(ends[i])
            i += 1
    out.discard(s0)
    b = t.back[s0]
    if b >= 0 and grid[b >> 3] == EMPTY:
        ok = True
        if strict and f0 & 1:
            rs = s0 ^ 4  # the same cell facing the other way: the backward step's geometry
            a = t.side_a[rs]
            ok = not (a >= 0 and grid[a] != EMPTY and grid[t.side_b[rs]] != EMPTY)
        if ok:
            out.add(b)
    return out, escaped


class Ends:
    """The cached answer of ``end_states`` for one piece (see ``cached_end_states``):
    ``states`` (a set shared by every caller: never mutate it), ``escaped``, and on demand
    ``order()`` (``list(states)``, same order) and ``mask()`` (bit ``s`` set for every
    state id ``s`` in ``states``)."""

    __slots__ = ("states", "escaped", "_order", "_mask")

    def __init__(self, states: set[int], escaped: bool) -> None:
        self.states = states
        self.escaped = escaped
        self._order: list[int] | None = None
        self._mask = -1

    def order(self) -> list[int]:
        if self._order is None:
            self._order = list(self.states)
        return self._order

    def mask(self) -> int:
        if self._mask < 0:
            m = 0
            for s in self.states:
                m |= 1 << s
            self._mask = m
        return self._mask


_MEMO_LIMIT = 1 << 14  # entries (a few kB each) before the memo is dropped
_memo_size = 0


def occupancy(grid: list[int]) -> int:
    """The grid as an int with bit ``8 * cell`` set for every non-empty cell (a key for
    ``cached_end_states``)."""
    return int.from_bytes(bytes(map(EMPTY.__ne__, grid)), "little")


_TERRAIN_BYTES: dict[int, tuple[object, bytes]] = {}


def state_occupancy(st: GameState) -> int:
    """``occupancy(st.grid)``, faster: the obstacles of ``st.scenario`` (cached) plus the
    cells of the pieces and wrecks. Valid while ``grid`` agrees with the pieces, as
    ``GameState.push``/``pop`` keep it (not while a caller has emptied a cell)."""
    sc = st.scenario
    entry = _TERRAIN_BYTES.get(id(sc))
    if entry is None or entry[0] is not sc:
        if len(_TERRAIN_BYTES) > 64:
            _TERRAIN_BYTES.clear()
        blocked = bytearray(st.size)
        for t in sc.terrain:
            for c in t.cells:
                blocked[c] = 1
        entry = _TERRAIN_BYTES[id(sc)] = (sc, bytes(blocked))
    raw = bytearray(entry[1])
    for c in st.cell:
        if c >= 0:
            raw[c] = 1
    return int.from_bytes(raw, "little")


def cached_end_states(st: GameState, p: int, occ: int) -> Ends:
    """``end_states`` of live piece ``p`` where it stands, memoised across positions and
    games: the answer depends only on the move tree, the occupancy of the cells the tree
    looks at (``occ`` must be ``occupancy(st.grid)`` of the current position, with or
    without ``p`` on its cell), ``strict_corners`` and, for a command tank, its side and
    ``backward_escape`` (the tree itself is per ``diagonal_escape``). The
    set's iteration order is the one ``end_states`` gives (same insertions), so turn lists
    built from it are identical. Memory is bounded (the memo is dropped when large)."""
    global _memo_size
    c0 = st.cell[p]
    f0 = st.facing[p]
    tree = move_tree(st.tables, c0 * 8 + f0, st.speed[p])
    key = occ & (tree.rel if tree.rel >= 0 else tree.relevant(st.tables, c0 * 8 + f0))
    command = st.kind[p] == COMMAND
    key = (
        key * 16
        + (8 if command and st.backward_escape else 0)
        + (4 if st.strict_corners else 0)
        + (st.side[p] + 1 if command else 0)
    )
    memo = tree.memo
    hit = memo.get(key)
    if hit is not None:
        return hit
    grid = st.grid
    old = grid[c0]
    grid[c0] = EMPTY
    try:
        states, escaped = end_states(st, p, c0, f0)
    finally:
        grid[c0] = old
    if _memo_size >= _MEMO_LIMIT:
        for trees in _TREES.values():
            for tr in trees:
                if tr is not None:
                    tr.memo.clear()
        _memo_size = 0
    hit = memo[key] = Ends(states, escaped)
    _memo_size += 1
    return hit


class Sight:
    """Who direct fire would hit, for one side's shooters (see the module doc).

    Indexed like state ids, ``x * 8 + d``: ``sees[x*8+d]`` = the enemy piece a shooter on
    empty cell ``x`` firing in direction ``d`` hits first (not adjacent, nothing between),
    or -1; ``turret[x*8+f]`` = how many of the directions ``f-1, f, f+1`` have a target.
    ``patched`` lists the entries ``open_origin`` added (undone by ``unmark_patches``).
    """

    __slots__ = ("sees", "turret", "patched")

    def __init__(self, size: int) -> None:
        self.sees = [-1] * (8 * size)
        self.turret = [0] * (8 * size)
        self.patched: list[int] = []

    def mark(self, k: int, e: int) -> None:
        """Record that ``k = x * 8 + d`` hits piece ``e``."""
        self.sees[k] = e
        turret = self.turret
        base = k & ~7
        d = k & 7
        turret[base | ((d + 7) & 7)] += 1
        turret[k] += 1
        turret[base | ((d + 1) & 7)] += 1

    def unmark_patches(self) -> None:
        sees, turret = self.sees, self.turret
        for k in self.patched:
            sees[k] = -1
            base = k & ~7
            d = k & 7
            turret[base | ((d + 7) & 7)] -= 1
            turret[k] -= 1
            turret[base | ((d + 1) & 7)] -= 1
        self.patched.clear()


def sight_map(st: GameState, me: int) -> Sight:
    """The ``Sight`` of side ``me``'s shooters against the enemy pieces, every piece in
    place (see the module doc)."""
    t = st.tables
    size = st.size
    grid = st.grid
    first, rest = t.ray_first, t.ray_rest
    sight = Sight(size)
    sees, turret = sight.sees, sight.turret
    alive, cell = st.alive, st.cell
    for e in st.pieces_of[1 - me]:
        ce = cell[e]
        if not alive[e] or ce < 0:
            continue
        for d in range(8):
            i = ((d + 4) & 7) * size + ce
            a = first[i]
            if a < 0 or grid[a] != EMPTY:
                continue
            left, right = (d + 7) & 7, (d + 1) & 7
            for x in rest[i]:
                if grid[x] != EMPTY:
                    break
                base = x * 8
                sees[base + d] = e
                turret[base + left] += 1
                turret[base + d] += 1
                turret[base + right] += 1
    return sight


def _open_origin(st: GameState, o: int, me: int, sight: Sight) -> None:
    """Patch ``sight`` for the lines through the (just emptied) cell ``o``; the patched
    entries are listed in ``sight.patched`` for ``unmark_patches``."""
    t = st.tables
    size = st.size
    grid = st.grid
    pside = st.side
    first, rest = t.ray_first, t.ray_rest
    mark = sight.mark
    patched = sight.patched
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
        if not near:
            mark(o * 8 + d, hit)
            patched.append(o * 8 + d)
        j = ((d + 4) & 7) * size + o
        x = first[j]
        if x < 0 or grid[x] != EMPTY:
            continue
        mark(x * 8 + d, hit)
        patched.append(x * 8 + d)
        for x in rest[j]:
            if grid[x] != EMPTY:
                break
            mark(x * 8 + d, hit)
            patched.append(x * 8 + d)


def piece_turns(st: GameState, p: int, out: list[Turn], sight: Sight | None = None) -> None:
    """Append every legal turn of live piece ``p`` to ``out`` (``sight``: the sight map of
    ``p``'s side if the caller has one, else it is built)."""
    grid = st.grid
    c0 = st.cell[p]
    me = st.side[p]
    mode = st.fire[p]
    if sight is None and mode != FIRE_MORTAR:
        sight = sight_map(st, me)
    grid[c0] = EMPTY
    try:
        states, escaped = end_states(st, p, c0, st.facing[p])
        if escaped:
            out.append((p, -1, -1, NO_TARGET))
        if mode == FIRE_MORTAR:
            mortar = st.tables.mortar
            size = st.size
            pside = st.side
            for s in states:
                c = s >> 3
                f = s & 7
                out.append((p, c, f, NO_TARGET))
                for x in mortar[f * size + c]:
                    v = grid[x]
                    if v >= 0 and pside[v] != me:
                        out.append((p, c, f, v))
            return
        assert sight is not None
        _open_origin(st, c0, me, sight)
        sees = sight.sees
        append = out.append
        if mode == FIRE_TURRET:
            count = sight.turret
            for s in states:
                c = s >> 3
                f = s & 7
                append((p, c, f, NO_TARGET))
                if count[s]:
                    base = s & ~7
                    for k in (base | ((f + 7) & 7), s, base | ((f + 1) & 7)):
                        v = sees[k]
                        if v >= 0:
                            append((p, c, f, v))
        else:
            for s in states:
                c = s >> 3
                f = s & 7
                append((p, c, f, NO_TARGET))
                v = sees[s]
                if v >= 0:
                    append((p, c, f, v))
    finally:
        grid[c0] = p
        if sight is not None:
            sight.unmark_patches()


def piece_turn_count(st: GameState, p: int, sight: Sight | None = None) -> int:
    """How many turns ``piece_turns`` would append, without building them."""
    grid = st.grid
    c0 = st.cell[p]
    me = st.side[p]
    mode = st.fire[p]
    if sight is None and mode != FIRE_MORTAR:
        sight = sight_map(st, me)
    grid[c0] = EMPTY
    try:
        states, escaped = end_states(st, p, c0, st.facing[p])
        n = len(states) + (1 if escaped else 0)
        if mode == FIRE_MORTAR:
            mortar = st.tables.mortar
            size = st.size
            pside = st.side
            for s in states:
                for x in mortar[(s & 7) * size + (s >> 3)]:
                    v = grid[x]
                    if v >= 0 and pside[v] != me:
                        n += 1
            return n
        assert sight is not None
        _open_origin(st, c0, me, sight)
        if mode == FIRE_TURRET:
            return n + sum(map(sight.turret.__getitem__, states))
        sees = sight.sees
        return n + sum(1 for s in states if sees[s] >= 0)
    finally:
        grid[c0] = p
        if sight is not None:
            sight.unmark_patches()
