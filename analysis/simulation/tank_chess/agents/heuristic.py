"""Tank Chess ``heuristic`` over the fast game state of ``rules.tank_chess.state``.

It implements ``choose(state, turns, rng) -> Turn`` for the side to move, given the legal
turns (non-empty), or ``None`` to find them itself.

The heuristic wins at once if it can (escape, or a shot that destroys the enemy command
tank); else scores candidate turns — every destroying shot (the target's value), every
command-tank move (progress along its shortest escape route, ``Prepared.escape``), and a
seeded sample of other moves (a little forward progress) — and subtracts the moved
piece's value if its end cell and facing are under *kill coverage* (an enemy piece could
destroy it there from where it stands: gun against the armour side facing that enemy),
and a large penalty if the command tank stays under kill coverage. *Defence*
(``agents/defence.py``): when the enemy command tank escapes within ``HORIZON`` turns
and before ours (turns with every piece blocking, ``rules.tank_chess.escape_route``; we
move first, so we race iff ours needs no more turns), moves of our other pieces onto its
shortest routes are added as candidates and scored by how many turns they delay it
(exact re-search, at most ``DEFEND``), and shots/placements by the share of its next
route states they put under the moved piece's fire (at most ``COVER``). Restriction
``+no-KIND``: the side never moves pieces of that kind (they still stand, block and can
be shot). A side left with no allowed turn plays any legal turn.

Speed: ``choose(st, None, rng)`` finds the legal turns without building the full list
(``agents/turns.TurnIndex``); the command tank's exposure checks run on bit masks
(``agents/threats.Threats``), and the heuristic remembers each position's facts that
do not depend on the draws (``agents/heuristic_memo.py``). All give exactly the answers
of the plain functions (``agents/scoring.py``: ``reachable``, ``exposed``; ``ranked``
here over a full turn list): the same seed plays the same game
(tests/simulation/test_tank_chess_fast.py and test_heuristic_memo.py compare them).
"""

from __future__ import annotations

from bisect import insort
from operator import itemgetter

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
from tankmap.analysis.simulation.tank_chess.agents.heuristic_memo import ranked as memo_ranked
from tankmap.analysis.simulation.tank_chess.agents.scoring import (
    CHECK,
    SAMPLE,
    VALUE,
    attack_map,
    killers,
    shot_score,
)
from tankmap.analysis.simulation.tank_chess.agents.threats import Threats, board_rays
from tankmap.analysis.simulation.tank_chess.agents.turns import allowed, command_tank
from tankmap.analysis.simulation.tank_chess.prepared import INF, Prepared
from tankmap.rules.tank_chess.data import COMMAND
from tankmap.rules.tank_chess.movegen import state_occupancy
from tankmap.rules.tank_chess.state import ESCAPE, GameState, Turn


def _minus_score(x: tuple[float, Turn]) -> float:
    return -x[0]


