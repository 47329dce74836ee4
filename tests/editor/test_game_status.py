"""The status bar's game line: "Check!" for the side that just moved, "Game over" for a
decided position."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tankmap.rules.fileformat import write_scenario
from tests.tank_chess.tc_support import make
from tests.tank_chess.test_positions_decided import (
    WALLS,
    _basic_with_black_command_wrecked,
)


def test_editor_status_bar_says_check_and_game_over(make_window: Any, tmp_path: Path) -> None:
    s = make(
        ["W heavy e2 N", "B command e7 S", "W command a1 N"], WALLS, size=(10, 10), to_move="north"
    )
    f = tmp_path / "pos.json"
    write_scenario(s, f)
    w = make_window(f)
    assert w.game_label.text() == "White: Check!"
    over = tmp_path / "over.json"
    write_scenario(_basic_with_black_command_wrecked(), over)
    assert w.open_file(over)
    assert w.game_label.text() == "Game over: White wins (command-destroyed)"
