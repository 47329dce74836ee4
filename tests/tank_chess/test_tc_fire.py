"""Tank Chess shooting, armour and game end (docs/rules.md §2.3, §2.5), hand-derived answers."""

from __future__ import annotations

import pytest
from tc_support import RS, make, turns_of

from tankmap.rules.tank_chess.state import NO_TARGET, initial_state


def targets(units: list[str], obstacles: str = "", piece: int = 0) -> set[tuple[str, str, str]]:
    """(end cell, end facing, target cell) of every shooting turn of ``piece``."""
    st = initial_state(make(units, obstacles))
    b = st.scenario.board
    names = "N NE E SE S SW W NW".split()
    return {
        (b.cell_name(c), names[f], b.cell_name(st.cell[t]))
        for _p, c, f, t in turns_of(st, piece)
        if t != NO_TARGET
    }


# --- armour side: d = direction from the target to the shooter ----------------------------
# Shooter on h4 fires N at a medium (armour 2/1/0) on h8: d = S. Front iff the medium faces
# S, rear iff it faces N, side for the six other facings.
@pytest.mark.parametrize(
    ("facing", "armour"),
    [("S", 2), ("N", 0), ("E", 1), ("W", 1), ("NE", 1), ("NW", 1), ("SE", 1), ("SW", 1)],
)
def test_armour_side_from_the_direction_target_to_shooter(facing: str, armour: int) -> None:
    st = initial_state(make(["W light h4 N", f"B medium h8 {facing}"]))
    assert st.hit_armour(st.cell[0], 1) == armour


@pytest.mark.parametrize(
    ("facing", "armour"),
    [("SW", 3), ("NE", 1), ("S", 2), ("W", 2), ("N", 2), ("E", 2), ("SE", 2), ("NW", 2)],
)
def test_armour_side_on_a_diagonal_shot(facing: str, armour: int) -> None:
    # shooter d4 fires NE at a heavy (3/2/1) on h8: target → shooter is SW
    st = initial_state(make(["W light d4 NE", f"B heavy h8 {facing}"]))
    assert st.hit_armour(st.cell[0], 1) == armour


# gun > armour destroys; equal does not. (shooter kind, gun) vs (target kind, facing).
@pytest.mark.parametrize(
    ("shooter", "target_kind", "target_facing", "destroyed"),
    [
        ("light", "medium", "N", True),  # rear 0 < 1
        ("light", "medium", "E", False),  # side 1 = 1
        ("light", "light", "E", True),  # side 0 < 1
        ("light", "light", "S", False),  # front 1 = 1
        ("medium", "medium", "E", True),  # side 1 < 2
        ("medium", "medium", "S", False),  # front 2 = 2
        ("heavy", "heavy", "S", False),  # front 3 = 3
        ("heavy", "heavy", "E", True),  # side 2 < 3
        ("medium", "heavy", "N", True),  # rear 1 < 2
        ("destroyer", "heavy", "S", True),  # front 3 < 4
        ("mortar", "heavy", "S", True),  # front 3 < 5
        ("command", "light", "E", True),  # command gun 1 > side 0
    ],
)
def test_destroy_iff_gun_exceeds_armour(
    shooter: str, target_kind: str, target_facing: str, destroyed: bool
) -> None:
    # the shooter backs from h4 to h3 (still facing N) and fires N along the h-file at h8:
    # distance 5, h4 (just vacated) to h7 empty; a mortar reaches 3-5, so 5 is in range.
    st = initial_state(make([f"W {shooter} h4 N", f"B {target_kind} h8 {target_facing}"]))
    h3 = st.scenario.board.parse_cell("h3")
    turn = (0, h3, 0, 1)
    assert turn in st.legal_turns()
    st.push(turn)
    assert st.alive[1] is (not destroyed)
    assert (st.grid[st.cell[1]] == -2) is destroyed  # the wreck blocks like an obstacle
    st.pop()
    assert st.alive[1] and st.grid[st.cell[1]] == 1


def test_destroyed_piece_stays_as_a_wreck_in_the_scenario() -> None:
    st = initial_state(make(["W heavy h4 N", "B light h8 E", "B command a16 S"]))
    st.push((0, st.scenario.board.parse_cell("h3"), 0, 1))
    units = st.to_scenario().units
    assert units[1].wreck and st.scenario.board.cell_name(units[1].cell) == "h8"
    assert st.to_scenario().to_move.value == "north"


# --- which pieces can be shot ----------------------------------------------------------------
def test_adjacent_enemy_cannot_be_shot() -> None:
    # light on h8 facing N may turn in place (h8 NE, h8 NW keep the N ray); enemy on h9 is
    # adjacent from h8 → no shot from there. It can back to h7 and shoot (h8 between, empty).
    got = targets(["W light h8 N", "B light h9 E"])
    assert not any(end.startswith("h8") for end, _f, _t in got)
    assert ("h7", "N", "h9") in got


