"""The Tank Chess heuristic's choice in numba: ``HeuristicPolicy.ranked(st, turns, rng)[0]``
(the plain ranking of ``agents.heuristic``, limit 1) over the arrays of
``base``, making the draws of the same ``numpy.random.Generator`` in the same
order (on its state, ``rng``: the sample ``integers``, the ``random`` noise, the
blockers' ``random``), summing every
score with the same float operations, ordering candidates by a stable sort and checking
the command tank's safety best first, so that it picks the very turn the policy picks.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.tank_chess.agents.defence import (
    COVER,
    DEFEND,
    HORIZON,
    W_BLOCK,
    W_COVER,
)
from tankmap.analysis.simulation.tank_chess.agents.scoring import CHECK, SAMPLE, VALUE
from tankmap.analysis.simulation.tank_chess.kernel.base import Board, Position, jit, unliteral
from tankmap.analysis.simulation.tank_chess.kernel.escape import (
    escape_routes,
    escape_search,
    escape_turns,
)
from tankmap.analysis.simulation.tank_chess.kernel.memo import (
    escape_recall,
    escape_remember,
    occupancy,
)
from tankmap.analysis.simulation.tank_chess.kernel.moves import hit_armour, legal_turns, pop, push
from tankmap.analysis.simulation.tank_chess.kernel.positions import (
    COVERS,
    DELAY,
    UNKNOWN,
    VERDICT,
    fact,
    find,
    make_key,
    positions_memo,
    recall_threat,
    recall_turns,
    set_fact,
    set_still,
    still,
    store,
)
from tankmap.analysis.simulation.tank_chess.kernel.rng import integers, uniforms
from tankmap.analysis.simulation.tank_chess.kernel.threats import (
    attack_cells,
    covered,
    exposed,
    killers,
    merge_without,
    reach_masks,
)
from tankmap.analysis.simulation.tank_chess.prepared import INF, Prepared
from tankmap.rules.tank_chess.data import COMMAND

EMPTY = -1
BLOCKED = -2


class Facts(NamedTuple):
    """The policy's per-scenario tables (``Prepared``): ``dist[side, s]`` its ``escape``
    (steps to escape over terrain), ``turns[side, s]`` its ``turns`` (-1: never), and
    ``value[kind]`` = ``VALUE``."""

    dist: npt.NDArray[np.int64]
    turns: npt.NDArray[np.int64]
    value: npt.NDArray[np.float64]


def facts_of(prep: Prepared) -> Facts:
    return Facts(
        dist=np.asarray(prep.escape, dtype=np.int64),
        turns=np.asarray(prep.turns, dtype=np.int64),
        value=np.asarray(VALUE, dtype=np.float64),
    )


def escape_memo(b: Board, entries: int = 1 << 14) -> tuple[npt.NDArray[np.int64], ...]:
    """Arrays remembering the escape searches of ``heuristic_choice`` (``entries`` 0: none
    and no position memo): the table, its count, room for a key, then the arrays of
    ``positions.positions_memo``."""
    words = (int(b.flags[1]) + 63) // 64
    i64 = np.int64
    return (
        np.full(entries * (4 + words), -1, i64),
        np.zeros(1, i64),
        np.zeros(3, i64),
        np.zeros(words, i64),
        *positions_memo(b, (1 << 13) if entries else 0),
    )


@jit
def command_tank(b: Board, pos: Position, side: int) -> int:
    """The first live command tank of ``side`` (-1 if none)."""
    for p in b.pieces[side]:
        if p >= 0 and b.kind[p] == COMMAND and pos.alive[p]:
            return int(p)
    return -1


@jit
def _apply(b: Board, pos: Position, t: Any, save: Any) -> None:
    """``GameState.push(t)``; what ``moves.pop`` needs goes to ``save``."""
    p = t[0]
    save[0] = pos.cell[p]
    save[1] = pos.facing[p]
    save[2] = pos.meta[2]
    save[3] = pos.meta[3]
    save[4] = push(b, pos, t[0], t[1], t[2], t[3])


@jit
def _escape_turns(b: Board, pos: Position, p: int, limit: int, bound: Any, memo: Any) -> int:
    """``escape_turns``, remembered in ``memo`` (table, count, key head, occupancy words;
    a table of length 0: not remembered) by the piece's state, speed, side and the
    occupancy of the board."""
    table, used, head, words = memo[0], memo[1], memo[2], memo[3]
    if table.shape[0] == 0:
        return escape_turns(b, pos, p, limit, bound)
    head[0] = pos.cell[p] * 8 + pos.facing[p]
    head[1] = b.speed[p] * 2 + b.side[p]
    head[2] = limit
    occupancy(pos.grid, words)
    found = escape_recall(table, head, words)
    if found == -2:
        found = escape_turns(b, pos, p, limit, bound)
        escape_remember(table, used, head, words, found)
    return found


@jit
def _delay(b: Board, pos: Position, enemy: int, turns: int, t: Any, bound: Any,
           memo: Any) -> int:  # fmt: skip
    """``agents.defence.delay``: turns the move ``t`` delays the enemy's escape."""
    p, c, f = t[0], t[1], t[2]
    grid = pos.grid
    oc, of = pos.cell[p], pos.facing[p]
    grid[oc] = EMPTY
    grid[c] = p
    pos.cell[p] = c
    pos.facing[p] = f
    found = _escape_turns(b, pos, enemy, turns + 1, bound, memo)
    grid[c] = EMPTY
    grid[oc] = p
    pos.cell[p] = oc
    pos.facing[p] = of
    return min((found if found > 0 else turns + 2) - turns, 2)


