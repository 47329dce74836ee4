"""View ▸ Live balance meter: off by default; on, the status bar shows the balance of the
board on screen and its change from the board measured before on the same games (the
reading of ``analysis.meter.BalanceMeter`` with the meter's seed), follows edits, drops the
results of older boards, and shows a short note on an unplayable board."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tankmap import maps
from tankmap.analysis.meter import BalanceMeter
from tankmap.editor import live_balance
from tankmap.editor.mainwindow import MainWindow
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario, Unit

FLANKS = next(p for p in maps.builtin_maps("final-act") if p.name == "flanks-vs-centre.json")
TEXT = re.compile(r"^balance (\d\.\d\d) \[(\d\.\d\d), (\d\.\d\d)\] \(heuristic, 200 games\)$")


def expected(scenario: Scenario, previous: Scenario | None = None) -> str:
    """What a meter of its own says of ``scenario`` measured after ``previous``."""
    return BalanceMeter(live_balance.AGENT, live_balance.SEED).measure(scenario, previous).text()


def _settled(qtbot: Any, w: MainWindow) -> None:
    meter = w.analysis.live_balance
    assert meter is not None
    qtbot.waitUntil(
        lambda: (
            not meter.busy() and not meter._timer.isActive() and meter.shown_for == w.doc.scenario
        ),
        timeout=120_000,
    )


def test_the_meter_is_off_by_default_and_follows_edits(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    w = make_window(FLANKS)
    action = w.actions_by_id["view.live_balance"]
    assert action.isCheckable() and not action.isChecked()
    assert w.analysis.live_balance is None  # nothing runs until it is switched on

    action.trigger()
    meter = w.analysis.live_balance
    assert meter is not None and meter.enabled
    _settled(qtbot, w)
    text = meter.label.text()
    assert TEXT.match(text) and text == expected(w.doc.scenario)
    assert meter.label.isVisible()

    # two quick edits: the figure shown is the last board's, never an older one's, with its
    # change from the board measured before, on the same games
    original = w.doc.scenario
    swamp = next(t for t in w.doc.scenario.terrain if t.kind == "swamp")
    w.doc.select([swamp])
    assert w.nudge(-1, 0).ok
    assert w.nudge(-1, 0).ok
    assert meter.label.styleSheet()  # greyed: the figure belongs to an older board
    _settled(qtbot, w)
    edited = w.doc.scenario
    now = meter.label.text()
    assert now == expected(edited, original) != text
    assert " · change " in now  # a change beyond noise, or within it, is said

    w.run_action("edit.undo")
    w.run_action("edit.undo")
    _settled(qtbot, w)
    assert meter.label.text() == expected(original, edited)

    action.trigger()
    assert not meter.enabled and meter.label.text() == ""


def test_a_newer_edit_cancels_the_run_in_progress(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    w = make_window(FLANKS)
    meter = w.analysis.set_live_balance(True)
    meter._timer.stop()
    meter.refresh()  # a run for the board as it is
    first = meter.job
    assert first is not None
    swamp = next(t for t in w.doc.scenario.terrain if t.kind == "swamp")
    w.doc.select([swamp])
    assert w.nudge(-1, 0).ok
    meter.refresh()  # what the timer does: the old run is told to stop
    assert first._stop.is_set()
    _settled(qtbot, w)
    assert meter.job is None and meter.label.text() == expected(w.doc.scenario)  # no previous


def test_unplayable_boards_show_a_short_note(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    scenario = read_scenario(FLANKS)
    c = next(u for u in scenario.units if u.side is Side.SOUTH)
    w = make_window(scenario=scenario.adding(Unit("tank", Side.SOUTH, c.cell, c.facing, name="X")))
    meter = w.analysis.set_live_balance(True)
    assert meter.label.text() == "balance: illegal board" and meter.job is None
    assert live_balance.board_note(scenario.with_units(scenario.units[1:])) == (
        "balance: set-up incomplete"
    )
    assert live_balance.board_note(scenario) is None


def test_a_figure_for_an_older_board_is_never_shown(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    w = make_window(FLANKS)
    meter = w.analysis.set_live_balance(True)
    meter._timer.stop()
    meter.refresh()
    first = meter.job
    assert first is not None
    first.cancel = lambda: None  # type: ignore[method-assign]  # it runs to its end
    shown: list[Scenario | None] = []
    real_show = meter._show
    meter._show = lambda text, s: (shown.append(s), real_show(text, s))  # type: ignore[method-assign]
    swamp = next(t for t in w.doc.scenario.terrain if t.kind == "swamp")
    w.doc.select([swamp])
    assert w.nudge(-1, 0).ok
    meter.refresh()
    with qtbot.waitSignal(first.finished, timeout=120_000):
        pass
    _settled(qtbot, w)
    assert shown and all(s == w.doc.scenario for s in shown)
    assert meter.label.text() == expected(w.doc.scenario)
