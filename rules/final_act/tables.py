"""The fast, reusable core of Final Act movement and fire (docs/rules.md §1.5–1.6).

Two cached table families, built once and shared by the ruleset, the simulation engine and
the analysis:

``FireTable`` — per (board, cone cells, elevated extra cells, strict line of fire): for every
(cell, facing) the cone's on-board targets as ``(target, between_mask)`` pairs sorted by
target, where ``between_mask`` is the bitmask (bit ``c`` = cell ``c``) of the cells whose
interior the centre-to-centre segment crosses (``rules.geometry.between_offsets``). A target
is in the fire zone iff ``between_mask & blockers == 0``. It does not depend on terrain.

``Tables`` — per (board, terrain, options): terrain masks (berms, swamps, minefields, lanes),
the orders of every unit kind from every (cell, facing) for both sides, and ``fire_zone``.
Get one with ``tables_for(board, terrain, options)`` or ``tables_of(scenario)`` (cached; a
scenario that differs only in its units shares the same object).

Hot-path use (the engine)::

    t = tables_of(scenario)
    for to, facing in t.orders("tank", Side.SOUTH, cell, Facing.N): ...
    zone = t.fire_zone("tank", cell, Facing.N, blockers, t.is_elevated("tank", cell))

``blockers`` is a bitmask of the cells holding something that blocks a line of fire besides
terrain: every tank and wreck (any side) and every R/M, except the shooter — build it with
``unit_blockers`` or incrementally; ``fire_zone`` adds the berm cells itself. Other live
units never block *moves* here: orders come from terrain, wrecks and edges alone (pass the
wreck cells as ``avoid`` to ``orders`` to drop destinations holding a wreck).
Cells are ints (``Board`` convention), facings are ``Facing`` values; tank and R/M facings
are orthogonal (a unit with a diagonal facing has no orders as a tank; an AT turns in steps
of 90°).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from tankmap.rules.board import Board
from tankmap.rules.final_act.data import DATA, Offset
from tankmap.rules.geometry import Facing, Side, between_offsets, relative_offset
from tankmap.rules.scenario import OptionValue, Scenario, Terrain, Unit

Order = tuple[int, Facing]
"""One order's end state: destination cell and facing."""

_FACINGS = tuple(Facing)


# --- fire ---------------------------------------------------------------------------------
class FireTable:
    """Cone targets with their between-cell masks for every (cell, facing) of one board.

    Index ``cell * 8 + facing``. ``pairs[i]`` = ``((target, between_mask), ...)`` sorted by
    target (only on-board targets); ``elevated[i]`` = the on-board targets of the cone plus
    the elevated extra cells, sorted (an elevated shooter ignores line of fire).
    """

    def __init__(
        self,
        board: Board,
        cone: tuple[Offset, ...],
        extra: tuple[Offset, ...],
        strict: bool,
    ) -> None:
        self.board = board
        cols = board.columns
        # Per facing: the cone cells as (dx, dy, relative between-mask). A between cell
        # (bx, by) is bit ``by * cols + bx + shift`` of the relative mask, so for a shooter on
        # ``cell`` the absolute mask is ``(rel << cell) >> shift`` (between cells always lie
        # on the board when the target does: they are inside the shooter-target rectangle).
        shift = 8 * (cols + 1) * (board.rows + 1)
        rel: dict[Facing, list[tuple[int, int, int]]] = {}
        for facing in _FACINGS:
            if not facing.is_orthogonal:
                continue
            entries = []
            for f, s in cone:
                dx, dy = relative_offset(facing, f, s)
                mask = 0
                for bx, by in between_offsets(dx, dy, strict):
                    mask |= 1 << (by * cols + bx + shift)
                entries.append((dx, dy, mask))
            rel[facing] = entries
        extra_rel = {facing: [relative_offset(facing, f, s) for f, s in extra] for facing in rel}
        pairs: list[tuple[tuple[int, int], ...]] = []
        elevated: list[tuple[int, ...]] = []
        for cell in range(board.size):
            col, row = cell % cols, cell // cols
            for facing in _FACINGS:
                if not facing.is_orthogonal:
                    pairs.append(())
                    elevated.append(())
                    continue
                found = [
                    ((row + dy) * cols + col + dx, (mask << cell) >> shift)
                    for dx, dy, mask in rel[facing]
                    if 0 <= col + dx < cols and 0 <= row + dy < board.rows
                ]
                found.sort()
                pairs.append(tuple(found))
                ext = {t for t, _ in found}
                for dx, dy in extra_rel[facing]:
                    if 0 <= col + dx < cols and 0 <= row + dy < board.rows:
                        ext.add((row + dy) * cols + col + dx)
                elevated.append(tuple(sorted(ext)))
        self.pairs: tuple[tuple[tuple[int, int], ...], ...] = tuple(pairs)
        self.elevated: tuple[tuple[int, ...], ...] = tuple(elevated)

    def zone(self, cell: int, facing: Facing, blockers: int, elevated: bool = False) -> list[int]:
        """Sorted cells of the cone from ``cell``/``facing`` with a clear line of fire given
        the ``blockers`` bitmask (all cone cells if ``elevated``)."""
        i = cell * 8 + facing
        if elevated:
            return list(self.elevated[i])
        return [t for t, m in self.pairs[i] if not m & blockers]