@jit
def _reach(b: Board, pos: Position, me: int, clt: int, work: Any,
           states: Any) -> tuple[Any, Any, Any]:  # fmt: skip
    """``reach_masks`` of the enemy against ``clt`` in new arrays, and room for
    ``merge_without``."""
    nstates = 8 * b.flags[1]
    reach = np.empty((b.pieces.shape[1], nstates), np.bool_)
    masks = np.empty((3, 3, nstates), np.bool_)
    reach_masks(b, pos, 1 - me, clt, work, states, reach, masks)
    return reach, masks, np.empty((3, 3, nstates), np.bool_)


@jit
def _shoots_dead(b: Board, pos: Position, t: Any) -> bool:
    """A shot that destroys its target (in the current position)."""
    return bool(t[3] >= 0 and b.gun[t[0]] > hit_armour(b, pos, t[1], t[3]))


@jit
def heuristic_choice(b: Board, h: Facts, pos: Position, rng: Any, banned: int, work: Any,
                     states: Any, buf: Any, memo: Any) -> int:  # fmt: skip
    """The row of ``buf`` (the allowed legal turns, listed by this call) holding the turn
    ``HeuristicPolicy`` chooses for the side to move (``rng``: a ``rng`` state;
    ``memo``: see ``escape_memo``)."""
    pm = memo[4:]
    h_key = make_key(b, pos, banned, pm[3])
    entry = find(pm, h_key)
    if entry >= 0:
        n = recall_turns(pm, entry, buf)
    else:
        n = legal_turns(b, pos, banned, work, states, buf)
    me = pos.meta[0]
    size = b.flags[1]
    kind, cell, facing = b.kind, pos.cell, pos.facing
    clt = command_tank(b, pos, me)
    enemy = command_tank(b, pos, 1 - me)
    shots = np.empty(n, np.int64)
    n_shots = 0
    clt_turns = np.empty(n, np.int64)
    n_clt = 0
    for t in range(n):
        if buf[t, 3] >= 0:
            shots[n_shots] = t
            n_shots += 1
        elif buf[t, 0] == clt:
            clt_turns[n_clt] = t
            n_clt += 1
    for j in range(n_clt):  # immediate wins: escape ...
        if buf[clt_turns[j], 1] < 0:
            return int(clt_turns[j])
    for j in range(n_shots):  # ... or destroy the enemy command tank
        t = shots[j]
        if kind[buf[t, 3]] == COMMAND and _shoots_dead(b, pos, buf[t]):
            return int(t)
    att = np.empty((size, b.pieces.shape[1]), np.int64)
    n_att = np.empty(size, np.int64)
    attack_cells(b, pos, 1 - me, att, n_att)
    picks = integers(rng, n, min(n, SAMPLE))
    picked = np.zeros(n, np.bool_)
    others = np.empty(n, np.int64)
    n_others = 0
    for i in range(picks.shape[0]):
        t = picks[i]
        if picked[t]:
            continue
        picked[t] = True
        if buf[t, 3] < 0 and buf[t, 0] != clt:
            others[n_others] = t
            n_others += 1
    noise = uniforms(rng, n_shots + n_clt + n_others + 1)
    # the threat of the enemy command tank (agents.defence.find_threat)
    threat = False
    e_turns = 0
    nstates = 8 * size
    level = np.empty(nstates, np.int64)
    nxt = np.zeros(nstates, np.bool_)
    route = np.zeros(size, np.bool_)
    n_next = 0
    if entry >= 0:
        threat, e_turns, n_next = recall_threat(pm, entry, route, nxt)
    elif enemy >= 0:
        lo = h.turns[1 - me, cell[enemy] * 8 + facing[enemy]]
        if 0 <= lo <= HORIZON:
            e_turns = escape_search(b, pos, enemy, unliteral(HORIZON), level, h.turns[1 - me])
            if e_turns > 0:
                threat = True
                if clt >= 0:
                    lm = h.turns[me, cell[clt] * 8 + facing[clt]]
                    if (
                        0 <= lm <= e_turns
                        and _escape_turns(b, pos, clt, e_turns, h.turns[me], memo) > 0
                    ):
                        threat = False  # we escape first
                if threat:
                    n_next = escape_routes(b, pos, enemy, e_turns, level, nxt, route)
    if entry < 0 and pm[0].shape[0] > 0:
        entry = store(pm, h_key, buf, n, threat, e_turns, route, nxt, n_next)
    bonus = np.zeros(n, np.float64)
    any_bonus = False
    blockers = np.empty(n, np.int64)
    n_block = 0
    bnoise = np.empty(0, np.float64)
    save = np.empty(5, np.int64)
    if threat:
        for t in range(n):
            if buf[t, 3] < 0 and buf[t, 0] != clt and buf[t, 1] >= 0 and route[buf[t, 1]]:
                blockers[n_block] = t
                n_block += 1
        if n_block:
            kept = 0
            for j in range(n_block):
                if not picked[blockers[j]]:  # (a picked blocker is a sampled other move)
                    blockers[kept] = blockers[j]
                    kept += 1
            n_block = kept
            bnoise = uniforms(rng, unliteral(n_block))
            order = np.argsort(bnoise, kind="mergesort")
            for j in order[:DEFEND]:
                t = blockers[j]
                d = fact(pm, entry, t, unliteral(DELAY))
                if d == UNKNOWN:
                    d = _delay(b, pos, enemy, e_turns, buf[t], h.turns[1 - me], memo)
                    set_fact(pm, entry, t, unliteral(DELAY), d)
                bonus[t] = W_BLOCK * d
                any_bonus = True
        if n_next:  # cover (HeuristicPolicy._cover)
            lines = np.zeros(size, np.bool_)
            for x in range(size):
                on = False
                for g in range(8):
                    on = on or nxt[x * 8 + g]
                if on:
                    lines[x] = True
                    for d in range(8):
                        i = d * size + x
                        if b.ray_first[i] >= 0:
                            lines[b.ray_first[i]] = True
                        for k in range(b.ray_len[i]):
                            lines[b.ray_rest[i, k]] = True
            left = COVER
            for j in range(n_shots + n_others + n_block):
                if j < n_shots:
                    t = shots[j]
                elif j < n_shots + n_others:
                    t = others[j - n_shots]
                else:
                    t = blockers[j - n_shots - n_others]
                target = buf[t, 3]
                if target >= 0 and (kind[target] == COMMAND or not _shoots_dead(b, pos, buf[t])):
                    continue
                if not lines[buf[t, 1]]:
                    continue
                hit = fact(pm, entry, t, unliteral(COVERS))
                if hit == UNKNOWN:
                    _apply(b, pos, buf[t], save)
                    hit = covered(b, pos, buf[t, 0], enemy, nxt)
                    pop(pos, buf[t], save)
                    set_fact(pm, entry, t, unliteral(COVERS), hit)
                if hit:
                    bonus[t] = bonus[t] + W_COVER * (hit / n_next)
                    any_bonus = True
                left -= 1
                if not left:
                    break
    # candidates in order: shots, command-tank moves, sampled other moves, blockers
    m = n_shots + n_clt + n_others + n_block
    vals = np.empty(m, np.float64)
    cand = np.empty(m, np.int64)
    n_c = 0
    esc = h.dist[me]
    value = h.value
    i = 0
    for j in range(n_shots):
        t = shots[j]
        p, c, f, target = buf[t, 0], buf[t, 1], buf[t, 2], buf[t, 3]
        i += 1
        if not _shoots_dead(b, pos, buf[t]):
            continue
        score = value[kind[target]]
        if p == clt:
            old = esc[cell[p] * 8 + facing[p]]
            new = esc[c * 8 + f]
            score += 0.3 * ((old if old < INF else 99) - (new if new < INF else 99))
        else:
            row_old, row_new = b.row[cell[p]], b.row[c]
            score += 0.05 * ((row_new - row_old) if me == 0 else (row_old - row_new))
            if killers(b, att, n_att, p, c, f):
                score -= 0.9 * value[kind[p]]
            if any_bonus:
                score += bonus[t]
        vals[n_c] = score + 0.3 * noise[i - 1]
        cand[n_c] = t
        n_c += 1
    if n_clt:
        old = esc[cell[clt] * 8 + facing[clt]]
        if old >= INF:
            old = 99
        for j in range(n_clt):
            t = clt_turns[j]
            new = esc[buf[t, 1] * 8 + buf[t, 2]]
            vals[n_c] = 0.3 * (old - (new if new < INF else 99)) + 0.3 * noise[i]
            cand[n_c] = t
            n_c += 1
            i += 1
    sign = 1 if me == 0 else -1
    for j in range(n_others + n_block):
        t = others[j] if j < n_others else blockers[j - n_others]
        p, c, f = buf[t, 0], buf[t, 1], buf[t, 2]
        score = 0.05 * (sign * (b.row[c] - b.row[cell[p]]))
        if n_att[c] and killers(b, att, n_att, p, c, f):
            score -= 0.9 * value[kind[p]]
        if j < n_others:
            if any_bonus:
                score += bonus[t]
            vals[n_c] = score + 0.3 * noise[i]
            i += 1
        else:
            vals[n_c] = score + bonus[t] + 0.3 * bnoise[j - n_others]
        cand[n_c] = t
        n_c += 1
    if n_c == 0:
        return int(noise[-1] * n)
    order = np.argsort(-vals[:n_c], kind="mergesort")
    if clt < 0:
        return int(cand[order[0]])
    # command-tank safety, best first (stop once the next score cannot beat the best)
    # (the enemy's reach, found only when a verdict is not remembered)
    reach = np.empty((0, 0), np.bool_)
    masks = np.empty((0, 0, 0), np.bool_)
    skipped = np.empty((0, 0, 0), np.bool_)
    on_lines = np.zeros(size, np.bool_)
    cc = cell[clt]
    for d in range(8):
        i = d * size + cc
        if b.ray_first[i] >= 0:
            on_lines[b.ray_first[i]] = True
        for k in range(b.ray_len[i]):
            on_lines[b.ray_rest[i, k]] = True
    exposure = still(pm, entry)
    best = 0.0
    found = -1
    for k in range(n_c):
        j = order[k]
        score = vals[j]
        if found >= 0 and (k >= CHECK or score <= best):
            break
        t = cand[j]
        p, c, target = buf[t, 0], buf[t, 1], buf[t, 3]
        old = cell[p]
        if p != clt and target < 0 and (c == old or not (on_lines[old] or on_lines[c])):
            if exposure < 0:
                if reach.shape[0] == 0:
                    reach, masks, skipped = _reach(b, pos, me, clt, work, states)
                exposure = 1 if exposed(b, pos, clt, masks) else 0
                set_still(pm, entry, exposure)
            hit = exposure == 1
        else:
            v = fact(pm, entry, t, unliteral(VERDICT))
            if v == UNKNOWN:
                if reach.shape[0] == 0:
                    reach, masks, skipped = _reach(b, pos, me, clt, work, states)
                _apply(b, pos, buf[t], save)
                if target >= 0 and not pos.alive[target]:
                    merge_without(b, 1 - me, clt, reach, target, skipped)
                    v = 1 if exposed(b, pos, clt, skipped) else 0
                else:
                    v = 1 if exposed(b, pos, clt, masks) else 0
                pop(pos, buf[t], save)
                set_fact(pm, entry, t, unliteral(VERDICT), v)
            hit = v == 1
        if hit:
            score -= 45.0
        if found < 0 or score > best:
            best = score
            found = t
    return int(found)
