"""Tank Chess ``analyse`` without movement tables (``rules.tank_chess.unit_reach``): the same
numbers as the table path (``analysis.reach.unit_reach_route`` / ``cell_graph(...,
use_tables=True)``), routes that are shortest and legal when replayed through
``ruleset.moves``, and hand-derived answers on small boards."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tankmap.analysis.graphs import ESCAPE, base_scenario, clear_cache
from tankmap.analysis.lanes import cell_graph
from tankmap.analysis.reach import UnitReach, side_reach, turn_search_reach
from tankmap.analysis.summary import analyse
from tankmap.rules.board import Board
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit
from tankmap.rules.tank_chess.data import KINDS
from tankmap.rules.tank_chess.unit_reach import turn_steps, unit_terrain_reach

ROOT = Path(__file__).resolve().parents[2]
S, N = Side.SOUTH, Side.NORTH


def tc(
    cols: int,
    rows: int,
    units: tuple[Unit, ...],
    blocked: tuple[int, ...] = (),
    strict: bool = False,
) -> Scenario:
    terrain = tuple(Terrain("obstacle", (c,)) for c in blocked)
    return Scenario("tank-chess", Board.of(cols, rows), {"strict_corners": strict}, terrain, units)


def assert_valid_route(s: Scenario, r: UnitReach) -> None:
    """The route starts on the unit, every step is one of ``ruleset.moves`` over the
    terrain (the unit alone with the wrecks), it ends with an escape move, and it has
    ``turns_to_goal`` moves: a shortest route."""
    rs = get_ruleset("tank-chess")
    base = base_scenario(s)
    route = r.route
    assert r.turns_to_goal is not None
    assert route[-1] == ESCAPE and len(route) == r.turns_to_goal + 1
    states = route[:-1]
    assert states[0] == (r.unit.cell, r.unit.facing)
    for i, (cell, facing) in enumerate(states):  # type: ignore[misc]
        probe = Unit(r.unit.kind, r.unit.side, cell, facing, r.unit.name)
        moves = rs.moves(base.adding(probe), probe)
        if i + 1 < len(states):
            assert any((m.to, m.facing) == states[i + 1] for m in moves), (i, states)
        else:
            assert any(m.to is None for m in moves), states


def assert_same_as_tables(s: Scenario) -> None:
    clear_cache()
    fast = turn_search_reach(s)
    for side in Side:
        slow = side_reach(s, side, routes=True)
        assert (fast[side].cells == slow.cells).all()
        assert fast[side].turns_to_goal == slow.turns_to_goal
        assert [r.unit for r in fast[side].units] == [r.unit for r in slow.units]
        for a, b in zip(fast[side].units, slow.units, strict=True):
            assert (a.cells == b.cells).all(), a.unit
            assert a.turns_to_goal == b.turns_to_goal, a.unit
            if a.turns_to_goal is None:
                assert a.route == () == b.route
            else:
                assert_valid_route(s, a)
        graph_fast, graph_slow = cell_graph(s, side), cell_graph(s, side, use_tables=True)
        assert graph_fast is not None and graph_slow is not None
        assert list(graph_fast.graph.nodes) == list(graph_slow.graph.nodes)
        assert list(graph_fast.graph.edges) == list(graph_slow.graph.edges)
        assert graph_fast.sources == graph_slow.sources
        assert graph_fast.targets == graph_slow.targets


# --- hand-derived answers -------------------------------------------------------------------
def test_command_tank_escapes_in_two_turns_on_an_empty_board() -> None:
    # White command tank (speed 5) on e1 facing N, empty 8x8. Escaping needs 7 steps to e8
    # plus the escape step = 8 > 5 single steps, so not in turn 1; turn 1 reaches e6 (5
    # steps), turn 2 goes e7, e8 and off (3 steps): 2 turns. The route: e1, a state reached
    # in turn 1, escape.
    b = Board.of(8, 8)
    s = tc(8, 8, (Unit("command", S, b.parse_cell("e1"), Facing.N),))
    r = turn_search_reach(s)[S]
    assert r.turns_to_goal == 2 and r.units[0].turns_to_goal == 2
    assert len(r.units[0].route) == 3
    assert_valid_route(s, r.units[0])
    assert r.cells[b.parse_cell("e6")] == 1 and r.cells[b.parse_cell("e8")] == 2


def test_boxed_in_command_tank_has_no_route() -> None:
    # Black command tank on a8 with obstacles on a7, b7, b8: no free neighbour, no move
    # leaves the corner (escape is south, far away): reach is its own cell only.
    b = Board.of(8, 8)
    s = tc(
        8,
        8,
        (Unit("command", N, b.parse_cell("a8"), None),),
        tuple(b.parse_cell(x) for x in ("a7", "b7", "b8")),
    )
    r = unit_terrain_reach(s)[0]
    assert r is not None and r.escape is None and r.route is None
    assert int((r.cells >= 0).sum()) == 1 and r.cells[b.parse_cell("a8")] == 0
    assert turn_search_reach(s)[N].units[0].route == ()


def test_turn_steps_of_a_walled_cell() -> None:
    # Command tank steps from d4 on an empty 8x8: all 8 neighbours are one turn away (turn
    # to face them, step). With obstacles on c4, e4 and d5, those three pairs go; under
    # strict_corners a diagonal step between two blocked orthogonal cells is refused too:
    # d4 -> c5 is squeezed between c4 and d5, d4 -> e5 between e4 and d5 — and a detour
    # (through c3/e3/...) needs more than 5 steps (3 cells + 2 turns of 90°).
    b = Board.of(8, 8)
    d4 = b.parse_cell("d4")
    walls = tuple(b.parse_cell(x) for x in ("c4", "e4", "d5"))

    def ends(strict: bool) -> set[str]:
        st = turn_steps(tc(8, 8, (), walls, strict), "command", 0, [(d4, 0)])
        return {b.cell_name(int(p) % b.size) for p in st.pairs if int(p) // b.size == d4}

    assert ends(False) == {"c3", "d3", "e3", "c5", "e5"}
    assert ends(True) == {"c3", "d3", "e3"}


# --- equal to the table path ----------------------------------------------------------------
@pytest.mark.parametrize("strict", [False, True])
def test_random_small_boards_match_tables(strict: bool) -> None:
    rng = np.random.default_rng(20261123 + strict)
    for _ in range(3):
        b = Board.of(9, 9)
        blocked = tuple(int(c) for c in np.flatnonzero(rng.random(b.size) < 0.18))
        cells = rng.permutation(b.size)[:8].tolist()
        units = []
        for i, cell in enumerate(cells):
            side = S if i % 2 == 0 else N
            kind = "command" if i < 4 else KINDS[int(rng.integers(len(KINDS)))]
            facing = None if i == 5 else Facing(int(rng.integers(8)))
            units.append(Unit(kind, side, int(cell), facing, wreck=(i == 7)))
        # units may stand on obstacles (an illegal set-up being edited): handled exactly
        assert_same_as_tables(tc(9, 9, tuple(units), blocked, strict))


def test_command_tank_on_an_obstacle_gets_a_table_route() -> None:
    b = Board.of(8, 8)
    e1 = b.parse_cell("e1")
    s = tc(8, 8, (Unit("command", S, e1, Facing.N),), (e1, b.parse_cell("e3")))
    assert unit_terrain_reach(s)[0].route is None  # type: ignore[union-attr]
    assert_same_as_tables(s)
    assert_valid_route(s, turn_search_reach(s)[S].units[0])


@pytest.mark.parametrize("name", ["basic-16", "sample-20"])
def test_builtin_maps_match_tables(name: str) -> None:
    s = read_scenario(ROOT / "maps" / "tank-chess" / f"{name}.json")
    assert_same_as_tables(s)


def test_analyse_json_unchanged_but_routes(monkeypatch: pytest.MonkeyPatch) -> None:
    # the whole --json document equals the table path's, routes aside (valid, see above)
    from tankmap import analysis

    s = read_scenario(ROOT / "maps" / "tank-chess" / "basic-16.json")
    clear_cache()
    doc = analyse(s).to_json()
    clear_cache()
    tables_graph = analysis.lanes.cell_graph
    monkeypatch.setattr(
        analysis.summary,
        "turn_search_reach",
        lambda sc: {side: side_reach(sc, side, routes=True) for side in Side},
    )
    monkeypatch.setattr(
        analysis.lanes, "cell_graph", lambda sc, side: tables_graph(sc, side, use_tables=True)
    )
    ref = analyse(s).to_json()
    for u in doc["units"] + ref["units"]:
        u.pop("route")
    assert doc == ref
