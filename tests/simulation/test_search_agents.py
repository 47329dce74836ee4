"""The ``search`` agents of the three games: accepted wherever policies are, deterministic
per seed for any worker count, right on hand-made positions, and stronger than the
heuristic in side-swapped games on built-in maps."""

from __future__ import annotations

import numpy as np
import pytest

from tankmap.analysis.simulation.games import PolicyError, get_driver
from tankmap.analysis.simulation.runner import simulate
from tankmap.analysis.simulation.tank_chess.agents.search import SearchPolicy
from tankmap.analysis.simulation.tank_chess.prepared import Prepared
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.scenario import Scenario
from tankmap.rules.tank_chess.state import ESCAPE, GameState
from tests.simulation.test_tank_chess_defence import _col_row, _state
from tests.tank_chess.tc_support import make

MAPS = {
    "final-act": "final-act/mirror",
    "tank-chess": "tank-chess/basic-16",
    "tank-wars": "tank-wars/default",
}


def _scenario(name: str) -> Scenario:
    path = map_path(name)
    assert path is not None
    return read_scenario(path)


@pytest.mark.parametrize("ruleset", sorted(MAPS))
def test_every_driver_knows_search(ruleset: str) -> None:
    driver = get_driver(ruleset)
    prepared = driver.prepare(_scenario(MAPS[ruleset]))
    assert "search" in driver.policy_names()
    for spec in ("search", "search:2"):
        driver.check_policy(prepared, spec)
    for bad in ("search:0", "search:x"):
        with pytest.raises(PolicyError):
            driver.check_policy(prepared, bad)


@pytest.mark.parametrize("ruleset", sorted(MAPS))
def test_search_is_deterministic_for_any_worker_count(ruleset: str) -> None:
    s = _scenario(MAPS[ruleset])
    spec = {"final-act": "search:1", "tank-chess": "search:12", "tank-wars": "search:2"}[ruleset]
    one = simulate(s, 4, (spec, "heuristic"), seed=9, workers=1, batch_size=1)
    two = simulate(s, 4, (spec, "heuristic"), seed=9, workers=2, batch_size=1)
    cols = ["winner", "length", "end", "route", "deaths"]
    assert one[cols].equals(two[cols])
    again = simulate(s, 4, (spec, "heuristic"), seed=9, workers=1, batch_size=1)
    assert one[cols].equals(again[cols])


def test_tank_chess_search_blocks_an_escape_it_would_lose() -> None:
    # The defence position (tests/simulation/test_tank_chess_defence.py): Black's command
    # tank escapes in 2 turns, White's in 3, so White must put its light into the corridor
    # (column b, below b10). Search sees Black's escaping reply to every racing move.
    st = _state("W command e1 N")
    pol = SearchPolicy(Prepared(st), 0)
    for seed in range(3):
        p, c, _, target = pol.choose(st, None, np.random.default_rng(seed))
        assert (p, target) == (1, -1)
        col, row = _col_row(st, c)
        assert col == "b" and row < 10


def test_tank_chess_search_escapes_when_it_can() -> None:
    # White's command tank on c8 facing N of an empty 5 x 10 board: 2 steps to c10 and the
    # step off the enemy edge are within its speed 5: escape wins at once.
    st = GameState(make(["W command c8 N", "B command a1 N", "W light e1 N"], "", size=(5, 10)))
    pol = SearchPolicy(Prepared(st), 0)
    turn = pol.choose(st, None, np.random.default_rng(0))
    assert turn[0] == 0 and turn[1] == ESCAPE


@pytest.mark.parametrize(
    "ruleset, spec, games, at_least",
    [
        ("final-act", "search", 6, 10),  # 2 x 6 games: search won 80/80 in longer runs
        ("tank-chess", "search", 12, 14),  # 2 x 12: 154/200 in longer runs
        ("tank-wars", "search:3", 8, 12),  # 2 x 8: search:3 (the default) scored 0.86 of 200
    ],
)
def test_search_beats_the_heuristic_with_sides_swapped(
    ruleset: str, spec: str, games: int, at_least: int
) -> None:
    s = _scenario(MAPS[ruleset])
    as_south = simulate(s, games, (spec, "heuristic"), seed=4, workers=2)
    as_north = simulate(s, games, ("heuristic", spec), seed=5, workers=2)
    won = int((as_south["winner"] == "south").sum() + (as_north["winner"] == "north").sum())
    assert won >= at_least, won
