"""Help ▸ Rules (issue 18 item 9): the repository's rules document in a window beside the
editor, opened at the section of the game being edited."""

from __future__ import annotations

from typing import Any

from tankmap import maps
from tankmap.editor.rules_view import SECTIONS, rules_path


def test_help_rules_opens_the_document_at_this_games_section(make_window: Any) -> None:
    assert rules_path() is not None  # a checkout has docs/rules.md
    w = make_window(maps.ROOT / "tank-chess" / "basic-16.json")
    w.run_action("help.rules")
    rules = w.rules_window
    assert rules is not None and rules.isVisible()
    text = rules.browser.toPlainText()
    assert "Rows r and r + 6 share a range-marker colour" in text  # markdown rendered
    assert "**" not in text and "### " not in text
    assert rules.browser.textCursor().block().text().startswith(SECTIONS["tank-chess"])
    block = rules.browser.textCursor().block()
    y = rules.browser.document().documentLayout().blockBoundingRect(block).top()
    assert abs(rules.browser.verticalScrollBar().value() - y) < 30  # scrolled to it
    w.run_action("help.rules")
    assert w.rules_window is rules  # one window, raised again


def test_every_game_has_its_section() -> None:
    path = rules_path()
    assert path is not None
    headings = [line[3:] for line in path.read_text("utf-8").splitlines() if line[:3] == "## "]
    for heading in SECTIONS.values():
        assert any(h.startswith(heading) for h in headings), heading
