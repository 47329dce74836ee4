"""Edit ▸ Resize board… (issue 18 item 9a): a new size with an anchor, pieces moved with
the anchor, pieces off the new board refused with the reason unless the user agrees to
drop them, one undo step, and a size the ruleset cannot use refused."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QLabel

from tankmap import maps
from tankmap.editor.items import TerrainItem, UnitItem
from tankmap.editor.resize import ResizeRequest, offset, resize_scenario
from tankmap.rules.board import Board
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Terrain, Unit

BLANK = maps.ROOT / "tank-chess" / "blank-16.json"


def _small() -> Scenario:
    b = Board.of(16, 16)
    return Scenario(
        "tank-chess",
        b,
        terrain=(Terrain("obstacle", (b.parse_cell("h8"), b.parse_cell("i8")), shape="domino"),),
        units=(
            Unit("light", Side.SOUTH, b.parse_cell("a1"), Facing.N),
            Unit("light", Side.NORTH, b.parse_cell("p16"), Facing.S),
        ),
    )


def test_offsets_follow_the_anchor() -> None:
    b = Board.of(16, 16)
    # growing by 4 columns and 2 rows: left/bottom keep 0, centre half, right/top all of it
    assert offset(b, 20, 18, (0, 0)) == (0, 0)
    assert offset(b, 20, 18, (1, 1)) == (2, 1)
    assert offset(b, 20, 18, (2, 2)) == (4, 2)
    # shrinking by 4 columns anchored right moves everything 4 columns left
    assert offset(b, 12, 16, (2, 1)) == (-4, 0)


def test_resize_moves_pieces_and_lists_those_off_the_board() -> None:
    s = _small()
    # 20 x 20 anchored centre: every cell moves 2 right and 2 up; nothing is dropped
    grown, dropped = resize_scenario(s, ResizeRequest(20, 20, (1, 1)))
    b = grown.board
    assert (b.columns, b.rows) == (20, 20) and dropped == []
    assert [b.cell_name(u.cell) for u in grown.units] == ["c3", "r18"]
    assert [b.cell_name(c) for c in grown.terrain[0].cells] == ["j10", "k10"]
    # 12 x 12 anchored bottom left: a1 and h8 i8 stay; p16 is off the board
    shrunk, dropped = resize_scenario(s, ResizeRequest(12, 12, (0, 0)))
    assert dropped == [s.units[1]]
    assert [shrunk.board.cell_name(u.cell) for u in shrunk.units] == ["a1"]
    # anchored top right: a1 is off (p16 becomes l12); the domino h8 i8 becomes d4 e4
    shrunk, dropped = resize_scenario(s, ResizeRequest(12, 12, (2, 2)))
    assert dropped == [s.units[0]]
    assert shrunk.board.cell_name(shrunk.units[0].cell) == "l12"
    assert [shrunk.board.cell_name(c) for c in shrunk.terrain[0].cells] == ["d4", "e4"]


def test_a_piece_half_off_the_board_is_dropped_whole() -> None:
    s = _small()
    # 8 columns anchored left: h8 stays (column 8), i8 would be column 9: the domino goes
    _, dropped = resize_scenario(s, ResizeRequest(8, 16, (0, 0)))
    assert s.terrain[0] in dropped


def test_resize_in_the_editor_is_one_undo_step(make_window: Any, prompter: Any) -> None:
    w = make_window(scenario=_small())
    before = w.doc.scenario
    prompter.resize = ResizeRequest(20, 20, (1, 1))
    w.run_action("edit.resize")
    s = w.doc.scenario
    assert (s.board.columns, s.board.rows) == (20, 20) and len(s.units) == 2
    # the board picture follows: one item per piece at the new places, the new board size
    items = w.ctx.scene.piece_items().values()
    units = [i for i in items if isinstance(i, UnitItem)]
    assert len(units) == 2 and len([i for i in items if isinstance(i, TerrainItem)]) == 1
    assert w.ctx.scene.geo.board == s.board
    assert w.view.cell_point(s.board.parse_cell("t20")) is not None
    assert "Resize board to 20 × 20" in w.actions_by_id["edit.undo"].text()
    labels = [lab.text() for lab in w.inspector_dock.findChildren(QLabel)]
    assert "20 × 20" in labels  # the inspector shows the new size
    w.doc.undo_stack.undo()
    assert w.doc.scenario == before and w.ctx.scene.geo.board == before.board
    w.doc.undo_stack.redo()
    assert w.doc.scenario.board.columns == 20


def test_pieces_off_the_board_need_a_yes(make_window: Any, prompter: Any) -> None:
    w = make_window(scenario=_small())
    before = w.doc.scenario
    prompter.resize = ResizeRequest(12, 12, (0, 0))
    prompter.confirm_answer = False
    w.run_action("edit.resize")
    assert w.doc.scenario == before  # refused
    asked = [text for kind, text in prompter.asked if kind == "confirm"]
    assert asked and "1 piece is off the 12 × 12 board" in asked[0] and "p16" in asked[0]
    assert w.ctx.last_status == "Resize cancelled: the board keeps its size"
    prompter.confirm_answer = True
    w.run_action("edit.resize")
    assert w.doc.scenario.board.columns == 12 and len(w.doc.scenario.units) == 1
    w.doc.undo_stack.undo()
    assert w.doc.scenario == before  # undo brings the dropped unit back


def test_a_size_the_ruleset_cannot_use_is_refused(make_window: Any, prompter: Any) -> None:
    w = make_window(maps.ROOT / "final-act" / "mirror.json")
    before = w.doc.scenario
    prompter.resize = ResizeRequest(12, 11, (1, 1))  # Final Act needs an even row count
    w.run_action("edit.resize")
    assert w.doc.scenario == before
    assert not any(kind == "confirm" for kind, _ in prompter.asked)
    assert "even" in w.ctx.last_status and "12 × 11" in w.ctx.last_status
    assert not w.doc.undo_stack.canUndo()


def test_cancel_changes_nothing(make_window: Any, prompter: Any) -> None:
    w = make_window(scenario=read_scenario(BLANK))
    prompter.resize = None
    w.run_action("edit.resize")
    assert not w.doc.undo_stack.canUndo()


def test_the_anchor_buttons_are_named_in_words(qtbot: Any) -> None:
    from tankmap.editor.resize import ResizeDialog

    dialog = ResizeDialog(12, 12)
    qtbot.addWidget(dialog)
    assert dialog.anchor_name.text() == "  Keeps the centre in place"
    dialog.anchors[(0, 2)].click()
    assert dialog.anchor_name.text() == "  Keeps the top left in place"
    assert dialog.request().anchor == (0, 2)


def test_a_size_the_game_cannot_have_is_said_in_the_dialog_before_ok(
    make_window: Any, prompter: Any, qtbot: Any
) -> None:
    """Tank Wars plays on 6 × 12 only: choosing 8 × 12 says why in the dialog, with OK
    off, instead of a refusal in the status bar after the dialog has closed."""
    from tankmap.editor.resize import ResizeDialog
    from tankmap.maps import map_path

    w = make_window(map_path("tank-wars/default"))
    prompter.resize = None
    w.run_action("edit.resize")
    problem = prompter.resize_problem
    assert problem is not None and problem(6, 12) is None
    dialog = ResizeDialog(6, 12, problem=problem)
    qtbot.addWidget(dialog)
    assert dialog.ok.isEnabled() and dialog.problem.text() == ""
    dialog.columns.setValue(8)
    assert not dialog.ok.isEnabled()
    assert dialog.problem.text().startswith("Not this size: ")
    assert "8x12" in dialog.problem.text()
    dialog.columns.setValue(6)
    assert dialog.ok.isEnabled() and dialog.problem.text() == ""
