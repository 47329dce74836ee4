"""Tank Chess movement (docs/rules.md §2.3, §2.5, §4), with hand-derived answers.

Notation of the derivations: a move is rotations ``a`` (signed eighths), then forward steps
and further rotations; cost = |rotations| + forward steps ≤ speed. "k=n" groups end states
by the number of forward steps.
"""

from __future__ import annotations

import pytest
from tc_support import MAPS, RS, make, move_names

from tankmap.rules.fileformat import read_scenario
from tankmap.rules.tank_chess.reach import turns_to_escape
from tankmap.rules.tank_chess.state import initial_state
from tankmap.rules.tank_chess.tables import tables_for


# docs/rules.md §4: "empty 16 × 16 board, piece on h8 facing N: heavy 28, medium 64, light 131".
# Heavy (speed 3) derivation: in place 6 facings (S needs 4 turns); k=1: first rotation a in
# -2..2 picks the cell (g8 g9 h9 i9 i8), then |b| ≤ 2-|a| more turns: 1+3+5+3+1 = 13;
# k=2: h10 N/NE/NW, i10 NE, g10 NW, j10 NE, f10 NW = 7; k=3: h11 N; back h7 N: 6+13+7+1+1 = 28.
@pytest.mark.parametrize(
    ("kind", "count"),
    [
        ("heavy", 28),
        ("medium", 64),
        ("light", 131),
        ("command", 131),
        ("destroyer", 64),
        ("mortar", 28),
    ],  # fmt: skip
)
def test_rules_worked_example_counts(kind: str, count: int) -> None:
    s = make([f"W {kind} h8 N"])
    assert len(RS.moves(s, s.units[0])) == count


def test_heavy_c1_in_basic_setup_has_21() -> None:
    s = read_scenario(str(MAPS / "basic-16.json"))
    heavy = next(u for u in s.units if s.board.cell_name(u.cell) == "c1")
    assert len(RS.moves(s, heavy)) == 21


def test_heavy_in_the_corner() -> None:
    # a1 facing N, speed 3. In place 6. k=1: W/NW off board; a2 with 5 facings (N NE E NW W),
    # b2 NE with N/NE/E, b1 E: 9. k=2: c3NE, b3NE, a3NE, a3NW, a3N (NW paths leave): 5.
    # k=3: a4N. Back: off board. 6 + 9 + 5 + 1 = 21.
    s = make(["W heavy a1 N"])
    assert move_names(s) == {
        "a1NE", "a1E", "a1SE", "a1NW", "a1W", "a1SW",
        "a2N", "a2NE", "a2E", "a2NW", "a2W", "b2NE", "b2N", "b2E", "b1E",
        "c3NE", "b3NE", "a3NE", "a3NW", "a3N", "a4N",
    }  # fmt: skip


def test_heavy_facing_east_on_the_edge() -> None:
    # p8 (east edge) facing E, speed 3: the same shape as h8 facing N turned 90°, minus what
    # leaves the board. In place 6. k=1: cells by first turn a: E (off), NE/SE (off),
    # N p9 (a=-2, 1 facing) and S p7 (a=+2, 1 facing): 2. k=2, k=3: all need an eastward or
    # diagonal-east step first, or go N/S after turning 2 and have 0 left → 0. Back: o8 E.
    s = make(["W heavy p8 E"])
    assert move_names(s) == {"p8NE", "p8N", "p8NW", "p8SE", "p8S", "p8SW", "p9N", "p7S", "o8E"}


def test_light_in_the_corner_facing_off_the_board() -> None:
    # light a1 facing SW, speed 5. In place: the 7 other facings. On-board directions are
    # N (3 turns), NE (4 turns), E (3 turns): a2 facing N/NE/NW (3+1, one turn left), a3N
    # (3+2); b2NE (4+1); b1 facing E/NE/SE (3+1+1), c1E (3+2). Back: NE of a1 = b2 SW.
    # 7 + 3 + 1 + 1 + 3 + 1 + 1 = 17.
    s = make(["W light a1 SW"])
    assert move_names(s) == {
        "a1N", "a1NE", "a1E", "a1SE", "a1S", "a1W", "a1NW",
        "a2N", "a2NE", "a2NW", "a3N", "b2NE", "b1E", "b1NE", "b1SE", "c1E", "b2SW",
    }  # fmt: skip


def test_medium_in_the_corner_facing_south() -> None:
    # medium a1 facing S, speed 4. In place: 7 facings (N is exactly 4 turns). N would need
    # 4 turns + 1 step: too many. E (2 turns): b1 E/NE/SE, c1E; NE (3 turns): b2NE.
    # Back (facing S → north): a2S. 7 + 3 + 1 + 1 + 1 = 13.
    s = make(["W medium a1 S"])
    assert move_names(s) == {
        "a1N", "a1NE", "a1E", "a1SE", "a1SW", "a1W", "a1NW",
        "b1E", "b1NE", "b1SE", "c1E", "b2NE", "a2S",
    }  # fmt: skip


def test_an_obstacle_ahead_blocks_every_path_through_it() -> None:
    # heavy h8 N, obstacle h9: from the 28, lose k=1 via h9 (5: h9 N/NE/E/NW/W), k=2 via h9
    # (h10 N/NE/NW, i10NE, g10NW: 5), k=3 h11: 28 - 11 = 17. No detour fits in 3 steps.
    s = make(["W heavy h8 N"], obstacles="h9")
    assert len(RS.moves(s, s.units[0])) == 17


