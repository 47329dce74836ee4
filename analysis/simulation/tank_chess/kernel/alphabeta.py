"""The ``alphabeta`` agent's game-tree search in numba: iterative-deepening negamax
alpha-beta with a transposition table, on the kernel's move generator (``moves``) and
its own evaluation (``evaluation``). The plain-Python twin (``agents/alphabeta_ref.py``)
makes the very same choices; ``agents/alphabeta.py`` explains the algorithm.

One search: ``search_root(b, pos, w, budget, banned, rank)`` for the side to move
(``banned``: the kinds it never moves; ``rank``: a random order of its turns, which
decides between turns of equal priority and score). Its work arrays (``SearchWork``,
``search_work``) are made once per board and thread; nothing in them outlives a search
but the end-state memo of the move generator, which never changes an answer.

A node below the root (``_enter``): a position already decided (terminal, a win now for
the side to move, a table cut-off) is not searched; else it tries the transposition
table's turn and its ply's two killer turns first, when legal (``_stage``), and lists
and orders the rest of its legal turns only when those did not cut it off
(``_generate``). numba cannot cache a recursive function, so ``negamax`` runs on an
explicit stack of frames.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from tankmap.analysis.simulation.tank_chess.kernel import base as kb
from tankmap.analysis.simulation.tank_chess.kernel.base import Board, Position, jit, leaf, unliteral
from tankmap.analysis.simulation.tank_chess.kernel.evaluation import (
    STEP_CAP,
    WIN,
    WIN_BOUND,
    command_of,
    escape_steps,
    eval_scratch,
    evaluate_within,
    wins_now,
)
from tankmap.analysis.simulation.tank_chess.kernel.moves import legal_turns, outcome, pop, turn_rows
from tankmap.analysis.simulation.tank_chess.kernel.search_moves import (
    decode,
    legal_move,
    make,
    order_keys,
    pick,
    quiet,
)
from tankmap.analysis.simulation.tank_chess.kernel.transposition import (
    EXACT,
    LOWER,
    UPPER,
    Keys,
    Table,
    encode,
    new_table,
    position_hash,
    probe,
    store,
    zobrist_keys,
)

MAX_DEPTH = 8
"""Deepest iteration (plies below the root)."""
INF = WIN + 1
NODES, BUDGET, ABORT, STAMP, TOP, SIDE, BANNED, DEPTH = range(8)
"""``SearchWork.counters``: nodes visited, the budget, the abort flag, the search's
stamp, the top of the turn stack, the searching side and its banned kinds, the deepest
iteration completed."""
(F_DEPTH, F_ALPHA, F_BETA, F_ALPHA0, F_BEST, F_MOVE, F_N, F_K, F_TOP, F_HASH, F_SAFE,
 F_STAGED, F_REST) = range(13)  # fmt: skip
"""A frame of ``negamax``'s stack, per ply: depth, window (and alpha on entry), best
value and turn, turns known and tried, where its turns start on the stack, its hash,
whether the table may hold it, how many turns were staged, whether the rest is listed."""


class SearchWork(NamedTuple):
    """Work arrays of ``search_root`` (``search_work``): the move generator's scratch
    (``work``, ``states``), a stack of turn lists (``stack``, a list per ply below the
    root) with their ordering keys and orders, the evaluation's scratch (``ev``), the
    steps to escape over the terrain (``lower``), banned kinds per side, piece values,
    Zobrist keys, the transposition table, killer turns per ply, history scores per
    piece and state, what ``make`` saves per ply, ``negamax``'s frames, the
    ``counters``, the root turns' ``scores``, and room for one decoded turn."""

    work: tuple[kb.I64, ...]
    states: kb.I64
    stack: kb.I64
    keys: kb.I64
    order: kb.I64
    ev: tuple[kb.I64, ...]
    lower: kb.I64
    banned: kb.I64
    values: kb.I64
    zobrist: Keys
    tt: Table
    killers: kb.I64
    history: kb.I64
    save: kb.I64
    frames: kb.I64
    counters: kb.I64
    scores: kb.I64
    turn: kb.I64


