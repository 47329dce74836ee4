"""Final Act orders (docs/rules.md §1.5, §4) — every answer derived by hand from the rule text.

A tank (and the R/M) ends an order on one of 6 cells relative to its facing — forward, back,
forward-left, forward-right, back-left, back-right — and only a diagonal move may turn 90°
toward the side moved (``reverse_turn``: back-left turns right, back-right turns left).
Orders are written (cell, facing); staying put unchanged is not listed.
"""

from __future__ import annotations

from typing import Any

import pytest

from tankmap.rules.geometry import Facing, Side

# Tank on f6 facing N, open board: f7 N; f5 N; e7 N/W; g7 N/E; e5 N/W; g5 N/E.
F6_N = {
    ("f7", "N"),
    ("f5", "N"),
    ("e7", "N"),
    ("e7", "W"),
    ("g7", "N"),
    ("g7", "E"),
    ("e5", "N"),
    ("e5", "W"),
    ("g5", "N"),
    ("g5", "E"),
}
# Same with reverse_turn: back-left e5 turns right (E), back-right g5 turns left (W).
F6_N_REVERSE = (F6_N - {("e5", "W"), ("g5", "E")}) | {("e5", "E"), ("g5", "W")}
# Facing E: ahead = E, left = N. forward g6; back e6; forward-left g7 E/N; forward-right
# g5 E/S; back-left e7 E/N; back-right e5 E/S.
F6_E = {
    ("g6", "E"),
    ("e6", "E"),
    ("g7", "E"),
    ("g7", "N"),
    ("g5", "E"),
    ("g5", "S"),
    ("e7", "E"),
    ("e7", "N"),
    ("e5", "E"),
    ("e5", "S"),
}
F6_E_REVERSE = (F6_E - {("e7", "N"), ("e5", "S")}) | {("e7", "S"), ("e5", "N")}


def flip_orders(fa: Any, orders: set[tuple[str, str]], side: Side) -> set[tuple[str, str]]:
    return {(fa.flip(c, side), fa.flip_facing(f, side)) for c, f in orders}


@pytest.mark.parametrize("side", list(Side))
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("facing", ["N", "E"])
def test_tank_orders_and_turning(fa: Any, side: Side, reverse: bool, facing: str) -> None:
    expected = {
        ("N", False): F6_N,
        ("N", True): F6_N_REVERSE,
        ("E", False): F6_E,
        ("E", True): F6_E_REVERSE,
    }[(facing, reverse)]
    t = fa.tank(fa.flip("f6", side), fa.flip_facing(facing, side), side=side)
    sc = fa.scenario(units=[t], reverse_turn=reverse)
    assert fa.orders(sc, t) == flip_orders(fa, expected, side)


def test_rm_moves_like_a_tank(fa: Any) -> None:
    rm = fa.unit("rm", "f6", "N")
    assert fa.orders(fa.scenario(units=[rm], extra_forces=True), rm) == F6_N


def test_board_edge(fa: Any) -> None:
    # a1 facing N: back and every left/back move leave the board; a2 N, b2 N/E remain.
    t = fa.tank("a1", "N")
    assert fa.orders(fa.scenario(units=[t]), t) == {("a2", "N"), ("b2", "N"), ("b2", "E")}


def test_swamp_is_impassable_berm_passable(fa: Any) -> None:
    t = fa.tank("f4", "N")
    swamp = fa.terrain("swamp", "f5 g5 f6 g6")
    # f5 and g5 are swamp: forward and forward-right are gone; e5 N/W, f3, e3 N/W, g3 N/E.
    assert fa.orders(fa.scenario([swamp], [t]), t) == {
        ("e5", "N"),
        ("e5", "W"),
        ("f3", "N"),
        ("e3", "N"),
        ("e3", "W"),
        ("g3", "N"),
        ("g3", "E"),
    }
    berm = fa.terrain("berm-small", "f5 g5")
    assert len(fa.orders(fa.scenario([berm], [t]), t)) == 10


def test_wrecks_block_moves_live_units_do_not(fa: Any) -> None:
    t = fa.tank("f6", "N")
    wreck = fa.tank("f7", "N", "1", wreck=True)
    assert fa.orders(fa.scenario(units=[t, wreck]), t) == F6_N - {("f7", "N")}
    # wrecks option off: knocked-out tanks are removed, so the wreck mark does not block
    assert fa.orders(fa.scenario(units=[t, wreck], wrecks=False), t) == F6_N
    live = fa.tank("f7", "S", "1", Side.NORTH)
    assert fa.orders(fa.scenario(units=[t, live]), t) == F6_N
    assert fa.orders(fa.scenario(units=[t, wreck]), wreck) == set()


def mines(fa: Any, owner: Side = Side.SOUTH, arrow: str = "N") -> Any:
    return fa.terrain("minefield", "f5 g5 h5", owner, "g5", arrow)


