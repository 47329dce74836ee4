"""The heuristic's remembered position facts (``tank_chess.agents.heuristic_memo``) play the
same games.

The playout path (``ranked(st, None, rng)``) remembers per position what does not depend on
the generator and scores candidates in numpy. The reference is the policy's plain path
over the engine's full turn list (``ranked(st, st.legal_turns(), rng)``), which remembers
nothing: both must rank alike on every position, whether its facts are fresh or were
remembered from earlier calls with other draws, and whole games must agree move by move
and in their results, on every built-in Tank Chess map with pieces and the example in
docs/examples. The games' records must replay through the checked engine (every turn
legal there, the same result). The driver plays on the Python path here
(``TANKMAP_KERNEL=python``: the compiled kernel has no position memo; its own games are
checked in test_tank_chess_kernel.py).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tankmap.analysis.simulation.games import parse_policy
from tankmap.analysis.simulation.runner import game_rng, play_games
from tankmap.analysis.simulation.tank_chess.agents import heuristic_memo as tank_chess_memo
from tankmap.analysis.simulation.tank_chess.agents.factory import make_policy
from tankmap.analysis.simulation.tank_chess.agents.heuristic import HeuristicPolicy
from tankmap.analysis.simulation.tank_chess.agents.random import RandomPolicy
from tankmap.analysis.simulation.tank_chess.driver import DRIVER
from tankmap.analysis.simulation.tank_chess.prepared import Prepared
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.scenario import Scenario
from tankmap.rules.tank_chess.data import KIND_CODE
from tankmap.rules.tank_chess.state import GameState

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _python_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TANKMAP_KERNEL", "python")


MAPS = [
    ROOT / "maps" / "tank-chess" / "basic-16.json",
    ROOT / "maps" / "tank-chess" / "sample-20.json",
    ROOT / "docs" / "examples" / "tank-chess-lopsided-16.json",
]
EMPTY_MAPS = [
    ROOT / "maps" / "tank-chess" / "blank-16.json",
    ROOT / "maps" / "tank-chess" / "blank-20.json",
]


def _scenario(path: Path, strict: bool) -> Scenario:
    sc = read_scenario(path)
    return sc.with_options(strict_corners=True) if strict else sc


def _reference_game(
    sc: Scenario, policies: tuple[str, str], seed: int, game: int
) -> tuple[list[tuple[int, int, int, int]], str | None]:
    """Game ``game`` of a run seeded ``seed`` played by the policies' plain paths (full
    turn lists, nothing remembered): its turns and its outcome's reason."""
    prep = Prepared(GameState(sc))
    players = []
    for side, spec in enumerate(policies):
        base, restrictions = parse_policy(spec)
        players.append(make_policy(base, restrictions, prep, side))
    rng = game_rng(seed, game)
    st = GameState(sc)
    while st.outcome() is None:
        turn = players[st.to_move].choose(st, st.legal_turns(), rng)
        st.push(turn)
    out = st.outcome()
    return st.turns(), out.reason if out is not None else None


PAIRS = [
    ("heuristic", "heuristic"),
    ("heuristic", "random"),
    ("random", "heuristic"),
    ("random", "random"),
    ("heuristic+no-light", "heuristic+no-medium+no-heavy"),
]


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.stem)
@pytest.mark.parametrize("strict", [False, True], ids=["plain", "strict"])
def test_same_games_as_the_plain_policies(path: Path, strict: bool) -> None:
    sc = _scenario(path, strict)
    prepared = DRIVER.prepare(sc)  # one memo across every game, as in a run
    games = 0
    for policies in PAIRS:
        n = 4 if policies == ("random", "random") else 6
        results = play_games(DRIVER, prepared, policies, 3, range(n), record=True)
        for g, r in enumerate(results):
            want_turns, want_reason = _reference_game(sc, policies, 3, g)
            # the record replays through the checked engine (each turn parsed against
            # the legal turns of its position, the stored result reproduced)
            replayed = r.record.replay()
            assert replayed.turns() == want_turns, (policies, g)
            assert replayed.outcome() is not None
            assert replayed.outcome().reason == want_reason
            assert r.length == len(want_turns)
            games += 1
    assert games == 28
    assert prepared.policy_data.positions  # the memo was used