def test_nothing_may_lie_between() -> None:
    # heavy h4 N backs to h3: ray N h4 (empty) h5 (own piece) → no target beyond.
    assert not targets(["W heavy h4 N", "W light h5 N", "B light h8 E"], piece=0) & {
        ("h3", "N", "h8")
    }
    # obstacle or wreck between: same
    assert ("h3", "N", "h8") not in targets(["W heavy h4 N", "B light h8 E"], obstacles="h6")
    assert ("h3", "N", "h8") not in targets(["W heavy h4 N", "B light h6 E x", "B light h8 E"])
    assert ("h3", "N", "h8") in targets(["W heavy h4 N", "B light h8 E"])


def test_turret_fires_ahead_and_45_degrees_not_sideways() -> None:
    # heavy on h8 facing N; enemies on j10 (NE ray: i9 empty between), f10 (NW ray) and l8
    # (E ray). Turning in place to facing F fires along F-45°, F, F+45°.
    got = targets(["W heavy h8 N", "B light j10 S", "B light f10 S", "B light l8 W"])
    at_h8 = {(f, t) for end, f, t in got if end == "h8"}
    assert at_h8 == {
        ("NE", "j10"), ("NE", "l8"),  # NE fires N, NE, E
        ("NW", "f10"),  # NW fires W, NW, N
        ("E", "j10"), ("E", "l8"),  # E fires NE, E, SE
        ("SE", "l8"),  # SE fires E, SE, S
        ("W", "f10"),  # W fires SW, W, NW
    }  # fmt: skip


def test_destroyer_fires_straight_ahead_only() -> None:
    # destroyer on h8 facing N. h8 NE: fires NE only → j10; h8 E → l8 only.
    got = targets(["W destroyer h8 N", "B light j10 S", "B light l8 W"])
    assert ("h8", "NE", "j10") in got and ("h8", "NE", "l8") not in got
    assert ("h8", "E", "l8") in got and ("h8", "E", "j10") not in got


def test_mortar_hits_3_to_5_ahead_over_anything() -> None:
    # mortar c1 facing E, boxed by obstacles b1 b2 c2 d2 d1; it can only rotate (3 steps:
    # N NE NW... from E: NE N NW SE S SW). Facing N: c4 (3, over obstacles c2 and the own
    # light on c3) and c6 (5) are enemies, c7 (6) is out of range, c5 has a wreck (not a
    # target). Facing NE: f4 (3 ahead diagonally: d2 e3 f4) is an enemy.
    units = [
        "W mortar c1 E",
        "W light c3 N",
        "B light c4 S",
        "B light c5 S x",
        "B light c6 S",
        "B light c7 S",
        "B light f4 S",
    ]
    got = targets(units, obstacles="b1 b2 c2 d2 d1")
    assert got == {("c1", "N", "c4"), ("c1", "N", "c6"), ("c1", "NE", "f4")}


def test_command_tank_destroyed_wins() -> None:
    st = initial_state(make(["W medium h4 N", "B command h8 E", "W command a1 N"]))
    st.push((0, st.scenario.board.parse_cell("h3"), 0, 1))
    o = st.outcome()
    assert o is not None and o.winner is not None and o.winner.value == "south"
    assert o.reason == "command-destroyed"
    assert st.legal_turns() == [] and st.count_turns() == 0
    st.pop()
    assert st.outcome() is None


def test_escape_wins() -> None:
    st = initial_state(make(["W command h16 N", "B command a1 S"]))
    esc = (0, -1, -1, -1)
    assert esc in st.legal_turns()
    st.push(esc)
    o = st.outcome()
    assert o is not None and o.winner is not None and o.winner.value == "south"
    assert o.reason == "escape"
    assert all(u.kind != "command" or u.side.value != "south" for u in st.to_scenario().units)


def test_max_turns_draw_and_no_move_draw() -> None:
    st = initial_state(make(["W heavy a1 N", "B heavy p16 S"], max_turns=2))
    st.push(st.legal_turns()[0])
    assert st.outcome() is None
    st.push(st.legal_turns()[0])
    o = st.outcome()
    assert o is not None and o.winner is None and o.reason == "max-turns"
    lone = initial_state(make(["W heavy a1 N"], to_move="north"))
    o = lone.outcome()
    assert o is not None and o.winner is None and o.reason == "no-move"


def test_fire_zone_contract() -> None:
    # light on h8 facing N, own light on h11, obstacle on f10, enemy on j10, wreck on d12.
    # N ray: h9 (distance 1: not in the zone), h10, h11 (first piece, own: in), stop.
    # NE ray: i9 (d1), j10 (enemy: in), stop. NW ray: g9 (d1), f10 obstacle: stop.
    s = make(["W light h8 N", "W light h11 N", "B light j10 S"], obstacles="f10")
    names = {s.board.cell_name(c) for c in RS.fire_zone(s, s.units[0])}
    assert names == {"h10", "h11", "j10"}
    # adjacent piece on the ray: nothing on that ray
    s = make(["W light h8 N", "B light h9 S"])
    assert {s.board.cell_name(c) for c in RS.fire_zone(s, s.units[0]) if c % 16 == 7} == set()
    # mortar: on-board cells 3-5 ahead, not obstacles or wrecks
    s = make(["W mortar h12 N", "B light h14 S x"], obstacles="h15")
    assert {s.board.cell_name(c) for c in RS.fire_zone(s, s.units[0])} == {"h16"}
