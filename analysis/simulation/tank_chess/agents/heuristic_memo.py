"""The Tank Chess heuristic's ranking with the facts of each position remembered.

``HeuristicPolicy.ranked(st, None, rng)`` (the playout path) splits its work in two:

- what depends on the position alone, found once per position and kept in ``Facts``:
  the legal turns (``TurnIndex``, each turn spelled out on first use), an immediate win,
  the enemy's attack map, the threat of the enemy command tank and the blocking moves
  against it, the scores of the destroying shots and of the command tank's moves before
  their noise, and — on first use — each candidate's score before noise and bonus, each
  blocker's delay, each move's coverage and each turn's command-tank exposure verdict;
- what depends on the generator: the sampled turns, the noise, which blockers are
  searched, the bonuses, the order — done on every call, from those facts, with exactly
  the draws and the arithmetic of the plain ranking (``heuristic``), so the same
  seed plays the same game (tests/simulation/test_heuristic_memo.py).

Self-play meets the same positions again and again (the opening, and the few replies
the heuristic likes): on basic-16 about three positions in four of a 400-game run were
seen before. ``Facts`` are kept per ``Prepared`` (per scenario and worker) keyed by the
position and the banned kinds, from a position's second sight on, at most ``LIMIT`` of
them (least recently used dropped first). Only pure functions of the position are
remembered, so results do not depend on which games a worker played before.
"""

from __future__ import annotations

from array import array
from bisect import insort

import numpy as np

from tankmap.analysis.simulation.tank_chess.agents.defence import (
    COVER,
    DEFEND,
    W_BLOCK,
    W_COVER,
    Threat,
    coverage,
    delay,
    find_threat,
)
from tankmap.analysis.simulation.tank_chess.agents.scoring import (
    CHECK,
    SAMPLE,
    VALUE,
    attack_map,
    killers,
    shot_score,
)
from tankmap.analysis.simulation.tank_chess.agents.threats import Threats, board_rays
from tankmap.analysis.simulation.tank_chess.agents.turns import TurnIndex, command_tank
from tankmap.analysis.simulation.tank_chess.prepared import INF, Prepared
from tankmap.rules.tank_chess.data import COMMAND
from tankmap.rules.tank_chess.movegen import cached_end_states
from tankmap.rules.tank_chess.state import ESCAPE, GameState, Turn

_UNKNOWN = (float("nan"),)
LIMIT = 1 << 12
"""Positions remembered per ``Prepared`` (a few kB each); 0 remembers none (each call
then builds the facts it needs, as the policy did before the memo)."""

Key = tuple[int, tuple[int, ...], tuple[int, ...], tuple[bool, ...], frozenset[int]]


