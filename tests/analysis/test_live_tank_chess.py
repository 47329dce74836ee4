"""Tank Chess live overlays: the side search (``rules.tank_chess.reach.side_terrain_reach``)
gives exactly the numbers of the movement-table path (``analysis.reach.side_reach``, which
``tankmap analyze --json`` prints), and hand-derived answers on small boards."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from tankmap.analysis.graphs import clear_cache
from tankmap.analysis.live import fast_path, live_overlays, reach_ready
from tankmap.analysis.reach import side_reach
from tankmap.rules.board import Board
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Terrain, Unit
from tankmap.rules.tank_chess.data import KINDS
from tankmap.rules.tank_chess.reach import side_terrain_reach
from tankmap.rules.tank_chess.state import PositionError

ROOT = Path(__file__).resolve().parents[2]
B8 = Board.of(8, 8)
S, N = Side.SOUTH, Side.NORTH


def c(name: str) -> int:
    return B8.parse_cell(name)


def piece(kind: str, cell: str, side: Side = S, facing: Facing | None = Facing.N) -> Unit:
    return Unit(kind, side, c(cell), facing)


def tc8(units: tuple[Unit, ...], obstacles: str = "", strict: bool = False) -> Scenario:
    terrain = tuple(Terrain("obstacle", (c(x),)) for x in obstacles.split())
    return Scenario("tank-chess", B8, {"strict_corners": strict}, terrain, units)


def assert_same_as_tables(s: Scenario, cold: bool = True) -> None:
    """The live overlay (side search) equals the table path, side by side. With ``cold`` the
    tables are built from scratch, as a fresh ``tankmap analyze`` would; otherwise they may
    be derived from the previous terrain's (``analysis.graphs._derive``: sound on the 16x16
    and 20x20 maps, but its move radius, measured from the board's centre, is cut short on
    boards narrower than twice a piece's speed — so small boards are always cold)."""
    fast = side_terrain_reach(s)
    ov = live_overlays(s, check=False)
    if cold:
        clear_cache()
    for side in Side:
        ref = side_reach(s, side)
        assert (fast[side].cells == ref.cells).all(), side
        assert fast[side].escape == ref.turns_to_goal, side
        assert (ov.reach[side].ravel() == ref.cells).all()
        assert ov.turns_to_goal[side] == ref.turns_to_goal


def at(s: Scenario, side: Side, cell: str) -> int:
    return int(side_terrain_reach(s)[side].cells[c(cell)])


# --- hand-derived answers -------------------------------------------------------------------
def test_heavy_tank_backward_steps() -> None:
    # Heavy tank (speed 3) on d4 facing N, empty 8x8. North: 3 forward steps reach d7 in one
    # turn, d8 (4 rows) needs 2. South: facing S costs 4 rotations (> 3) and SE/SW costs 3,
    # leaving no step, so the only southward move in a turn is the lone backward step: d3 = 1,
    # d2 = 2. d1 = 3: turn 2 would need 3 pure forward steps due south from d4 (dx = 0,
    # dy = -3), i.e. facing S at d4 after turn 1, which costs 4 rotations.
    s = tc8((piece("heavy", "d4"),))
    assert [at(s, S, x) for x in ("d4", "d7", "d8", "d3", "d2", "d1")] == [0, 1, 2, 1, 2, 3]
    r = side_terrain_reach(s)
    assert r[S].escape is None  # only command tanks win by moving
    assert (r[N].cells == -1).all() and r[N].escape is None
    assert_same_as_tables(s)


def test_black_command_tank_escapes_south_in_two_turns() -> None:
    # Black command tank (speed 5) on d8, no facing = toward the enemy (S). Turn 1: 5 steps
    # to d3. Turn 2: d2, d1, then the 3rd step leaves the bottom edge (Black's enemy edge).
    # One turn is impossible: 7 steps plus the escape step > 5. a8: turn W (2) + 3 steps.
    s = tc8((piece("command", "d8", N, None),))
    r = side_terrain_reach(s)
    assert r[N].escape == 2 and r[S].escape is None
    assert [at(s, N, x) for x in ("d8", "d3", "d2", "a8")] == [0, 1, 2, 1]
    assert_same_as_tables(s)


def test_escape_not_through_the_corner_point() -> None:
    # White command tank on d4 facing NE. To escape in one turn it needs 4 steps up to row 8
    # plus the escape step = all 5 substeps forward, so no rotation: d4-e5-f6-g7-h8 and then
    # NE off h8 — through the board's corner point, forbidden (docs/rules.md §2.5). So 2 turns
    # (e.g. turn N, d5..d8; then step off).
    s = tc8((piece("command", "d4", S, Facing.NE),))
    assert side_terrain_reach(s)[S].escape == 2
    assert_same_as_tables(s)