def search_work(b: Board, values: kb.I64, lower: kb.I64) -> SearchWork:
    """Fresh work arrays for board ``b`` (``values``: ``evaluation.piece_values``;
    ``lower``: ``Prepared.escape`` as an array)."""
    size = int(b.flags[1])
    pieces = int(b.kind.shape[0])
    rows = turn_rows(b) * (MAX_DEPTH + 1)
    i64 = np.int64
    return SearchWork(
        work=kb.scratch(b, memo=True),
        states=np.empty(8 * size, i64),
        stack=np.empty((rows, 4), i64),
        keys=np.empty(rows, i64),
        order=np.empty(rows, i64),
        ev=eval_scratch(size),
        lower=lower,
        banned=np.zeros(2, i64),
        values=values,
        zobrist=zobrist_keys(pieces, size),
        tt=new_table(),
        killers=np.zeros((MAX_DEPTH + 2, 2), i64),
        history=np.zeros((pieces, 8 * size), i64),
        save=np.zeros((MAX_DEPTH + 2, 5), i64),
        frames=np.zeros((MAX_DEPTH + 2, 13), i64),
        counters=np.zeros(8, i64),
        scores=np.zeros(turn_rows(b), i64),
        turn=np.zeros(4, i64),
    )


@leaf
def _to_table(score: int, ply: int) -> int:
    """A score as the table keeps it: wins and losses counted from the node, not the root."""
    if score >= WIN_BOUND:
        return score + ply
    if score <= -WIN_BOUND:
        return score - ply
    return score


@leaf
def _from_table(score: int, ply: int) -> int:
    if score >= WIN_BOUND:
        return score - ply
    if score <= -WIN_BOUND:
        return score + ply
    return score


@leaf
def _stage(b: Board, pos: Position, w: SearchWork, top: int, tt_move: int, ply: int,
           banned: int) -> int:  # fmt: skip
    """Put the transposition table's turn and the ply's killers, those legal here and
    each once, on the stack from ``top``; their count."""
    n = 0
    for j in range(3):
        e = tt_move if j == 0 else w.killers[ply, j - 1]
        if e == 0:
            continue
        seen = False
        for m in range(n):
            t = w.stack[top + m]
            if encode(t[0], t[1], t[2], t[3]) == e:
                seen = True
        if seen:
            continue
        decode(e, w.turn)
        if legal_move(b, pos, w.turn, banned, w.work, w.states):
            for x in range(4):
                w.stack[top + n, x] = w.turn[x]
            n += 1
    return n


@leaf
def _generate(b: Board, pos: Position, w: SearchWork, ply: int) -> None:
    """List the legal turns of frame ``ply`` not staged, after the staged ones, and
    prepare their order (``search_moves.order_keys``)."""
    fr = w.frames[ply]
    top = fr[F_TOP]
    staged = fr[F_STAGED]
    at = top + staged
    me = pos.meta[0]
    banned = w.counters[BANNED] if me == w.counters[SIDE] else 0
    moves = w.stack[at:]
    n = legal_turns(b, pos, banned, w.work, w.states, moves)
    kept = 0
    for i in range(n):
        t = moves[i]
        dup = False
        for m in range(staged):
            u = w.stack[top + m]
            if t[0] == u[0] and t[1] == u[1] and t[2] == u[2] and t[3] == u[3]:
                dup = True
        if not dup:
            if kept != i:
                for x in range(4):
                    moves[kept, x] = t[x]
            kept += 1
    w.counters[TOP] = at + kept
    order_keys(
        b, pos, moves, unliteral(kept), 0, w.killers[ply], w.history, w.values, w.scores[:0],
        w.keys[at:], w.order[at:],
    )  # fmt: skip
    fr[F_N] = staged + kept
    fr[F_REST] = 1