@lru_cache(maxsize=16)
def fire_table(
    board: Board, cone: tuple[Offset, ...], extra: tuple[Offset, ...], strict: bool
) -> FireTable:
    """The shared ``FireTable`` for this board, cone, extra cells and strictness."""
    return FireTable(board, cone, extra, strict)


# --- terrain and orders -------------------------------------------------------------------
_DIRECTION = {(d.dx, d.dy): d for d in _FACINGS}
"""The compass direction of a one-cell step ``(dx, dy)``."""
_STEPS = tuple((d, d.dx, d.dy) for d in _FACINGS)
_QUARTER_TURNS = {f: (f, f.turned(2), f.turned(4), f.turned(6)) for f in _FACINGS}
"""A facing and its turns by 90°, 180° and 270°, in that order."""


@lru_cache(maxsize=32)
def tank_steps(facing: Facing, reverse_turn: bool) -> tuple[tuple[int, int, Facing | None], ...]:
    """The six one-cell steps of a tank or R/M facing ``facing`` (orthogonal) as ``(dx, dy,
    turn)`` (docs/rules.md §1.5): forward and back keep the facing; each diagonal step may end with
    the facing kept or turned to ``turn`` (forward-left: left; forward-right: right;
    back-left / back-right: left / right, swapped by ``reverse_turn``)."""
    left, right = facing.left, facing.right
    back_left_turn, back_right_turn = (right, left) if reverse_turn else (left, right)
    fx, fy = facing.dx, facing.dy
    lx, ly = left.dx, left.dy
    return (
        (fx, fy, None),  # forward
        (-fx, -fy, None),  # back
        (fx + lx, fy + ly, left),  # forward-left
        (fx - lx, fy - ly, right),  # forward-right
        (-fx + lx, -fy + ly, back_left_turn),  # back-left
        (-fx - lx, -fy - ly, back_right_turn),  # back-right
    )


@lru_cache(maxsize=64)
def _on_board_sources(board: Board, direction: Facing) -> int:
    """Bitmask of the cells whose neighbour in ``direction`` is on the board."""
    mask = 0
    for c in range(board.size):
        if board.offset(c, direction.dx, direction.dy) >= 0:
            mask |= 1 << c
    return mask


@dataclass(frozen=True)
class _Key:
    board: Board
    terrain: tuple[Terrain, ...]
    reverse_turn: bool
    lane_owner_only: bool
    strict: bool
    cones: tuple[tuple[str, str | None], ...]
    at_berm_elevated: bool = True