@pytest.mark.parametrize("blocker", ["W light h9 N", "B light h9 S", "B light h9 S x"])
def test_pieces_and_wrecks_block_like_obstacles(blocker: str) -> None:
    s = make(["W heavy h8 N", blocker])
    assert len(RS.moves(s, s.units[0])) == 17


def test_backward_step_needs_an_empty_cell_behind() -> None:
    s = make(["W heavy h8 N"], obstacles="h7")
    names = move_names(s)
    assert len(names) == 27 and "h7N" not in names


def test_backward_step_is_diagonal_for_a_diagonal_facing() -> None:
    assert "g7NE" in move_names(make(["W heavy h8 NE"]))


def test_backward_step_never_leaves_the_board() -> None:
    # A command tank on h16 with its back to the enemy edge: the backward step would leave
    # the board, so it is not a move (the table has no backward step there) and not an
    # escape; only the forward step off the edge escapes (here after 4 turns of 45°).
    t = tables_for(16, 16)
    h16 = 15 * 16 + 7
    assert t.back[h16 * 8 + 4] == -1  # facing S, backward = north = off the board
    names = move_names(make(["W command h16 S"]))
    assert "escape" in names and not any(n.startswith("h17") for n in names)
    assert "escape" not in move_names(make(["W heavy h16 N"]))  # only command tanks escape


def test_strict_corners() -> None:
    # heavy h8 N, obstacles h9 and i8. Default: in place 6; k=1: i9 (N/NE/E) 3, g9 (N/NW/W) 3,
    # g8W 1 (h9 and i8 blocked); k=2: j10NE, f10NW; back h7: 6+7+2+1 = 16.
    # strict_corners: the NE step from h8 squeezes between i8 and h9 → i9×3 and j10NE go: 12.
    loose = make(["W heavy h8 N"], obstacles="h9 i8")
    strict = make(["W heavy h8 N"], obstacles="h9 i8", strict_corners=True)
    assert len(move_names(loose)) == 16
    assert move_names(loose) - move_names(strict) == {"i9N", "i9NE", "i9E", "j10NE"}


def test_strict_corners_also_applies_to_the_diagonal_backward_step() -> None:
    # heavy h8 facing NE backs up to g7, squeezing between g8 and h7
    loose = make(["W heavy h8 NE"], obstacles="g8 h7")
    strict = make(["W heavy h8 NE"], obstacles="g8 h7", strict_corners=True)
    assert "g7NE" in move_names(loose)
    assert "g7NE" not in move_names(strict)


# --- escape (docs/rules.md §2.5) ------------------------------------------------------------------
def test_lone_command_tank_escapes_in_four_turns() -> None:
    # docs/rules.md §4: h1 → h16 is 15 steps, then one step off: 5 + 5 + 5 + 1 = 16 steps, 4 turns.
    st = initial_state(make(["W command h1 N"]))
    assert turns_to_escape(st, 0) == 4


def test_escape_needs_a_spare_step() -> None:
    # h12 N: 4 steps to h16 and the 5th steps off → escape; from h11 it needs 6.
    assert "escape" in move_names(make(["W command h12 N"]))
    assert "escape" not in move_names(make(["W command h11 N"]))


def test_escape_only_over_the_enemy_edge() -> None:
    # White escapes north; on the east edge facing E nothing leaves the board.
    assert "escape" not in move_names(make(["W command p8 E"]))
    assert "escape" in move_names(make(["B command h1 S"]))
    assert "escape" not in move_names(make(["B command h16 N"]))


def test_corner_rule_tables() -> None:
    t = tables_for(16, 16)
    n, ne, nw, s, se, sw = 0, 1, 7, 4, 3, 5

    def cell(name: str) -> int:
        return (int(name[1:]) - 1) * 16 + ord(name[0]) - 97

    assert t.escape[0][cell("p16") * 8 + n]
    assert not t.escape[0][cell("p16") * 8 + ne]  # through the board's corner point
    assert t.escape[0][cell("o16") * 8 + ne]  # across the top edge between cells
    assert not t.escape[0][cell("a16") * 8 + nw]
    assert t.escape[0][cell("b16") * 8 + nw]
    assert not t.escape[0][cell("p15") * 8 + ne]  # that leaves through the east edge
    assert not t.escape[0][cell("h16") * 8 + s]
    assert t.escape[1][cell("a1") * 8 + s]
    assert not t.escape[1][cell("a1") * 8 + sw] and not t.escape[1][cell("p1") * 8 + se]
    assert t.escape[1][cell("b1") * 8 + sw]


def test_corner_escape_after_a_turn() -> None:
    # White command tank boxed on p16 facing NE: the NE step would leave through the corner
    # point (refused), but one 45° turn to N and a step off the top edge escapes.
    s = make(["W command p16 NE"], obstacles="o16 o15 p15")
    assert move_names(s) == {"p16N", "p16NW", "p16W", "p16SW", "p16S", "p16SE", "p16E", "escape"}


def test_moves_json_contract_shape() -> None:
    s = make(["W command h16 N"])
    moves = RS.moves(s, s.units[0])
    assert moves[-1].to is None and moves[-1].facing is None
    assert moves[-1].to_json(s.board) == {"to": "escape", "facing": None}


def test_wrecks_have_no_moves_and_no_fire_zone() -> None:
    s = make(["W heavy h8 N x"])
    assert RS.moves(s, s.units[0]) == [] and RS.fire_zone(s, s.units[0]) == []
