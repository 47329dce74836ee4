"""Reach in turns over terrain: escapes of one piece, and whole sides for the live overlay.

A turn is up to ``speed`` steps (45° rotation, forward step into an empty cell — under
``strict_corners`` not diagonally between two blocked cells —, or the escape step off the
enemy edge, not through its corner point) or one backward step on its own (rules §2.3, §2.5).

- ``escape_region`` / ``turns_to_escape``: one side's escape cells and one piece's turns to
  escape (the ``command-cannot-escape`` check): a 0-1 BFS over ``(state, steps left in this
  turn)``: a step inside a turn costs 0, starting a turn costs 1.
- ``side_terrain_reach``: every side's reach (fewest turns for any of its live pieces to
  stand on each cell) and turns to escape, terrain only — the numbers of ``tankmap analyze``
  (docs/cli-json.md), for the editor's live overlay (``analysis.live``). A multi-source
  breadth-first search in turns on bitboards (Python ints, see the layout note below): about
  1 ms for a full 20 × 20 set-up, whatever was edited.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from tankmap.rules.errors import short
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario
from tankmap.rules.tank_chess.data import COMMAND, OPTION_SPECS, kind_facts
from tankmap.rules.tank_chess.state import BLOCKED, EMPTY, GameState, PositionError


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
    """Fewest turns for piece ``p`` to step off its enemy edge (docs/rules.md §2.5), moving alone
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


# --- terrain-only reach of whole sides, on bitboards ----------------------------------------
#
# Layout. A board of C columns and R rows is stored in a Python int with one padding column
# and one padding row: cell (col, row) of block g is bit ``g * (R + 1) * (C + 1) + row *
# (C + 1) + col``. Padding bits are never free, so a step that would leave the board (or wrap
# round to the next row, or cross into the next block) lands on a padding bit and is masked
# away. A *facing set* is a list of 8 such ints: bit c of ``S[f]`` = "state (c, f) is in S".
# Several searches (blocks) run side by side in one int, so every operation serves all of
# them at once (Python ints make the shifts and masks cheap: a 20 x 20 board is ~440 bits).
#
# Search. Level t = the states first reached in t turns. One turn from a set F is F's
# closure under up to ``speed`` single steps (rotate: bits move to the neighbouring facing;
# forward: bits shift by the facing's offset where the step is legal), plus the backward
# step from F; the end state differing from the start never matters, as the start is already
# reached. A turn from a union is the union of the turns, so one search from all of a side's
# pieces of one speed gives, per state, the minimum over those pieces: exactly what a side's
# reach (a per-cell minimum) needs. Command tanks get blocks of their own, for the escape:
# possible in the next turn when some state within ``speed - 1`` steps of level t can step
# off the enemy edge.


@dataclass(frozen=True)
class TerrainReach:
    """One side's reach over terrain only (obstacles and wrecks block; pieces do not).

    ``cells[c]`` = fewest own turns for any of the side's live pieces to stand on cell ``c``
    (0 where one stands, ``-1`` = never); ``escape`` = fewest turns for one of its command
    tanks to step off the enemy edge (the move that escapes counts as a turn), ``None`` if
    none can or the side has no live command tank."""

    cells: npt.NDArray[np.int32]
    escape: int | None


