"""The setup sheet's title and the line under it wrap instead of running off the page
(issue 18 item 5): nothing is drawn in the page's last pixels on the right, and the board
starts below the wrapped lines."""

from __future__ import annotations

from typing import Any

import pytest

from tankmap import maps
from tankmap.editor.export import sheet_image
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Side


def _ink_on_the_right(image: Any, rows: int, columns: int = 4) -> int:
    """Pixels that are not white in the last ``columns`` columns of the top ``rows`` rows."""
    w = image.width()
    return sum(
        1
        for y in range(rows)
        for x in range(w - columns, w)
        if image.pixelColor(x, y).lightness() < 200
    )


@pytest.mark.parametrize("name", ["tank-wars/default", "tank-chess/sample-20"])
@pytest.mark.parametrize("side", list(Side))
def test_title_and_subtitle_stay_on_the_page(qtbot: Any, name: str, side: Side) -> None:
    s = read_scenario(maps.ROOT / f"{name}.json")
    image = sheet_image(s, side, 1063, 1577)  # A4 at 150 dpi inside 15 mm margins
    assert _ink_on_the_right(image, rows=int(1577 * 0.085)) == 0


def test_a_long_title_pushes_the_board_down(qtbot: Any) -> None:
    from dataclasses import replace

    s = read_scenario(maps.ROOT / "final-act" / "mirror.json")
    short = sheet_image(s, Side.SOUTH, 600, 900)
    long = sheet_image(replace(s, title="A very long title " * 6), Side.SOUTH, 600, 900)

    def first_board_row(image: Any) -> int:  # the board's background colour
        x = image.width() // 2
        return next(y for y in range(image.height()) if image.pixelColor(x, y).name() == "#d8d2c4")

    assert first_board_row(long) > first_board_row(short)
    assert _ink_on_the_right(long, rows=first_board_row(long)) == 0
