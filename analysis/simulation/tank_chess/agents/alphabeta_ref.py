"""The plain-Python reference of the ``alphabeta`` agent: the search of
``kernel/alphabeta.py`` and the evaluation of ``kernel/evaluation.py`` over
``rules.tank_chess.state.GameState``, written for clarity, not speed.

The same turns (``GameState.legal_turns``), the same order of trying them, the same node
count, transposition table (same keys, slots and replacement) and scores, so it makes the
very same choice as the compiled search for any budget. It differs in how it finds things
out, which is the point of a reference: the wins now are read off the full list of legal
turns, the steps to escape come from a plain breadth-first search, and the hash is
recomputed at every node.
"""

from __future__ import annotations

from collections.abc import Sequence

from tankmap.analysis.simulation.tank_chess.agents.turns import allowed
from tankmap.analysis.simulation.tank_chess.kernel.alphabeta import MAX_DEPTH
from tankmap.analysis.simulation.tank_chess.kernel.evaluation import (
    MATERIAL,
    RACE,
    STEP,
    STEP_CAP,
    THREAT,
    UNBOUNDED,
    URGENT,
    WIN,
    WIN_BOUND,
    piece_values,
)
from tankmap.analysis.simulation.tank_chess.kernel.search_moves import (
    DESTROYS,
    HISTORY_CAP,
    KILLER_1,
    KILLER_2,
    RANK_BITS,
    TT_FIRST,
    WINNING,
)
from tankmap.analysis.simulation.tank_chess.kernel.transposition import (
    EXACT,
    LOWER,
    TT_SIZE,
    UPPER,
    zobrist_keys,
)
from tankmap.analysis.simulation.tank_chess.prepared import Prepared
from tankmap.rules.tank_chess.data import COMMAND
from tankmap.rules.tank_chess.state import EMPTY, ESCAPE, GameState, Turn

INF = WIN + 1
_Entry = tuple[int, int, int, int, int, Turn | None]
"""A table slot: stamp, hash, depth, bound, score, best turn."""


class _Abort(Exception):
    """The node budget is spent."""


def command_of(st: GameState, side: int) -> int:
    for p in st.pieces_of[side]:
        if st.kind[p] == COMMAND and st.alive[p] and st.cell[p] >= 0:
            return p
    return -1


def escape_steps(st: GameState, p: int, cap: int) -> int:
    """``kernel.evaluation.escape_steps``, by breadth-first search."""
    t = st.tables
    side = st.side[p]
    esc = t.escape[side]
    c0 = st.cell[p]
    s0 = c0 * 8 + st.facing[p]
    if esc[s0]:
        return 1

    def free(c: int) -> bool:
        return st.grid[c] == EMPTY or c == c0

    seen = {s0}
    level = [s0]
    for d in range(1, cap + 1):
        nxt = []
        for s in level:
            base, f = s & ~7, s & 7
            steps = [base | ((f + 7) & 7), base | ((f + 1) & 7)]
            x = t.fwd[s]
            if x >= 0 and free(x >> 3):
                sa = t.side_a[s]
                if not (st.strict_corners and sa >= 0 and not free(sa) and not free(t.side_b[s])):
                    steps.append(x)
            for x in steps:
                if x in seen:
                    continue
                seen.add(x)
                if esc[x]:
                    return d + 1 if d + 1 <= cap else cap + 1
                nxt.append(x)
        level = nxt
    return cap + 1


def winning(st: GameState, turn: Turn) -> bool:
    """``turn`` escapes or destroys the enemy command tank."""
    p, c, _f, target = turn
    if c == ESCAPE:
        return True
    return target >= 0 and st.kind[target] == COMMAND and st.gun[p] > st.hit_armour(c, target)


def wins_now(st: GameState, side: int, banned: frozenset[int]) -> bool:
    """Side ``side`` (to move or not) has an allowed legal turn that wins."""
    flip = st.to_move != side
    if flip:
        st.to_move ^= 1
    try:
        return any(winning(st, t) for t in allowed(st, st.legal_turns(), banned))
    finally:
        if flip:
            st.to_move ^= 1


