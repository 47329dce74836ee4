"""Clicking through play-mode games in the editor tests (imported by name, like
editor_helpers): a person's decision — chosen by an agent of the test's own — given by
clicks on the play window's board and buttons, never by calling the session."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton

from tankmap.editor.play.window import PlayWindow
from tankmap.rules.geometry import Facing, Side

LEFT = Qt.MouseButton.LeftButton


def click_cell(play: PlayWindow, cell: int, right: bool = False) -> None:
    button = Qt.MouseButton.RightButton if right else LEFT
    QTest.mouseClick(
        play.view.viewport(), button, Qt.KeyboardModifier.NoModifier, play.view.cell_point(cell)
    )


def press(button: QAbstractButton) -> None:
    assert button.isEnabled(), button.text()
    QTest.mouseClick(button, LEFT)


def wait_for_person(qtbot: Any, play: PlayWindow) -> bool:
    """Wait until a person is to decide (``True``) or the game is over (``False``)."""
    s = play.session
    qtbot.waitUntil(lambda: s.over or (play.acting() is not None and not play.busy), timeout=60000)
    if play.covered:
        press(play.cover)
    return not s.over


def click_tank_chess_turn(play: PlayWindow, turn: tuple[int, int, int, int]) -> None:
    """Click piece, end cell (again for its facing), then target or a button."""
    from tankmap.rules.tank_chess.state import ESCAPE

    inp: Any = play.input
    st = play.session.state  # type: ignore[attr-defined]
    p, cell, facing, target = turn
    click_cell(play, st.cell[p])
    assert inp.piece == p
    if cell == ESCAPE:
        press(inp.escape)
        return
    click_cell(play, cell)
    for _ in range(8):  # clicking the end cell again turns the piece
        if inp.end == (cell, facing):
            break
        click_cell(play, cell)
    assert inp.end == (cell, facing)
    if target >= 0:
        click_cell(play, st.cell[target])
    else:
        press(inp.no_shot)


def click_final_act_part(play: PlayWindow, side: Side, part: Any) -> None:
    """Each unit's order (unit, destination, facing bar, Stay) and shell by clicks, the
    declarations typed, then Commit."""
    inp: Any = play.input
    st = play.session.state  # type: ignore[attr-defined]
    for u in sorted(set(part.orders) | set(part.shells)):
        for _ in range(4):  # units sharing a cell are chosen in turn
            click_cell(play, st.cell[u])
            if inp.unit == u:
                break
        assert inp.unit == u
        order = part.orders.get(u)
        if order is not None:
            if order[0] == st.cell[u]:
                press(inp.stay)
            else:
                click_cell(play, order[0])
            if order[1] != inp.part.orders[u][1]:
                press(inp.facings.buttons[Facing(order[1])])
        if u in part.shells:  # (agents give every unit that fires an order)
            assert inp.aiming
            click_cell(play, part.shells[u], right=True)
            assert inp.part.shells[u] == part.shells[u]
    extra = play.session.reader.format(side.index, type(part)(actions=part.actions))  # type: ignore[attr-defined]
    if extra != "-":
        inp.declarations.setText(extra)
    press(inp.commit)
