"""The Problems dock and refusal reasons read well (issue 18 item 6): every line of the
dock is as tall as its wrapped text at any dock width (none cut short over a blank line),
F8 says the problem in words, and a refusal gives the reasons about the spot first, each
once, without naming the piece twice."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tankmap import maps
from tankmap.editor import editing
from tankmap.editor.document import Document
from tankmap.editor.pieces import reason_text
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Unit
from tankmap.rules.violations import Severity, Violation


def test_every_line_is_as_tall_as_its_slot_at_any_dock_width(make_window: Any) -> None:
    """Qt measured a wrapped line at two widths: a line that just fits on one line was drawn
    one line high ("…") in a two-line slot. Every width from 250 to 360 px is tried."""
    w = make_window(scenario=get_ruleset("final-act").new_scenario())  # ten long lines
    tree = w.problems_dock.tree
    assert tree.count() == 10
    mismatched = []
    for width in range(250, 362, 2):
        w.resizeDocks([w.docks["problems"]], [width], Qt.Orientation.Horizontal)
        QApplication.processEvents()
        rects = [tree.visualItemRect(tree.item(i)) for i in range(tree.count())]
        for i, (a, b) in enumerate(zip(rects, rects[1:], strict=False)):
            if b.y() - a.y() - 2 * tree.spacing() != a.height():
                mismatched.append((width, i, a.height(), b.y() - a.y()))
    assert mismatched == []


def test_f8_says_the_problem_in_words(make_window: Any) -> None:
    s = read_scenario(maps.ROOT / "final-act" / "mirror.json")
    b = s.board
    moved = Unit("tank", Side.SOUTH, b.parse_cell("b5"), Facing.N, "1B")
    w = make_window(scenario=s.with_units([moved, *s.units[1:]]))
    w.run_action("view.next_problem")
    n = len(w.problems_dock.violations)
    assert w.message.text() == (
        f"Problem 1 of {n} (error): South tank 1B at b5: units set up in south's rows 1–3"
    )
    assert "unit-" not in w.message.text()
    tip = w.problems_dock.tree.item(0).toolTip()
    assert tip == "Error (South): South tank 1B at b5: units set up in south's rows 1–3"


def test_refusals_give_the_spot_first_and_name_the_piece_once(qtbot: Any) -> None:
    doc = Document(read_scenario(maps.ROOT / "tank-chess" / "basic-16.json"))
    b = doc.scenario.board
    light = Unit("light", Side.SOUTH, b.parse_cell("d3"), Facing.N)  # on an obstacle
    assert editing.preview(doc, light).reason == (
        "White light tank on d3 stands on an obstacle · White has 5 light tanks; "
        "the 16x16 army has 4"
    )
    mine = read_scenario(maps.ROOT / "final-act" / "mirror.json")
    doc = Document(mine)
    tank = Unit("tank", Side.SOUTH, mine.board.parse_cell("g5"), Facing.N, "2B")
    reason = editing.preview(doc, tank).reason
    assert reason.startswith("south tank 2B at g5: units set up in south's rows 1–3 · ")
    assert reason.count("south tank 2B at g5") == 1
    assert reason.endswith(
        "south has 8 tank units; the rules allow 7 · south has 2 tanks named 2B (k2 g5)"
    )


def test_reason_text_orders_dedupes_and_drops_the_repeated_subject() -> None:
    e = Severity.ERROR
    reasons = [
        Violation("too-many", e, "south has 2 swamps; the rules allow 1"),
        Violation("unit-outside-zone", e, "south tank X at b5: units set up in south rows 1-3"),
        Violation("unit-on-swamp", e, "south tank X at b5 stands on a swamp"),
        Violation("unit-on-swamp", e, "south tank X at b5 stands on a swamp"),
    ]
    assert reason_text(reasons) == (
        "south tank X at b5: units set up in south rows 1-3 · stands on a swamp · "
        "south has 2 swamps; the rules allow 1"
    )
    two = [Violation("a", e, "south has 2 tanks named C"), Violation("b", e, "south has 8 tanks")]
    assert reason_text(two) == "south has 2 tanks named C · south has 8 tanks"  # 2 words


def test_a_shared_cell_names_equal_units_once() -> None:
    s = read_scenario(maps.ROOT / "final-act" / "mirror.json")
    c = next(u for u in s.units if u.name == "C" and u.side is Side.SOUTH)
    messages = [v.message for v in get_ruleset("final-act").check(s.with_units([*s.units, c]))]
    assert "f2 holds 2 tank units (at most 1 per cell): south tank C at f2 ×2" in messages


def test_counts_in_refusals_are_singular_for_one(qtbot: Any) -> None:
    doc = Document(read_scenario(maps.ROOT / "tank-chess" / "basic-16.json"))
    b = doc.scenario.board
    destroyer = Unit("destroyer", Side.SOUTH, b.parse_cell("a2"), Facing.N)
    assert editing.preview(doc, destroyer).reason == (
        "White has 1 tank destroyer; the 16x16 army has none"
    )


def test_a_piece_past_the_count_hears_the_count_not_its_missing_name(qtbot: Any) -> None:
    # mirror: South has its 7 tanks, so an 8th has no name left either; the editor names
    # every new piece itself, so "has no name" would send the user after a cause that is
    # only the count's consequence
    doc = Document(read_scenario(maps.ROOT / "final-act" / "mirror.json"))
    tank = Unit("tank", Side.SOUTH, doc.scenario.board.parse_cell("l1"), Facing.N)
    assert editing.preview(doc, tank).reason == "south has 8 tank units; the rules allow 7"
    named = Unit("tank", Side.SOUTH, doc.scenario.board.parse_cell("l1"), Facing.N, "Z")
    assert editing.preview(doc, named).reason == (  # a name of the user's own is said
        "south has 8 tank units; the rules allow 7 · south tank Z at l1 is named 'Z'; tanks "
        "are named C 1 1A 1B 2 2A 2B"
    )