def test_strict_corners_shuts_a_diagonal_pocket() -> None:
    # Light tank on a1 facing NE with obstacles a2 and b1: its only way out is the diagonal
    # step to b2 between the two obstacles (its backward step leaves the board).
    # strict_corners: forbidden, so a1 is all it reaches. Otherwise b2 and c3 in one turn
    # (1 and 2 steps NE), h8 in two (7 diagonal steps > 5).
    strict = tc8((piece("light", "a1", S, Facing.NE),), "a2 b1", strict=True)
    cells = side_terrain_reach(strict)[S].cells
    assert cells[c("a1")] == 0 and int((cells >= 0).sum()) == 1
    loose = tc8((piece("light", "a1", S, Facing.NE),), "a2 b1")
    assert [at(loose, S, x) for x in ("b2", "c3", "h8")] == [1, 1, 2]
    assert_same_as_tables(strict)
    assert_same_as_tables(loose)


def test_strict_corners_applies_to_the_backward_step() -> None:
    # Light tank on b2 facing NE, obstacles a2 and b1. a1's only free neighbour is b2, and
    # from b2 it is entered diagonally between a2 and b1: by the backward step (facing NE)
    # or a forward step facing SW. strict_corners forbids both: a1 is never reached.
    # Otherwise the lone backward step gets there in one turn.
    units = (piece("light", "b2", S, Facing.NE),)
    assert at(tc8(units, "a2 b1", strict=True), S, "a1") == -1
    assert at(tc8(units, "a2 b1"), S, "a1") == 1
    assert_same_as_tables(tc8(units, "a2 b1", strict=True))


def test_command_tank_on_the_enemy_edge_escapes_in_one_turn() -> None:
    # White command tank on d8 facing N: one forward step leaves the top edge.
    s = tc8((piece("command", "d8"),))
    assert side_terrain_reach(s)[S].escape == 1
    assert_same_as_tables(s)


def test_a_wall_of_obstacles_stops_everything() -> None:
    # Row 5 is all obstacles: nothing of rows 5-8 can be entered (a diagonal step would
    # still enter an obstacle), so no escape; d4 is 3 steps ahead: one turn.
    s = tc8((piece("command", "d1"),), " ".join(f"{x}5" for x in "abcdefgh"))
    r = side_terrain_reach(s)[S]
    assert r.escape is None and r.cells[c("d4")] == 1
    assert (r.cells.reshape(8, 8)[4:] == -1).all()
    assert_same_as_tables(s)


def test_side_reach_is_the_minimum_over_its_pieces() -> None:
    # Heavy (speed 3) on a1 and light (speed 5) on h1, both facing N. a4: heavy, 1 turn.
    # a5: heavy needs 2 (4 rows); the light is 7 columns away (> 5 steps), so 2. h6: light, 1.
    s = tc8((piece("heavy", "a1"), piece("light", "h1")))
    assert [at(s, S, x) for x in ("a4", "a5", "h6")] == [1, 2, 1]
    assert_same_as_tables(s)


def test_piece_standing_on_an_obstacle_moves_off_it() -> None:
    # An illegal set-up being edited: a medium tank (speed 4) facing N stands on an obstacle
    # on d4, every neighbour an obstacle except d3. Its own cell is empty while it moves
    # (moves are asked with the piece on its cell), so turn 1 may rotate in place to S (4
    # rotations; the end state differs from the start) and turn 2 go d3, d2, d1: d1 = 2.
    # One turn cannot: facing S costs all 4 steps. d3 = 1 (the backward step).
    walls = "c3 c4 c5 d5 e5 e4 e3 d4"
    s = tc8((piece("medium", "d4"),), walls)
    assert [at(s, S, x) for x in ("d4", "d3", "d1")] == [0, 1, 2]
    assert_same_as_tables(s)


def test_wrecks_block_and_live_pieces_do_not() -> None:
    # Light tank (speed 5) on d1 facing N; a wreck on d2 (never enterable), an enemy light
    # tank on d3 (ignored: terrain only). d3 in one turn by a detour: turn NE (1), e2 (2),
    # turn N, NW (4), d3 (5).
    wreck = dataclasses.replace(piece("heavy", "d2", N), wreck=True)
    s = tc8((piece("light", "d1"), wreck, piece("light", "d3", N)))
    assert at(s, S, "d2") == -1 and at(s, S, "d3") == 1
    assert_same_as_tables(s)


