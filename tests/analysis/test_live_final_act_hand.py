"""Final Act side search (``rules.final_act.reach``, the live overlay's reach) on small
hand-made boards, with answers derived by hand from docs/rules.md §1.5 (derivations in comments).

Board 6 × 12 (columns a–f, rows 1–12); ``C("c7")`` is a cell. One round = one order: a tank
or R/M steps one cell forward, back or diagonally (never sideways), keeping its facing or,
after a diagonal step, turning 90° towards the side it stepped to; an AT steps to any of the
eight neighbours. A south tank's goal is row 12 (the enemy's row 1).
"""

from __future__ import annotations

import pytest

from tankmap.analysis.live import live_overlays
from tankmap.rules.board import Board
from tankmap.rules.final_act.reach import side_terrain_reach
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit

B = Board.of(6, 12)
C = B.parse_cell
S, N = Side.SOUTH, Side.NORTH


def _empty(**options: bool) -> Scenario:
    return get_ruleset("final-act").new_scenario(B, options)


def _grid(s: Scenario, side: Side) -> dict[str, int]:
    cells = side_terrain_reach(s)[side].cells
    return {B.cell_name(c): int(cells[c]) for c in range(B.size)}


def _chebyshev(a: str, b: str) -> int:
    ca, cb = C(a), C(b)
    return max(abs(B.col_of(ca) - B.col_of(cb)), abs(B.row_of(ca) - B.row_of(cb)))


@pytest.mark.parametrize("reverse_turn", [False, True])
def test_lone_tank_on_an_empty_board(reverse_turn: bool) -> None:
    # Tank a1 facing N. Facing N it has no sideways step, so b1 (one step east) needs two
    # rounds: b2 (diagonal), then back to b1. c1: b2 turning E, then the diagonal c1 (2);
    # d1..f1: b2 (E), forward along row 2, diagonal down at the end: 3, 4, 5. Every cell
    # above row 1 is at its Chebyshev distance from a1 (diagonals and forward steps, a
    # diagonal first turning E when the way is mostly east). Goal row 12: 11 forward steps.
    # ``reverse_turn`` swaps the turn after a back-diagonal step (left <-> right), which
    # changes the facing but not its axis (E and W both allow the east-west steps, N and S
    # the north-south ones), and the steps a facing allows depend on its axis alone: the
    # same numbers.
    s = _empty(reverse_turn=reverse_turn).adding(Unit("tank", S, C("a1"), Facing.N))
    got = _grid(s, S)
    row1 = {"a1": 0, "b1": 2, "c1": 2, "d1": 3, "e1": 4, "f1": 5}
    for name, rounds in got.items():
        expect = row1[name] if name in row1 else _chebyshev("a1", name)
        assert rounds == expect, name
    r = side_terrain_reach(s)
    assert r[S].turns_to_goal == 11
    assert (r[N].cells == -1).all() and r[N].turns_to_goal is None


def test_at_moves_like_a_king_round_a_swamp_wall() -> None:
    # AT a1, swamp on a3..e3 (f3 the only gap), no goal (ATs cannot win by moving).
    # Rows 1-2: Chebyshev distance from a1 (b1 = 1: an AT steps sideways too).
    # Row 3: a3..e3 never; f3 = 5 (a1 b2 c2 d2 e2 f3, Chebyshev 5 and the route is free).
    # Rows 4-12 are entered only past f3: 5 + Chebyshev from f3 (a4 = 5 + 5 = 10).
    s = _empty().adding(Unit("at", S, C("a1"), Facing.N))
    s = s.adding(Terrain("swamp", (C("a3"), C("b3"), C("c3")), S))
    s = s.adding(Terrain("swamp", (C("d3"), C("e3")), S))
    got = _grid(s, S)
    for name, rounds in got.items():
        row = B.row_of(C(name)) + 1
        if row <= 2:
            expect = _chebyshev("a1", name)
        elif row == 3:
            expect = 5 if name == "f3" else -1
        else:
            expect = 5 + _chebyshev("f3", name)
        assert rounds == expect, name
    assert got["a4"] == 10
    assert side_terrain_reach(s)[S].turns_to_goal is None


