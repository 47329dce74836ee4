"""View ▸ Board only hides the panels and brings back exactly those it hid; the Suggestions
dock opens in one tab group with History and the Legend, under Problems."""

from __future__ import annotations

from typing import Any


def _visible(w: Any) -> set[str]:
    return {name for name, dock in w.docks.items() if dock.isVisible()}


def test_board_only_hides_the_panels_and_brings_back_those_it_hid(
    make_window: Any, qtbot: Any
) -> None:
    w = make_window()
    w.docks["history"].hide()  # the user's own choice: stays hidden afterwards
    before_width = w.view.viewport().width()
    w.run_action("view.board_only")
    assert _visible(w) == set()
    assert w.actions_by_id["view.board_only"].isChecked()
    assert "Ctrl+Shift+F" in w.message.text()
    qtbot.waitUntil(lambda: w.view.viewport().width() > before_width + 400)
    w.run_action("view.board_only")
    assert _visible(w) == {"palette", "inspector", "problems", "legend"}
    assert not w.actions_by_id["view.board_only"].isChecked()
    assert w.message.text() == "The panels are back."


def test_board_only_with_no_panel_to_hide_stays_off(make_window: Any) -> None:
    w = make_window()
    for dock in w.docks.values():
        dock.hide()
    w.run_action("view.board_only")
    assert not w.actions_by_id["view.board_only"].isChecked()
    assert "no panels to hide" in w.message.text()


def test_the_next_start_after_board_only_opens_with_its_panels(make_window: Any) -> None:
    w = make_window()
    w.run_action("view.board_only")
    assert _visible(w) == set()
    assert w.close()
    again = make_window()  # the same settings file: the layout the first one saved
    assert _visible(again) == {"palette", "inspector", "problems", "legend", "history"}


def test_suggestions_share_a_tab_group_with_history_and_legend(make_window: Any) -> None:
    w = make_window()
    w.run_action("analysis.suggest")
    dock = w.analysis.suggestions_dock
    assert dock is not None and dock.isVisible()
    tabbed = set(w.tabifiedDockWidgets(dock))
    assert tabbed == {w.docks["legend"], w.docks["history"]}
    assert w.docks["problems"].isVisible()
    # it has the height of the right column, not a third of it
    assert dock.height() > 2 * w.docks["problems"].height()
    w.run_action("view.board_only")
    assert not dock.isVisible()
    w.run_action("view.board_only")
    assert dock.isVisible() and set(w.tabifiedDockWidgets(dock)) == tabbed
