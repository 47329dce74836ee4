from __future__ import annotations

import pytest

from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing


@pytest.mark.parametrize(
    ("name", "col", "row"),
    [("a1", 0, 0), ("c3", 2, 2), ("l12", 11, 11), ("A1", 0, 0), ("P16", 15, 15)],
)
def test_parse_cell_names(name: str, col: int, row: int) -> None:
    b = Board.of(16, 16)
    cell = b.parse_cell(name)
    assert (b.col_of(cell), b.row_of(cell)) == (col, row)
    assert b.cell_name(cell) == name.lower()


@pytest.mark.parametrize("bad", ["", "c", "3c", "m1", "a13", "a0", "aa1", "c3x", "é1"])
def test_parse_cell_rejects_bad_names_on_12x12(bad: str) -> None:
    with pytest.raises(ValueError):
        Board.of(12, 12).parse_cell(bad)


def test_cell_numbering_is_row_major_from_a1() -> None:
    b = Board.of(12, 12)
    assert b.parse_cell("a1") == 0
    assert b.parse_cell("b1") == 1
    assert b.parse_cell("a2") == 12


def test_step_table_and_edges() -> None:
    b = Board.of(12, 12)
    a1 = b.parse_cell("a1")
    assert b.step[Facing.N][a1] == b.parse_cell("a2")
    assert b.step[Facing.NE][a1] == b.parse_cell("b2")
    assert b.step[Facing.W][a1] == -1
    assert b.step[Facing.S][a1] == -1
    assert b.step[Facing.SW][b.parse_cell("b2")] == a1


def test_own_rows_and_mirrors() -> None:
    b = Board.of(12, 12)
    c3 = b.parse_cell("c3")
    assert b.own_row(c3, 0) == 3
    assert b.own_row(c3, 1) == 10
    assert b.cell_name(b.mirror(c3)) == "j10"  # (12+1-3, 12+1-3)
    assert b.cell_name(b.mirror_lr(c3)) == "j3"


@pytest.mark.parametrize(("c", "r"), [(0, 12), (27, 12), (12, 27), (-1, 5)])
def test_board_size_limits(c: int, r: int) -> None:
    with pytest.raises(ValueError):
        Board.of(c, r)


def test_boards_are_shared_per_size() -> None:
    assert Board.of(12, 12) is Board.of(12, 12)
    assert eval(repr(Board.of(16, 20))) == Board.of(16, 20)
