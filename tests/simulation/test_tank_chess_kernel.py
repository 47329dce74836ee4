"""The compiled Tank Chess kernel gives exactly the answers of the Python engine.

``kernel/set_order.py`` replays CPython's set table (so iteration orders agree: they fix the
order of ``GameState.legal_turns``); ``kernel/moves.legal_turns`` must list the very
turns of ``legal_turns`` (filtered by banned kinds as ``allowed`` does) in the same order on
positions of seeded random and heuristic games, on the basic and sample maps and with every
option; ``kernel/heuristic.py`` must choose the turn ``HeuristicPolicy`` chooses, making the
same draws; games of ``random`` and ``heuristic`` players on the kernel must be the games
of the Python loop (``TANKMAP_KERNEL=python``) for the same seeds, field for field, and ``simulate``
gives the same table for one or two workers. ``kernel/escape.py`` must find the turns and
routes of ``escape_route``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tankmap.analysis.simulation.games import get_driver
from tankmap.analysis.simulation.tank_chess.agents.factory import make_policy
from tankmap.analysis.simulation.tank_chess.agents.turns import allowed
from tankmap.analysis.simulation.tank_chess.ends import REASONS
from tankmap.analysis.simulation.tank_chess.kernel import base as kb
from tankmap.analysis.simulation.tank_chess.kernel import escape as k_escape
from tankmap.analysis.simulation.tank_chess.kernel import games as k_games
from tankmap.analysis.simulation.tank_chess.kernel import heuristic as k_heuristic
from tankmap.analysis.simulation.tank_chess.kernel import moves as k_moves
from tankmap.analysis.simulation.tank_chess.kernel import positions as k_positions
from tankmap.analysis.simulation.tank_chess.kernel import rng as k_rng
from tankmap.analysis.simulation.tank_chess.kernel import set_order as k_set
from tankmap.analysis.simulation.tank_chess.prepared import Prepared
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.scenario import Scenario
from tankmap.rules.tank_chess.escape_route import escape_route
from tankmap.rules.tank_chess.state import GameState
from tests.tank_chess.tc_support import make

ROOT = Path(__file__).resolve().parents[2]
needs_numba = pytest.mark.skipif(kb._numba is None, reason="numba is not installed")
OPTIONS = [
    ("basic-16", {}),
    ("sample-20", {}),
    ("basic-16", {"strict_corners": True, "backward_escape": True}),
    ("sample-20", {"diagonal_escape": False, "strict_corners": True, "backward_escape": True}),
]


def _scenario(name: str, **options: object) -> Scenario:
    sc = read_scenario(ROOT / "maps" / "tank-chess" / f"{name}.json")
    return sc.with_options(**options) if options else sc


@needs_numba
def test_set_order_is_cpython_order() -> None:
    rng = np.random.default_rng(3)
    tab, tmp, out = (np.empty(1 << 14, np.int64) for _ in range(3))
    meta = np.zeros(4, np.int64)
    for trial in range(300):
        n = int(rng.integers(1, 400))
        top = int(rng.choice([16, 300, 2048]))
        ops = rng.integers(0, top, n)
        drop = rng.random(n) < 0.15  # discards (leave dummies that later adds may reuse)
        ops[drop] = -ops[drop] - 1
        ref: set[int] = set()
        for k in ops.tolist():
            if k >= 0:
                ref.add(k)
            else:
                ref.discard(-k - 1)
        got = k_set.replay(ops, tab, tmp, meta, out)
        assert out[:got].tolist() == list(ref), trial
    assert k_set.agrees()


def _positions(sc: Scenario, games: int, seed: int) -> list[GameState]:
    """Positions of seeded games: random against random, then heuristic self-play."""
    start = GameState(sc)
    prep = Prepared(start)
    rng = np.random.default_rng(seed)
    out: list[GameState] = []
    for g in range(games):
        pols = ("random", "random") if g % 2 else ("heuristic", "heuristic")
        players = [make_policy(p, (), prep, s) for s, p in enumerate(pols)]
        st = start.copy()
        while st.outcome() is None and st.ply < 60:
            out.append(st.copy())
            st.push(players[st.to_move].choose(st, None, rng))
    return out


@needs_numba
@pytest.mark.parametrize(("name", "options"), OPTIONS)
def test_legal_turns_equal(name: str, options: dict[str, object]) -> None:
    sc = _scenario(name, **options)
    positions = _positions(sc, 4, 11)
    b = kb.board_of(positions[0])
    work = kb.scratch(b)
    states = np.empty(8 * positions[0].size, np.int64)
    out = np.empty((k_moves.turn_rows(b), 4), np.int64)
    rng = np.random.default_rng(5)
    for i, st in enumerate(positions):
        banned = int(rng.integers(0, 64)) if i % 4 == 0 else 0
        n = k_moves.legal_turns(b, kb.position_of(st), banned, work, states, out)
        kinds = frozenset(k for k in range(6) if banned >> k & 1)
        assert [tuple(r) for r in out[:n].tolist()] == allowed(st, st.legal_turns(), kinds), i
        assert k_moves.outcome(b, kb.position_of(st)) == -1


@needs_numba
def test_push_and_outcome_equal() -> None:
    sc = _scenario("sample-20", max_turns=50)
    st = GameState(sc)
    b = kb.board_of(st)
    pos = kb.position_of(st)
    rng = np.random.default_rng(2)
    while st.outcome() is None:
        turns = st.legal_turns()
        turn = turns[int(rng.integers(len(turns)))]
        st.push(turn)
        assert k_moves.push(b, pos, *turn) == st.history[-1][3]
        again = kb.position_of(st)
        for a, c in zip(pos, again, strict=True):
            assert a.tolist() == c.tolist()
    out = st.outcome()
    assert out is not None
    assert REASONS[k_moves.outcome(b, pos)] == out.reason


@needs_numba
@pytest.mark.parametrize(
    ("name", "options", "pols"),
    [
        ("basic-16", {"max_turns": 80}, ("random", "random")),
        ("sample-20", {"max_turns": 80}, ("random+no-light", "random+no-mortar+no-heavy")),
        ("basic-16", {"max_turns": 70, "strict_corners": True, "backward_escape": True},
         ("random", "random+no-command")),
        ("sample-20", {"max_turns": 60, "diagonal_escape": False}, ("random", "random")),
        ("basic-16", {}, ("heuristic", "heuristic")),
        ("sample-20", {"strict_corners": True}, ("heuristic", "heuristic+no-light")),
        ("basic-16", {"backward_escape": True}, ("random+no-mortar", "heuristic")),
        ("sample-20", {"diagonal_escape": False}, ("heuristic+no-heavy", "random")),
        ("../../docs/examples/tank-chess-lopsided-16", {}, ("heuristic", "heuristic")),
    ],
)  # fmt: skip
def test_random_games_equal(
    name: str,
    options: dict[str, object],
    pols: tuple[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(k_games, "CHUNK", 7)  # several kernel calls per game
    driver = get_driver("tank-chess")
    prepared = driver.prepare(_scenario(name, **options))
    for seed in range(3):
        monkeypatch.setenv("TANKMAP_KERNEL", "python")
        ref = driver.play(prepared, pols, np.random.default_rng(seed), record=True)
        monkeypatch.setenv("TANKMAP_KERNEL", "")
        got = driver.play(prepared, pols, np.random.default_rng(seed), record=True)
        assert got == ref


def test_python_switch_keeps_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("the kernel ran")

    monkeypatch.setattr(k_games, "kernel_turns", refuse)
    monkeypatch.setenv("TANKMAP_KERNEL", "python")
    driver = get_driver("tank-chess")
    prepared = driver.prepare(_scenario("basic-16", max_turns=6))
    result = driver.play(prepared, ("random", "random"), np.random.default_rng(0))
    assert result.length == 6


@needs_numba
def test_same_table_for_any_worker_count_and_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    from tankmap.analysis.simulation.runner import simulate

    sc = _scenario("basic-16", max_turns=40)
    pols = ("random", "random+no-light")
    one = simulate(sc, 6, pols, seed=3, workers=1)
    two = simulate(sc, 6, pols, seed=3, workers=2, batch_size=2)
    pd.testing.assert_frame_equal(one, two)
    monkeypatch.setenv("TANKMAP_KERNEL", "python")
    pd.testing.assert_frame_equal(one, simulate(sc, 6, pols, seed=3, workers=1))


@needs_numba
@pytest.mark.parametrize(("name", "options"), OPTIONS)
def test_heuristic_choice_equal(name: str, options: dict[str, object]) -> None:
    sc = _scenario(name, **options)
    positions = _positions(sc, 3, 5)
    start = positions[0]
    prep = Prepared(start)
    b = kb.board_of(start)
    facts = k_heuristic.facts_of(prep)
    work = kb.scratch(b)
    states = np.empty(8 * start.size, np.int64)
    out = np.empty((k_moves.turn_rows(b), 4), np.int64)
    memo = k_heuristic.escape_memo(b, 0)
    for i, st in enumerate(positions):
        banned = frozenset({1}) if i % 5 == 4 else frozenset()
        ref_rng, rng = np.random.default_rng(i), np.random.default_rng(i)
        want = make_policy("heuristic", ("no-light",) if banned else (), prep, st.to_move)
        pos = kb.position_of(st)
        state = k_rng.state_of(rng)
        row = k_heuristic.heuristic_choice(
            b, facts, pos, state, 2 if banned else 0, work, states, out, memo
        )
        assert tuple(out[row].tolist()) == want.choose(st, None, ref_rng), i
        k_rng.restore(rng, state)
        assert rng.random() == ref_rng.random()  # the same draws were made


@needs_numba
@pytest.mark.parametrize("size", ["default", "tiny"])
def test_heuristic_choice_equal_with_position_memo(size: str) -> None:
    """Positions met again are answered from ``kernel/positions.py`` (a tiny memo forgets
    all the time): the same choices and draws."""
    sc = _scenario("basic-16")
    positions = _positions(sc, 3, 5)
    start = positions[0]
    prep = Prepared(start)
    b = kb.board_of(start)
    facts = k_heuristic.facts_of(prep)
    work = kb.scratch(b, memo=True)
    states = np.empty(8 * start.size, np.int64)
    out = np.empty((k_moves.turn_rows(b), 4), np.int64)
    memo = k_heuristic.escape_memo(b)
    if size == "tiny":
        memo = memo[:4] + k_positions.positions_memo(b, 4, 4096)
    for r in range(3):
        for i, st in enumerate(positions):
            banned = frozenset({1}) if i % 5 == 4 else frozenset()
            ref_rng, rng = np.random.default_rng(i + r), np.random.default_rng(i + r)
            want = make_policy("heuristic", ("no-light",) if banned else (), prep, st.to_move)
            pos = kb.position_of(st)
            state = k_rng.state_of(rng)
            row = k_heuristic.heuristic_choice(
                b, facts, pos, state, 2 if banned else 0, work, states, out, memo
            )
            assert tuple(out[row].tolist()) == want.choose(st, None, ref_rng), (r, i)
            k_rng.restore(rng, state)
            assert rng.random() == ref_rng.random()
    assert memo[6][1] > 0  # positions were remembered


@needs_numba
@pytest.mark.parametrize(("name", "options"), OPTIONS)
def test_escape_routes_equal(name: str, options: dict[str, object]) -> None:
    sc = _scenario(name, **options)
    positions = _positions(sc, 2, 9)
    b = kb.board_of(positions[0])
    n = 8 * positions[0].size
    level = np.empty(n, np.int64)
    nxt = np.empty(n, np.bool_)
    cells = np.empty(n // 8, np.bool_)
    bound = np.asarray(Prepared(positions[0]).turns, dtype=np.int64)  # (pruning the search)
    for st in positions[::2]:
        pos = kb.position_of(st)
        for p in range(len(st.kind)):
            ref = escape_route(st, p, 4)
            turns = k_escape.escape_search(b, pos, p, 4, level, bound[st.side[p]])
            assert turns == (ref.turns or 0)
            if turns:
                count = k_escape.escape_routes(b, pos, p, turns, level, nxt, cells)
                assert sum(1 << s for s in np.flatnonzero(nxt).tolist()) == ref.next_states
                assert count == ref.next_states.bit_count()
                assert sum(1 << (8 * c) for c in np.flatnonzero(cells).tolist()) == ref.cells


@needs_numba
@pytest.mark.parametrize(("name", "options"), OPTIONS)
def test_escape_turns_equal(name: str, options: dict[str, object]) -> None:
    sc = _scenario(name, **options)
    positions = _positions(sc, 2, 7)
    b = kb.board_of(positions[0])
    zero = np.zeros(8 * positions[0].size, np.int64)  # (no pruning)
    for st in positions[::2]:
        pos = kb.position_of(st)
        for p in range(len(st.kind)):
            for limit in (1, 3, 5):
                ref = escape_route(st, p, limit, routes=False).turns
                assert k_escape.escape_turns(b, pos, p, limit, zero) == (ref or 0)


SMALL = [
    {
        "units": ["W heavy h2 N", "W light c3 N", "B medium h14 S", "B mortar d15 S",
                  "B light e12 S x"],
        "obstacles": "h8 h9 c10",
    },  # no command tanks, a wreck
    {
        "units": ["W command d1 N", "W light e2 N", "B command d8 S", "B heavy e7 S",
                  "B mortar a8 S"],
        "size": (8, 8),
        "backward_escape": True,
        "diagonal_escape": False,
        "max_turns": 0,
    },
]  # fmt: skip


@needs_numba
@pytest.mark.parametrize("case", range(len(SMALL)))
def test_small_positions_play_the_same_games(case: int, monkeypatch: pytest.MonkeyPatch) -> None:
    driver = get_driver("tank-chess")
    prepared = driver.prepare(make(**SMALL[case]))  # type: ignore[arg-type]
    for pols in (("heuristic", "heuristic"), ("random", "heuristic+no-light")):
        for seed in range(3):
            monkeypatch.setenv("TANKMAP_KERNEL", "python")
            ref = driver.play(prepared, pols, np.random.default_rng(seed), record=True)
            monkeypatch.setenv("TANKMAP_KERNEL", "")
            assert driver.play(prepared, pols, np.random.default_rng(seed), record=True) == ref


SEEDED = [
    ("basic-16", {}, ("heuristic", "heuristic")),
    ("sample-20", {"strict_corners": True}, ("heuristic", "heuristic+no-light")),
    ("basic-16", {"backward_escape": True, "max_turns": 9}, ("random+no-mortar", "heuristic")),
    ("sample-20", {"diagonal_escape": False}, ("random", "random")),
]  # fmt: skip


def _reference(
    prepared: object,
    pols: tuple[str, str],
    seed: int,
    games: list[int],
    monkeypatch: pytest.MonkeyPatch,
) -> list[object]:
    """The games on the Python path, one ``runner.game_rng`` each."""
    from tankmap.analysis.simulation.runner import game_rng

    driver = get_driver("tank-chess")
    monkeypatch.setenv("TANKMAP_KERNEL", "python")
    ref = [driver.play(prepared, pols, game_rng(seed, g)) for g in games]
    monkeypatch.setenv("TANKMAP_KERNEL", "")
    return ref


@needs_numba
@pytest.mark.parametrize(("name", "options", "pols"), SEEDED)
def test_seeded_games_equal(
    name: str, options: dict[str, object], pols: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``play_seeded`` (one kernel call, results as arrays) gives the Python path's games:
    the same ``GameResult``s and the same table columns."""
    from tankmap.analysis.simulation.runner import result_columns
    from tankmap.analysis.simulation.tank_chess.results import TankChessResults

    sc = _scenario(name, **options)
    driver = get_driver("tank-chess")
    prepared = driver.prepare(sc)
    games = [0, 1, 2, 7, 30, 2**40]
    ref = _reference(prepared, pols, 11, games, monkeypatch)
    got = driver.play_seeded(prepared, pols, 11, games)
    assert isinstance(got, TankChessResults)
    assert result_columns(sc.board, pols, got, games) == result_columns(sc.board, pols, ref, games)
    assert list(got) == ref
    assert got[1:3] == ref[1:3] and len(got) == len(games)