class HeuristicPolicy:
    """See the module docstring."""

    def __init__(self, prep: Prepared, side: int, banned: frozenset[int] = frozenset()) -> None:
        self.prep = prep
        self.side = side
        self.banned = banned

    def ranked(
        self,
        st: GameState,
        turns: list[Turn] | None,
        rng: np.random.Generator,
        limit: int = 1,
    ) -> list[tuple[float, Turn]]:
        """The best ``limit`` candidate turns with their scores, best first. ``turns`` are
        the legal turns, or ``None`` to let the policy find them (faster, same answer:
        ``heuristic_memo.ranked``, which remembers each position's facts)."""
        if turns is None:
            return memo_ranked(st, self.prep, self.banned, rng, limit)
        me = st.to_move
        kind, gun, cell, facing = st.kind, st.gun, st.cell, st.facing
        esc = self.prep.escape[me]
        clt = command_tank(st, me)
        turns = allowed(st, turns, self.banned)
        n = len(turns)
        shots = [t for t in turns if t[3] >= 0]
        clt_turns = [t for t in turns if t[0] == clt and t[3] < 0] if clt >= 0 else []
        for t in clt_turns:  # immediate wins: escape ...
            if t[1] == ESCAPE:
                return [(float(INF), t)]
        for t in shots:  # ... or destroy the enemy command tank
            target = t[3]
            if kind[target] == COMMAND and gun[t[0]] > st.hit_armour(t[1], target):
                return [(float(INF), t)]
        attacks = attack_map(st, 1 - me)
        picks = rng.integers(n, size=min(n, SAMPLE)).tolist()
        sample = [turns[i] for i in dict.fromkeys(picks)]
        others = [t for t in sample if t[3] < 0 and t[0] != clt]
        noise = rng.random(len(shots) + len(clt_turns) + len(others) + 1).tolist()
        enemy = command_tank(st, 1 - me)
        th: Threat | None = None
        occ = state_occupancy(st)
        if enemy >= 0:
            th = find_threat(st, self.prep.turns, me, clt, enemy, occ)
        bonus: dict[Turn, float] = {}
        blockers: list[Turn] = []
        bnoise: list[float] = []
        if th is not None:
            cells = th.cells
            blockers = [
                t
                for t in turns
                if t[3] < 0 and t[0] != clt and t[1] >= 0 and cells >> (8 * t[1]) & 1
            ]
            if blockers:
                seen = set(others)
                blockers = [t for t in blockers if t not in seen]
                bnoise = rng.random(len(blockers)).tolist()
                for j in sorted(range(len(blockers)), key=bnoise.__getitem__)[:DEFEND]:
                    bonus[blockers[j]] = W_BLOCK * delay(st, th, blockers[j], occ)
            self._cover(st, th, shots, others + blockers, bonus)
        # candidates in order: shots, command-tank moves, sampled other moves (``noise[i]``
        # belongs to candidate ``i``)
        scored: list[tuple[float, Turn]] = []
        append = scored.append
        cols = st.columns
        i = 0
        for t in shots:
            i += 1
            found = shot_score(st, attacks, esc, clt, t)
            if found is None:
                continue  # a shot that cannot destroy is the same as not shooting
            score = found
            if t[0] != clt and bonus:
                score += bonus.get(t, 0.0)
            append((score + 0.3 * noise[i - 1], t))
        if clt_turns:
            old = esc[cell[clt] * 8 + facing[clt]]
            if old >= INF:
                old = 99
            for t in clt_turns:
                new = esc[t[1] * 8 + t[2]]
                append((0.3 * (old - (new if new < INF else 99)) + 0.3 * noise[i], t))
                i += 1
        sign = 1 if me == 0 else -1
        for t in others:
            p, c, f, _ = t
            score = 0.05 * (sign * (c // cols - cell[p] // cols))
            if c in attacks and killers(st, attacks, p, c, f):
                score -= 0.9 * VALUE[kind[p]]
            if bonus:
                score += bonus.get(t, 0.0)
            append((score + 0.3 * noise[i], t))
            i += 1
        for j, t in enumerate(blockers):
            p, c, f, _ = t
            score = 0.05 * (sign * (c // cols - cell[p] // cols))
            if c in attacks and killers(st, attacks, p, c, f):
                score -= 0.9 * VALUE[kind[p]]
            append((score + bonus.get(t, 0.0) + 0.3 * bnoise[j], t))
        if not scored:
            return [(0.0, turns[int(noise[-1] * n)])]
        scored.sort(key=itemgetter(0), reverse=True)  # stable: ties keep candidate order
        if clt < 0:
            return scored[:limit]
        # command-tank safety, checked exactly (enemy move then shot), best first; penalties
        # only lower scores, so stop once the next raw score cannot beat the ``limit``-th
        # A turn that moves another piece off the command tank's lines (or turns it in
        # place) and destroys nothing leaves every cell ``exposed`` looks at as it is:
        # the answer is that of the current position, found once.
        threats = Threats(st, 1 - me, st.armour[clt], occ)
        lines = threats.lines(cell[clt])
        still = -1  # exposure of the current position (-1: not known yet)
        alive = st.alive
        checked: list[tuple[float, Turn]] = []
        for k, (score, t) in enumerate(scored):
            if len(checked) >= limit and (k >= CHECK or score <= checked[limit - 1][0]):
                break
            p, c, _, target = t
            old = cell[p]
            if (
                p != clt
                and target < 0
                and (c == old or not (lines >> (8 * old) | lines >> (8 * c)) & 1)
            ):
                if still < 0:
                    still = int(threats.exposed(clt, -1, occ, cell[clt]))
                hit = still == 1
            else:
                st.push(t)
                after = occ if c == old else (occ ^ (1 << (8 * old))) | (1 << (8 * c))
                skip = target if target >= 0 and not alive[target] else -1
                hit = threats.exposed(clt, skip, after, old if p == clt else -1)
                st.pop()
            if hit:
                score -= 45.0
            insort(checked, (score, t), key=_minus_score)
        return checked[:limit]

    def choose(self, st: GameState, turns: list[Turn] | None, rng: np.random.Generator) -> Turn:
        return self.ranked(st, turns, rng)[0][1]

    @staticmethod
    def _cover(
        st: GameState, th: Threat, shots: list[Turn], moves: list[Turn], bonus: dict[Turn, float]
    ) -> None:
        """Add ``W_COVER * coverage`` to ``bonus`` for the first ``COVER`` destroying shots
        and then moves (in that order) that end on a line through a next route state."""
        if not th.n_next:
            return
        rays = board_rays(st.tables)[4]
        lines = 0
        for x in th.nxt:
            lines |= rays[x] | (1 << (8 * x))
        gun, kind = st.gun, st.kind
        left = COVER
        for t in (*shots, *moves):
            p, c, _, target = t
            if target >= 0 and (kind[target] == COMMAND or gun[p] <= st.hit_armour(c, target)):
                continue
            if not lines >> (8 * c) & 1:
                continue
            share = coverage(st, th, t)
            if share:
                bonus[t] = bonus.get(t, 0.0) + W_COVER * share
            left -= 1
            if not left:
                return