class _Layout:
    """Geometry of ``blocks`` stacked boards (see the layout comment)."""

    def __init__(self, columns: int, rows: int, blocks: int, diagonal_escape: bool = True) -> None:
        self.columns, self.rows, self.blocks = columns, rows, blocks
        self.width = w = columns + 1
        self.stride = stride = (rows + 1) * w
        self.rep = sum(1 << (g * stride) for g in range(blocks))  # replicates one block
        one_block_board = 0
        for row in range(rows):
            one_block_board |= ((1 << columns) - 1) << (row * w)
        self.board = one_block_board * self.rep
        self.shift = tuple(Facing(f).dy * w + Facing(f).dx for f in range(8))
        # escape[side][f]: cells of one block from which a forward step in f leaves the
        # board through that side's enemy edge, between two cells (not at the corner
        # point); straight steps only without ``diagonal_escape`` (docs/rules.md §2.5)
        esc: list[list[int]] = [[0] * 8, [0] * 8]
        for f in range(8):
            dx, dy = Facing(f).dx, Facing(f).dy
            for side, (row, want_dy) in enumerate(((rows - 1, 1), (0, -1))):
                if dy != want_dy or (dx and not diagonal_escape):
                    continue
                for col in range(columns):
                    if 0 <= col + dx < columns:
                        esc[side][f] |= 1 << (row * w + col)
        self.escape = (tuple(esc[0]), tuple(esc[1]))

    def bit(self, block: int, cell: int) -> int:
        return 1 << (
            block * self.stride + (cell // self.columns) * self.width + cell % self.columns
        )

    def back_row(self, block: int, side: int) -> int:
        """Block ``block``'s cells on the enemy back row of side index ``side``."""
        row = self.rows - 1 if side == 0 else 0
        return ((1 << self.columns) - 1) << (block * self.stride + row * self.width)

    def block_mask(self, block: int) -> int:
        return ((1 << self.stride) - 1) << (block * self.stride)

    def cells_of(self, bits: int) -> npt.NDArray[np.bool_]:
        """``bits`` as a bool array ``(blocks, rows * columns)``."""
        n = self.blocks * self.stride
        raw = np.frombuffer(bits.to_bytes((n + 7) // 8, "little"), dtype=np.uint8)
        flat = np.unpackbits(raw, bitorder="little")[:n].astype(bool)
        grid = flat.reshape(self.blocks, self.rows + 1, self.width)[:, : self.rows, : self.columns]
        return grid.reshape(self.blocks, self.rows * self.columns)


@cache
def _layout(columns: int, rows: int, blocks: int, diagonal_escape: bool = True) -> _Layout:
    return _Layout(columns, rows, blocks, diagonal_escape)


def _sh(x: int, k: int) -> int:
    """``x`` moved by ``k`` bits (towards higher cells when ``k > 0``)."""
    return x << k if k >= 0 else x >> -k


def _step_masks(lay: _Layout, free: int, strict: bool) -> tuple[list[int], list[int]]:
    """Per facing, the cells from which a forward step (resp. the backward step) is legal:
    the cell entered is free and, under ``strict_corners``, a diagonal step is not squeezed
    between two blocked cells (docs/rules.md §2.3; off-board cells never block a corner)."""
    blocked = lay.board & ~free
    fwd: list[int] = []
    back: list[int] = []
    for f in range(8):
        d = lay.shift[f]
        face = Facing(f)
        ok_f = lay.board & _sh(free, -d)
        ok_b = lay.board & _sh(free, d)
        if strict and face.dx and face.dy:
            dx, dyw = face.dx, face.dy * lay.width
            ok_f &= ~(_sh(blocked, -dx) & _sh(blocked, -dyw))
            ok_b &= ~(_sh(blocked, dx) & _sh(blocked, dyw))
        fwd.append(ok_f)
        back.append(ok_b)
    return fwd, back


def _flood(lay: _Layout, cells: int, free: int, fwd_ok: list[int] | None) -> int:
    """The cells of one block reachable from ``cells`` by any number of steps: into any
    free neighbour, or (``fwd_ok``, for ``strict_corners``) as those masks allow."""
    w = lay.width
    sh = lay.shift
    while True:
        if fwd_ok is None:
            h = cells | (cells << 1) | (cells >> 1)
            grown = cells | ((h | (h << w) | (h >> w)) & free)
        else:
            grown = cells
            for f in range(8):
                grown |= _sh(cells & fwd_ok[f], sh[f])
        if grown == cells:
            return cells
        cells = grown


def _fold(lay: _Layout, bits: int, sides: list[int], side: int) -> int:
    """The union, moved into block 0, of ``bits`` in the blocks of side index ``side``."""
    one = lay.block_mask(0)
    out = 0
    for g, sd in enumerate(sides):
        if sd == side:
            out |= (bits >> (g * lay.stride)) & one
    return out


def _closure(
    lay: _Layout,
    frontier: list[int],
    fwd_ok: list[int],
    back_ok: list[int],
    active: list[int | None],
    escape_at: list[list[int] | None],
) -> tuple[list[int], int]:
    """One turn from every state of ``frontier``: the states reachable by up to ``speed``
    steps (45° rotation, or a forward step where ``fwd_ok`` allows it) — ``active[k]`` masks
    the blocks whose speed exceeds ``k`` (``None``: all) — or by the backward step alone.
    Also the bits of ``escape_at[k]`` met after ``k`` steps (an escape step follows)."""
    sh = lay.shift
    r = list(frontier)
    hits = 0
    for k, act in enumerate(active):
        esc = escape_at[k]
        if esc is not None:
            for f in range(8):
                hits |= r[f] & esc[f]
        r0, r1, r2, r3, r4, r5, r6, r7 = r
        t = [
            r7 | r1 | _sh(r0 & fwd_ok[0], sh[0]),
            r0 | r2 | _sh(r1 & fwd_ok[1], sh[1]),
            r1 | r3 | _sh(r2 & fwd_ok[2], sh[2]),
            r2 | r4 | _sh(r3 & fwd_ok[3], sh[3]),
            r3 | r5 | _sh(r4 & fwd_ok[4], sh[4]),
            r4 | r6 | _sh(r5 & fwd_ok[5], sh[5]),
            r5 | r7 | _sh(r6 & fwd_ok[6], sh[6]),
            r6 | r0 | _sh(r7 & fwd_ok[7], sh[7]),
        ]
        if act is None:
            r = [a | b for a, b in zip(r, t, strict=True)]
        else:
            r = [a | (b & act) for a, b in zip(r, t, strict=True)]
    for f in range(8):
        r[f] |= _sh(frontier[f] & back_ok[f], -sh[f])
    return r, hits


def _turn(
    lay: _Layout,
    frontier: list[int],
    free: int,
    strict: bool,
    fwd_ok: list[int],
    back_ok: list[int],
    active: list[int | None],
    escape_at: list[list[int] | None],
    *,
    every_block: bool,
) -> tuple[list[int], int]:
    """``_closure`` of ``frontier``, also for a piece standing on a blocked cell (an illegal
    set-up being edited): its own cell is empty while it moves, so the states on such a cell
    are expanded on their own with the cell freed. ``every_block`` frees and expands that cell
    in all blocks at once (fewer closures when many blocks share it; the same result, since
    only the states standing on the freed cell use it)."""
    odd = 0
    for x in frontier:
        odd |= x & ~free
    main = [x & free for x in frontier] if odd else frontier
    reached, hits = _closure(lay, main, fwd_ok, back_ok, active, escape_at)
    while odd:
        here = odd & -odd
        if every_block:
            here = lay.rep << ((here.bit_length() - 1) % lay.stride)
        odd &= ~here
        f2, b2 = _step_masks(lay, free | here, strict)
        sub, hits2 = _closure(lay, [x & here for x in frontier], f2, b2, active, escape_at)
        reached = [a | b for a, b in zip(reached, sub, strict=True)]
        hits |= hits2
    return reached, hits


def _search_setup(
    lay: _Layout,
    free: int,
    strict: bool,
    starts: list[list[int]],
    speeds: list[int],
    escapes: dict[int, int],
) -> tuple[list[int | None], list[list[int] | None], list[int], list[int], list[int]]:
    """What a search in turns of every block needs before its first turn: per step ``k``
    of a turn the blocks still moving (``None`` = all), per step the escape masks of the
    ``escapes`` blocks whose last step it is, the forward/backward step masks, and the start
    frontier (per facing, every block's start states)."""
    vmax = max(speeds)
    active: list[int | None] = []
    for k in range(vmax):
        if all(v > k for v in speeds):
            active.append(None)
        else:
            active.append(sum(lay.block_mask(g) for g, v in enumerate(speeds) if v > k))
    escape_at: list[list[int] | None] = [None] * vmax
    for g, side in escapes.items():
        k = speeds[g] - 1
        masks = escape_at[k] or [0] * 8
        escape_at[k] = [
            m | (e << (g * lay.stride)) for m, e in zip(masks, lay.escape[side], strict=True)
        ]
    fwd_ok, back_ok = _step_masks(lay, free, strict)
    frontier = [0] * 8
    for g, states in enumerate(starts):
        for s in states:
            frontier[s & 7] |= lay.bit(g, s >> 3)
    return active, escape_at, fwd_ok, back_ok, frontier


def _search(
    lay: _Layout,
    free: int,
    strict: bool,
    starts: list[list[int]],
    speeds: list[int],
    sides: list[int],
    escapes: dict[int, int],
) -> tuple[npt.NDArray[np.int32], dict[int, int | None]]:
    """Breadth-first search in turns of every block at once. ``starts[g]`` are block ``g``'s
    start states (``cell * 8 + facing``), ``speeds[g]`` its speed, ``sides[g]`` the side
    index it belongs to (the search stops once each side's reach is final, not each block's),
    ``escapes`` maps the blocks whose turns to escape are wanted to their side index.
    Returns per-block cell distances ``(blocks, size)`` (-1 = not reached when the search
    stopped: only their minimum over a side's blocks is exact) and the turns to escape of the
    ``escapes`` blocks."""
    active, escape_at, fwd_ok, back_ok, frontier = _search_setup(
        lay, free, strict, starts, speeds, escapes
    )
    visited = list(frontier)
    seen_cells = 0
    for x in frontier:
        seen_cells |= x
    layers = [seen_cells]
    found: dict[int, int | None] = dict.fromkeys(escapes)
    # A side's reach is final once every cell its pieces can ever reach is reached: that is
    # the flood fill of its start cells (a piece can always turn to face any neighbour,
    # then step; the backward step is a forward step's mirror), so the search may stop then,
    # if the escapes are settled too (an escape is possible iff the fill touches the enemy
    # back row). Not with pieces on blocked cells (their first move treats their own cell as
    # empty, so the fill is not the whole story): they search until nothing is new.
    odd = 0
    for x in frontier:
        odd |= x & ~free
    one = lay.block_mask(0)
    targets: dict[int, int] = {}
    pending = set(escapes)
    if not odd:
        corners = [m & one for m in fwd_ok] if strict else None
        for side in set(sides):
            targets[side] = _flood(lay, _fold(lay, seen_cells, sides, side), free & one, corners)
        pending = {g for g in escapes if targets[sides[g]] & lay.back_row(0, escapes[g])}
    turn = 0
    while True:
        turn += 1
        reached, hits = _turn(
            lay, frontier, free, strict, fwd_ok, back_ok, active, escape_at, every_block=True
        )
        if hits:
            for g in escapes:
                if found[g] is None and hits & lay.block_mask(g):
                    found[g] = turn
                    pending.discard(g)
        new = [a & ~b for a, b in zip(reached, visited, strict=True)]
        cells = 0
        for x in new:
            cells |= x
        if not cells:
            break
        visited = [a | b for a, b in zip(visited, new, strict=True)]
        layers.append(cells & ~seen_cells)
        seen_cells |= cells
        frontier = new
        if (
            targets
            and not pending
            and all(_fold(lay, seen_cells, sides, side) == t for side, t in targets.items())
        ):
            break
    dist = np.full((lay.blocks, lay.columns * lay.rows), -1, dtype=np.int32)
    for t in range(len(layers) - 1, -1, -1):
        if layers[t]:
            dist[lay.cells_of(layers[t])] = t
    return dist, found


def terrain_of(scenario: Scenario) -> tuple[bool, npt.NDArray[np.bool_]]:
    """``(strict_corners, free)`` of a Tank Chess ``scenario``: ``free[c]`` is False on
    obstacles and wrecks (live pieces do not block: terrain only)."""
    opts = {s.name: s.default for s in OPTION_SPECS}
    opts.update(scenario.options)
    free_cells = np.ones(scenario.board.size, dtype=bool)
    free_cells[[c for t in scenario.terrain for c in t.cells]] = False
    free_cells[[u.cell for u in scenario.units if u.wreck]] = False
    return bool(opts["strict_corners"]), free_cells


def diagonal_escape_of(scenario: Scenario) -> bool:
    """The scenario's ``diagonal_escape`` option (docs/rules.md §2.5)."""
    return bool(scenario.options.get("diagonal_escape", True))


def pack_cells(lay: _Layout, cells: npt.NDArray[np.bool_]) -> int:
    """A per-cell bool array as the bits of block 0 of ``lay``."""
    padded = np.zeros((lay.rows + 1, lay.width), dtype=bool)
    padded[: lay.rows, : lay.columns] = cells.reshape(lay.rows, lay.columns)
    return int.from_bytes(np.packbits(padded.ravel(), bitorder="little").tobytes(), "little")


def side_terrain_reach(scenario: Scenario) -> dict[Side, TerrainReach]:
    """``TerrainReach`` of both sides of a Tank Chess ``scenario``: every live piece moves
    alone over the terrain (obstacles and wrecks block, other pieces are ignored), as
    ``ruleset.moves`` would move it one turn at a time (rules §2.3, §2.5, ``strict_corners``;
    a missing facing is "toward the enemy"). All of a side's pieces of one speed are searched
    together (the per-cell minimum over them is what a side's reach asks), command tanks on
    their own (for the escape). Raises ``PositionError`` for an unknown piece kind or a
    scenario of another ruleset."""
    if scenario.ruleset != "tank-chess":
        raise PositionError(f"this is a {scenario.ruleset!r} scenario, not tank-chess")
    board = scenario.board
    facts = kind_facts()
    strict, free_cells = terrain_of(scenario)
    groups: dict[tuple[int, int, bool], list[int]] = {}
    for u in scenario.units:
        info = facts.get(u.kind)
        if info is None:
            raise PositionError(f"unknown tank-chess piece kind {short(u.kind)}")
        if u.wreck:
            free_cells[u.cell] = False
            continue
        si = u.side.index
        facing = int(u.facing) if u.facing is not None else 4 * si
        command = info[0] == COMMAND
        groups.setdefault((si, info[1], command), []).append(u.cell * 8 + facing)
    out: dict[Side, TerrainReach] = {}
    empty = np.full(board.size, -1, dtype=np.int32)
    if not groups:
        return {side: TerrainReach(empty.copy(), None) for side in Side}
    keys = sorted(groups)
    lay = _layout(board.columns, board.rows, len(keys), diagonal_escape_of(scenario))
    free = pack_cells(lay, free_cells) * lay.rep
    escapes = {g: k[0] for g, k in enumerate(keys) if k[2]}
    dist, found = _search(
        lay,
        free,
        strict,
        [groups[k] for k in keys],
        [k[1] for k in keys],
        [k[0] for k in keys],
        escapes,
    )
    for side in Side:
        mine = [g for g, k in enumerate(keys) if k[0] == side.index]
        if not mine:
            out[side] = TerrainReach(empty.copy(), None)
            continue
        d = dist[mine]
        best = np.where(d < 0, np.iinfo(np.int32).max, d).min(axis=0)
        cells = np.where(best == np.iinfo(np.int32).max, -1, best).astype(np.int32)
        turns = [v for g in mine if (v := found.get(g)) is not None]
        out[side] = TerrainReach(cells, min(turns) if turns else None)
    return out
