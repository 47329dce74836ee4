"""One Tank Wars round in numba, phase for phase ``rules.tank_wars.engine`` (the reference).

A position is one ``int64`` array (``base.layout``): a destroyed vehicle has cell -1 and
0 AP. The phases change it in place and take their dice as arrays of rolls ``0..35``
(``artillery_shots`` tells how many the artillery needs, ``2 × supply_drops`` the supply):

- ``artillery(t, pos, rolls, at)``: phase 1 (``engine.artillery_phase``);
- ``resolve(t, pos, cmds, gun, ngun, rolls, at, moved)``: phases 4–6
  (``engine.resolve_orders``), or ``movement`` + ``gunfire`` + ``supply`` + ``finish``
  one by one (a search reuses the moved position for every gunfire alternative);
- ``outcome(t, pos)``: ``ONGOING``, ``SOUTH_WINS``, ``NORTH_WINS``, ``BOTH_DESTROYED`` or
  ``ROUND_LIMIT``.

``cmds[i]`` is vehicle ``i``'s command index (``base.NONE``: no token; both sides in one
array), ``gun[side, k]`` the field of side's gunfire token ``k`` and ``ngun[side]`` how many
it placed (only the available ones count); ``at`` (72 fields) and ``moved`` (one per
vehicle) are work arrays.
"""

from __future__ import annotations

import numpy as np

from tankmap.analysis.simulation.tank_wars.kernel.base import (
    CELLS,
    R_DROPS,
    R_LONG_RANGE,
    R_MAX_ROUNDS,
    R_STATIONARY,
    R_SUPPORT,
    R_TOKENS,
    R_USED_UP,
    Tables,
    jit,
    leaf,
    unliteral,
)

ONGOING, SOUTH_WINS, NORTH_WINS, BOTH_DESTROYED, ROUND_LIMIT = -1, 0, 1, 2, 3
HALF = CELLS // 2
COLUMNS = 6
ROWS = 12


@leaf
def roll_cell(side: int, roll: int) -> int:
    """``state.roll_to_cell``: the field of ``side``'s own board for a roll 0..35."""
    col = roll % COLUMNS
    own_row = roll // COLUMNS + 1
    row = own_row - 1 if side == 0 else ROWS - own_row
    return row * COLUMNS + col


@leaf
def offset(cell: int, dx: int, dy: int) -> int:
    """``Board.offset`` on the 6 × 12 grid (-1 off it)."""
    col = cell % COLUMNS + dx
    row = cell // COLUMNS + dy
    if 0 <= col < COLUMNS and 0 <= row < ROWS:
        return row * COLUMNS + col
    return -1


@leaf
def own_board(cell: int, side: int) -> bool:
    return (cell < HALF) if side == 0 else (cell >= HALF)


@leaf
def occupancy(t: Tables, pos: np.ndarray, at: np.ndarray) -> None:
    """``at[field]`` = the live vehicle there, or -1."""
    at[:] = -1
    for i in range(len(t.vside)):
        c = pos[i]
        if c >= 0:
            at[c] = i


@leaf
def shells_left(t: Tables, pos: np.ndarray, i: int) -> int:
    v = len(t.vside)
    card = t.k_shells[t.vkind[i]]
    if t.rules[R_USED_UP] == 0:
        return int(card)
    return int(max(0, card - pos[2 * v + i]))


@leaf
def artillery_shots(t: Tables, pos: np.ndarray, side: int) -> int:
    """``TankWarsState.artillery_shots``."""
    vside, vkind, k_shells, rules = t.vside, t.vkind, t.k_shells, t.rules
    v = len(vside)
    used_up = rules[R_USED_UP] != 0
    cards = False
    total = 0
    for i in range(v):
        if pos[i] >= 0 and vside[i] == side:
            card = k_shells[vkind[i]]
            if card > 0:
                cards = True
            total += max(0, card - pos[2 * v + i]) if used_up else card
    return total if cards else rules[R_LONG_RANGE]


