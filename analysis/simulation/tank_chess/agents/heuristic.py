"""Tank Chess policies over the fast game state of ``rules.tank_chess.state``.

Every policy implements ``choose(state, turns, rng) -> Turn`` for the side to move, given
the legal turns (non-empty).

- ``random``: uniform over the legal turns (every move and every legal shot).
- ``heuristic``: wins at once if it can (escape, or a shot that destroys the enemy command
  tank); else scores candidate turns — every destroying shot (the target's value), every
  command-tank move (progress along its shortest escape route, ``Prepared.escape``), and a
  seeded sample of other moves (a little forward progress) — and subtracts the moved
  piece's value if its end cell and facing are under *kill coverage* (an enemy piece could
  destroy it there from where it stands: gun against the armour side facing that enemy),
  and a large penalty if the command tank stays under kill coverage. *Defence*
  (``tank_chess_defence``): when the enemy command tank escapes within ``HORIZON`` turns
  and before ours (turns with every piece blocking, ``rules.tank_chess.escape_route``; we
  move first, so we race iff ours needs no more turns), moves of our other pieces onto its
  shortest routes are added as candidates and scored by how many turns they delay it
  (exact re-search, at most ``DEFEND``), and shots/placements by the share of its next
  route states they put under the moved piece's fire (at most ``COVER``).
- ``uct[:N]``: UCT tree search over the heuristic's best turns (``tank_chess_uct``).
- restriction ``+no-KIND``: the side never moves pieces of that kind (they still stand,
  block and can be shot). A side left with no allowed turn plays any legal turn.

Speed: ``choose(st, None, rng)`` lets a policy find the legal turns itself, which the
heuristic and random policies do without building the full list
(``tank_chess_fast.TurnIndex``); the command tank's exposure checks run on bit masks
(``tank_chess_threats.Threats``), and the heuristic remembers each position's facts that
do not depend on the draws (``tank_chess_memo``). All give exactly the answers of the
plain functions kept here (``reachable``, ``exposed``, ``ranked`` over a full turn list):
the same seed plays the same game (tests/simulation/test_tank_chess_fast.py and
test_tank_chess_memo.py compare them).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Protocol

import numpy as np

from tankmap.analysis.simulation.policies.tank_chess_defence import (
    COVER,
    DEFEND,
    W_BLOCK,
    W_COVER,
    Threat,
    coverage,
    delay,
    find_threat,
)
from tankmap.analysis.simulation.policies.tank_chess_fast import TurnIndex, command_tank
from tankmap.analysis.simulation.policies.tank_chess_memo import Facts, Key
from tankmap.analysis.simulation.policies.tank_chess_memo import ranked as memo_ranked
from tankmap.analysis.simulation.policies.tank_chess_threats import Threats, board_rays
from tankmap.rules.tank_chess.data import COMMAND, FIRE_MORTAR, FIRE_TURRET, KIND_CODE
from tankmap.rules.tank_chess.escape_route import terrain_escape_turns
from tankmap.rules.tank_chess.movegen import end_states, state_occupancy
from tankmap.rules.tank_chess.state import BLOCKED, EMPTY, ESCAPE, GameState, Turn

INF = 1 << 30
VALUE = (50.0, 3.0, 5.0, 8.0, 6.0, 6.0)  # by kind code: command light medium heavy TD HM
SAMPLE = 40
CHECK = 40  # at most this many candidates get the exact command-tank safety check


class Prepared:
    """Per-scenario data: ``escape[side][cell * 8 + facing]`` = fewest single steps (45°
    turns or forward steps, the final step off the enemy edge included) for a piece of
    ``side`` to escape through obstacles alone (``INF`` if it cannot); ``turns[side][s]``
    = fewest turns for a command tank of ``side`` (``rules.tank_chess.escape_route``, -1
    if it cannot); ``positions`` and ``seen``: the heuristic's remembered position facts
    and the positions met once (``tank_chess_memo``)."""

    def __init__(self, state: GameState) -> None:
        t = state.tables
        n = state.size * 8
        blocked = [state.grid[s >> 3] == BLOCKED for s in range(n)]
        pred: list[list[int]] = [[] for _ in range(n)]
        for r in range(n):
            nx = t.fwd[r]
            if nx >= 0 and not blocked[r] and not blocked[nx]:
                pred[nx].append(r)
        self.escape: list[list[int]] = []
        for side in (0, 1):
            dist = [INF] * n
            frontier = [s for s in range(n) if t.escape[side][s] and not blocked[s]]
            for s in frontier:
                dist[s] = 1
            d = 1
            while frontier:
                d += 1
                nxt = []
                for s in frontier:
                    base, f = s & ~7, s & 7
                    for r in (base | ((f + 1) & 7), base | ((f + 7) & 7), *pred[s]):
                        if dist[r] == INF:
                            dist[r] = d
                            nxt.append(r)
                frontier = nxt
            self.escape.append(dist)
        speed = [5, 5]
        for p, k in enumerate(state.kind):
            if k == COMMAND:
                speed[state.side[p]] = state.speed[p]
        self.turns = [terrain_escape_turns(state, side, speed[side]) for side in (0, 1)]
        self.positions: dict[Key, Facts] = {}  # the heuristic's memo (``tank_chess_memo``)
        self.seen: set[Key] = set()  # positions met once (remembered when met again)


class Policy(Protocol):
    def choose(self, st: GameState, turns: list[Turn] | None, rng: np.random.Generator) -> Turn: ...


def _minus_score(x: tuple[float, Turn]) -> float:
    return -x[0]


def allowed(st: GameState, turns: list[Turn], banned: frozenset[int]) -> list[Turn]:
    """``turns`` without those moving a banned kind (all of them if nothing is left)."""
    if not banned:
        return turns
    kind = st.kind
    kept = [t for t in turns if kind[t[0]] not in banned]
    return kept or turns


class RandomPolicy:
    def __init__(self, banned: frozenset[int] = frozenset()) -> None:
        self.banned = banned

    def choose(self, st: GameState, turns: list[Turn] | None, rng: np.random.Generator) -> Turn:
        if turns is None:  # the same draw over the same list, without building it
            index = TurnIndex(st, self.banned, -1)
            return index.at(int(rng.integers(index.n)))
        turns = allowed(st, turns, self.banned)
        return turns[int(rng.integers(len(turns)))]


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
        ``tank_chess_memo.ranked``, which remembers each position's facts)."""
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


