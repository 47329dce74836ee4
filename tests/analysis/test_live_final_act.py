"""Final Act live overlays after seeded unit, damage, wreck and terrain edits: the live
reach (the rules' side search, ``fast_path``) and the table path's one multi-source BFS per
shared movement table (``_table_side_reach``, the path other rulesets take, with tables
derived incrementally from the previous edit's) both equal the per-unit reach of
``analysis.reach.side_reach`` over tables built from scratch (``tankmap analyze --json``)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from tankmap.analysis.graphs import clear_cache
from tankmap.analysis.live import LOCK, _table_side_reach, fast_path, live_overlays
from tankmap.analysis.reach import side_reach
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario, Terrain

ROOT = Path(__file__).resolve().parents[2]
FA_MAPS = sorted((ROOT / "maps/final-act").glob("*.json"))


def _edit(rng: np.random.Generator, s: Scenario) -> Scenario:
    """One random edit: a unit moved to a free cell, a tank damaged (a second table for its
    side), a unit wrecked, or a swamp cell added."""
    b = s.board
    taken = {u.cell for u in s.units} | {c for t in s.terrain for c in t.cells}
    free = [c for c in range(b.size) if c not in taken]
    live = s.live_units()
    u = live[int(rng.integers(len(live)))]
    what = int(rng.integers(4))
    if what == 0:
        return s.replacing(u, dataclasses.replace(u, cell=int(rng.choice(free))))
    if what == 1 and u.kind == "tank":
        return s.replacing(u, dataclasses.replace(u, damage=1))
    if what == 2:
        return s.replacing(u, dataclasses.replace(u, wreck=True))
    return s.adding(Terrain("swamp", (int(rng.choice(free)),)))


@pytest.mark.parametrize("path", FA_MAPS, ids=lambda p: p.name)
def test_side_bfs_matches_per_unit_reach_after_edits(path: Path) -> None:
    rng = np.random.default_rng(len(path.name))
    s = read_scenario(path)
    assert fast_path(s)
    for _ in range(6):
        s = _edit(rng, s)
        ov = live_overlays(s, check=False)
        with LOCK:
            tables = {side: _table_side_reach(s, side) for side in Side}  # derived tables
        clear_cache()
        for side in Side:
            ref = side_reach(s, side)  # per-unit BFS over tables built from scratch
            assert (ov.reach[side].ravel() == ref.cells).all(), side
            assert ov.turns_to_goal[side] == ref.turns_to_goal, side
            assert (tables[side][0] == ref.cells).all(), side
            assert tables[side][1] == ref.turns_to_goal, side