@leaf
def gunfire_available(t: Tables, pos: np.ndarray, side: int) -> int:
    v = len(t.vside)
    return int(max(0, t.rules[R_TOKENS] - pos[3 * v + 2 * CELLS + side]))


@leaf
def destroy(t: Tables, pos: np.ndarray, i: int) -> None:
    v = len(t.vside)
    pos[i] = -1
    pos[v + i] = 0
    pos[3 * v + 2 * CELLS + t.vside[i]] += t.k_gunfire[t.vkind[i]]


@leaf
def sweep(t: Tables, pos: np.ndarray) -> None:
    """Remove every vehicle at 0 AP (end of a simultaneous phase)."""
    v = len(t.vside)
    for i in range(v):
        if pos[i] >= 0 and pos[v + i] <= 0:
            destroy(t, pos, i)


@leaf
def sides_alive(t: Tables, pos: np.ndarray) -> int:
    vside = t.vside
    south = False
    north = False
    for i in range(len(vside)):
        if pos[i] >= 0:
            if vside[i] == 0:
                south = True
            else:
                north = True
    return int(south) + int(north)


@leaf
def repair(t: Tables, pos: np.ndarray, i: int) -> None:
    v = len(t.vside)
    top = t.k_armour[t.vkind[i]]
    pos[v + i] = min(top, pos[v + i] + t.rules[R_SUPPORT])


@leaf
def finish(t: Tables, pos: np.ndarray) -> None:
    """The round is over: count it, planning closed."""
    v = len(t.vside)
    pos[3 * v + 2 * CELLS + 2] += 1
    pos[3 * v + 2 * CELLS + 3] = 0


@leaf
def artillery(t: Tables, pos: np.ndarray, rolls: np.ndarray, at: np.ndarray) -> bool:
    """Phase 1 with ``rolls`` (south's shots first, ``artillery_shots`` of each side);
    returns whether both sides still have a vehicle (then planning is open), else the
    round is finished."""
    v = len(t.vside)
    crater = 3 * v
    support = crater + CELLS
    shots0 = artillery_shots(t, pos, unliteral(0))
    shots1 = artillery_shots(t, pos, unliteral(1))
    if t.rules[R_USED_UP] != 0:
        for i in range(v):
            if pos[i] >= 0:
                pos[2 * v + i] += shells_left(t, pos, i)
    occupancy(t, pos, at)
    k = 0
    for side in range(2):
        n = shots0 if side == 0 else shots1
        for _ in range(n):
            cell = roll_cell(1 - side, rolls[k])
            k += 1
            if pos[support + cell] != 0:
                pos[support + cell] = 0
            elif at[cell] >= 0:
                pos[v + at[cell]] -= 1
            elif pos[crater + cell] == 0:
                pos[crater + cell] = 1
    sweep(t, pos)
    if sides_alive(t, pos) < 2:
        finish(t, pos)
        return False
    pos[3 * v + 2 * CELLS + 3] = 1
    return True


@leaf
def movement(
    t: Tables, pos: np.ndarray, cmds: np.ndarray, at: np.ndarray, moved: np.ndarray
) -> bool:
    """Phase 4: south's vehicles in card order, then north's; returns whether both sides
    still have a vehicle (else the round is finished)."""
    vside, vkind, k_pattern = t.vside, t.vkind, t.k_pattern
    cmd_kind, cmd_dist, cmd_dx, cmd_dy = t.cmd_kind, t.cmd_dist, t.cmd_dx, t.cmd_dy
    v = len(vside)
    crater = 3 * v
    support = crater + CELLS
    occupancy(t, pos, at)
    moved[:] = 0
    for side in range(2):
        for i in range(v):
            c = cmds[i]
            if vside[i] != side or pos[i] < 0 or c < 0:
                continue
            dist = cmd_dist[c]
            dx = cmd_dx[c]
            dy = cmd_dy[c]
            start = pos[i]
            end = offset(start, dx * dist, dy * dist)
            if (
                k_pattern[vkind[i], cmd_kind[c]] == 0
                or (dist == 2 and pos[v + i] <= 1)
                or end < 0
                or not own_board(end, side)
            ):
                continue
            if at[end] >= 0:
                continue
            at[start] = -1
            moved[i] = 1
            for step in range(1, dist + 1):
                here = offset(start, dx * step, dy * step)
                pos[i] = here
                if pos[crater + here] != 0:
                    pos[crater + here] = 0
                    pos[v + i] -= 1
                    if pos[v + i] <= 0:
                        break
            if pos[v + i] <= 0:
                destroy(t, pos, i)
                continue
            at[end] = i
            if pos[support + end] != 0:
                pos[support + end] = 0
                repair(t, pos, i)
    if sides_alive(t, pos) < 2:
        finish(t, pos)
        return False
    return True