@pytest.mark.parametrize("path", EMPTY_MAPS, ids=lambda p: p.stem)
def test_boards_without_pieces_end_at_once(path: Path) -> None:
    sc = read_scenario(path)
    prepared = DRIVER.prepare(sc)
    for policies in PAIRS[:2]:
        r = play_games(DRIVER, prepared, policies, 0, range(1))[0]
        assert (r.length, r.winner) == (0, None)
        assert _reference_game(sc, policies, 0, 0)[0] == []


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.stem)
def test_remembered_facts_rank_as_fresh_ones(path: Path) -> None:
    """Each position ranked three times through the memo (draws a, b, then a again: the
    last call meets facts remembered under other draws) and once by the plain path."""
    sc = read_scenario(path)
    prep = Prepared(GameState(sc))
    rng = np.random.default_rng(11)
    positions = 0
    for g in range(4):
        st = GameState(sc)
        players = (HeuristicPolicy(prep, 0), RandomPolicy() if g >= 2 else HeuristicPolicy(prep, 1))
        while st.outcome() is None and st.ply < 40:
            for banned in (frozenset(), frozenset({KIND_CODE["light"]})):
                pol = HeuristicPolicy(prep, st.to_move, banned)
                for limit in (1, 8):
                    a = pol.ranked(st, None, np.random.default_rng(positions), limit)
                    pol.ranked(st, None, np.random.default_rng(positions + 10**6), limit)
                    again = pol.ranked(st, None, np.random.default_rng(positions), limit)
                    plain = pol.ranked(
                        st, st.legal_turns(), np.random.default_rng(positions), limit
                    )
                    assert a == again == plain
            positions += 1
            st.push(players[st.to_move].choose(st, None, rng))
    assert positions > 30  # (games against random last longer)


def test_memo_is_bounded_and_does_not_change_games(monkeypatch: pytest.MonkeyPatch) -> None:
    sc = read_scenario(MAPS[0])
    big = DRIVER.prepare(sc)
    want = play_games(DRIVER, big, ("heuristic", "heuristic"), 5, range(30))
    monkeypatch.setattr(tank_chess_memo, "LIMIT", 8)
    small = DRIVER.prepare(sc)
    got = play_games(DRIVER, small, ("heuristic", "heuristic"), 5, range(30))
    assert got == want
    assert len(small.policy_data.positions) <= 8 < len(big.policy_data.positions)


def test_a_game_does_not_depend_on_the_games_played_before() -> None:
    """Workers play different games before a given one: its result must not change
    (``runner`` seeds each game by its number alone)."""
    sc = read_scenario(MAPS[0])
    warm = play_games(DRIVER, DRIVER.prepare(sc), ("heuristic", "heuristic"), 9, range(12))
    cold = play_games(DRIVER, DRIVER.prepare(sc), ("heuristic", "heuristic"), 9, range(8, 12))
    assert warm[8:] == cold


@pytest.mark.parametrize(
    "options",
    [{"diagonal_escape": False}, {"backward_escape": True}],
    ids=["no-diagonal-escape", "backward-escape"],
)
def test_same_games_under_the_escape_readings(options: dict[str, bool]) -> None:
    # The escape readings (docs/rules.md §2.5) live in the scenario's rules tables, which
    # both paths read: the remembered facts follow them.
    sc = read_scenario(MAPS[0]).with_options(**options)
    prepared = DRIVER.prepare(sc)
    for policies in PAIRS[:3]:
        results = play_games(DRIVER, prepared, policies, 5, range(4), record=True)
        for g, r in enumerate(results):
            want_turns, want_reason = _reference_game(sc, policies, 5, g)
            replayed = r.record.replay()
            assert replayed.turns() == want_turns, (policies, g)
            assert replayed.outcome() is not None
            assert replayed.outcome().reason == want_reason
