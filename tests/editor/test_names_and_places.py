"""Names and places (issue 30 items 5 and 6): Tank Chess says White and Black wherever a
person reads a side; refusals name rows as the board labels them; Side on Auto gives the
piece to the half it lies in before the rules judge it; a legal preview never looks like a
refusal; the status line never keeps stale words; windows open whole on the screen; the
overlay shortcuts are listed in key order; the sheet's title and the tank's info say what
a player needs.

Rule facts: docs/rules.md §0 (White = south, Black = north; north's own row k is row
R + 1 - k), §1.2 (Final Act: berms and tanks in own rows 1–3, one minefield per side in own
rows 1–6), §2.3 (Tank Chess direct fire never hits an adjacent piece)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from tankmap import maps
from tankmap.analysis.simulation.runner import record_game, simulate
from tankmap.editor.actions import ACTIONS, shortcuts_html
from tankmap.editor.decided_view import DecidedWindow
from tankmap.editor.export import sheet_image, sheet_title
from tankmap.editor.mainwindow import MainWindow
from tankmap.editor.replay_view import ReplayWindow
from tankmap.editor.scene import PREVIEW_LEGAL, PREVIEW_REFUSED
from tankmap.editor.stats import stat_rows
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario

MIRROR = maps.ROOT / "final-act" / "mirror.json"
BASIC = maps.ROOT / "tank-chess" / "basic-16.json"


def _place(w: MainWindow, kind: str, side: Side | None, cell: str, turns: int = 0) -> None:
    """Choose ``kind`` in the palette with Side ``side`` (``None``: Auto) and point at
    ``cell`` with the place tool."""
    w.ctx.set_choice(kind=kind, shape=0, turns=turns, mirrored=False, side=side)
    w.run_action("tools.place")
    w.ctx.tool.show(w.doc.scenario.board.parse_cell(cell))  # type: ignore[attr-defined]


def _without_north(kind: str) -> Scenario:
    s = read_scenario(MIRROR)
    return s.with_terrain(t for t in s.terrain if not (t.kind == kind and t.side is Side.NORTH))


# --- White and Black ------------------------------------------------------------------------
def test_the_tank_chess_editor_says_white_and_black(make_window: Callable[..., Any]) -> None:
    w = make_window(BASIC)
    texts = w.legend_dock.texts()
    assert (
        "White's setup area" in texts and "Black unit (the barrel points where it faces)" in texts
    )
    header = [w.palette_dock.list.headerItem().text(i) for i in (1, 2)]
    assert header == ["White left", "Black left"]
    assert w.actions_by_id["view.overlay_cov_south"].text() == "Fire coverage: White"
    assert w.actions_by_id["edit.copy_north"].text().replace("&", "") == "Copy Black setup to White"
    menus = " ".join(a.text() + a.toolTip() for a in w.actions_by_id.values())
    assert not re.search(r"\b(south|north)\b", menus, re.IGNORECASE)
    w.run_action("view.overlay_cov_north")
    assert w.message.text().startswith("Fire coverage of Black:")
    assert w.legend_dock.texts()[0] == "Fire coverage of Black"
    w.new_file(get_ruleset("final-act").new_scenario())  # another game: its own names
    assert w.actions_by_id["view.overlay_cov_south"].text() == "Fire coverage: South"


def test_the_replay_window_and_its_result_say_white_and_black(
    make_window: Callable[..., Any], tmp_path: Path
) -> None:
    from tankmap.editor.replay_view import open_game_record

    _result, rec = record_game(read_scenario(BASIC), "heuristic", seed=3, game=3)
    path = tmp_path / "tank-chess.json"
    rec.save(path)
    w = make_window()
    rw = open_game_record(w, path)
    assert rw is not None
    winner = rw.replay.result.winner
    who = {Side.SOUTH: "White wins", Side.NORTH: "Black wins", None: "draw"}[winner]
    assert rw.result.text().startswith(f"result: {who} (")
    steps = [rw.steps.item(i).text() for i in range(rw.steps.count())]
    assert steps[1].startswith("turn 1: White ") and steps[2].startswith("turn 2: Black ")
    shown = " ".join([rw.windowTitle(), rw.result.text(), *steps])
    assert not re.search(r"\b(south|north)\b", shown, re.IGNORECASE)


# --- refusals and the Auto side -------------------------------------------------------------
def test_a_north_refusal_names_the_rows_the_board_labels(make_window: Callable[..., Any]) -> None:
    w = make_window(scenario=_without_north("berm-small"))
    _place(w, "berm-small", Side.NORTH, "h8")  # row 8 = north's own row 5: outside rows 1–3
    assert w.message.text() == (
        "Small berm (North) at h8: refused: small berm h8-i8: berms must stay in rows 10–12 "
        "(north's rows 1–3)"
    )


def test_auto_gives_the_piece_to_the_half_it_lies_in(make_window: Callable[..., Any]) -> None:
    # South has its one minefield; North has none. On Auto, a minefield in the north half
    # is North's and legal; one in the south half is South's, refused for South's reason.
    s = _without_north("minefield")
    removed = next(
        t for t in read_scenario(MIRROR).terrain if t.kind == "minefield" and t.side is Side.NORTH
    )
    w = make_window(scenario=s)
    middle = s.board.cell_name(sorted(removed.cells)[1])  # the palette's 1×3 is centred
    _place(w, "minefield", None, middle)
    assert "(North)" in w.message.text() and "legal" in w.message.text()
    outcome = w.ctx.tool.place_at(s.board.parse_cell(middle))  # type: ignore[attr-defined]
    assert outcome.ok
    (placed,) = [
        t for t in w.doc.scenario.terrain if t.kind == "minefield" and t.side is Side.NORTH
    ]
    assert set(placed.cells) == set(removed.cells)
    _place(w, "minefield", None, "e4")  # the south half
    text = w.message.text()
    assert "Minefield (South) at e4: refused:" in text and "south has 2 minefields" in text
    assert "north" not in text.lower()


def test_auto_goes_by_the_piece_across_the_middle(make_window: Callable[..., Any]) -> None:
    s = _without_north("minefield")
    w = make_window(scenario=s)
    w.ctx.set_choice(kind="minefield", shape=0, turns=1, mirrored=False, side=None)
    place = w.ctx.tools["place"]
    for centre, side in (("e6", Side.SOUTH), ("e7", Side.NORTH)):  # upright: rows 5–7, 6–8
        piece, cells = place.candidate(s.board.parse_cell(centre))  # type: ignore[attr-defined]
        assert piece is not None and piece.side is side and len(cells) == 3, centre


# --- what the board and the status line show -------------------------------------------------
def test_a_legal_preview_is_outlined_green_above_the_ghost(make_window: Callable[..., Any]) -> None:
    w = make_window(scenario=_without_north("berm-small"))
    scene = w.ctx.scene
    _place(w, "berm-small", Side.NORTH, "h11")  # North's piece is drawn in North's red
    assert "legal" in w.message.text()
    pen = scene.preview.pen
    assert pen.color().name() == PREVIEW_LEGAL and pen.style() == Qt.PenStyle.SolidLine
    assert scene.ghosts and all(scene.preview.zValue() > g.zValue() for g in scene.ghosts)
    _place(w, "berm-small", Side.NORTH, "h8")
    pen = scene.preview.pen
    assert pen.color().name() == PREVIEW_REFUSED and pen.style() == Qt.PenStyle.DashLine


def test_the_status_line_follows_overlays_and_undo(make_window: Callable[..., Any]) -> None:
    w = make_window(scenario=_without_north("berm-small"))
    w.run_action("view.overlay_cov_south")
    assert w.message.text().startswith("Fire coverage of South:")
    w.run_action("view.overlay_none")
    assert w.message.text() == "Analysis overlay off"
    _place(w, "berm-small", Side.NORTH, "h11")
    assert w.ctx.tool.place_at(w.doc.scenario.board.parse_cell("h11")).ok  # type: ignore[attr-defined]
    assert w.message.text().startswith("Placed Small berm")
    w.run_action("edit.undo")
    assert w.message.text().startswith("Undone: ") and "Placed" not in w.message.text()
    w.run_action("edit.redo")
    assert w.message.text().startswith("Redone: ")
    w.doc.undo_stack.setIndex(0)  # as a click on the History dock's first line does
    w.history.clicked.emit(w.history.model().index(0, 0))
    assert w.message.text() == "History: back to the board as opened"


def _inside(window: Any) -> bool:
    available = window.screen().availableGeometry()
    return bool(available.contains(window.frameGeometry()))


def test_replay_and_where_decided_windows_open_whole_on_the_screen(
    make_window: Callable[..., Any], qtbot: Any
) -> None:
    w = make_window(MIRROR)
    available = w.screen().availableGeometry()
    w.move(available.right() - 200, available.bottom() - 200)  # the editor near a corner
    scenario = read_scenario(MIRROR)
    _result, rec = record_game(scenario, "heuristic", seed=1, game=0)
    from tankmap.analysis.replay import replay_of

    rw = ReplayWindow(replay_of(rec), w)
    rw.show()
    qtbot.waitExposed(rw)
    assert _inside(rw), (rw.frameGeometry(), available)
    assert rw.steps.height() > 3 * rw.steps.sizeHintForRow(0)  # the round list is not cut off
    table = simulate(scenario, 6, ("random", "random"), seed=0)
    dw = DecidedWindow(scenario, table, w)
    dw.show()
    qtbot.waitExposed(dw)
    assert _inside(dw), (dw.frameGeometry(), available)


# --- words ----------------------------------------------------------------------------------
def test_the_overlay_shortcuts_are_listed_in_key_order(make_window: Callable[..., Any]) -> None:
    keys = [int(k) for k in re.findall(r"Alt\+(\d)", shortcuts_html())]
    assert keys == sorted(keys) == list(range(10))
    view = [s.shortcut for s in ACTIONS if s.id.startswith("view.overlay")]
    assert view == sorted(view)
    w = make_window()
    menu = next(a.menu() for a in w.menuBar().actions() if a.text() == "&View")
    shown = [
        a.shortcut().toString() for a in menu.actions() if a.objectName().startswith("view.overlay")
    ]
    assert shown == sorted(shown) and len(shown) == 7


@pytest.mark.parametrize("kind", ["light", "heavy", "destroyer", "mortar"])
def test_the_tank_chess_fire_rule_says_adjacent_cells_are_never_hit(kind: str) -> None:
    fires = dict(stat_rows(get_ruleset("tank-chess"), kind))["Fires"]
    assert "adjacent" in fires


@pytest.mark.parametrize(
    ("name", "side", "title"),
    [
        ("tank-chess/basic-16", Side.SOUTH, "White's setup"),
        ("tank-chess/basic-16", Side.NORTH, "Black's setup"),
        ("final-act/mirror", Side.NORTH, "North's setup"),
    ],
)
def test_the_sheet_title_names_the_side_once(qtbot: Any, name: str, side: Side, title: str) -> None:
    s = read_scenario(maps.ROOT / f"{name}.json")
    assert sheet_title(s, side) == f"{s.title}: {title}"
    assert not sheet_image(s, side, 400, 600).isNull()
