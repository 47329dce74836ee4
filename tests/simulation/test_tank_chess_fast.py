"""The fast Tank Chess heuristic gives exactly the answers of the straightforward code.

``analysis.simulation.tank_chess.agents.turns`` replaces full turn lists, the enemy
``reachable`` dictionary and its ``exposed`` walk by memoised end states and bit masks.
These tests compare both on positions from seeded random and heuristic games (basic 16×16,
the 20×20 sample with destroyers and mortars, strict corners on and off): the same turns
in the same order, the same exposure verdicts, the same chosen turns. The reference side
is the engine's own ``legal_turns``/``end_states`` and the policy module's plain
``reachable``/``exposed`` functions (kept for this purpose).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tankmap.analysis.simulation.tank_chess.agents.defence import DEFEND, HORIZON, W_BLOCK, Threat
from tankmap.analysis.simulation.tank_chess.agents.heuristic import HeuristicPolicy
from tankmap.analysis.simulation.tank_chess.agents.random import RandomPolicy
from tankmap.analysis.simulation.tank_chess.agents.scoring import (
    CHECK,
    SAMPLE,
    VALUE,
    attack_map,
    exposed,
    killers,
    reachable,
)
from tankmap.analysis.simulation.tank_chess.agents.threats import Threats
from tankmap.analysis.simulation.tank_chess.agents.turns import TurnIndex, allowed, command_tank
from tankmap.analysis.simulation.tank_chess.prepared import INF, Prepared
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.scenario import Scenario
from tankmap.rules.tank_chess.data import COMMAND, KIND_CODE
from tankmap.rules.tank_chess.escape_route import escape_route
from tankmap.rules.tank_chess.movegen import (
    cached_end_states,
    end_states,
    occupancy,
    state_occupancy,
)
from tankmap.rules.tank_chess.reach import turns_to_escape
from tankmap.rules.tank_chess.state import EMPTY, ESCAPE, GameState, Turn

ROOT = Path(__file__).resolve().parents[2]


def _map(name: str, **options: object) -> Scenario:
    sc = read_scenario(ROOT / "maps" / "tank-chess" / name)
    return sc.with_options(**options) if options else sc


CASES = [
    ("basic-16.json", {}),
    ("basic-16.json", {"strict_corners": True}),
    ("sample-20.json", {}),
    ("sample-20.json", {"strict_corners": True}),
]


def _positions(sc: Scenario, seed: int, games: int = 4) -> list[GameState]:
    """Positions of seeded games: half random, half heuristic against random."""
    prep = Prepared(GameState(sc))
    out: list[GameState] = []
    rng = np.random.default_rng(seed)
    for g in range(games):
        st = GameState(sc)
        south = HeuristicPolicy(prep, 0) if g % 2 else RandomPolicy()
        players = (south, RandomPolicy())
        while st.outcome() is None and st.ply < 60:
            out.append(st.copy())
            st.push(players[st.to_move].choose(st, st.legal_turns(), rng))
    return out


@pytest.mark.parametrize(("name", "options"), CASES)
def test_turn_index_lists_the_legal_turns(name: str, options: dict[str, object]) -> None:
    sc = _map(name, **options)
    for st in _positions(sc, 1):
        me = st.to_move
        clt = command_tank(st, me)
        turns = st.legal_turns()
        index = TurnIndex(st, frozenset(), clt)
        assert index.n == len(turns)
        assert index.all() == turns
        assert index.shots == [t for t in turns if t[3] >= 0]
        assert index.clt_turns == [t for t in turns if t[0] == clt and t[3] < 0]
        assert state_occupancy(st) == occupancy(st.grid)
        # banned kinds: the same as filtering the list (all turns if nothing is left)
        for banned in (frozenset({KIND_CODE["light"]}), frozenset(range(6))):
            kept = [t for t in turns if st.kind[t[0]] not in banned] or turns
            assert TurnIndex(st, banned, clt).all() == kept


@pytest.mark.parametrize(("name", "options"), CASES)
def test_cached_end_states_match_end_states(name: str, options: dict[str, object]) -> None:
    sc = _map(name, **options)
    for st in _positions(sc, 2, games=2):
        occ = state_occupancy(st)
        for p in range(len(st.kind)):
            c = st.cell[p]
            if not st.alive[p] or c < 0:
                continue
            ends = cached_end_states(st, p, occ)
            st.grid[c] = EMPTY
            fresh, escaped = end_states(st, p, c, st.facing[p])
            st.grid[c] = p
            assert (ends.states, ends.escaped) == (fresh, escaped)
            assert ends.order() == list(fresh)  # same iteration order => same turn order
            assert ends.mask() == sum(1 << s for s in fresh)


@pytest.mark.parametrize(("name", "options"), CASES)
def test_threats_agree_with_the_plain_exposure_check(name: str, options: dict[str, object]) -> None:
    sc = _map(name, **options)
    rng = np.random.default_rng(3)
    checked = hits = 0
    for st in _positions(sc, 3)[::3]:
        me = st.to_move
        turns = st.legal_turns()
        reach = reachable(st, 1 - me)
        live = [p for p in st.pieces_of[me] if st.alive[p] and st.cell[p] >= 0]
        for p in live[::3]:
            threats = Threats(st, 1 - me, st.armour[p])
            # shots first (they may destroy a piece: ``skip``), then a sample of moves
            picks = [t for t in turns if t[3] >= 0]
            picks += [turns[int(i)] for i in rng.integers(len(turns), size=6)]
            for t in picks:
                if t[1] < 0:
                    continue
                st.push(t)
                skip = t[3] if t[3] >= 0 and not st.alive[t[3]] else -1
                if st.alive[p]:
                    want = exposed(st, reach, p, skip)
                    assert threats.exposed(p, skip) == want
                    assert threats.exposed(p, skip, occupancy(st.grid)) == want
                    checked += 1
                    hits += want
                st.pop()
    assert checked > 200 and hits > 0  # the comparison saw both answers


@pytest.mark.parametrize(("name", "options"), CASES)
def test_fast_heuristic_chooses_as_with_a_turn_list(name: str, options: dict[str, object]) -> None:
    sc = _map(name, **options)
    prep = Prepared(GameState(sc))
    for k, st in enumerate(_positions(sc, 4, games=2)):
        for banned in (frozenset(), frozenset({KIND_CODE["medium"]})):
            pol = HeuristicPolicy(prep, st.to_move, banned)
            for limit in (1, 8):
                fast = pol.ranked(st, None, np.random.default_rng(k), limit)
                slow = pol.ranked(st, st.legal_turns(), np.random.default_rng(k), limit)
                assert fast == slow


def _reference_ranked(
    pol: HeuristicPolicy, st: GameState, turns: list[Turn], rng: np.random.Generator, limit: int
) -> list[tuple[float, Turn]]:
    """The heuristic as first written (full turn list, ``reachable`` + ``exposed`` after
    pushing every checked turn): the fast policy must rank exactly like it."""
    turns = allowed(st, turns, pol.banned)
    me = st.to_move
    kind, gun, cell, facing = st.kind, st.gun, st.cell, st.facing
    esc = pol.prep.escape[me]
    clt = next((p for p in st.pieces_of[me] if kind[p] == COMMAND and st.alive[p]), -1)
    shots = [t for t in turns if t[3] >= 0]
    clt_turns = [t for t in turns if t[0] == clt and t[3] < 0] if clt >= 0 else []
    for t in clt_turns:
        if t[1] == ESCAPE:
            return [(float(INF), t)]
    for t in shots:
        if kind[t[3]] == COMMAND and gun[t[0]] > st.hit_armour(t[1], t[3]):
            return [(float(INF), t)]
    attacks = attack_map(st, 1 - me)
    n = len(turns)
    picks = rng.integers(n, size=min(n, SAMPLE)).tolist()
    sample = [turns[i] for i in dict.fromkeys(picks)]
    others = [t for t in sample if t[3] < 0 and t[0] != clt]
    candidates = shots + clt_turns + others
    noise = rng.random(len(candidates) + 1).tolist()
    bonus, blockers, bnoise = _reference_defence(st, turns, clt, shots, others, rng)
    scored: list[tuple[float, Turn]] = []
    cols = st.columns
    for i, t in enumerate(candidates + blockers):
        p, c, f, target = t
        kill = target >= 0 and gun[p] > st.hit_armour(c, target)
        if target >= 0 and not kill:
            continue
        score = VALUE[kind[target]] if kill else 0.0
        if p == clt:
            old = esc[cell[p] * 8 + facing[p]]
            new = esc[c * 8 + f]
            score += 0.3 * ((old if old < INF else 99) - (new if new < INF else 99))
        else:
            row_old, row_new = cell[p] // cols, c // cols
            score += 0.05 * ((row_new - row_old) if me == 0 else (row_old - row_new))
        if p != clt and killers(st, attacks, p, c, f):
            score -= 0.9 * VALUE[kind[p]]
        if p != clt and t in bonus:
            score += bonus[t]
        j = i - len(candidates)
        scored.append((score + 0.3 * (noise[i] if j < 0 else bnoise[j]), t))
    if not scored:
        return [(0.0, turns[int(noise[-1] * n)])]
    scored.sort(key=lambda x: -x[0])
    if clt < 0:
        return scored[:limit]
    reach = reachable(st, 1 - me)
    checked: list[tuple[float, Turn]] = []
    for k, (score, t) in enumerate(scored):
        if len(checked) >= limit and (k >= CHECK or score <= checked[limit - 1][0]):
            break
        st.push(t)
        if exposed(st, reach, clt, t[3] if t[3] >= 0 and not st.alive[t[3]] else -1):
            score -= 45.0
        st.pop()
        checked.append((score, t))
        checked.sort(key=lambda x: -x[0])
    return checked[:limit]


def _reference_defence(
    st: GameState,
    turns: list[Turn],
    clt: int,
    shots: list[Turn],
    others: list[Turn],
    rng: np.random.Generator,
) -> tuple[dict[Turn, float], list[Turn], list[float]]:
    """The defence bonuses written plainly: turns to escape by the rules' 0-1 search
    (``reach.turns_to_escape``, no terrain shortcut), blockers filtered from the turn list,
    delays by a fresh search after pushing the move."""
    me = st.to_move
    enemy = command_tank(st, 1 - me)
    e = turns_to_escape(st, enemy, True) if enemy >= 0 else None
    if e is None or e > HORIZON:
        return {}, [], []
    m = turns_to_escape(st, clt, True) if clt >= 0 else None
    if m is not None and m <= e:
        return {}, [], []
    route = escape_route(st, enemy, HORIZON)
    th = Threat(enemy, e, route.next_states, route.cells)
    seen = set(others)
    blockers = [
        t for t in turns if t[3] < 0 and t[0] != clt and t[1] >= 0 and (t[1] in _cells(route.cells))
    ]
    blockers = [t for t in blockers if t not in seen]
    bonus: dict[Turn, float] = {}
    bnoise: list[float] = []
    if blockers:
        bnoise = rng.random(len(blockers)).tolist()
        for j in sorted(range(len(blockers)), key=lambda k: bnoise[k])[:DEFEND]:
            st.push(blockers[j])
            later = turns_to_escape(st, enemy, True)
            st.pop()
            gain = (later if later is not None else e + 3) - e
            bonus[blockers[j]] = W_BLOCK * min(gain, 2)
    HeuristicPolicy._cover(st, th, shots, others + blockers, bonus)
    return bonus, blockers, bnoise


def _cells(mask: int) -> set[int]:
    return {k // 8 for k in range(0, mask.bit_length(), 8) if mask >> k & 1}


@pytest.mark.parametrize(("name", "options"), CASES)
def test_fast_heuristic_ranks_as_the_reference(name: str, options: dict[str, object]) -> None:
    sc = _map(name, **options)
    prep = Prepared(GameState(sc))
    penalised = 0
    for k, st in enumerate(_positions(sc, 5, games=4)):
        pol = HeuristicPolicy(prep, st.to_move)
        for limit in (1, 8):
            want = _reference_ranked(pol, st, st.legal_turns(), np.random.default_rng(k), limit)
            assert pol.ranked(st, None, np.random.default_rng(k), limit) == want
            penalised += any(s < -20 for s, _ in want)
    assert penalised > 0  # some positions had the command tank in danger


def test_end_state_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from tankmap.rules.tank_chess import movegen

    monkeypatch.setattr(movegen, "_MEMO_LIMIT", 16)
    sc = _map("basic-16.json")
    for st in _positions(sc, 6, games=2):
        index = TurnIndex(st, frozenset(), command_tank(st, st.to_move))
        assert index.all() == st.legal_turns()
        assert movegen._memo_size <= 16