class ReferenceSearch:
    """``kernel.alphabeta.search_root`` in plain Python for the positions of one
    scenario (``prep``: its ``Prepared``)."""

    def __init__(self, prep: Prepared, start: GameState) -> None:
        self.values = [int(v) for v in piece_values(start.gun, start.armour, start.kind)]
        keys = zobrist_keys(len(start.kind), start.size)
        self.live = keys.live.tolist()
        self.wreck = keys.wreck.tolist()
        self.side_key = int(keys.side[0])
        self.prep = prep
        self.stamp = 0
        self.table: list[_Entry | None] = [None] * TT_SIZE

    # --- evaluation ----------------------------------------------------------------------
    def evaluate(
        self,
        st: GameState,
        ply: int,
        banned: Sequence[frozenset[int]],
        alpha: int = -UNBOUNDED,
        beta: int = UNBOUNDED,
    ) -> int:
        """``kernel.evaluation.evaluate_within``: the value, or a bound of it outside the
        window ``(alpha, beta)`` (the whole line of scores by default: the value)."""
        me = st.to_move
        mine, theirs = command_of(st, me), command_of(st, 1 - me)
        cap = STEP_CAP
        sm = cap + 1 if mine < 0 else escape_steps(st, mine, cap)
        so = cap + 1 if theirs < 0 else escape_steps(st, theirs, cap)
        material = 0
        for p, v in enumerate(self.values):
            if st.alive[p] and st.cell[p] >= 0:
                material += v if st.side[p] == me else -v
        points = MATERIAL * material + STEP * (so - sm)
        tm = -(-sm // st.speed[mine]) if mine >= 0 else cap + 1
        to = -(-so // st.speed[theirs]) if theirs >= 0 else cap + 1
        if tm <= to:
            points += RACE * max(0, URGENT - tm)
        else:
            points -= RACE * max(0, URGENT - to)
        if points - THREAT >= beta:
            return points - THREAT
        if wins_now(st, me, banned[me]):
            return WIN - ply - 1
        if points <= alpha:
            return points
        if wins_now(st, 1 - me, banned[1 - me]):
            points -= THREAT
        return points

    # --- the search ----------------------------------------------------------------------
    def position_hash(self, st: GameState) -> int:
        h = 0
        for p, c in enumerate(st.cell):
            if c < 0:
                continue
            h ^= self.live[p][c * 8 + st.facing[p]] if st.alive[p] else self.wreck[p][c]
        if st.to_move == 1:
            h ^= self.side_key
        return h

    def order(
        self,
        st: GameState,
        turns: list[Turn],
        ply: int,
        tt_move: Turn | None,
        rank: Sequence[int] | None = None,
    ) -> list[int]:
        """``kernel.alphabeta.order_keys`` and ``pick``: indices of ``turns`` in the order
        tried (``rank``: the root's order of turns of equal priority)."""
        k1, k2 = self.killers[ply]
        keys = []
        for i, turn in enumerate(turns):
            p, c, f, target = turn
            if turn == tt_move:
                k = TT_FIRST
            elif c == ESCAPE:
                k = WINNING
            elif target >= 0 and st.gun[p] > st.hit_armour(c, target):
                k = (
                    WINNING
                    if st.kind[target] == COMMAND
                    else DESTROYS + self.values[target] * 64 - self.values[p]
                )
            elif turn == k1:
                k = KILLER_1
            elif turn == k2:
                k = KILLER_2
            else:
                k = min(self.history.get((p, c * 8 + f), 0), HISTORY_CAP)
            keys.append(-(k << RANK_BITS) + (rank[i] if rank is not None else i))
        return sorted(range(len(turns)), key=keys.__getitem__)

    def negamax(self, st: GameState, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Abort
        out = st.outcome()
        if out is not None:
            return -(WIN - ply) if out.winner is not None else 0
        if depth <= 0:
            return self.evaluate(st, ply, self.banned, alpha, beta)
        me = st.to_move
        banned = self.banned[me]
        if wins_now(st, me, banned):
            return WIN - ply - 1
        limit = st.max_turns
        safe = limit <= 0 or st.ply + depth < limit
        h = self.position_hash(st)
        slot = self.table[h & (TT_SIZE - 1)]
        tt_move = None
        if slot is not None and slot[0] == self.stamp and slot[1] == h:
            _, _, e_depth, bound, score, tt_move = slot
            if safe and e_depth >= depth:
                s = _from_table(score, ply)
                if (
                    bound == EXACT
                    or (bound == LOWER and s >= beta)
                    or (bound == UPPER and s <= alpha)
                ):
                    return s
        turns = allowed(st, st.legal_turns(), banned)
        staged: list[Turn] = []
        for t in (tt_move, *self.killers[ply]):
            if t is not None and t not in staged and t in turns:
                staged.append(t)
        alpha0 = alpha
        best, best_turn = -INF, None
        cut = False
        for stage in (0, 1):
            if stage == 0:
                tried = staged
            else:
                rest = [t for t in turns if t not in staged]
                tried = [rest[i] for i in self.order(st, rest, ply, None)]
            for turn in tried:
                st.push(turn)
                try:
                    v = -self.negamax(st, depth - 1, -beta, -alpha, ply + 1)
                finally:
                    st.pop()
                if v > best:
                    best, best_turn = v, turn
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            if not _destroys(st, turn):
                                if self.killers[ply][0] != turn:
                                    self.killers[ply] = [turn, self.killers[ply][0]]
                                key = (turn[0], turn[1] * 8 + turn[2])
                                self.history[key] = self.history.get(key, 0) + depth * depth
                            cut = True
                            break
            if cut:
                break
        if safe:
            bound = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            self.table[h & (TT_SIZE - 1)] = (
                self.stamp,
                h,
                depth,
                bound,
                _to_table(best, ply),
                best_turn,
            )
        return best

    def search(
        self,
        st: GameState,
        budget: int,
        banned: frozenset[int] = frozenset(),
        rank: Sequence[int] | None = None,
    ) -> tuple[list[Turn], int]:
        """The side to move's allowed legal turns and the index of the one chosen
        (``kernel.alphabeta.search_root``; ``rank``: the order of turns of equal priority
        and score, default their list order), -1 when there is none."""
        me = st.to_move
        self.budget, self.nodes = budget, 0
        self.banned = (banned, frozenset()) if me == 0 else (frozenset(), banned)
        self.stamp += 1
        self.killers: list[list[Turn | None]] = [[None, None] for _ in range(MAX_DEPTH + 2)]
        self.history: dict[tuple[int, int], int] = {}
        turns = allowed(st, st.legal_turns(), banned)
        n = len(turns)
        if n <= 1:
            return turns, n - 1
        order = self.order(st, turns, 0, None, rank if rank is not None else range(n))
        scores = [0] * n
        best = order[0]
        self.depth = 0
        for depth in range(1, MAX_DEPTH + 1):
            alpha, found, done = -INF, -1, 0
            aborted = False
            for i in order:
                st.push(turns[i])
                try:
                    v = -self.negamax(st, depth - 1, -INF, -alpha, 1)
                except _Abort:
                    aborted = True
                    break
                finally:
                    st.pop()
                scores[i] = v
                done += 1
                if v > alpha:
                    alpha, found = v, i
            if found >= 0:
                best = found
            keys = [-scores[i] if k < done else INF + k for k, i in enumerate(order)]
            order = [order[j] for j in sorted(range(n), key=keys.__getitem__)]
            if aborted:
                break
            self.depth = depth
            if alpha >= WIN_BOUND or alpha <= -WIN_BOUND:
                break
        return turns, best


def _destroys(st: GameState, turn: Turn) -> bool:
    """An escape or a shot that destroys (not a quiet turn)."""
    p, c, _f, target = turn
    return c == ESCAPE or (target >= 0 and st.gun[p] > st.hit_armour(c, target))


def _to_table(score: int, ply: int) -> int:
    if score >= WIN_BOUND:
        return score + ply
    if score <= -WIN_BOUND:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score >= WIN_BOUND:
        return score - ply
    if score <= -WIN_BOUND:
        return score + ply
    return score