class Facts:
    """What ``ranked`` needs of one position that does not depend on the generator (see
    the module doc). ``win`` is an immediate win (then nothing else is filled in).

    Candidates that every call scores (destroying shots, then the command tank's moves)
    are ``fixed_turns`` with their scores before bonus and noise ``fixed_base`` and the
    index of their noise ``fixed_noise``; the sampled moves of other pieces are known by
    their index ``i`` in the legal turns (``at(i)``, remembered in ``turns``), their
    score before bonus and noise by ``move_score[i]`` (NaN until first needed).
    ``blockers`` are the blocking moves against ``threat`` with their indices."""

    __slots__ = (
        "scenario",
        "index",
        "turns",
        "clt",
        "win",
        "shots",
        "n_fixed",
        "fixed_turns",
        "fixed_base",
        "fixed_noise",
        "plain_shots",
        "attacks",
        "move_score",
        "threat",
        "blockers",
        "cover_lines",
        "delays",
        "covers",
        "hits",
        "threats",
        "lines",
        "still",
        "occ",
    )

    def __init__(self, st: GameState, prep: Prepared, banned: frozenset[int]) -> None:
        me = st.to_move
        kind, gun, cell, facing = st.kind, st.gun, st.cell, st.facing
        self.scenario = st.scenario
        clt = self.clt = command_tank(st, me)
        index = self.index = TurnIndex(st, banned, clt)
        self.occ = occ = index.occ
        self.turns: dict[int, Turn] = {}
        self.win: Turn | None = None
        self.shots = shots = index.shots
        self.attacks: dict[int, tuple[tuple[int, int], ...]] = {}
        self.move_score = array("d")
        self.n_fixed = 0
        self.fixed_turns: tuple[Turn, ...] = ()
        self.fixed_base = np.zeros(0)
        self.fixed_noise = np.zeros(0, dtype=np.intp)
        self.plain_shots: tuple[tuple[int, Turn], ...] = ()
        self.threat: Threat | None = None
        self.blockers: tuple[tuple[Turn, int], ...] = ()
        self.cover_lines = 0
        self.delays: dict[Turn, int] = {}
        self.covers: dict[Turn, float] = {}
        self.hits: dict[Turn, bool] = {}
        self.threats: Threats | None = None
        self.lines = 0
        self.still = -1
        for t in index.clt_turns:  # immediate wins: escape ...
            if t[1] == ESCAPE:
                self.win = t
                return
        for t in shots:  # ... or destroy the enemy command tank
            target = t[3]
            if kind[target] == COMMAND and gun[t[0]] > st.hit_armour(t[1], target):
                self.win = t
                return
        attacks = attack_map(st, 1 - me)
        enemy = command_tank(st, 1 - me)
        if enemy >= 0:
            th = self.threat = find_threat(st, prep.turns, me, clt, enemy, occ)
            if th is not None:
                self.blockers = tuple(_blockers(st, index, clt, th))
                if th.n_next:
                    rays = board_rays(st.tables)[4]
                    for x in th.nxt:
                        self.cover_lines |= rays[x] | (1 << (8 * x))
        esc = prep.escape[me]
        # the destroying shots' and the command tank's scores before bonus and noise, as
        # the plain ranking sums them
        turns: list[Turn] = []
        base: list[float] = []
        noise: list[int] = []
        plain_shots: list[tuple[int, Turn]] = []
        for i, t in enumerate(shots):
            score = shot_score(st, attacks, esc, clt, t)
            if score is None:
                continue
            if t[0] != clt:
                plain_shots.append((len(turns), t))
            turns.append(t)
            base.append(score)
            noise.append(i)
        if index.clt_turns:
            old = esc[cell[clt] * 8 + facing[clt]]
            if old >= INF:
                old = 99
            i = len(shots)
            for t in index.clt_turns:
                new = esc[t[1] * 8 + t[2]]
                turns.append(t)
                base.append(0.3 * (old - (new if new < INF else 99)))
                noise.append(i)
                i += 1
        self.n_fixed = len(shots) + len(index.clt_turns)
        self.fixed_turns = tuple(turns)
        self.plain_shots = tuple(plain_shots)
        self.fixed_base = np.array(base, dtype=float)
        self.fixed_noise = np.array(noise, dtype=np.intp)
        # (tuples of ints and dicts of them are left alone by the garbage collector,
        # which a few thousand remembered positions would otherwise keep busy)
        self.attacks = {x: tuple(found) for x, found in attacks.items()}
        self.move_score = array("d", _UNKNOWN) * index.n

    def at(self, i: int) -> Turn:
        """Turn ``i`` of the legal turns (``TurnIndex.at``), remembered."""
        t = self.turns.get(i)
        if t is None:
            t = self.turns[i] = self.index.at(i)
        return t

    def move_scores(self, st: GameState, chosen: list[int]) -> list[float]:
        """The scores before bonus and noise of the moves ``chosen`` (indices of moves
        of pieces other than the command tank that shoot nothing), as the plain ranking
        computes them: ``0.05 * (rows forward)`` less ``0.9 * value`` if ``killers``
        finds an enemy that could destroy the piece where it ends. Each is found once and
        remembered in ``move_score``."""
        known = self.move_score
        out = [known[i] for i in chosen]
        total = sum(out)
        if total != total:  # (a NaN: not known yet)
            attacks = self.attacks
            cols = st.columns
            sign = 1 if st.to_move == 0 else -1
            cell, kind = st.cell, st.kind
            for j, i in enumerate(chosen):
                if out[j] != out[j]:
                    p, c, f, _ = self.at(i)
                    base = 0.05 * (sign * (c // cols - cell[p] // cols))
                    if c in attacks and killers(st, attacks, p, c, f):
                        base -= 0.9 * VALUE[kind[p]]
                    known[i] = out[j] = base
        return out

    def exposed_after(self, st: GameState, t: Turn) -> bool:
        """Would the command tank be exposed after turn ``t`` (``ranked``'s exact check)?"""
        hit = self.hits.get(t)
        if hit is not None:
            return hit
        clt = self.clt
        cell = st.cell
        threats = self.threats
        if threats is None:
            threats = self.threats = Threats(st, 1 - st.to_move, st.armour[clt], self.occ)
            self.lines = threats.lines(cell[clt])
        else:
            threats.st = st  # the same position, maybe in another game's state
        lines = self.lines
        p, c, _, target = t
        old = cell[p]
        if (
            p != clt
            and target < 0
            and (c == old or not (lines >> (8 * old) | lines >> (8 * c)) & 1)
        ):
            # another piece moving off the command tank's lines (or turning in place) and
            # destroying nothing leaves the exposure of the current position
            if self.still < 0:
                self.still = int(threats.exposed(clt, -1, self.occ, cell[clt]))
            hit = self.still == 1
        else:
            occ = self.occ
            st.push(t)
            after = occ if c == old else (occ ^ (1 << (8 * old))) | (1 << (8 * c))
            skip = target if target >= 0 and not st.alive[target] else -1
            hit = threats.exposed(clt, skip, after, old if p == clt else -1)
            st.pop()
        self.hits[t] = hit
        return hit


def facts_of(st: GameState, prep: Prepared, banned: frozenset[int]) -> Facts:
    """The ``Facts`` of the position of ``st``: remembered from the second sight on (a
    position met once is not kept: most of a run's positions are met once, and keeping
    their thousands of small objects costs the garbage collector more than rebuilding
    the few that come back)."""
    key: Key = (st.to_move, tuple(st.cell), tuple(st.facing), tuple(st.alive), banned)
    memo = prep.positions
    facts = memo.pop(key, None)
    if facts is None or facts.scenario is not st.scenario:
        facts = Facts(st, prep, banned)
        if LIMIT <= 0:  # (remember nothing: benchmarks compare)
            return facts
        seen = prep.seen
        if key not in seen:
            if len(seen) >= 8 * LIMIT:
                seen.clear()
            seen.add(key)
            return facts
        if len(memo) >= LIMIT:
            for old in list(memo)[: LIMIT // 2]:
                del memo[old]
    memo[key] = facts  # (re)inserted last: the least recently used go first
    return facts


def _minus_score(x: tuple[float, Turn]) -> float:
    return -x[0]


def ranked(
    st: GameState, prep: Prepared, banned: frozenset[int], rng: np.random.Generator, limit: int
) -> list[tuple[float, Turn]]:
    """``HeuristicPolicy.ranked(st, None, rng, limit)`` from remembered facts: the same
    draws in the same order, the same scores, the same turns (see the module doc).

    Scores are summed as the plain ranking sums them, ``(base + bonus) + 0.3 * noise``,
    only elementwise in numpy (the same float operations, so the same doubles); the
    candidates are ordered by a stable sort of the negated scores, as Python's stable
    ``sort(reverse=True)`` orders them (ties keep candidate order). The sample keeps the
    first occurrence of each drawn index in draw order (``dict.fromkeys``)."""
    facts = facts_of(st, prep, banned)
    if facts.win is not None:
        return [(float(INF), facts.win)]
    n = facts.index.n
    at = facts.at
    picks = rng.integers(n, size=min(n, SAMPLE)).tolist()
    clt = facts.clt
    chosen: list[int] = []  # the sampled moves of other pieces: indices and turns
    others: list[Turn] = []
    known = facts.turns.get
    for i in dict.fromkeys(picks):
        t = known(i) or at(i)
        if t[3] < 0 and t[0] != clt:
            chosen.append(i)
            others.append(t)
    n_fixed = facts.n_fixed
    n_others = len(chosen)
    noise = rng.random(n_fixed + n_others + 1)
    th = facts.threat
    bonus: dict[Turn, float] = {}
    blockers: list[Turn] = []
    kept: list[int] = []
    bnoise = noise[:0]
    if th is not None:
        if facts.blockers:
            seen = set(chosen)  # (distinct turns have distinct indices)
            blockers = [t for t, i in facts.blockers if i not in seen]
            kept = [i for _, i in facts.blockers if i not in seen]
            bnoise = rng.random(len(blockers))
            delays = facts.delays
            for j in np.argsort(bnoise, kind="stable")[:DEFEND].tolist():
                b = blockers[j]
                d = delays.get(b)
                if d is None:
                    d = delays[b] = delay(st, th, b, facts.occ)
                bonus[b] = W_BLOCK * d
        if th.n_next:
            _cover(st, facts, th, others + blockers, bonus)
    base = facts.fixed_base
    if bonus and facts.plain_shots:
        base = base.copy()
        for j, t in facts.plain_shots:
            if t in bonus:
                base[j] += bonus[t]
    parts = [base + 0.3 * noise[facts.fixed_noise]]
    if n_others:
        obase = np.array(facts.move_scores(st, chosen))
        if bonus:
            for j, t in enumerate(others):
                if t in bonus:
                    obase[j] += bonus[t]
        parts.append(obase + 0.3 * noise[n_fixed : n_fixed + n_others])
    if blockers:
        bbase = np.array(facts.move_scores(st, kept)) + np.array(
            [bonus.get(t, 0.0) for t in blockers]
        )
        parts.append(bbase + 0.3 * bnoise)
    scores = np.concatenate(parts) if len(parts) > 1 else parts[0]
    if not len(scores):
        return [(0.0, at(int(float(noise[-1]) * n)))]
    order = np.argsort(-scores, kind="stable").tolist()
    values = scores.tolist()
    n_shown = len(facts.fixed_turns)
    fixed_turns = facts.fixed_turns

    def turn(j: int) -> Turn:
        if j < n_shown:
            return fixed_turns[j]
        j -= n_shown
        return at(chosen[j]) if j < n_others else blockers[j - n_others]

    if facts.clt < 0:
        return [(values[j], turn(j)) for j in order[:limit]]
    exposed_after = facts.exposed_after
    if limit == 1:  # the loop below for one turn: the best checked, the first of equals
        best = -float(INF)
        found: Turn | None = None
        for k, j in enumerate(order):
            score = values[j]
            if found is not None and (k >= CHECK or score <= best):
                break
            t = turn(j)
            if exposed_after(st, t):
                score -= 45.0
            if found is None or score > best:
                best, found = score, t
        assert found is not None
        return [(best, found)]
    checked: list[tuple[float, Turn]] = []
    for k, j in enumerate(order):
        score = values[j]
        if len(checked) >= limit and (k >= CHECK or score <= checked[limit - 1][0]):
            break
        t = turn(j)
        if exposed_after(st, t):
            score -= 45.0
        insort(checked, (score, t), key=_minus_score)
    return checked[:limit]


def _blockers(st: GameState, index: TurnIndex, clt: int, th: Threat) -> list[tuple[Turn, int]]:
    """``defence.blocking_turns`` with each turn's index in the legal turns."""
    out: list[tuple[Turn, int]] = []
    rs = th.route_states
    for k, p in enumerate(index.pieces):
        if p == clt:
            continue
        ends = cached_end_states(st, p, index.occ)
        if not ends.mask() & rs:
            continue
        hit = ends.mask() & rs
        on: set[int] = set()
        while hit:
            low = hit & -hit
            on.add(low.bit_length() - 1)
            hit ^= low
        listed = index.explicit[k]
        start = index.starts[k]
        if listed is None:
            start += index.escs[k]
            for j, s in enumerate(index.orders[k]):
                if s in on:
                    out.append(((p, s >> 3, s & 7, -1), start + j))
        else:
            for s in ends.order():
                if s in on:
                    t = (p, s >> 3, s & 7, -1)
                    out.append((t, start + listed.index(t)))
    return out


def _cover(
    st: GameState, facts: Facts, th: Threat, moves: list[Turn], bonus: dict[Turn, float]
) -> None:
    """``HeuristicPolicy._cover`` over the remembered shots and coverage shares."""
    lines = facts.cover_lines
    gun, kind = st.gun, st.kind
    covers = facts.covers
    left = COVER
    for t in (*facts.shots, *moves):
        p, c, _, target = t
        if target >= 0 and (kind[target] == COMMAND or gun[p] <= st.hit_armour(c, target)):
            continue
        if not lines >> (8 * c) & 1:
            continue
        share = covers.get(t)
        if share is None:
            share = covers[t] = coverage(st, th, t)
        if share:
            bonus[t] = bonus.get(t, 0.0) + W_COVER * share
        left -= 1
        if not left:
            return
