"""How the Tank Chess heuristic judges turns: the pieces' values, who could destroy what
from where (``attack_map``, ``killers``, ``reachable``, ``exposed``) and the score of a
shot (``shot_score``). The plain functions here are the reference that the fast paths
(``agents/threats.py``, ``agents/heuristic_memo.py``) and the compiled kernel's heuristic
(``kernel/heuristic.py``, which compiles these constants in) must agree with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tankmap.analysis.simulation.tank_chess.prepared import INF
from tankmap.rules.tank_chess.data import FIRE_MORTAR, FIRE_TURRET
from tankmap.rules.tank_chess.movegen import end_states
from tankmap.rules.tank_chess.state import BLOCKED, EMPTY, GameState, Turn

VALUE = (50.0, 3.0, 5.0, 8.0, 6.0, 6.0)  # by kind code: command light medium heavy TD HM
SAMPLE = 40  # moves of other pieces the heuristic samples per turn
CHECK = 40  # at most this many candidates get the exact command-tank safety check


def attack_map(st: GameState, side: int) -> dict[int, list[tuple[int, int]]]:
    """Cells the pieces of ``side`` could shoot from where they stand now: cell → list of
    ``(piece, direction from that cell back to the piece)``."""
    t = st.tables
    size = st.size
    grid = st.grid
    out: dict[int, list[tuple[int, int]]] = {}
    for e in st.pieces_of[side]:
        c = st.cell[e]
        if not st.alive[e] or c < 0:
            continue
        f = st.facing[e]
        if st.fire[e] == FIRE_MORTAR:
            for x in t.mortar[f * size + c]:
                out.setdefault(x, []).append((e, (f + 4) & 7))
            continue
        dirs = (((f + 7) & 7), f, ((f + 1) & 7)) if st.fire[e] == FIRE_TURRET else (f,)
        for d in dirs:
            i = d * size + c
            a = t.ray_first[i]
            if a < 0 or grid[a] != EMPTY:
                continue
            back = (d + 4) & 7
            for x in t.ray_rest[i]:
                v = grid[x]
                if v == BLOCKED:
                    break
                out.setdefault(x, []).append((e, back))
                if v != EMPTY:
                    break
    return out


def killers(
    st: GameState,
    attacks: Mapping[int, Sequence[tuple[int, int]]],
    p: int,
    cell: int,
    facing: int,
) -> list[int]:
    """Enemy pieces (from ``attacks``) that would destroy piece ``p`` on ``cell``/``facing``."""
    found = attacks.get(cell)
    if not found:
        return []
    front, side_armour, rear = st.armour[p]
    out = []
    for e, d in found:
        armour = front if d == facing else rear if d == (facing + 4) & 7 else side_armour
        if st.gun[e] > armour:
            out.append(e)
    return out


def shot_score(
    st: GameState,
    attacks: Mapping[int, Sequence[tuple[int, int]]],
    esc: Sequence[int],
    clt: int,
    t: Turn,
) -> float | None:
    """The heuristic's score of shot ``t`` of the side to move before bonus and noise: the
    target's value, plus the command tank ``clt``'s progress towards its escape (``esc``,
    turns to escape per state) or another piece's advance less its value if an enemy could
    destroy it there (``attacks``: ``attack_map`` of the enemy); ``None`` if the shot
    cannot destroy its target. The one formula of the plain and the remembering ranking."""
    p, c, f, target = t
    if st.gun[p] <= st.hit_armour(c, target):
        return None
    kind, cell = st.kind, st.cell
    score: float = VALUE[kind[target]]
    if p == clt:
        old = esc[cell[p] * 8 + st.facing[p]]
        new = esc[c * 8 + f]
        score += 0.3 * ((old if old < INF else 99) - (new if new < INF else 99))
    else:
        cols = st.columns
        row_old, row_new = cell[p] // cols, c // cols
        score += 0.05 * ((row_new - row_old) if st.to_move == 0 else (row_old - row_new))
        if killers(st, attacks, p, c, f):
            score -= 0.9 * VALUE[kind[p]]
    return score


def reachable(st: GameState, side: int) -> dict[int, list[int]]:
    """State id ``cell * 8 + facing`` → the pieces of ``side`` that can end a move there
    (or stand there now), in the current position."""
    out: dict[int, list[int]] = {}
    grid = st.grid
    for e in st.pieces_of[side]:
        c = st.cell[e]
        if not st.alive[e] or c < 0:
            continue
        out.setdefault(c * 8 + st.facing[e], []).append(e)
        grid[c] = EMPTY
        try:
            states = end_states(st, e, c, st.facing[e])[0]
        finally:
            grid[c] = e
        for s in states:
            if s in out:
                out[s].append(e)
            else:
                out[s] = [e]
    return out


def exposed(st: GameState, reach: dict[int, list[int]], p: int, skip: int = -1) -> bool:
    """Could an enemy piece move and then destroy piece ``p`` where it stands (docs/rules.md §2.3:
    ray clear, not adjacent, gun over the armour side; mortar 3-5 ahead over anything)?
    ``reach`` comes from ``reachable`` for the enemy; piece ``skip`` is ignored (about to
    be destroyed)."""
    t = st.tables
    size = st.size
    grid = st.grid
    c0 = st.cell[p]
    f0 = st.facing[p]
    front, side_armour, rear = st.armour[p]
    gun, fire = st.gun, st.fire
    lo_m = 3
    for d in range(8):
        # armour side hit from direction d (direction from p towards the shooter)
        armour = front if d == f0 else rear if d == (f0 + 4) & 7 else side_armour
        back = (d + 4) & 7  # the shooter must fire in direction ``back``
        i = d * size + c0
        a = t.ray_first[i]
        if a < 0:
            continue
        adjacent_empty = grid[a] == EMPTY
        clear = adjacent_empty
        for k, x in enumerate(t.ray_rest[i], 2):
            for sf in ((back + 1) & 7, back, (back + 7) & 7):
                for e in reach.get(x * 8 + sf, ()):
                    if e == skip or gun[e] <= armour:
                        continue
                    mode = fire[e]
                    if mode == FIRE_MORTAR:
                        if sf == back and lo_m <= k <= 5:
                            return True
                    elif clear and (mode == FIRE_TURRET or sf == back):
                        return True
            v = grid[x]
            if v != EMPTY and v != p:
                clear = False
            if not clear and k >= 5:
                break
    return False
