"""Analysis ▸ Suggest edits: the Suggestions dock runs ``analysis.suggest`` off the GUI
thread, lists the suggestions, previews one as a ghost overlay, applies it as one undo step,
marks a run stale when the board changes, refuses unplayable boards in one line, cancels."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from tankmap import maps
from tankmap.analysis.suggest import suggest
from tankmap.editor import suggest_job
from tankmap.editor.docks.suggestions import STALE_TEXT, SuggestionsDock
from tankmap.editor.ghost import GhostOverlay, board_diff
from tankmap.editor.mainwindow import MainWindow
from tankmap.editor.suggest_job import refusal
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Unit

FLANKS = next(p for p in maps.builtin_maps("final-act") if p.name == "flanks-vs-centre.json")
SMALL = {"games": 200, "budget": 600, "seed": 2}
"""A budget no run reaches: a small search (``_small_search``) keeps the runs short, so
what the tests see does not depend on the machine's load. Seed 2 on flanks-vs-centre: an
edit evens the board beyond noise (one suggestion listed); seed 1: none does."""


@pytest.fixture(autouse=True)
def _small_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dock's job plays at most 5 steered candidates (not the default 24)."""
    monkeypatch.setattr(suggest_job, "suggest", partial(suggest, max_candidates=5))


def _dock(w: MainWindow, **settings: int) -> SuggestionsDock:
    w.run_action("analysis.suggest")
    dock = w.analysis.suggestions
    assert dock is not None and dock.isVisible()
    assert dock.agent.currentText() == "automatic"  # the family's everyday agent if it fits
    dock.agent.setCurrentText("heuristic")
    dock.games.setValue(settings.get("games", SMALL["games"]))
    dock.budget.setValue(settings.get("budget", SMALL["budget"]))
    dock.seed.setValue(settings.get("seed", SMALL["seed"]))
    return dock


def _finish(qtbot: Any, dock: SuggestionsDock) -> None:
    """Wait for the run's result in the dock (a condition: a signal already delivered
    while the test did something else would never come again)."""
    assert dock.job is not None
    qtbot.waitUntil(lambda: not dock.busy() and dock.result is not None, timeout=300_000)


def _ghosts(w: MainWindow) -> list[GhostOverlay]:
    return [i for i in w.ctx.scene.items() if isinstance(i, GhostOverlay)]


