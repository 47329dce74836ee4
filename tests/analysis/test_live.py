"""The editor's live-overlay API gives the same numbers as the full analysis."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import numpy as np
from fa_boards import MINE_WALL, SWAMP_WALL, c, fa, tank

from tankmap.analysis.graphs import clear_cache
from tankmap.analysis.live import live_overlays, reach_ready, warm
from tankmap.analysis.summary import analyse
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Terrain

ROOT = Path(__file__).resolve().parents[2]


def test_live_overlays_match_analyse_json() -> None:
    s = read_scenario(ROOT / "maps/final-act/flanks-vs-centre.json")
    ov = live_overlays(s)
    doc = analyse(s).to_json()
    for side in Side:
        reach = np.asarray(
            [[-1 if v is None else v for v in row] for row in doc["sides"][side.value]["reach"]]
        )
        assert (ov.reach[side] == reach).all()
        assert (ov.coverage[side] == np.asarray(doc["sides"][side.value]["coverage"])).all()
        assert ov.turns_to_goal[side] == doc["sides"][side.value]["turns_to_goal"]
    assert int(ov.contested.sum()) == doc["contested"]
    assert ov.violations == []  # a legal built-in map
    assert set(ov.timings_ms) == {"check", "coverage", "reach", "total"}


def test_live_arrays_are_row_major_from_row_1() -> None:
    # tank on f1 facing N, empty board: reach[row][col]; f12 is row index 11, column 5
    ov = live_overlays(fa(units=(tank("f1"),)))
    reach = ov.reach[Side.SOUTH]
    assert reach.shape == (12, 12)
    assert reach[0, 5] == 0 and reach[11, 5] == 11
    assert ov.coverage[Side.SOUTH][1, 5] == 1  # f2 is in the cone
    assert (ov.reach[Side.NORTH] == -1).all() and ov.turns_to_goal[Side.NORTH] is None


def test_edits_update_reach_like_a_fresh_analysis() -> None:
    s = fa(units=(tank("f1"), tank("c12", Side.NORTH)))
    live_overlays(s)
    for terrain in (SWAMP_WALL, MINE_WALL, ()):
        s = dataclasses.replace(s, terrain=terrain)
        u = s.units[0]
        s = s.replacing(u, dataclasses.replace(u, cell=c("g1")))
        got = live_overlays(s)
        clear_cache()
        fresh = live_overlays(s)
        for side in Side:
            assert (got.reach[side] == fresh.reach[side]).all()
            assert got.turns_to_goal[side] == fresh.turns_to_goal[side]
    assert fresh.turns_to_goal[Side.SOUTH] == 11  # g1 -> g12 on the open board


def test_reach_false_skips_reach_and_warm_makes_it_ready() -> None:
    clear_cache()
    s = fa(terrain=(Terrain("swamp", (c("a1"), c("b1"), c("a2"), c("b2"))),), units=(tank("f1"),))
    ov = live_overlays(s, reach=False)
    assert ov.reach == {} and ov.turns_to_goal == {}
    assert reach_ready(s)  # Final Act reach is the rules' side search: no tables to warm
    assert live_overlays(s).turns_to_goal[Side.SOUTH] == 11
    tw = read_scenario(ROOT / "maps/tank-wars/default.json")  # the movement-table path
    assert not reach_ready(tw)
    worker = threading.Thread(target=warm, args=(tw,))
    worker.start()
    worker.join()
    assert reach_ready(tw)
    assert set(live_overlays(tw).reach) == set(Side)


def test_violations_come_from_the_ruleset() -> None:
    # two tanks named C on one side: the ruleset reports an error; live passes it through
    s = fa(units=(tank("f1"), tank("g1")))
    ov = live_overlays(s)
    assert any(v.severity == "error" for v in ov.violations)
