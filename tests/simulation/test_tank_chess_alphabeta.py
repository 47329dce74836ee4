"""The Tank Chess ``alphabeta`` agent: wins in 1 and in 2 worked out by hand from the rules
(docs/rules.md §2.3-2.5), the compiled search making the very same choices as its
plain-Python reference on random positions of the built-in maps, the same games on 1 and 2
workers, and its budget checked where policies are."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tankmap.analysis.simulation.families import family
from tankmap.analysis.simulation.games import PolicyError, get_driver
from tankmap.analysis.simulation.runner import simulate
from tankmap.analysis.simulation.tank_chess.agents.alphabeta import (
    MAX_BUDGET,
    AlphaBetaPolicy,
    _tools,
)
from tankmap.analysis.simulation.tank_chess.agents.alphabeta_ref import ReferenceSearch
from tankmap.analysis.simulation.tank_chess.kernel import base as kb
from tankmap.analysis.simulation.tank_chess.kernel.alphabeta import root_turns, search_root
from tankmap.analysis.simulation.tank_chess.prepared import Prepared
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Side
from tankmap.rules.tank_chess.data import KIND_CODE
from tankmap.rules.tank_chess.state import ESCAPE, GameState, Turn
from tests.tank_chess.tc_support import make

# White to move. Black's command tank on d3 facing S escapes on its next turn (d2, d1 and
# the step off the south edge: 3 steps of its 5), so only a win now saves White. White's
# light on d8 facing S shoots down column d (d7-d4 empty, d3 not adjacent) and hits the
# command tank from behind (rear armour 0 < gun 1): destroyed. White's own command tank on
# a1 facing E is 16 steps from escaping; the heavy on p9 and Black's medium on m12 are
# decoys (the medium covers nothing White needs).
WIN_IN_1 = ["W command a1 E", "W light d8 S", "W heavy p9 W", "B command d3 S", "B medium m12 S"]

# White to move. White's lone command tank on h7 facing N is 9 steps from h16 plus the
# step off the north edge: 10 steps, two turns at speed 5, so no win now. Black's command
# tank is boxed in the a15-a16 pocket (obstacles b14, b15, b16, a14): it can only rotate
# or step between a15 and a16, every line out of the pocket is blocked, and it is 15 rows
# from its own escape. White wins in 2 by any first turn that leaves it 5 steps or fewer
# from escaping (e.g. h7-h12 N), and then escapes whatever Black does.
WIN_IN_2 = ["W command h7 N", "B command a16 N"]
POCKET = "b14 b15 b16 a14"


def _wins(st: GameState, turn: Turn) -> bool:
    """``turn`` ends the game at once with a win for the side playing it (rules §2.5)."""
    me = st.to_move
    st.push(turn)
    try:
        out = st.outcome()
        return out is not None and out.winner == (Side.SOUTH if me == 0 else Side.NORTH)
    finally:
        st.pop()


def _choose(st: GameState, budget: int, seed: int) -> Turn:
    return AlphaBetaPolicy(Prepared(st), st.to_move, budget).choose(
        st, None, np.random.default_rng(seed)
    )


@pytest.mark.parametrize("budget", [1, 50, 2000])
@pytest.mark.parametrize("seed", [0, 1])
def test_takes_a_win_in_1(budget: int, seed: int) -> None:
    st = GameState(make(WIN_IN_1))
    turn = _choose(st, budget, seed)
    assert _wins(st, turn)
    assert turn[3] == 3  # the shot at Black's command tank (piece 3)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_finds_a_win_in_2(seed: int) -> None:
    st = GameState(make(WIN_IN_2, POCKET))
    assert not any(t[1] == ESCAPE for t in st.legal_turns())  # no win in 1
    turn = _choose(st, 3000, seed)
    st.push(turn)
    replies = st.legal_turns()
    assert replies  # Black is not stalemated (that would be a draw)
    for reply in replies:
        st.push(reply)
        assert any(t[1] == ESCAPE for t in st.legal_turns()), reply
        st.pop()


def test_win_in_2_is_no_accident_of_the_position() -> None:
    # A first turn that rotates in place leaves 11 steps: some of White's turns do not win
    # in 2, so the test above can fail.
    st = GameState(make(WIN_IN_2, POCKET))
    losing = 0
    for turn in st.legal_turns():
        st.push(turn)
        st.push(next(iter(st.legal_turns())))
        if not any(t[1] == ESCAPE for t in st.legal_turns()):
            losing += 1
        st.pop()
        st.pop()
    assert losing > 0


@functools.cache
def _random_positions(name: str, count: int, seed: int) -> tuple[GameState, ...]:
    """``count`` positions after 0-39 random turns from the map's start (none over)."""
    path = map_path(name)
    assert path is not None
    start = GameState(read_scenario(path))
    rng = np.random.default_rng(seed)
    out: list[GameState] = []
    while len(out) < count:
        st = start.copy()
        for _ in range(int(rng.integers(0, 40))):
            turns = st.legal_turns()
            if st.outcome() is not None or not turns:
                break
            st.push(turns[int(rng.integers(len(turns)))])
        if st.outcome() is None and st.legal_turns():
            out.append(st)
    return tuple(out)