@leaf
def gunfire(
    t: Tables,
    pos: np.ndarray,
    gun: np.ndarray,
    ngun: np.ndarray,
    at: np.ndarray,
    moved: np.ndarray,
) -> bool:
    """Phase 5 after ``movement`` (``at``/``moved`` as it left them): each side's first
    ``ngun[side]`` tokens; returns whether both sides still have a vehicle (else the round
    is finished)."""
    v = len(t.vside)
    crater = 3 * v
    stationary = t.rules[R_STATIONARY] != 0
    for side in range(2):
        for k in range(ngun[side]):
            f = gun[side, k]
            if own_board(f, 1 - side):
                hit = at[f]
                if hit >= 0 and (moved[hit] != 0 or stationary):
                    pos[v + hit] -= 1
            elif pos[crater + f] != 0:
                pos[crater + f] = 0
    sweep(t, pos)
    if sides_alive(t, pos) < 2:
        finish(t, pos)
        return False
    return True


@leaf
def supply(t: Tables, pos: np.ndarray, rolls: np.ndarray, at: np.ndarray) -> None:
    """Phase 6 with ``rolls`` (``2 × supply_drops``, south's first), then ``finish``."""
    v = len(t.vside)
    crater = 3 * v
    support = crater + CELLS
    drops = t.rules[R_DROPS]
    occupancy(t, pos, at)
    for k in range(2 * drops):
        cell = roll_cell(k // drops, rolls[k])
        there = at[cell]
        if there >= 0:
            repair(t, pos, there)
        elif pos[crater + cell] == 0 and pos[support + cell] == 0:
            pos[support + cell] = 1
    finish(t, pos)


@leaf
def usable_tokens(t: Tables, pos: np.ndarray, ngun: np.ndarray, placed: np.ndarray) -> None:
    """``ngun[side]`` = the tokens of ``placed[side]`` that count (at most the available)."""
    for side in range(2):
        ngun[side] = min(placed[side], gunfire_available(t, pos, side))


@jit
def resolve(
    t: Tables,
    pos: np.ndarray,
    cmds: np.ndarray,
    gun: np.ndarray,
    placed: np.ndarray,
    rolls: np.ndarray,
    at: np.ndarray,
    moved: np.ndarray,
) -> None:
    """Phases 4–6 (``engine.resolve_orders``) with the supply ``rolls``; ``placed[side]``
    tokens of ``gun[side]`` were placed."""
    ngun = np.zeros(2, dtype=np.int64)
    usable_tokens(t, pos, ngun, placed)
    if movement(t, pos, cmds, at, moved) and gunfire(t, pos, gun, ngun, at, moved):
        supply(t, pos, rolls, at)


@leaf
def outcome(t: Tables, pos: np.ndarray) -> int:
    """``state.outcome`` as a code (``ONGOING`` while the game goes on)."""
    vside = t.vside
    v = len(vside)
    south = False
    north = False
    for i in range(v):
        if pos[i] >= 0:
            if vside[i] == 0:
                south = True
            else:
                north = True
    if not south and not north:
        return BOTH_DESTROYED
    if not north:
        return SOUTH_WINS
    if not south:
        return NORTH_WINS
    if pos[3 * v + 2 * CELLS + 2] >= t.rules[R_MAX_ROUNDS] and pos[3 * v + 2 * CELLS + 3] == 0:
        return ROUND_LIMIT
    return ONGOING