class Tables:
    """Movement and fire of every unit kind for one (board, terrain, options).

    Attributes (bitmasks, bit ``c`` = cell ``c``): ``berm_mask`` (terrain that blocks fire),
    ``elevating_mask`` (terrain a tank stands on to be elevated), ``swamp_mask``,
    ``mine_mask`` (every minefield cell, lanes included), ``impassable_mask`` (cells no unit
    may ever enter: swamps and non-lane minefield cells). ``lanes`` maps a lane cell to
    ``(arrow, owner)``. Where illegal terrain overlaps, swamp beats minefield beats berm.
    """

    def __init__(self, key: _Key) -> None:
        self.board = key.board
        self.reverse_turn = key.reverse_turn
        self.lane_owner_only = key.lane_owner_only
        self.strict = key.strict
        self.at_berm_elevated = key.at_berm_elevated
        berm = elev = swamp = mine = impassable = 0
        lanes: dict[int, tuple[Facing | None, Side | None]] = {}
        for piece in key.terrain:
            tk = DATA.terrain.get(piece.kind)
            if tk is None:
                continue
            bits = 0
            for c in piece.cells:
                bits |= 1 << c
            if tk.blocks_fire:
                berm |= bits
            if tk.elevates:
                elev |= bits
            if tk.family == "swamp":
                swamp |= bits
            if tk.lane:
                mine |= bits
            if not tk.passable:
                impassable |= bits
            if tk.lane and piece.lane is not None and piece.lane in piece.cells:
                arrow = piece.arrow
                if arrow is not None and not arrow.is_orthogonal:
                    arrow = None
                lanes[piece.lane] = (arrow, piece.side)
        for lane in lanes:
            if not swamp >> lane & 1:
                impassable &= ~(1 << lane)
        self.berm_mask = berm
        self.elevating_mask = elev
        self.swamp_mask = swamp
        self.mine_mask = mine
        self.impassable_mask = impassable
        self.lanes = lanes
        self._cones = dict(key.cones)
        self._orders: dict[tuple[str, Side, int, Facing], tuple[Order, ...]] = {}
        self._step_sources: dict[tuple[Side, int], tuple[int, ...]] = {}

    # --- movement -------------------------------------------------------------------------
    def can_step(self, side: Side, src: int, dx: int, dy: int) -> int:
        """Destination of a one-cell step ``(dx, dy)`` from ``src`` by a unit of ``side``, or
        -1 if terrain or the edge forbids it (rules §1.5: swamps and non-lane minefield cells
        are impassable; a lane is entered and left only by a straight step in its arrow's
        direction, by anyone unless ``lane_owner_only``). Wrecks are not considered."""
        dst = self.board.offset(src, dx, dy)
        if dst < 0 or self.impassable_mask >> dst & 1:
            return -1
        lanes = self.lanes
        if src in lanes:
            arrow = lanes[src][0]
            if arrow is None or (arrow.dx, arrow.dy) != (dx, dy):
                return -1
        if dst in lanes:
            arrow, owner = lanes[dst]
            if arrow is None or (arrow.dx, arrow.dy) != (dx, dy):
                return -1
            if self.lane_owner_only and owner is not None and owner is not side:
                return -1
        return dst

    def step_sources(self, side: Side, avoid: int = 0) -> tuple[int, ...]:
        """Per direction (indexed by ``Facing``), the bitmask of the cells ``src`` from which
        ``can_step(side, src, dx, dy)`` succeeds onto a cell not in ``avoid`` (a bitmask, the
        wrecks): the whole-board form of ``can_step`` for bitboard searches
        (``rules.final_act.reach``). Cached per ``(side, avoid)``."""
        key = (side, avoid)
        found = self._step_sources.get(key)
        if found is None:
            found = self._step_sources[key] = self._compute_step_sources(side, avoid)
        return found

    def _compute_step_sources(self, side: Side, avoid: int) -> tuple[int, ...]:
        board = self.board
        full = (1 << board.size) - 1
        lane_mask = 0
        arrow_lanes = [0] * 8  # lane cells by arrow (any owner): may be left that way
        enter_lanes = [0] * 8  # ...and entered that way by ``side``
        for lane, (arrow, owner) in self.lanes.items():
            lane_mask |= 1 << lane
            if arrow is None:
                continue
            arrow_lanes[arrow] |= 1 << lane
            if not (self.lane_owner_only and owner is not None and owner is not side):
                enter_lanes[arrow] |= 1 << lane
        open_cells = full & ~self.impassable_mask & ~avoid
        out = []
        for d in _FACINGS:
            enterable = open_cells & ((full & ~lane_mask) | enter_lanes[d])
            k = d.dy * board.columns + d.dx
            dst_ok = enterable << -k if k < 0 else enterable >> k
            leavable = (full & ~lane_mask) | arrow_lanes[d]
            out.append(_on_board_sources(board, d) & leavable & dst_ok)
        return tuple(out)

    def orders(
        self, kind: str, side: Side, cell: int, facing: Facing, avoid: int = 0
    ) -> tuple[Order, ...]:
        """Every distinct ``(to, facing)`` one round's order can end in, staying put unchanged
        excepted, from terrain and edges alone (cached). ``avoid`` is a bitmask of extra cells
        that may not be entered (wrecks). A kind that cannot move (unknown) has none."""
        key = (kind, side, cell, facing)
        found = self._orders.get(key)
        if found is None:
            found = self._orders[key] = self._compute_orders(kind, side, cell, facing)
        if avoid:
            return tuple(o for o in found if o[0] == cell or not avoid >> o[0] & 1)
        return found

    def order_table(self, kind: str, side: Side) -> list[tuple[Order, ...]]:
        """All of ``kind``'s orders for ``side`` as a list indexed ``cell * 8 + facing``."""
        return [
            self.orders(kind, side, cell, facing)
            for cell in range(self.board.size)
            for facing in _FACINGS
        ]

    def _compute_orders(
        self, kind: str, side: Side, cell: int, facing: Facing
    ) -> tuple[Order, ...]:
        # ``can_step`` read from its whole-board form (``step_sources``, tested equal to it):
        # a bit test per step instead of the terrain and lane checks
        uk = DATA.units.get(kind)
        if uk is None:
            return ()
        sources = self.step_sources(side)
        cols = self.board.columns
        out: list[Order] = []
        if uk.movement == "any-neighbour":
            turns = _QUARTER_TURNS[facing]
            for d, dx, dy in _STEPS:
                if sources[d] >> cell & 1:
                    dst = cell + dy * cols + dx
                    out += [(dst, f) for f in turns]
            out += [(cell, f) for f in turns[1:]]
            return tuple(out)
        if not facing.is_orthogonal:
            return ()
        for dx, dy, turn in tank_steps(facing, self.reverse_turn):
            if not sources[_DIRECTION[(dx, dy)]] >> cell & 1:
                continue
            dst = cell + dy * cols + dx
            out.append((dst, facing))
            if turn is not None:
                out.append((dst, turn))
        return tuple(out)

    # --- fire -----------------------------------------------------------------------------
    def fire_table(self, kind: str) -> FireTable | None:
        """The ``FireTable`` of ``kind`` under these options, ``None`` if it never fires."""
        uk = DATA.units.get(kind)
        cone_name = self._cones.get(kind)
        if uk is None or cone_name is None:
            return None
        return fire_table(self.board, DATA.cones[cone_name], uk.elevated_extra, self.strict)

    def is_elevated(self, kind: str, cell: int) -> bool:
        """Whether a ``kind`` unit on ``cell`` is elevated (a tank on a berm)."""
        return self.elevates(kind) and bool(self.elevating_mask >> cell & 1)

    def elevates(self, kind: str) -> bool:
        """Whether standing on a berm elevates a ``kind`` unit: tanks always, an AT under
        ``at_berm_elevated`` (docs/rules.md §1.6)."""
        uk = DATA.units.get(kind)
        if uk is None:
            return False
        return uk.elevates or (kind == "at" and self.at_berm_elevated)

    def fire_zone(
        self, kind: str, cell: int, facing: Facing, blockers: int, elevated: bool | None = None
    ) -> list[int]:
        """Sorted cells a ``kind`` unit on ``cell`` facing ``facing`` may shell, given the
        ``blockers`` bitmask of units (tanks, wrecks, R/M; not the shooter). Berm cells are
        added here. ``elevated=None`` works it out from the terrain."""
        table = self.fire_table(kind)
        if table is None:
            return []
        if elevated is None:
            elevated = self.is_elevated(kind, cell)
        return table.zone(cell, facing, blockers | self.berm_mask, elevated)