def make_policy(name: str, restrictions: tuple[str, ...], prep: Prepared, side: int) -> Policy:
    """Build policy ``name`` (``random``, ``heuristic``, ``uct[:N]`` or ``search[:N]``) for
    ``side``.
    ``KeyError`` for an unknown name or kind, ``ValueError`` for a bad budget."""
    banned = frozenset(KIND_CODE[r[3:]] for r in restrictions)
    if name == "random":
        return RandomPolicy(banned)
    if name == "heuristic":
        return HeuristicPolicy(prep, side, banned)
    if name == "uct" or name.startswith("uct:"):
        from tankmap.analysis.simulation.policies.tank_chess_uct import UctPolicy  # (it imports us)

        budget = int(name[4:]) if name.startswith("uct:") else 48
        if budget < 1:
            raise ValueError(budget)
        return UctPolicy(prep, side, budget, banned)
    if name == "search" or name.startswith("search:"):
        from tankmap.analysis.simulation.policies.tank_chess_search import (  # (imports us)
            DEFAULT_BUDGET,
            SearchPolicy,
        )

        budget = int(name[7:]) if name.startswith("search:") else DEFAULT_BUDGET
        if budget < 1:
            raise ValueError(budget)
        return SearchPolicy(prep, side, budget, banned)
    raise KeyError(name)