def test_worked_example_tank_before_the_lane(fa: Any) -> None:
    # docs/rules.md §4: g5; g3; f3 with and without the left turn; h3 with and without the right.
    t = fa.tank("g4", "N")
    assert fa.orders(fa.scenario([mines(fa)], [t]), t) == {
        ("g5", "N"),
        ("g3", "N"),
        ("f3", "N"),
        ("f3", "W"),
        ("h3", "N"),
        ("h3", "E"),
    }


def test_lane_exit_only_in_the_arrow_direction(fa: Any) -> None:
    on_lane_n = fa.tank("g5", "N")
    on_lane_s = fa.tank("g5", "S")
    assert fa.orders(fa.scenario([mines(fa)], [on_lane_n]), on_lane_n) == {("g6", "N")}
    # facing S its only move is the back move (a step N) to g6
    assert fa.orders(fa.scenario([mines(fa)], [on_lane_s]), on_lane_s) == {("g6", "S")}


def test_backing_into_the_lane(fa: Any) -> None:
    # g4 facing S: forward g3 S; back = a step N into the lane g5 S; forward-left (S+E)
    # h3 S/E; forward-right (S+W) f3 S/W; back-left h5 and back-right f5 are mines.
    t = fa.tank("g4", "S")
    assert fa.orders(fa.scenario([mines(fa)], [t]), t) == {
        ("g3", "S"),
        ("g5", "S"),
        ("h3", "S"),
        ("h3", "E"),
        ("f3", "S"),
        ("f3", "W"),
    }


def test_lane_not_entered_against_the_arrow(fa: Any) -> None:
    # g6 facing S: forward g5 is a step S against the arrow N; f5/h5 are mines.
    # Left: back g7 S; back-left (N+E) h7 S/E; back-right (N+W) f7 S/W.
    t = fa.tank("g6", "S")
    assert fa.orders(fa.scenario([mines(fa)], [t]), t) == {
        ("g7", "S"),
        ("h7", "S"),
        ("h7", "E"),
        ("f7", "S"),
        ("f7", "W"),
    }


@pytest.mark.parametrize("owner_only", [False, True])
def test_lane_owner_only(fa: Any, owner_only: bool) -> None:
    own = fa.tank("g4", "N")
    enemy = fa.tank("g4", "N", "1", Side.NORTH)
    for unit, may_enter in ((own, True), (enemy, not owner_only)):
        sc = fa.scenario([mines(fa)], [unit], lane_owner_only=owner_only)
        assert (("g5", "N") in fa.orders(sc, unit)) is may_enter
        assert len(fa.orders(sc, unit)) == (6 if may_enter else 5)


def test_at_orders(fa: Any) -> None:
    # docs/rules.md §4: AT on g4 by the minefield: 6 neighbours (f5, h5 are mines; g5 entered with
    # the arrow) + its own cell = 7 cells x 4 facings - 1 (unchanged) = 27.
    at = fa.unit("at", "g4", "N")
    orders = fa.orders(fa.scenario([mines(fa)], [at], extra_forces=True), at)
    assert len(orders) == 27
    assert {c for c, _ in orders} == {"g5", "f4", "h4", "f3", "g3", "h3", "g4"}
    assert ("g4", "N") not in orders and ("g4", "S") in orders
    # open board: 8 x 4 + 3 = 35; corner a1: (a2, b2, b1) x 4 + 3 = 15
    open_at = fa.unit("at", "f6", "E")
    assert len(fa.orders(fa.scenario(units=[open_at], extra_forces=True), open_at)) == 35
    corner = fa.unit("at", "a1", "N")
    assert len(fa.orders(fa.scenario(units=[corner], extra_forces=True), corner)) == 15


def test_at_on_the_lane_leaves_only_straight_with_the_arrow(fa: Any) -> None:
    at = fa.unit("at", "g5", "W")
    orders = fa.orders(fa.scenario([mines(fa)], [at], extra_forces=True), at)
    # g6 with any of 4 facings + 3 turns in place = 7
    assert orders == {("g6", f) for f in "NESW"} | {("g5", f) for f in "NES"}


def test_moves_are_unique_and_sorted(fa: Any) -> None:
    t = fa.tank("f6", "N")
    moves = fa.rs.moves(fa.scenario(units=[t]), t)
    keys = [(m.to, m.facing) for m in moves]
    assert keys == sorted(set(keys))
    assert all(isinstance(m.facing, Facing) for m in moves)


@pytest.mark.parametrize("side", list(Side))
def test_eleven_rounds_to_the_far_row_on_an_empty_board(fa: Any, side: Side) -> None:
    # docs/rules.md §4: every order advances at most one row, so row 1 -> row 12 takes 11 rounds;
    # straight forward moves achieve it.
    from tankmap.rules.final_act.tables import tables_of

    tables = tables_of(fa.scenario())
    start = (fa.c(fa.flip("f1", side)), Facing.N if side is Side.SOUTH else Facing.S)
    goal_row = 11 if side is Side.SOUTH else 0
    frontier, seen, rounds = {start}, {start}, 0
    while not any(fa.board.row_of(c) == goal_row for c, _ in frontier):
        rounds += 1
        frontier = {
            o for c, f in frontier for o in tables.orders("tank", side, c, f) if o not in seen
        }
        seen |= frontier
    assert rounds == 11
