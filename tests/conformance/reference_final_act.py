"""A deliberately plain reference for Final Act orders and fire zones (docs/rules.md §1.5-1.6).

Written from the rule text only (never from ``rules/final_act``). Cells are ``(column, row)``
tuples; facings are numbered clockwise from north (0 N, 2 E, 4 S, 6 W; Final Act uses only
these four). The line of fire is computed here with exact fractions by cutting the segment
at every grid line it crosses: the midpoint of each piece lies in the open interior of exactly
one cell (those cells are "passed through"); a point where the segment meets a grid corner
touches the four cells around that corner (that matters only for ``strict_line_of_fire``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from tankmap.rules.scenario import Scenario

DX = (0, 1, 1, 1, 0, -1, -1, -1)
DY = (1, 1, 0, -1, -1, -1, 0, 1)
FACING_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")

Cell = tuple[int, int]


@dataclass(frozen=True)
class FUnit:
    kind: str  # tank, at, rm
    side: int
    col: int
    row: int
    facing: int
    wreck: bool = False
    damage: int = 0  # hits taken (a tank: 0 or 1)


@dataclass(frozen=True)
class Minefield:
    cells: frozenset[Cell]
    lane: Cell
    arrow: int
    side: int


@dataclass(frozen=True)
class FPos:
    columns: int
    rows: int
    berms: frozenset[Cell]
    swamps: frozenset[Cell]
    minefields: tuple[Minefield, ...]
    units: tuple[FUnit, ...]
    reverse_turn: bool = False
    lane_owner_only: bool = False
    strict_line_of_fire: bool = False
    tank_cone: tuple[int, int] = (3, 3)  # (centre, radius) of the diamond |s| + |f - c| <= r
    at_cone: tuple[int, int] = (2, 2)
    at_berm_elevated: bool = True  # rules §1.6: an AT on a berm has no line-of-fire limits
    rm_repair: bool = True  # rules §1.3: a damaged tank and its R/M may share (Extra Forces)


# the cone option values (resources/rulesets/final-act.json "cones"): diamond centre, radius
CONES = {"diamond-3": (3, 3), "diamond-2": (2, 2), "wide-4": (4, 4)}


def from_scenario(sc: Scenario) -> FPos:
    b = sc.board

    def cc(c: int) -> Cell:
        return (b.col_of(c), b.row_of(c))

    berms: set[Cell] = set()
    swamps: set[Cell] = set()
    mines: list[Minefield] = []
    for t in sc.terrain:
        if t.kind.startswith("berm"):
            berms.update(cc(c) for c in t.cells)
        elif t.kind == "swamp":
            swamps.update(cc(c) for c in t.cells)
        elif t.kind == "minefield":
            assert t.lane is not None and t.arrow is not None and t.side is not None
            mines.append(
                Minefield(frozenset(cc(c) for c in t.cells), cc(t.lane), int(t.arrow), t.side.index)
            )
        else:
            raise ValueError(t.kind)
    units = []
    for u in sc.units:
        assert u.facing is not None
        col, row = cc(u.cell)
        units.append(FUnit(u.kind, u.side.index, col, row, int(u.facing), u.wreck, u.damage))
    o = sc.options
    return FPos(
        b.columns,
        b.rows,
        frozenset(berms),
        frozenset(swamps),
        tuple(mines),
        tuple(units),
        bool(o.get("reverse_turn", False)),
        bool(o.get("lane_owner_only", False)),
        bool(o.get("strict_line_of_fire", False)),
        CONES[str(o.get("tank_cone", "diamond-3"))],
        CONES[str(o.get("at_cone", "diamond-2"))],
        bool(o.get("at_berm_elevated", True)),
        bool(o.get("rm_repair", True)),
    )


# --- movement (rules §1.5) ------------------------------------------------------------------
def can_step(pos: FPos, u: FUnit, src: Cell, dx: int, dy: int, wrecks: set[Cell]) -> bool:
    """May unit ``u`` make the one-cell step (dx, dy) from ``src``? Other live units ignored;
    ``wrecks`` = the cells holding wrecks."""
    dst = (src[0] + dx, src[1] + dy)
    if not (0 <= dst[0] < pos.columns and 0 <= dst[1] < pos.rows):
        return False  # board edges
    if dst in pos.swamps:
        return False
    if dst in wrecks:
        return False
    for m in pos.minefields:
        arrow = (DX[m.arrow], DY[m.arrow])
        if src == m.lane and (dx, dy) != arrow:
            return False  # the lane is left only by a straight step in the arrow direction
        if dst in m.cells:
            if dst != m.lane or (dx, dy) != arrow:
                return False  # only the lane, entered straight in the arrow direction
            if pos.lane_owner_only and u.side != m.side:
                return False
    return True


def orders(pos: FPos, index: int) -> set[tuple[Cell, int]]:
    """Every distinct (cell, facing) an order can end in, except doing nothing."""
    u = pos.units[index]
    if u.wreck:
        return set()
    here = (u.col, u.row)
    wrecks = {(w.col, w.row) for w in pos.units if w.wreck}
    out: set[tuple[Cell, int]] = set()
    if u.kind == "at":
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (dx, dy) != (0, 0) and not can_step(pos, u, here, dx, dy, wrecks):
                    continue
                for g in (0, 2, 4, 6):
                    out.add(((u.col + dx, u.row + dy), g))
        out.discard((here, u.facing))
        return out
    # tank and R/M: six moves relative to the facing; turning only with a diagonal move
    f = u.facing
    fwd = (DX[f], DY[f])
    left_f, right_f = (f + 6) % 8, (f + 2) % 8
    left = (DX[left_f], DY[left_f])
    right = (DX[right_f], DY[right_f])
    back = (-fwd[0], -fwd[1])
    back_left_turn = right_f if pos.reverse_turn else left_f
    back_right_turn = left_f if pos.reverse_turn else right_f
    moves = [
        (fwd, (f,)),
        (back, (f,)),
        ((fwd[0] + left[0], fwd[1] + left[1]), (f, left_f)),
        ((fwd[0] + right[0], fwd[1] + right[1]), (f, right_f)),
        ((back[0] + left[0], back[1] + left[1]), (f, back_left_turn)),
        ((back[0] + right[0], back[1] + right[1]), (f, back_right_turn)),
    ]
    for (dx, dy), facings in moves:
        if can_step(pos, u, here, dx, dy, wrecks):
            for g in facings:
                out.add(((u.col + dx, u.row + dy), g))
    return out


# --- fire (rules §1.6) ----------------------------------------------------------------------
@cache
def crossed_cells(dx: int, dy: int, strict: bool) -> frozenset[Cell]:
    """Offsets of cells (other than the two ends) the segment (0,0)-(dx,dy) passes through.

    Non-strict: cells whose open interior the segment enters. Strict: also the cells whose
    corner it touches.
    """
    cuts = {Fraction(0), Fraction(1)}
    for d in (dx, dy):
        if d != 0:
            # grid lines are at k + 1/2; the segment coordinate is t * d
            lo, hi = sorted((0, d))
            for k in range(lo, hi):
                cuts.add((Fraction(k) + Fraction(1, 2)) / d)
    ts = sorted(cuts)
    out: set[Cell] = set()
    for a, b in zip(ts, ts[1:], strict=False):
        m = (a + b) / 2
        out.add((_round(m * dx), _round(m * dy)))
    if strict:
        for t in ts:
            x, y = t * dx, t * dy
            if (x - Fraction(1, 2)).denominator == 1 and (y - Fraction(1, 2)).denominator == 1:
                for cx in (math.floor(x), math.ceil(x)):
                    for cy in (math.floor(y), math.ceil(y)):
                        out.add((cx, cy))
    out.discard((0, 0))
    out.discard((dx, dy))
    return frozenset(out)


def _round(x: Fraction) -> int:
    """The integer nearest to x (x is never exactly half-way here)."""
    n = math.floor(x + Fraction(1, 2))
    assert x - n != Fraction(1, 2) and n - x != Fraction(1, 2)
    return n


def diamond(centre: int, radius: int) -> list[tuple[int, int]]:
    """(forward, sideways) cells with |s| + |f - centre| <= radius and f >= 1."""
    return [
        (f, s)
        for f in range(1, centre + radius + 1)
        for s in range(-radius, radius + 1)
        if abs(s) + abs(f - centre) <= radius
    ]


def cone(pos: FPos, kind: str, on_berm: bool) -> list[tuple[int, int]]:
    """(forward, sideways) cells of a unit's cone; empty for the R/M.

    A tank on a berm also gets (f = 7, s = 0) (docs/rules.md §1.6, written for the default cone).
    """
    if kind == "tank":
        cells = diamond(*pos.tank_cone)
        if on_berm and (7, 0) not in cells:
            cells.append((7, 0))
        return cells
    if kind == "at":
        return diamond(*pos.at_cone)
    return []


def blockers(pos: FPos) -> set[Cell]:
    """Cells holding a tank or wreck (either side), the R/M, or a berm. ATs never block."""
    out = set(pos.berms)
    for u in pos.units:
        if u.kind in ("tank", "rm") or u.wreck:
            out.add((u.col, u.row))
    return out


def fire_zone(pos: FPos, index: int) -> set[Cell]:
    u = pos.units[index]
    if u.wreck:
        return set()
    here = (u.col, u.row)
    elevated = here in pos.berms and (u.kind == "tank" or (u.kind == "at" and pos.at_berm_elevated))
    f = u.facing
    right = (f + 2) % 8
    block = blockers(pos)
    out: set[Cell] = set()
    for fwd, side in cone(pos, u.kind, here in pos.berms):
        dx = DX[f] * fwd + DX[right] * side
        dy = DY[f] * fwd + DY[right] * side
        target = (u.col + dx, u.row + dy)
        if not (0 <= target[0] < pos.columns and 0 <= target[1] < pos.rows):
            continue
        if not elevated:
            crossed = {
                (u.col + cx, u.row + cy)
                for cx, cy in crossed_cells(dx, dy, pos.strict_line_of_fire)
            }
            if crossed & block:
                continue
        out.add(target)
    return out


# --- hits (rules §1.6 damage), for rounds in which no unit moves -----------------------------
def resolve_hits(
    pos: FPos,
    damage: list[int],
    shells: list[tuple[int, Cell]],
    wrecks: bool,
    out: set[int] | None = None,
) -> list[str]:
    """Status of every unit after the ``shells`` ((shooting side, cell) each) land on a
    position where nobody moved: ``"ok0"``/``"ok1"`` (live, damage), ``"wreck"`` or ``"out"``.

    A shell hits only the shooter's enemies on its cell: a live tank there takes it (damaged
    at the first hit, out at the second, and then any AT or R/M under it is out too — no
    repair is declared here, so the R/M is removed); otherwise one AT is out per shell
    and the R/M is out (an AT does not cover it: every unit on a shelled cell is hit but
    where a tank covers, and of two ATs one per shell). Units already wrecks stay wrecks."""
    status = ["wreck" if u.wreck else f"ok{damage[i]}" for i, u in enumerate(pos.units)]
    for i in out or ():
        status[i] = "out"  # already out this round (an AT run over by an enemy tank)
    dmg = list(damage)
    for side, cell in shells:
        here = [
            i
            for i, u in enumerate(pos.units)
            if (u.col, u.row) == cell and u.side != side and status[i].startswith("ok")
        ]
        tanks = [i for i in here if pos.units[i].kind == "tank"]
        ats = [i for i in here if pos.units[i].kind == "at"]
        rms = [i for i in here if pos.units[i].kind == "rm"]
        if tanks:
            t = tanks[0]
            dmg[t] += 1
            if dmg[t] >= 2:
                status[t] = "wreck" if wrecks else "out"
                for a in ats + rms:
                    status[a] = "out"
            else:
                status[t] = f"ok{dmg[t]}"
        else:
            for i in ats[:1] + rms:
                status[i] = "out"
    return status


# --- executing orders (rules §1.5 conflicts) ---------------------------------------------------
def sharing_allowed(pos: FPos, group: list[int]) -> bool:
    """May these units end a round on one cell (docs/rules.md §1.3)? One side; a tank with one own
    AT; two ATs; the R/M with one own AT; a tank with the R/M only "when exercising the repair
    act": with R/M repair on, the R/M alone with one own damaged tank (the positions here
    come fresh from scenarios, so every R/M still has its 2 repairs)."""
    if len(group) <= 1:
        return True
    units = [pos.units[i] for i in group]
    kinds = sorted(u.kind for u in units)
    if len({u.side for u in units}) > 1:
        return False
    if pos.rm_repair and kinds == ["rm", "tank"]:
        return any(u.kind == "tank" and u.damage > 0 for u in units)
    return kinds in (["at", "tank"], ["at", "at"], ["at", "rm"])


def resolve_moves(
    pos: FPos, orders: list[tuple[Cell, int] | None]
) -> tuple[list[tuple[Cell, int]], set[int]]:
    """Execute one round's orders (``None`` = stay) and return every unit's (cell, facing)
    and the set of ATs eliminated by enemy tanks entering their cell. Wrecks never move.

    Resolved until stable, each pass judging all conflicts at once: two movers trading cells
    both stay; a cell where the units that would end there (movers and stayers) may not
    share — after taking away the enemy ATs of a moving tank there — sends every mover into
    it back (it stays, keeping its facing). An AT turning in place is no mover and turns."""
    n = len(pos.units)
    here = [(u.col, u.row) for u in pos.units]
    movers = {
        i
        for i, o in enumerate(orders)
        if o is not None and not pos.units[i].wreck and o[0] != here[i]
    }

    def end(i: int) -> Cell:
        o = orders[i]
        return o[0] if i in movers and o is not None else here[i]

    while True:
        # every conflict is read off the same moment (the orders still standing), then all
        # the units concerned stay at once: "two or more units ordered into the same cell"
        # and "two units may not swap" do not depend on the order in which they are checked
        bounce: set[int] = set()
        for i in movers:
            for j in movers:
                kinds = {pos.units[i].kind, pos.units[j].kind}
                # rules §1.5: only two tanks, or a tank and the R/M, may not swap
                hard = "tank" in kinds and kinds <= {"tank", "rm"}
                if i != j and hard and end(i) == here[j] and end(j) == here[i]:
                    bounce |= {i, j}
        cells: dict[Cell, list[int]] = {}
        for i in range(n):
            if not pos.units[i].wreck:
                cells.setdefault(end(i), []).append(i)
        for group in cells.values():
            coming = [i for i in group if i in movers]
            if not coming:
                continue
            tanks_in = [i for i in coming if pos.units[i].kind == "tank"]
            rest = [
                i
                for i in group
                if not (
                    pos.units[i].kind == "at"
                    and any(pos.units[t].side != pos.units[i].side for t in tanks_in)
                )
            ]
            if not sharing_allowed(pos, rest):
                bounce |= set(coming)
        if not bounce:
            break
        movers -= bounce
    eliminated = set()
    for t in movers:
        if pos.units[t].kind == "tank":
            for i in range(n):
                u = pos.units[i]
                if u.kind == "at" and u.side != pos.units[t].side and end(i) == end(t):
                    eliminated.add(i)
    out = []
    for i, u in enumerate(pos.units):
        o = orders[i]
        if i in movers and o is not None:
            out.append(o)
        elif o is not None and o[0] == here[i] and not u.wreck:
            out.append((here[i], o[1]))  # turning in place (an AT)
        else:
            out.append((here[i], u.facing))
    return out, eliminated


def play_round(
    pos: FPos,
    damage: list[int],
    orders: list[tuple[Cell, int] | None],
    shells: list[tuple[int, Cell]],
    wrecks: bool,
) -> tuple[list[tuple[Cell, int]], list[str], int | None, bool]:
    """One whole round (docs/rules.md §1.4-1.7): orders execute, then every shell hits what ends the
    round on its cell. Returns every unit's (cell, facing), status (as ``resolve_hits``),
    the winner (0, 1, None) and whether the game is over. ``over`` with winner None is a
    draw (no tanks left on either side). When both sides have a tank on the enemy's last
    line the result is ambiguous in the rule text and ``None, False`` is returned with
    status ``"both"`` appended (callers skip such rounds)."""
    placed, eliminated = resolve_moves(pos, orders)
    moved = tuple(
        FUnit(u.kind, u.side, cell[0], cell[1], facing, u.wreck, u.damage)
        for u, (cell, facing) in zip(pos.units, placed, strict=True)
    )
    after = FPos(
        pos.columns,
        pos.rows,
        pos.berms,
        pos.swamps,
        pos.minefields,
        moved,
        pos.reverse_turn,
        pos.lane_owner_only,
        pos.strict_line_of_fire,
        pos.tank_cone,
        pos.at_cone,
        pos.at_berm_elevated,
        pos.rm_repair,
    )
    status = resolve_hits(after, damage, shells, wrecks, out=eliminated)
    on_goal = [0, 0]
    tanks = [0, 0]
    for u, st in zip(moved, status, strict=True):
        if u.kind == "tank" and st.startswith("ok"):
            tanks[u.side] += 1
            if u.row == (pos.rows - 1 if u.side == 0 else 0):
                on_goal[u.side] += 1
    if on_goal[0] and on_goal[1]:
        return placed, status + ["both"], None, False
    if on_goal[0] or on_goal[1]:
        return placed, status, 0 if on_goal[0] else 1, True
    if tanks[0] == 0 or tanks[1] == 0:
        if tanks[0] == tanks[1]:
            return placed, status, None, True
        return placed, status, 0 if tanks[0] else 1, True
    return placed, status, None, False