# --- identical to the table path ------------------------------------------------------------
TC_MAPS = sorted((ROOT / "maps/tank-chess").glob("*.json"))


def _random_edit(rng: np.random.Generator, s: Scenario) -> Scenario:
    """One random terrain edit: an obstacle added or removed, or a live piece wrecked."""
    taken = {u.cell for u in s.units} | {x for t in s.terrain for x in t.cells}
    what = rng.integers(3)
    if what == 0 or not s.terrain:
        free = [x for x in range(s.board.size) if x not in taken]
        return s.adding(Terrain("obstacle", (int(rng.choice(free)),)))
    if what == 1:
        return dataclasses.replace(s, terrain=s.terrain[:-1])
    live = s.live_units()
    u = live[int(rng.integers(len(live)))]
    return s.replacing(u, dataclasses.replace(u, wreck=True))


@pytest.mark.parametrize("path", TC_MAPS, ids=lambda p: p.name)
def test_builtin_maps_and_edits_match_the_table_path(path: Path) -> None:
    s = read_scenario(path)
    assert fast_path(s) and reach_ready(s)  # no tables to build for Tank Chess
    assert_same_as_tables(s)
    if s.units:
        # two seeded terrain/wreck edits, tables derived from the map's (as the old live
        # path did: sound on 16x16 and 20x20 boards)
        rng = np.random.default_rng(len(s.units))
        for _ in range(2):
            s = _random_edit(rng, s)
            assert_same_as_tables(s, cold=False)


def test_edits_with_strict_corners_on_a_builtin_map() -> None:
    # a new option value means tables from scratch (~5 s on 20x20): the 16x16 map only here;
    # the random small boards below switch strict_corners on and off too
    rng = np.random.default_rng(16)
    s = read_scenario(ROOT / "maps/tank-chess/basic-16.json").with_options(strict_corners=True)
    assert_same_as_tables(_random_edit(rng, _random_edit(rng, s)))


def _random_board(rng: np.random.Generator) -> Scenario:
    """A small board with random obstacles, wrecks and pieces (facings may be missing,
    pieces may stand on obstacles or wrecks: illegal but editable)."""
    board = Board.of(int(rng.integers(8, 11)), int(rng.integers(8, 11)))
    cells = rng.permutation(board.size)
    n_obst = int(rng.integers(0, board.size // 4))
    terrain = tuple(Terrain("obstacle", (int(x),)) for x in cells[:n_obst])
    units: list[Unit] = []
    for i in range(int(rng.integers(1, 7))):
        on = int(cells[n_obst + i]) if rng.random() < 0.85 else int(rng.integers(board.size))
        facing = None if rng.random() < 0.2 else Facing(int(rng.integers(8)))
        kind = KINDS[int(rng.integers(len(KINDS)))]
        side = Side.SOUTH if rng.random() < 0.5 else Side.NORTH
        units.append(Unit(kind, side, on, facing, wreck=bool(rng.random() < 0.2)))
    strict = bool(rng.random() < 0.5)
    return Scenario("tank-chess", board, {"strict_corners": strict}, terrain, tuple(units))


def test_random_small_boards_match_the_table_path() -> None:
    rng = np.random.default_rng(2026)
    for _ in range(10):
        assert_same_as_tables(_random_board(rng))


def test_unknown_kinds_and_other_rulesets_are_refused() -> None:
    with pytest.raises(PositionError, match="unknown tank-chess piece kind"):
        side_terrain_reach(tc8((piece("tank", "d1"),)))
    with pytest.raises(PositionError, match="not tank-chess"):
        side_terrain_reach(dataclasses.replace(tc8(()), ruleset="final-act"))


def test_derived_tables_on_a_small_board_after_a_wreck_edit() -> None:
    # A table-path bug found while testing: move_radius measured 4 on 8x8 for a speed-5
    # piece, so derived tables kept stale moves. Light tank on d1 facing N; a wreck appears
    # on d2. Before the edit a light tank on d7 facing S could drive d6..d2 (5 steps) in one
    # turn; after it, d2 can never be entered (d7 is 5 rows from d2, beyond radius 4).
    clear_cache()
    side_reach(tc8((piece("heavy", "a1"), piece("light", "h1"))), S)  # tables to derive from
    wreck = dataclasses.replace(piece("heavy", "d2", N), wreck=True)
    s = tc8((piece("light", "d1"), wreck))
    assert side_reach(s, S).cells[c("d2")] == -1