def _lane_board(arrow: Facing, owner: Side, **options: bool) -> Scenario:
    """Tank c1 facing N; a minefield over all of row 6 with its lane on c6."""
    row6 = tuple(C(f"{col}6") for col in "abcdef")
    s = _empty(**options).adding(Unit("tank", S, C("c1"), Facing.N))
    return s.adding(Terrain("minefield", row6, owner, lane=C("c6"), arrow=arrow))


def test_tank_through_a_lane() -> None:
    # Row 6 is impassable but for the lane c6, entered only by a straight step north (from
    # c5) and left only by one (to c7). c1 -> c5 forward: 4 rounds; c6 = 5, c7 = 6, c12 = 11
    # (the goal: 11 rounds). A straight step keeps the facing, so on c7 the tank faces N
    # (entering north from c5 facing E or W would be a sideways step, not allowed):
    # b7 and d7 (sideways from c7) need 2 more rounds: c8 then back-diagonal = 8; a7 and e7
    # are Chebyshev 2 from c7: 8 (b8 turning W, diagonal a7); f7: 9 (d8 E, e8, f7).
    got = _grid(_lane_board(Facing.N, N), S)
    assert [got[f"{col}6"] for col in "abcdef"] == [-1, -1, 5, -1, -1, -1]
    assert [got[f"{col}7"] for col in "abcdef"] == [8, 8, 6, 8, 8, 9]
    assert got["c12"] == 11
    assert side_terrain_reach(_lane_board(Facing.N, N))[S].turns_to_goal == 11


@pytest.mark.parametrize(
    ("arrow", "owner", "options"),
    [
        (Facing.S, S, {}),  # the lane only lets units through southwards
        (Facing.N, N, {"lane_owner_only": True}),  # only north may use north's lane
        (Facing.NE, S, {}),  # a diagonal arrow: the lane is never usable
    ],
)
def test_lane_closed(arrow: Facing, owner: Side, options: dict[str, bool]) -> None:
    # Nothing past row 5: rows 6-12 are never reached and the goal (row 12) neither.
    s = _lane_board(arrow, owner, **options)
    got = _grid(s, S)
    assert all(v == -1 for k, v in got.items() if B.row_of(C(k)) >= 5)
    assert got["c5"] == 4
    assert side_terrain_reach(s)[S].turns_to_goal is None


def test_lane_owner_only_lets_the_owner_through() -> None:
    # The same north-pointing lane owned by south, lane_owner_only on: south may use it.
    got = _grid(_lane_board(Facing.N, S, lane_owner_only=True), S)
    assert got["c6"] == 5 and got["c12"] == 11


@pytest.mark.parametrize("wrecks", [True, False])
def test_wreck_blocks_only_with_the_wrecks_option(wrecks: bool) -> None:
    # Tank a1 facing N, a wrecked tank on a2. With ``wrecks`` on a2 is never entered and a3
    # is 2 (b2, then the diagonal a3); with it off the wreck counts as removed: a2 = 1.
    s = _empty(wrecks=wrecks).adding(Unit("tank", S, C("a1"), Facing.N))
    s = s.adding(Unit("tank", N, C("a2"), Facing.S, wreck=True))
    got = _grid(s, S)
    assert got["a2"] == (-1 if wrecks else 1)
    assert got["a3"] == 2
    assert side_terrain_reach(s)[N].turns_to_goal is None  # north's only tank is a wreck


def test_units_without_orders_and_kinds_without_goal() -> None:
    # A tank facing NE (diagonal) has no orders: it only stands on b1 (0). An R/M moves like
    # a tank but cannot win by moving: its reach counts, its goal does not. North's tank on
    # c12 facing S: its goal is row 1, 11 rounds forward; its reach meets row 1 on c1 at 11.
    s = _empty().adding(Unit("tank", S, C("b1"), Facing.NE))
    s = s.adding(Unit("rm", S, C("f1"), Facing.N))
    s = s.adding(Unit("tank", N, C("c12"), Facing.S))
    r = side_terrain_reach(s)
    got = _grid(s, S)
    assert got["b1"] == 0 and got["f1"] == 0 and got["f12"] == 11
    assert got["a1"] == 5  # the R/M from f1: the mirror of the lone tank test's f1 = 5
    assert _grid(s, N)["c1"] == 11
    assert r[S].turns_to_goal is None
    assert r[N].turns_to_goal == 11
    ov = live_overlays(s, check=False)
    assert ov.turns_to_goal == {S: None, N: 11}
    assert ov.reach[S][0, 1] == 0  # b1 = row 1, column b