@leaf
def _enter(b: Board, pos: Position, w: SearchWork, ply: int) -> tuple[bool, int]:
    """Start the node of frame ``ply`` (its depth, window and hash set): ``(True, value)``
    when it is decided at once — budget spent (value 0, ``counters[ABORT]`` set),
    terminal, a leaf (the evaluation, or a bound of it outside the window), a win now
    for the side to move, or a transposition table cut-off — else ``(False, 0)`` with
    its staged turns on the stack and the frame ready to try them."""
    cnt = w.counters
    fr = w.frames[ply]
    cnt[NODES] += 1
    if cnt[NODES] > cnt[BUDGET]:
        cnt[ABORT] = 1
        return True, 0
    if outcome(b, pos) >= 0:
        return True, -(WIN - ply) if pos.meta[2] >= 0 else 0
    depth = fr[F_DEPTH]
    if depth <= 0:
        value = evaluate_within(
            b, pos, ply, fr[F_ALPHA], fr[F_BETA], w.values, w.lower, w.banned, w.ev, w.work,
            w.states,
        )  # fmt: skip
        return True, value
    me = pos.meta[0]
    banned = cnt[BANNED] if me == cnt[SIDE] else 0
    mine = command_of(b, pos, me)
    steps = STEP_CAP + 1 if mine < 0 else escape_steps(b, pos, mine, STEP_CAP, w.lower[me], w.ev)
    if wins_now(b, pos, me, steps, banned, w.ev, w.work, w.states):
        return True, WIN - ply - 1
    limit = b.flags[4]
    safe = limit <= 0 or pos.meta[1] + depth < limit
    h = fr[F_HASH]
    tt_move = 0
    slot = probe(w.tt, h, cnt[STAMP])
    if slot >= 0:
        tt_move = w.tt.move[slot]
        info = w.tt.info[slot]
        if safe and (info >> 2) & 63 >= depth:
            s = _from_table(w.tt.score[slot], ply)
            bound = info & 3
            if (
                bound == EXACT
                or (bound == LOWER and s >= fr[F_BETA])
                or (bound == UPPER and s <= fr[F_ALPHA])
            ):
                return True, s
    top = cnt[TOP]
    staged = _stage(b, pos, w, top, tt_move, ply, banned)
    cnt[TOP] = top + staged
    fr[F_ALPHA0] = fr[F_ALPHA]
    fr[F_BEST] = -INF
    fr[F_MOVE] = 0
    fr[F_N] = staged
    fr[F_K] = 0
    fr[F_TOP] = top
    fr[F_SAFE] = safe
    fr[F_STAGED] = staged
    fr[F_REST] = 0
    return False, 0


@leaf
def _finish(w: SearchWork, ply: int) -> int:
    """Close the node of frame ``ply`` (all its turns tried or a cut-off): free its turn
    list, remember it in the table; its value."""
    fr = w.frames[ply]
    w.counters[TOP] = fr[F_TOP]
    best = fr[F_BEST]
    if fr[F_SAFE]:
        bound = UPPER if best <= fr[F_ALPHA0] else LOWER if best >= fr[F_BETA] else EXACT
        store(
            w.tt, fr[F_HASH], w.counters[STAMP], fr[F_DEPTH], bound, _to_table(best, ply),
            fr[F_MOVE],
        )  # fmt: skip
    return int(best)


@leaf
def _current(w: SearchWork, ply: int) -> int:
    """The row of ``w.stack`` holding the turn frame ``ply`` is trying (its ``F_K``-th)."""
    fr = w.frames[ply]
    top = fr[F_TOP]
    k = fr[F_K]
    staged = fr[F_STAGED]
    if k < staged:
        return int(top + k)
    at = top + staged
    return int(at + w.order[at + k - staged])


