"""Final Act live reach by the rules' bitboard side search (``rules.final_act.reach``)
equals the movement-table numbers of ``tankmap analyze --json`` (``analysis.reach.side_reach``
over tables built from scratch through ``ruleset.moves``), on every built-in Final Act map
after seeded random terrain, wreck and unit edits, with the movement options toggled."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from tankmap.analysis.graphs import clear_cache
from tankmap.analysis.live import fast_path, live_overlays
from tankmap.analysis.reach import side_reach
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.final_act.reach import side_terrain_reach
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Terrain, Unit

ROOT = Path(__file__).resolve().parents[2]
FA_MAPS = sorted((ROOT / "maps/final-act").glob("*.json"))
OPTIONS = {"reverse_turn": False, "lane_owner_only": False, "wrecks": True}  # defaults


def _line(rng: np.random.Generator, s: Scenario, length: int) -> tuple[int, ...]:
    """``length`` cells in a row or column from a random on-board start (may be shorter at
    an edge)."""
    b = s.board
    start = int(rng.integers(b.size))
    dx, dy = ((1, 0), (0, 1))[int(rng.integers(2))]
    cells = [start]
    while len(cells) < length and (c := b.offset(cells[-1], dx, dy)) >= 0:
        cells.append(c)
    return tuple(cells)


def _edit(rng: np.random.Generator, s: Scenario) -> Scenario:
    """One random edit: a swamp, berm or minefield (lane with any arrow, owner or none)
    added; a terrain piece removed; a live unit moved, turned (diagonal and missing facings
    too) or wrecked; a wreck added; or a movement option toggled."""
    b = s.board
    what = int(rng.integers(10))
    side = Side.SOUTH if rng.integers(2) else Side.NORTH
    live = s.live_units()
    if what == 0:
        return s.adding(Terrain("swamp", (int(rng.integers(b.size)),), side))
    if what == 1:
        kind = ("berm-small", "berm-large")[int(rng.integers(2))]
        return s.adding(Terrain(kind, _line(rng, s, 3), side))
    if what in (2, 3):
        cells = _line(rng, s, 3)
        lane = cells[int(rng.integers(len(cells)))]
        arrow = None if rng.integers(6) == 0 else Facing(int(rng.integers(8)))
        owner = None if rng.integers(4) == 0 else side
        return s.adding(Terrain("minefield", cells, owner, lane=lane, arrow=arrow))
    if what == 4 and s.terrain:
        return s.removing(s.terrain[int(rng.integers(len(s.terrain)))])
    if what == 5 and live:
        u = live[int(rng.integers(len(live)))]
        return s.replacing(u, dataclasses.replace(u, wreck=True))
    if what == 6:
        kind = ("tank", "rm", "at")[int(rng.integers(3))]
        return s.adding(Unit(kind, side, int(rng.integers(b.size)), Facing.N, wreck=True))
    if what == 7 and live:
        u = live[int(rng.integers(len(live)))]
        return s.replacing(u, dataclasses.replace(u, cell=int(rng.integers(b.size))))
    if what == 8 and live:
        u = live[int(rng.integers(len(live)))]
        f = int(rng.integers(9))
        return s.replacing(u, dataclasses.replace(u, facing=None if f == 8 else Facing(f)))
    name = list(OPTIONS)[int(rng.integers(len(OPTIONS)))]
    return s.with_options(**{name: not s.option(name, OPTIONS[name])})


def _reference(s: Scenario) -> dict[Side, tuple[list[int], int | None]]:
    clear_cache()
    out = {}
    for side in Side:
        ref = side_reach(s, side)  # per-unit BFS over tables built through ruleset.moves
        out[side] = ([int(v) for v in ref.cells], ref.turns_to_goal)
    return out


def _assert_same(s: Scenario) -> None:
    got = side_terrain_reach(s)
    ov = live_overlays(s, check=False)
    for side, (cells, turns) in _reference(s).items():
        assert [int(v) for v in got[side].cells] == cells, side
        assert got[side].turns_to_goal == turns, side
        assert [int(v) for v in ov.reach[side].ravel()] == cells, side
        assert ov.turns_to_goal[side] == turns, side


@pytest.mark.parametrize("path", FA_MAPS, ids=lambda p: p.name)
@pytest.mark.parametrize("seed", range(2))
def test_side_search_equals_tables_after_random_edits(path: Path, seed: int) -> None:
    rng = np.random.default_rng([seed, len(path.name)])
    s = read_scenario(path)
    assert fast_path(s)
    _assert_same(s)
    for _ in range(12):
        s = _edit(rng, s)
        _assert_same(s)


@pytest.mark.parametrize("options", [{}, {"reverse_turn": True}, {"lane_owner_only": True}])
def test_all_lane_arrows_and_owners(options: dict[str, bool]) -> None:
    """A board crossed by a minefield row with a lane of every arrow and owner."""
    s = read_scenario(FA_MAPS[0])
    b = s.board
    s = s.with_options(**options).with_terrain(())
    for col in range(b.columns):
        arrow = Facing(col % 8)
        owner = (Side.SOUTH, Side.NORTH, None)[col % 3]
        cell = b.cell(col, b.rows // 2)
        s = s.adding(Terrain("minefield", (cell,), owner, lane=cell, arrow=arrow))
    _assert_same(s)


@pytest.mark.parametrize("path", FA_MAPS, ids=lambda p: p.name)
def test_step_sources_is_can_step_on_every_cell(path: Path) -> None:
    """``Tables.step_sources`` (the search's whole-board steps) against ``Tables.can_step``
    cell by cell, every direction and side, after random terrain edits, wrecks avoided."""
    from tankmap.rules.final_act.tables import tables_of, wreck_mask

    rng = np.random.default_rng([9, len(path.name)])
    s = read_scenario(path)
    for _ in range(8):
        s = _edit(rng, s)
        t = tables_of(s)
        avoid = wreck_mask(s.units)
        for side in Side:
            sources = t.step_sources(side, avoid)
            for d in Facing:
                for cell in range(s.board.size):
                    dst = t.can_step(side, cell, d.dx, d.dy)
                    ok = dst >= 0 and not avoid >> dst & 1
                    assert bool(sources[d] >> cell & 1) == ok, (side, d, cell)