def test_a_run_lists_what_suggest_finds_previews_and_applies_as_one_undo_step(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    w = make_window(FLANKS)
    original = w.doc.scenario
    dock = _dock(w)
    assert not dock.apply_button.isEnabled()
    assert dock.run()
    assert dock.busy() and not dock.run()  # one run at a time
    assert not dock.run_button.isEnabled() and dock.cancel_button.isEnabled()
    _finish(qtbot, dock)
    result = dock.result
    assert result is not None and result.suggestions
    # the dock passed its settings on: the board measured as ``suggest`` measures it with
    # these games and seed, and finds what it finds
    expected = suggest(original, "heuristic", 200, 600.0, 2, max_candidates=5)
    assert result.before.stats == expected.before.stats
    assert [e.words for e, _m in result.suggestions] == [e.words for e, _m in expected.suggestions]
    assert dock.list.count() == len(result.suggestions)
    first = dock.list.item(0).text()
    assert first.startswith("1. " + result.suggestions[0][0].words[0])
    b = result.before.stats.balance
    m = result.suggestions[0][1]
    assert m.gain is not None and m.gain.lower > 0
    assert f"balance {b:.3f} [" in first and f"→ {m.stats.balance:.3f} [" in first
    assert f"gain {m.gain.estimate:+.3f} [{m.gain.lower:+.3f}, " in first and "200 games" in first
    assert "Now: balance" in dock.summary.text()
    assert "games on the search's own seeds" in dock.summary.text()
    assert "heuristic alone" in dock.summary.text()
    assert "Verdict: none yet for this board (press Judge board in Analysis" in dock.summary.text()
    assert dock.confirm_button.isVisible() and dock.confirm_button.text() == "Confirm with search"
    assert dock.bar.value() == result.played and dock.bar.value() > 0

    # the first suggestion is selected and previewed: its moved piece as a ghost
    assert dock.list.currentRow() == 0
    (ghost,) = _ghosts(w)
    diff = board_diff(original, result.suggestions[0][0].scenario)
    assert diff.removed and diff.added and ghost.diff == diff
    assert len(ghost.ghosts) == len(diff.added)
    assert ghost.ghosts[0].opacity() < 1 and ghost.boundingRect().width() > 0
    assert w.doc.scenario == original  # a preview never edits

    dock.list.setCurrentRow(len(result.suggestions) - 1)
    (ghost,) = _ghosts(w)
    assert ghost.diff == board_diff(original, result.suggestions[-1][0].scenario)

    assert dock.apply_button.isEnabled()
    depth = w.doc.undo_stack.count()
    assert dock.apply(0)
    assert w.doc.scenario == result.suggestions[0][0].scenario != original
    assert w.doc.undo_stack.count() == depth + 1
    assert w.doc.undo_stack.undoText().startswith("Apply suggestion")
    assert not _ghosts(w) and not dock.apply_button.isEnabled()
    assert "Suggestion 1 is applied" in dock.note.text()
    assert f"was {m.stats.balance:.3f} [" in dock.note.text()
    assert dock.summary.text().startswith("Before: balance")  # no stale "Now"
    w.run_action("edit.undo")
    assert w.doc.scenario == original
    assert w.doc.scenario.terrain == original.terrain  # piece order too
    assert not w.doc.modified
    assert dock.apply_button.isEnabled() and len(_ghosts(w)) == 1  # current again


def test_an_edit_during_a_run_makes_it_stale(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    w = make_window(FLANKS)
    dock = _dock(w)
    assert dock.run()
    swamp = next(t for t in w.doc.scenario.terrain if t.kind == "swamp")
    w.doc.select([swamp])
    assert w.nudge(0, 1).ok or w.nudge(0, -1).ok  # an edit while the search runs
    assert dock.stale() and "changed since this run started" in dock.note.text()
    _finish(qtbot, dock)
    assert dock.result is not None and dock.result.suggestions
    assert dock.note.text() == STALE_TEXT
    dock.list.setCurrentRow(0)
    assert not dock.apply_button.isEnabled()
    assert not _ghosts(w)
    edited = w.doc.scenario
    assert not dock.apply(0) and w.doc.scenario == edited
    w.run_action("edit.undo")  # back to the board that was searched: current again
    assert not dock.stale() and dock.apply_button.isEnabled()
    assert dock.note.text() != STALE_TEXT


def test_cancel_stops_the_run(
    qtbot: Any, make_window: Callable[..., MainWindow], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(suggest_job, "suggest", suggest)  # the full search: 24 candidates
    w = make_window(FLANKS)
    dock = _dock(w, games=400, budget=600)  # minutes if not cancelled
    assert dock.run()
    job = dock.job
    assert job is not None
    with qtbot.waitSignal(job.progress, timeout=60_000):
        pass  # the search is playing candidates
    with qtbot.waitSignal(job.cancelled, timeout=120_000):
        dock.cancel_button.click()
    qtbot.waitUntil(lambda: not dock.busy(), timeout=60_000)
    assert dock.note.text() == "Cancelled." and dock.result is None
    assert dock.list.count() == 0 and not dock.apply_button.isEnabled()
    assert dock.run_button.isEnabled() and dock.games.isEnabled()


def test_unplayable_boards_are_refused_in_one_line(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    scenario = read_scenario(FLANKS)
    c = next(u for u in scenario.units if u.side is Side.SOUTH)
    illegal = scenario.adding(Unit("tank", Side.SOUTH, c.cell, c.facing, name="X"))
    w = make_window(scenario=illegal)
    dock = _dock(w)
    assert not dock.run() and dock.job is None
    text = dock.note.text()
    assert text.startswith("Cannot simulate an illegal scenario") and "\n" not in text
    assert "Traceback" not in text
    assert refusal(scenario) is None
    assert "incomplete" in (refusal(scenario.with_units(scenario.units[1:])) or "")


def test_move_units_too_searches_set_up_positions(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    w = make_window(FLANKS)
    original = w.doc.scenario
    dock = _dock(w)
    assert not dock.units.isChecked()  # terrain only unless asked
    dock.units.setChecked(True)
    assert dock.settings().units
    assert dock.run()
    assert not dock.units.isEnabled()  # settings are locked while a run goes
    _finish(qtbot, dock)
    result = dock.result
    assert result is not None
    expected = suggest(original, "heuristic", 200, 600.0, 2, max_candidates=5, units=True)
    assert result.tried == expected.tried
    # the units' moves are among the candidates the search played
    assert any(" from " in t["edits"][0] for t in result.tried)


def test_the_bar_says_nothing_before_a_run_and_an_empty_run_says_why(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    from tankmap.analysis.verdict.cache import save_verdict

    w = make_window(FLANKS)
    remembered = {"family": "search", "agent": "search:12", "favoured": "even", "games": 200}
    save_verdict(w.doc.scenario, {**remembered, "converged": True, "balance": 0.96})
    dock = _dock(w, seed=1)  # seed 1: nothing beyond noise on 200 games
    assert not dock.bar.isTextVisible()  # no "0 of 1 candidates played" before any run
    assert dock.run()
    _finish(qtbot, dock)
    assert dock.bar.isTextVisible() and dock.bar.text().endswith("candidates played")
    assert dock.list.count() == 0 and not dock.confirm_button.isVisible()
    assert dock.note.text().startswith("No edit found that evens the board beyond noise")
    assert "No edit found" not in dock.summary.text()  # said once, in the note
    # the board's verdict beside its figure, as the balance dialog and simulate show it
    assert "Verdict: even (converged), balance 0.96" in dock.summary.text()


def test_confirm_re_measures_heuristic_suggestions_with_the_strongest_agent(
    qtbot: Any, make_window: Callable[..., MainWindow], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tankmap.analysis.simulation import agent_info

    # the strongest agent, for this test's speed, stands in as the heuristic without berms
    monkeypatch.setattr(agent_info, "default_agent", lambda s: ("heuristic+no-berms", "test"))
    w = make_window(FLANKS)
    dock = _dock(w)
    assert dock.run()
    _finish(qtbot, dock)
    assert dock.confirm_button.isVisible()
    job = dock.confirm()
    assert job is not None
    with qtbot.waitSignal(job.finished, timeout=120_000):
        pass
    qtbot.waitUntil(lambda: not dock.confirm_button.isVisible(), timeout=10_000)
    result = dock.result
    assert result is not None and result.confirm_agent == "heuristic+no-berms"
    c = result.suggestions[0][1].confirmation
    assert c is not None and c["agent"] == "heuristic+no-berms"
    word = "confirmed" if c["confirmed"] else "not confirmed"
    assert f"{word} by heuristic+no-berms" in dock.list.item(0).text()


def test_a_slow_agent_s_runs_play_on_spawned_workers_with_the_same_numbers(
    qtbot: Any, make_window: Callable[..., MainWindow], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Runs that would take 10 s or more in one process go to the job's spawned workers
    (``jobs.gui_executor``: two here), planned for two processes; the suggestions are
    those of the same plan played by the command line's two workers."""
    from tankmap.analysis.simulation.pace import remember_pace
    from tankmap.editor import jobs

    scenario = read_scenario(FLANKS)
    # the heuristic made to look slow: 200 games a run, 100 s in one process
    remember_pace(scenario, ("heuristic", "heuristic"), 0.5)
    runs: list[int] = []

    def counted(workers: int | None = None, abortable: bool = False) -> Any:
        executor = jobs.gui_executor(2, abortable)
        play = executor.map
        monkeypatch.setattr(executor, "map", lambda *a, **k: runs.append(1) or play(*a, **k))
        return executor

    monkeypatch.setattr(suggest_job, "gui_executor", counted)
    w = make_window(FLANKS)
    dock = _dock(w, budget=200)
    assert dock.run()
    _finish(qtbot, dock)
    assert runs  # on the workers
    expected = suggest(
        scenario, "heuristic", workers=2, max_candidates=5, **{**SMALL, "budget": 200}
    )
    strip = lambda d: {k: v for k, v in d.items() if k != "seconds"}  # noqa: E731
    assert dock.result is not None
    assert strip(dock.result.to_json()) == strip(expected.to_json())