def unit_blockers(units: Iterable[Unit], shooter: Unit | None = None, wrecks: bool = True) -> int:
    """Bitmask of the cells whose units block a line of fire (docs/rules.md §1.6): tanks and R/M
    (``blocks_fire`` in the data), live or — if ``wrecks`` — wrecked, never ATs, never the
    ``shooter`` itself (compared by identity, so an equal twin still blocks)."""
    mask = 0
    for u in units:
        if u is shooter:
            continue
        uk = DATA.units.get(u.kind)
        if uk is None or not uk.blocks_fire or (u.wreck and not wrecks):
            continue
        mask |= 1 << u.cell
    return mask


def wreck_mask(units: Iterable[Unit], wrecks: bool = True) -> int:
    """Bitmask of cells holding a wreck (empty when the ``wrecks`` option is off)."""
    if not wrecks:
        return 0
    mask = 0
    for u in units:
        if u.wreck:
            mask |= 1 << u.cell
    return mask


@lru_cache(maxsize=64)
def _tables(key: _Key) -> Tables:
    return Tables(key)


def tables_for(
    board: Board, terrain: tuple[Terrain, ...], options: Mapping[str, OptionValue]
) -> Tables:
    """The cached ``Tables`` for ``board``, ``terrain`` and effective ``options`` (every
    Final Act option with a value; missing ones take their defaults)."""
    opts = {s.name: s.default for s in DATA.options}
    opts.update(options)
    cones = tuple(
        (k, None if uk.cone_option is None else str(opts[uk.cone_option]))
        for k, uk in DATA.units.items()
    )
    key = _Key(
        board,
        tuple(terrain),
        bool(opts["reverse_turn"]),
        bool(opts["lane_owner_only"]),
        bool(opts["strict_line_of_fire"]),
        cones,
        bool(opts.get("at_berm_elevated", True)),
    )
    return _tables(key)


def tables_of(scenario: Scenario) -> Tables:
    """``tables_for`` the scenario's board, terrain and options."""
    return tables_for(scenario.board, scenario.terrain, scenario.options)