CASES = [
    (name, k, budget, banned)
    for name in ("tank-chess/basic-16", "tank-chess/sample-20")
    for k in range(12)
    for budget, banned in ((30, ""), (250, "heavy" if k % 3 == 0 else ""))
]


@pytest.mark.parametrize(("name", "k", "budget", "banned"), CASES)
def test_compiled_search_chooses_as_the_reference(
    name: str, k: int, budget: int, banned: str
) -> None:
    st = _random_positions(name, 12, seed=5)[k].copy()
    prep = Prepared(st)
    kinds = frozenset({KIND_CODE[banned]}) if banned else frozenset()
    bits = sum(1 << c for c in kinds)
    rng = np.random.default_rng(k)
    b, w = _tools(prep, st)
    pos = kb.position_of(st)
    n = root_turns(b, pos, w, bits)
    rank = rng.permutation(n).astype(np.int64)
    i = search_root(b, pos, w, budget, bits, rank)
    chosen = tuple(int(x) for x in w.stack[i])
    ref = ReferenceSearch(prep, st)
    turns, j = ref.search(st, budget, kinds, rank.tolist())
    assert turns[j] == chosen
    assert (int(w.counters[0]), int(w.counters[7])) == (ref.nodes, ref.depth)


def test_leaf_evaluation_within_a_window_keeps_every_promise() -> None:
    """``evaluate_within`` returns the value inside the window, a lower bound of it at or
    above ``beta`` and an upper bound at or below ``alpha`` (what a fail-soft search may
    use), on positions and windows that reach each of its ways out."""
    from tankmap.analysis.simulation.tank_chess.kernel.evaluation import (
        evaluate,
        evaluate_within,
    )

    ways = {"exact": 0, "low": 0, "high": 0}
    for name in ("tank-chess/basic-16", "tank-chess/sample-20"):
        for st in _random_positions(name, 12, seed=5):
            b, w = _tools(Prepared(st), st)
            w.banned[:] = 0  # (as a search for a side with no kinds banned leaves it)
            pos = kb.position_of(st)
            args = (w.values, w.lower, w.banned, w.ev, w.work, w.states)
            value = evaluate(b, pos, 3, *args)
            ref = ReferenceSearch(Prepared(st), st)
            assert ref.evaluate(st, 3, (frozenset(), frozenset())) == value
            for lo, hi in ((-200, -100), (100, 200), (-1, 1), (-30, 80), (-80, 30), (-61, -59)):
                alpha, beta = value + lo, value + hi
                got = evaluate_within(b, pos, 3, alpha, beta, *args)
                if got >= beta:
                    assert value >= got
                    ways["high"] += 1
                elif got <= alpha:
                    assert value <= got
                    ways["low"] += 1
                else:
                    assert got == value
                    ways["exact"] += 1
                assert ref.evaluate(st, 3, (frozenset(), frozenset()), alpha, beta) == got
    assert min(ways.values()) > 0, ways


def test_same_games_on_one_and_two_workers() -> None:
    path = map_path("tank-chess/basic-16")
    assert path is not None
    s = read_scenario(path)
    pols = ("alphabeta:60", "heuristic")
    one = simulate(s, 4, pols, seed=9, workers=1, batch_size=1)
    two = simulate(s, 4, pols, seed=9, workers=2, batch_size=1)
    cols = ["winner", "length", "end", "route", "deaths"]
    assert one[cols].equals(two[cols])


def test_budgets_are_checked_in_one_line() -> None:
    path = map_path("tank-chess/basic-16")
    assert path is not None
    driver = get_driver("tank-chess")
    prepared = driver.prepare(read_scenario(path))
    assert "alphabeta" in driver.policy_names()
    for spec in ("alphabeta", "alphabeta:1", f"alphabeta:{MAX_BUDGET}", "alphabeta:9+no-heavy"):
        driver.check_policy(prepared, spec)
    for bad in ("alphabeta:0", f"alphabeta:{MAX_BUDGET + 1}", "alphabeta:x", "alphabeta:-3"):
        with pytest.raises(PolicyError) as err:
            driver.check_policy(prepared, bad)
        assert "\n" not in str(err.value)


def test_family_is_independent_of_the_heuristic() -> None:
    fam = family("tank-chess", "alphabeta")
    assert fam.independent
    assert fam.default_agent() == "alphabeta"