@needs_numba
def test_seeded_game_the_kernel_stops_is_played_by_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game the kernel reports stopped (end -1: a ``random`` player without a turn) is
    played again on ``play``."""
    sc = _scenario("basic-16")
    driver = get_driver("tank-chess")
    prepared = driver.prepare(sc)
    pols = ("random", "heuristic")
    kernel_games = k_games.kernel_games

    def stopping(*args: object) -> k_games.GameArrays:
        arrays = kernel_games(*args)  # type: ignore[arg-type]
        arrays.res[1] = -1
        return arrays

    monkeypatch.setattr(k_games, "kernel_games", stopping)
    got = driver.play_seeded(prepared, pols, 2, [0, 1, 2])
    assert list(got) == _reference(prepared, pols, 2, [0, 1, 2], monkeypatch)


@needs_numba
def test_seeded_games_with_records_play_one_by_one() -> None:
    driver = get_driver("tank-chess")
    prepared = driver.prepare(_scenario("basic-16"))
    got = driver.play_seeded(prepared, ("heuristic", "heuristic"), 0, [3], record=True)
    assert isinstance(got, list) and got[0].record is not None
    assert got == list(driver.play_seeded(prepared, ("heuristic", "heuristic"), 0, [3]))


@needs_numba
def test_seeded_negative_game_numbers_raise_as_game_rng_does() -> None:
    from tankmap.analysis.simulation.runner import game_rng

    driver = get_driver("tank-chess")
    prepared = driver.prepare(_scenario("basic-16"))
    with pytest.raises(ValueError):
        game_rng(0, -1)
    with pytest.raises(ValueError):
        driver.play_seeded(prepared, ("heuristic", "heuristic"), 0, [0, -1])


@needs_numba
def test_other_bit_generators_play_on_the_python_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel draws as PCG64: a game with another bit generator is the Python one."""
    driver = get_driver("tank-chess")
    prepared = driver.prepare(_scenario("basic-16"))
    pols = ("heuristic", "random")
    got = driver.play(prepared, pols, np.random.Generator(np.random.MT19937(4)))
    monkeypatch.setenv("TANKMAP_KERNEL", "python")
    assert got == driver.play(prepared, pols, np.random.Generator(np.random.MT19937(4)))