@leaf
def negamax(b: Board, pos: Position, w: SearchWork, depth: int, alpha: int, beta: int,
            h: int) -> int:  # fmt: skip
    """The value, for its side to move, of ``pos`` one ply below the root (``h`` its
    hash), searched ``depth`` plies: fail-soft alpha-beta over an explicit stack of
    frames. Counts a node per position entered and aborts (``counters[ABORT]``; the
    value is then meaningless) once the budget is spent."""
    cnt = w.counters
    frames = w.frames
    ply = unliteral(1)  # one compiled _enter, _generate, ... (not one more for ply 1)
    fr = frames[1]
    fr[F_DEPTH] = depth
    fr[F_ALPHA] = alpha
    fr[F_BETA] = beta
    fr[F_HASH] = h
    decided, value = _enter(b, pos, w, ply)
    while True:
        if not decided:  # try the next turn of frame ``ply``, or close it
            fr = frames[ply]
            k = fr[F_K]
            if k == fr[F_N] and not fr[F_REST]:
                _generate(b, pos, w, ply)
            if k == fr[F_N]:
                value = _finish(w, ply)
                decided = True
                continue
            staged = fr[F_STAGED]
            if k >= staged:
                at = fr[F_TOP] + staged
                pick(w.keys[at:], w.order[at:], k - staged, fr[F_N] - staged)
            t = w.stack[_current(w, ply)]
            child = frames[ply + 1]
            child[F_DEPTH] = fr[F_DEPTH] - 1
            child[F_ALPHA] = -fr[F_BETA]
            child[F_BETA] = -fr[F_ALPHA]
            child[F_HASH] = make(b, pos, w.zobrist, fr[F_HASH], t, w.save[ply])
            ply += 1
            decided, value = _enter(b, pos, w, ply)
            continue
        # frame ``ply`` is decided with ``value``: hand it to its parent
        if ply == 1:
            return value
        ply -= 1
        fr = frames[ply]
        t = w.stack[_current(w, ply)]
        pop(pos, t, w.save[ply])
        if cnt[ABORT]:
            cnt[TOP] = fr[F_TOP]
            value = 0
            continue
        v = -value
        if v > fr[F_BEST]:
            fr[F_BEST] = v
            fr[F_MOVE] = encode(t[0], t[1], t[2], t[3])
            if v > fr[F_ALPHA]:
                fr[F_ALPHA] = v
                if v >= fr[F_BETA]:
                    if quiet(b, pos, t):
                        move = fr[F_MOVE]
                        if w.killers[ply, 0] != move:
                            w.killers[ply, 1] = w.killers[ply, 0]
                            w.killers[ply, 0] = move
                        w.history[t[0], t[1] * 8 + t[2]] += fr[F_DEPTH] * fr[F_DEPTH]
                    value = _finish(w, ply)
                    continue
        fr[F_K] += 1
        decided = False


@jit
def root_turns(b: Board, pos: Position, w: SearchWork, banned: int) -> int:
    """List the side to move's legal turns (allowed by ``banned``) in ``w.stack``, in
    ``GameState.legal_turns`` order; their number."""
    return legal_turns(b, pos, banned, w.work, w.states, w.stack)


@jit
def search_root(b: Board, pos: Position, w: SearchWork, budget: int, banned: int,
                rank: Any) -> int:  # fmt: skip
    """The index (in ``root_turns`` order, the turns left in ``w.stack``) of the side to
    move's best turn found with at most ``budget`` nodes: iterative deepening from depth
    1; each iteration tries the turns best first by the previous one's scores
    (``w.scores``; the first iteration by priority, ``rank`` ordering turns of equal
    priority) with the window (best so far, ∞), so the first of equally good turns
    stays; an iteration the budget cuts short counts for the turns it finished. -1 when
    there is no turn."""
    cnt = w.counters
    scores = w.scores
    cnt[NODES] = 0
    cnt[BUDGET] = budget
    cnt[ABORT] = 0
    cnt[STAMP] += 1
    cnt[SIDE] = pos.meta[0]
    cnt[BANNED] = banned
    cnt[DEPTH] = 0
    w.banned[:] = 0
    w.banned[pos.meta[0]] = banned
    w.killers[:] = 0
    w.history[:] = 0
    moves = w.stack
    n = legal_turns(b, pos, banned, w.work, w.states, moves)
    cnt[TOP] = n
    if n <= 1:
        return n - 1
    h = position_hash(b, pos, w.zobrist)
    order = np.empty(n, np.int64)
    order_keys(b, pos, moves, n, 0, w.killers[0], w.history, w.values, rank, w.keys, order)
    order = order[np.argsort(w.keys[:n])]
    save = w.save[0]
    best = order[0]
    for depth in range(1, MAX_DEPTH + 1):
        alpha = -INF
        found = -1
        done = 0
        for k in range(n):
            i = order[k]
            h2 = make(b, pos, w.zobrist, h, moves[i], save)
            v = -negamax(b, pos, w, depth - 1, -INF, -alpha, h2)
            pop(pos, moves[i], save)
            if cnt[ABORT]:
                break
            scores[i] = v
            done += 1
            if v > alpha:
                alpha = v
                found = i
        if found >= 0:
            best = found
        # the next iteration: this one's turns by score (stable), then the others
        for k in range(n):
            w.keys[k] = -scores[order[k]] if k < done else INF + k
        order = order[np.argsort(w.keys[:n], kind="mergesort")]
        if cnt[ABORT]:
            break
        cnt[DEPTH] = depth
        if alpha >= WIN_BOUND or alpha <= -WIN_BOUND:
            break
    return int(best)
