"""How texts name sides and rows (``rules.sides``, docs/rules.md §0): Tank Chess is played
White (south) against Black (north); the other games say South and North; a side's own row
k is row k for south and row R + 1 - k for north on an R-row board."""

from __future__ import annotations

import pytest

from tankmap.rules.board import Board
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.sides import board_rows_text, result_text, rows_text, side_name, side_names


@pytest.mark.parametrize(
    ("ruleset", "south", "north"),
    [
        ("tank-chess", "White", "Black"),  # rules §0: White = south, Black = north
        ("final-act", "South", "North"),
        ("tank-wars", "South", "North"),
    ],
)
def test_each_game_names_its_sides(ruleset: str, south: str, north: str) -> None:
    assert side_names(ruleset) == {Side.SOUTH: south, Side.NORTH: north}
    assert get_ruleset(ruleset).side_names() == {Side.SOUTH: south, Side.NORTH: north}
    assert (side_name(ruleset, "south"), side_name(ruleset, Side.NORTH)) == (south, north)


@pytest.mark.parametrize(
    ("ruleset", "winner", "text"),
    [
        ("tank-chess", "south", "White wins"),
        ("tank-chess", Side.NORTH, "Black wins"),
        ("tank-chess", None, "draw"),
        ("final-act", "north", "North wins"),
        ("tank-wars", "draw", "draw"),
    ],
)
def test_result_text(ruleset: str, winner: Side | str | None, text: str) -> None:
    assert result_text(ruleset, winner) == text


def test_a_ruleset_without_a_data_file_says_south_and_north() -> None:
    # the core tests' toy ruleset (tests/core/conftest.py) has no resources file
    assert side_names("toy") == {Side.SOUTH: "South", Side.NORTH: "North"}


def test_an_unknown_side_is_an_error() -> None:
    with pytest.raises(ValueError):
        side_name("tank-chess", "east")


@pytest.mark.parametrize(
    ("rows", "side", "first", "last", "owner", "text"),
    [
        # rules §0: north's own row k on an R-row board is row R + 1 - k
        (12, Side.NORTH, 1, 3, None, "rows 10–12 (north's rows 1–3)"),
        (12, Side.NORTH, 1, 6, None, "rows 7–12 (north's rows 1–6)"),
        (16, Side.NORTH, 1, 3, "Black", "rows 14–16 (Black's rows 1–3)"),
        (12, Side.NORTH, 1, 1, None, "row 12 (north's row 1)"),
        # south's own rows are the board's rows: said once
        (12, Side.SOUTH, 1, 3, None, "south's rows 1–3"),
        (16, Side.SOUTH, 1, 3, "White", "White's rows 1–3"),
    ],
)
def test_rows_are_named_as_the_board_labels_them(
    rows: int, side: Side, first: int, last: int, owner: str | None, text: str
) -> None:
    assert rows_text(Board.of(12, rows), side, first, last, owner) == text


@pytest.mark.parametrize(
    ("side", "text"), [(Side.SOUTH, "rows 1–6"), (Side.NORTH, "rows 7–12")]
)  # fmt: skip
def test_board_rows_alone(side: Side, text: str) -> None:
    assert board_rows_text(Board.of(6, 12), side, 1, 6) == text


def test_messages_write_the_extra_forces_kinds_as_words() -> None:
    from tankmap.rules.geometry import Facing, Side
    from tankmap.rules.scenario import Unit

    assert Unit("at", Side.SOUTH, 0, Facing.N).label == "AT"
    assert Unit("rm", Side.NORTH, 0, Facing.S).label == "R/M"
    assert Unit("tank", Side.SOUTH, 0, Facing.N, "C").label == "tank C"
    assert Unit("light", Side.SOUTH, 0, Facing.N).label == "light"
