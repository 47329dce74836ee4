"""Cross-check the fast generator against a slow reference written straight from docs/rules.md §2.3.

The reference works in (column, row, facing) coordinates with a plain breadth-first search
and plain ray walks — no tables, no move trees, no sight maps — so a bug in the engine's
precomputation shows up as a difference on random positions.
"""

from __future__ import annotations

import numpy as np
import pytest

from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Terrain, Unit
from tankmap.rules.tank_chess.state import ESCAPE, initial_state

SPEED = {"command": 5, "light": 5, "medium": 4, "heavy": 3, "destroyer": 4, "mortar": 3}
DX = [0, 1, 1, 1, 0, -1, -1, -1]
DY = [1, 1, 0, -1, -1, -1, 0, 1]


def reference_turns(s: Scenario, index: int) -> set[tuple[object, ...]]:
    """{(col, row, facing, target_col, target_row)} plus ("escape",) from docs/rules.md §2.3-2.5."""
    b = s.board
    me = s.units[index]
    strict = bool(s.options.get("strict_corners", False))
    blocked = {(b.col_of(c), b.row_of(c)) for t in s.terrain for c in t.cells}
    pieces = {}
    for i, u in enumerate(s.units):
        if i != index:
            blocked.add((b.col_of(u.cell), b.row_of(u.cell)))
            if not u.wreck:
                pieces[(b.col_of(u.cell), b.row_of(u.cell))] = u

    def on(x: int, y: int) -> bool:
        return 0 <= x < b.columns and 0 <= y < b.rows

    def step_ok(x: int, y: int, d: int) -> bool:
        nx, ny = x + DX[d], y + DY[d]
        if not on(nx, ny) or (nx, ny) in blocked:
            return False
        if strict and d % 2 == 1 and (nx, y) in blocked and (x, ny) in blocked:
            return False
        return True

    start = (b.col_of(me.cell), b.row_of(me.cell), int(me.facing or 0))
    seen = {start: 0}
    frontier = [start]
    escape = False
    for cost in range(SPEED[me.kind]):
        nxt = []
        for x, y, f in frontier:
            options = [(x, y, (f + 1) % 8), (x, y, (f - 1) % 8)]
            if step_ok(x, y, f):
                options.append((x + DX[f], y + DY[f], f))
            nx, ny = x + DX[f], y + DY[f]
            edge_row = b.rows if me.side is Side.SOUTH else -1
            if me.kind == "command" and ny == edge_row and 0 <= nx < b.columns:
                escape = True
            for o in options:
                if o not in seen:
                    seen[o] = cost + 1
                    nxt.append(o)
        frontier = nxt
    ends = {k for k in seen if k != start}
    x, y, f = start
    if step_ok(x, y, (f + 4) % 8):
        ends.add((x - DX[f], y - DY[f], f))

    out: set[tuple[object, ...]] = {("escape",)} if escape else set()
    for x, y, f in ends:
        out.add((x, y, f, None, None))
        if me.kind == "mortar":
            for k in (3, 4, 5):
                tx, ty = x + k * DX[f], y + k * DY[f]
                u = pieces.get((tx, ty))
                if u is not None and u.side is not me.side:
                    out.add((x, y, f, tx, ty))
            continue
        fan = [f] if me.kind == "destroyer" else [(f - 1) % 8, f, (f + 1) % 8]
        for d in fan:
            k = 1
            while True:
                tx, ty = x + k * DX[d], y + k * DY[d]
                if not on(tx, ty):
                    break
                if (tx, ty) in blocked:
                    u = pieces.get((tx, ty))
                    if u is not None and u.side is not me.side and k >= 2:
                        out.add((x, y, f, tx, ty))
                    break
                k += 1
    return out


def random_scenario(rng: np.random.Generator, strict: bool) -> Scenario:
    cols, rows = int(rng.integers(8, 13)), int(rng.integers(8, 13))
    b = Board.of(cols, rows)
    cells = rng.permutation(b.size)
    n_obs = int(rng.integers(0, b.size // 5))
    n_units = int(rng.integers(2, 14))
    terrain = [Terrain("obstacle", (int(c),)) for c in cells[:n_obs]]
    kinds = list(SPEED)
    units = [
        Unit(
            kinds[int(rng.integers(len(kinds)))],
            Side.SOUTH if rng.random() < 0.5 else Side.NORTH,
            int(c),
            Facing(int(rng.integers(8))),
            wreck=bool(rng.random() < 0.15),
        )
        for c in cells[n_obs : n_obs + n_units]
    ]
    return Scenario(
        "tank-chess",
        b,
        {"strict_corners": strict},
        tuple(terrain),
        tuple(units),
    )


@pytest.mark.parametrize("strict", [False, True])
def test_engine_matches_the_reference_on_random_positions(strict: bool) -> None:
    rng = np.random.default_rng(7 + strict)
    compared = 0
    for _ in range(60):
        s = random_scenario(rng, strict)
        st = initial_state(s)
        b = s.board
        for p, u in enumerate(s.units):
            if u.wreck:
                continue
            out: list[tuple[int, int, int, int]] = []
            st.piece_turns(p, out)
            got: set[tuple[object, ...]] = set()
            for _p, c, f, t in out:
                if c == ESCAPE:
                    got.add(("escape",))
                    continue
                tc = None if t < 0 else st.cell[t]
                got.add(
                    (
                        b.col_of(c),
                        b.row_of(c),
                        f,
                        None if tc is None else b.col_of(tc),
                        None if tc is None else b.row_of(tc),
                    )
                )
            assert len(got) == len(out)  # no duplicate turns
            assert got == reference_turns(s, p), (s, p)
            assert st.piece_turn_count(p) == len(out)
            compared += 1
    assert compared > 200


def _turns_by_search(s: Scenario) -> int | None:
    """Fewest turns for unit 0 (a lone command tank) to escape, by breadth-first search over
    whole turns, each turn's end states taken from the engine's own move list."""
    st = initial_state(s)
    start = (st.cell[0], st.facing[0])
    seen = {start}
    frontier = [start]
    turns = 0
    while frontier:
        turns += 1
        nxt = []
        for cell, facing in frontier:
            st.grid[st.cell[0]] = -1
            st.cell[0], st.facing[0] = cell, facing
            st.grid[cell] = 0
            ends, escaped = st.piece_moves(0)
            if escaped:
                return turns
            for e in ends:
                if e not in seen:
                    seen.add(e)
                    nxt.append(e)
        frontier = nxt
    return None


@pytest.mark.parametrize("strict", [False, True])
def test_escape_distance_matches_a_turn_by_turn_search(strict: bool) -> None:
    from tankmap.rules.tank_chess.reach import escape_region, turns_to_escape

    rng = np.random.default_rng(99 + strict)
    for _ in range(25):
        b = Board.of(8, 8)
        cells = rng.permutation(b.size)
        n_obs = int(rng.integers(4, 26))
        terrain = tuple(Terrain("obstacle", (int(c),)) for c in cells[1 : 1 + n_obs])
        side = Side.SOUTH if rng.random() < 0.5 else Side.NORTH
        unit = Unit("command", side, int(cells[0]), Facing(int(rng.integers(8))))
        s = Scenario("tank-chess", b, {"strict_corners": strict}, terrain, (unit,))
        st = initial_state(s)
        want = _turns_by_search(s)
        assert turns_to_escape(st, 0) == want
        assert (unit.cell in escape_region(st, side.index)) == (want is not None)
