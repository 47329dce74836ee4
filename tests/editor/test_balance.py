"""Analysis ▸ Simulate balance: a run off the GUI thread (or on spawned workers) equals
``simulate`` with the same seed; progress, cancel, refusal of an illegal board, the report,
the menu action, the estimate and default games, and the dialog's layout. Its verdict
panel: ``test_balance_verdict.py``."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QUrl

from tankmap import maps
from tankmap.analysis.simulation.runner import simulate
from tankmap.editor.balance import BalanceDialog
from tankmap.editor.balance_job import SimulationJob
from tankmap.editor.mainwindow import MainWindow
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Unit

MIRROR = maps.builtin_maps("final-act")[2]
BASIC = maps.builtin_maps("tank-chess")[0]


def test_builtin_paths() -> None:
    assert (MIRROR.name, BASIC.name) == ("mirror.json", "basic-16.json")


def test_a_run_gives_the_numbers_of_simulate_with_the_same_seed(qtbot: Any) -> None:
    scenario = read_scenario(MIRROR)
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    dialog.games.setValue(60)
    dialog.seed.setValue(5)
    # 60 Final Act games finish in seconds with search: the strongest agent is the default
    assert (dialog.south.currentText(), dialog.north.currentText()) == ("search", "search")
    assert dialog.default_note.text().startswith("Default agent: search")
    dialog.south.setCurrentText("heuristic")
    dialog.north.setCurrentText("heuristic")
    dialog.games.setValue(60)  # a pick sticks
    assert dialog.north.currentText() == "heuristic"
    seen: list[tuple[int, int]] = []
    with qtbot.waitSignal(dialog.bar.valueChanged, timeout=120_000):
        assert dialog.run()
        assert dialog.job is not None
        dialog.job.progress.connect(lambda d, t: seen.append((d, t)))
    qtbot.waitUntil(lambda: dialog.last is not None, timeout=60_000)
    _scenario, doc, table = dialog.last  # type: ignore[misc]
    expected = simulate(scenario, 60, "heuristic", seed=5)
    assert list(table["winner"]) == list(expected["winner"])
    assert doc["wins"]["south"] == int((expected["winner"] == "south").sum())
    text = dialog.results.toPlainText()
    assert "60 games" in text and "Balance" in text and "95 % interval" in text
    assert "none yet for this board (press judge board above)" in text.lower()
    assert f"{doc['balance']:.3f}" in text
    assert dialog.run_button.isEnabled() and not dialog.cancel_button.isEnabled()
    assert dialog.report_button.isEnabled()
    assert dialog.bar.value() == 60  # the last progress step reached the total
    assert not seen or seen[-1][0] <= 60
    # the estimate follows the pace the run left (no "measuring…" left over)
    assert dialog.estimate.text().startswith("Estimated time: under a second for 60 games (")
    assert dialog.estimate.text().endswith(" ms a game on this board, measured)")


@pytest.mark.parametrize("workers", [1, 2])
def test_cancel_keeps_the_finished_games_as_a_partial_result(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """In one thread, and on two spawned workers (a run that looks long: 200 s in one
    process at the pace remembered here). The cancel comes once 1,000 games are done:
    on two workers the games kept run up to the first one not finished, and the run's
    first batch might still be running when a later one is done."""
    from tankmap.analysis.simulation.pace import remember_pace
    from tankmap.editor import run_estimate

    monkeypatch.setattr(run_estimate, "available_cpus", lambda: workers)
    scenario = read_scenario(BASIC)
    remember_pace(scenario, ("random", "random"), 0.01)  # (0.003 s measured)
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    dialog.games.setValue(20000)  # far more than can finish before the cancel
    dialog.south.setCurrentText("random")
    dialog.north.setCurrentText("random")
    assert dialog.run()
    assert dialog.job is not None and dialog.job.workers == workers
    assert dialog.busy() and not dialog.run()  # one run at a time
    assert dialog.cancel_button.isEnabled()
    job = dialog.job
    assert job is not None
    qtbot.waitUntil(lambda: dialog.bar.value() >= 1000, timeout=60_000)
    with qtbot.waitSignal(job.finished, timeout=60_000):
        dialog.cancel_button.click()
    qtbot.waitUntil(lambda: not dialog.busy(), timeout=60_000)
    assert dialog.last is not None
    _scenario, doc, table = dialog.last
    n = len(table)
    assert 0 < n < 20000 and doc["games"] == n
    text = dialog.results.toPlainText()
    assert f"Cancelled after {n} of 20000 games: a partial result" in text
    assert "Balance" in text and "[" in text  # with its (wider) interval
    assert dialog.bar.format() == f"cancelled after {n} of 20000 games"  # no stale time left
    # the games kept are the run's first games: the same as a run of that many
    expected = simulate(scenario, n, ("random", "random"), seed=dialog.seed.value())
    assert list(table["game"]) == list(range(n))
    assert list(table["winner"]) == list(expected["winner"])
    assert dialog.report_button.isEnabled() and dialog.run_button.isEnabled()


def test_an_illegal_board_is_refused_with_its_reason(qtbot: Any) -> None:
    scenario = read_scenario(MIRROR)
    c = next(u for u in scenario.units if u.side is Side.SOUTH and u.name == "C")
    on_top = Unit("tank", Side.SOUTH, c.cell, c.facing, name="1")  # two tanks on one cell
    bad = scenario.with_units(tuple(u for u in scenario.units if u.name != "1") + (on_top,))
    dialog = BalanceDialog(lambda: bad)
    qtbot.addWidget(dialog)
    assert not dialog.run()
    text = dialog.results.toPlainText()
    assert text.startswith("Cannot simulate an illegal scenario:") and "Problems dock" in text
    assert dialog.job is None


def test_report_is_written_and_opened(qtbot: Any, tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # reports go under tmp_path
    scenario = read_scenario(MIRROR)
    opened: list[QUrl] = []
    dialog = BalanceDialog(lambda: scenario, open_url=opened.append)
    qtbot.addWidget(dialog)
    dialog.games.setValue(30)
    dialog.south.setCurrentText("heuristic")
    dialog.north.setCurrentText("heuristic")
    dialog.run()
    qtbot.waitUntil(lambda: dialog.last is not None, timeout=60_000)
    job = dialog.open_report()
    assert job is not None and not dialog.report_button.isEnabled()  # writing
    assert dialog.open_report() is None  # one report at a time
    qtbot.waitUntil(lambda: bool(opened), timeout=60_000)
    assert job.wait() and dialog.report_button.isEnabled()
    path = Path(opened[0].toLocalFile())
    assert path.name == "report.html" and path.is_file()
    assert (path.parent / "games.csv").is_file()
    assert [Path(u.toLocalFile()) for u in opened] == [path]


def test_restricted_policy_runs_like_simulate(qtbot: Any) -> None:
    scenario = read_scenario(MIRROR)
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    items = [dialog.south.itemText(i) for i in range(dialog.south.count())]
    assert "heuristic+no-berms" in items and "heuristic+no-tank" in items
    dialog.south.setCurrentText("heuristic+no-berms")  # picked: both lists stay as they are
    dialog.north.setCurrentText("heuristic")
    dialog.games.setValue(40)
    assert dialog.run()
    qtbot.waitUntil(lambda: dialog.last is not None, timeout=60_000)
    _scenario, doc, table = dialog.last  # type: ignore[misc]
    expected = simulate(scenario, 40, ("heuristic+no-berms", "heuristic"), seed=0)
    assert list(table["winner"]) == list(expected["winner"])
    assert doc["policy"]["south"] == "heuristic+no-berms"
    assert "heuristic+no-berms vs heuristic" in dialog.results.toPlainText()


def test_job_reports_bad_policies_as_failures(qtbot: Any) -> None:
    job = SimulationJob(read_scenario(MIRROR), 4, ("heuristic", "clever"), 0)
    with qtbot.waitSignal(job.failed, timeout=120_000) as blocker:
        job.start()
    assert "clever" in blocker.args[0]
    assert job.wait()


def test_menu_action_opens_one_dialog_that_follows_the_game(
    make_window: Callable[..., MainWindow], qtbot: Any
) -> None:
    w = make_window(MIRROR)
    w.run_action("analysis.balance")
    dialog = w.analysis.balance_dialog
    assert dialog is not None and dialog.isVisible()
    assert [dialog.south.itemText(i) for i in range(dialog.south.count())][:5] == [
        "heuristic",
        "duct",
        "duct-h",
        "ksearch",
        "random",
    ]
    w.run_action("analysis.balance")
    assert w.analysis.balance_dialog is dialog
    assert w.open_file(BASIC)
    names = [dialog.south.itemText(i) for i in range(dialog.south.count())]
    assert names[:5] == ["heuristic", "alphabeta", "random", "search", "uct"]  # Tank Chess now
    assert "heuristic+no-heavy" in names  # and the restricted heuristic,
    assert "heuristic+no-mortar" not in names  # for the kinds the board has (basic-16: none)
    assert (dialog.south_label.text(), dialog.north_label.text()) == ("White plays", "Black plays")
    dialog.close()


def test_closing_the_dialog_during_a_run_cancels_and_waits(qtbot: Any) -> None:
    scenario = read_scenario(BASIC)
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.games.setValue(5000)
    dialog.south.setCurrentText("random")
    dialog.north.setCurrentText("random")
    with qtbot.waitSignal(dialog.bar.valueChanged, timeout=60_000):
        assert dialog.run()
    dialog.close()
    assert not dialog.busy()  # the thread has ended: nothing runs on after the dialog


def test_analysis_report_action_writes_and_opens_the_report(
    make_window: Callable[..., MainWindow], tmp_path: Path, monkeypatch: Any, qtbot: Any
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    w = make_window(MIRROR)
    opened: list[QUrl] = []
    w.analysis.open_url = opened.append
    with qtbot.waitSignal(w.ctx.status, timeout=60_000):
        w.run_action("analysis.report")
    assert "Writing the analysis report" in w.message.text()  # the GUI stays free meanwhile
    job = w.analysis.report_job
    assert job is not None
    assert w.analysis.open_report() is None  # one report at a time
    qtbot.waitUntil(lambda: bool(opened), timeout=120_000)
    assert job.wait()
    (url,) = opened
    path = Path(url.toLocalFile())
    assert path.name == "report.html" and path.is_file()
    assert {"reach.png", "lanes.png", "units.csv"} <= {p.name for p in path.parent.iterdir()}
    assert "Mirror" in path.read_text("utf-8")
    assert str(path) in w.message.text()


def test_analysis_report_failure_is_reported_not_raised(
    make_window: Callable[..., MainWindow], tmp_path: Path, monkeypatch: Any, qtbot: Any,
    prompter: Any,
) -> None:  # fmt: skip
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setattr(tempfile, "tempdir", str(blocker))  # mkdtemp cannot work here
    w = make_window(MIRROR)
    w.analysis.open_url = lambda url: pytest.fail("nothing to open")
    job = w.analysis.open_report()
    assert job is not None
    qtbot.waitUntil(lambda: any(k == "error" for k, _ in prompter.asked), timeout=60_000)
    text = next(t for k, t in prompter.asked if k == "error")
    assert text.startswith("Cannot write the analysis report:")


def test_editing_while_a_run_plays_changes_neither_the_run_nor_the_board(
    make_window: Callable[..., MainWindow], qtbot: Any
) -> None:
    """The run plays a snapshot; the GUI thread keeps editing (live checks, overlays, unit
    view) meanwhile, and the numbers are still those of ``simulate`` with the same seed."""
    w = make_window(BASIC)
    original = w.doc.scenario
    dialog = w.analysis.show_balance()
    dialog.games.setValue(120)
    dialog.seed.setValue(3)
    dialog.south.setCurrentText("heuristic")  # (120 games would default to search)
    dialog.north.setCurrentText("heuristic")
    w.run_action("view.overlay_reach_south")
    assert dialog.run()
    light = next(u for u in original.units if u.kind == "light" and u.side is Side.SOUTH)
    edits = 0
    while dialog.busy() or edits < 10:
        w.doc.select([w.doc.scenario.units[0]])
        w.run_action("edit.rotate")  # an edit with the unit view and overlays refreshed
        w.run_action("edit.undo")
        w.doc.select([light])
        qtbot.wait(1)
        edits += 1
        if edits > 5000:
            break
    qtbot.waitUntil(lambda: dialog.last is not None, timeout=120_000)
    _scenario, _doc, table = dialog.last  # type: ignore[misc]
    expected = simulate(original, 120, "heuristic", seed=3)
    assert list(table["winner"]) == list(expected["winner"])
    assert list(table["length"]) == list(expected["length"])
    assert w.doc.scenario == original and edits >= 10
    dialog.close()


def test_an_incomplete_setup_runs_with_a_warning(qtbot: Any) -> None:
    scenario = read_scenario(MIRROR)
    scenario = scenario.with_units(scenario.units[1:])  # one south tank missing
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    dialog.games.setValue(20)
    dialog.south.setCurrentText("heuristic")
    dialog.north.setCurrentText("heuristic")
    assert dialog.run()
    assert "Incomplete set-up" in dialog.results.toPlainText()
    qtbot.waitUntil(lambda: dialog.last is not None, timeout=60_000)
    text = dialog.results.toPlainText()
    assert "Incomplete set-up" in text and "as it stands" in text


def test_the_agent_lists_follow_the_default_agent_until_the_user_picks(qtbot: Any) -> None:
    # simulate's rule (agent_info.default_agent): the everyday agent of the verdict family, whatever
    # the number of games; the dialog says which and why
    dialog = BalanceDialog(lambda: read_scenario(MIRROR))
    qtbot.addWidget(dialog)
    assert (dialog.south.currentText(), dialog.north.currentText()) == ("search", "search")
    assert dialog.default_note.text().startswith("Default agent: search")
    dialog.games.setValue(5000)
    assert (dialog.south.currentText(), dialog.north.currentText()) == ("search", "search")
    # the user picks South's agent: from then on both lists stay as they are
    dialog.south.setCurrentText("random")
    dialog.refresh_policies()
    assert (dialog.south.currentText(), dialog.north.currentText()) == ("random", "search")


def test_the_games_fit_a_minute_at_the_measured_pace_until_the_user_sets_them(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tankmap.analysis.simulation.pace import remember_pace
    from tankmap.editor import run_estimate

    monkeypatch.setattr(run_estimate, "available_cpus", lambda: 1)  # one process plays
    scenario = read_scenario(MIRROR)
    remember_pace(scenario, ("search", "search"), 0.125)  # seconds a game, as measured
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    dialog.update_estimate(measure=False)
    assert dialog.games.value() == 400  # 60 s / 0.125 s = 480, rounded down to hundreds
    assert dialog.estimate.text() == (
        "Estimated time: about 50 s for 400 games (0.125 s a game on this board, measured)"
    )
    dialog.games.setValue(2000)  # the user's number stays, the estimate follows it
    assert dialog.estimate.text().startswith("Estimated time: about 4 min for 2000 games")
    remember_pace(scenario, ("search", "search"), 0.25)
    dialog.update_estimate(measure=False)
    assert dialog.games.value() == 2000
    assert dialog.estimate.text().startswith("Estimated time: about 8 min for 2000 games")


def test_a_long_run_fits_its_minute_on_every_cpu(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two CPUs a run that takes 10 s or more on one process plays on both: the
    default games double, and the estimate says so; a short run stays in one process."""
    from tankmap.analysis.simulation.pace import remember_pace
    from tankmap.editor import run_estimate

    monkeypatch.setattr(run_estimate, "available_cpus", lambda: 2)
    scenario = read_scenario(MIRROR)
    remember_pace(scenario, ("search", "search"), 0.125)
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    dialog.update_estimate(measure=False)
    assert dialog.games.value() == 900  # 2 x 60 s / 0.125 s = 960, rounded down to hundreds
    assert dialog.estimate.text() == (
        "Estimated time: about 56 s for 900 games on 2 processes "
        "(0.125 s a game on this board, measured)"
    )
    dialog.games.setValue(40)  # 5 s on one process: not worth starting processes
    assert dialog.estimate.text().startswith("Estimated time: about 5 s for 40 games (")


def test_a_long_run_plays_on_spawned_workers_the_games_of_one_process(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tankmap.analysis.simulation.pace import known_pace, remember_pace
    from tankmap.editor import run_estimate

    monkeypatch.setattr(run_estimate, "available_cpus", lambda: 2)
    scenario = read_scenario(MIRROR)
    # (games long enough that the workers' start-up is a small part of the run: with
    # sub-millisecond games a late second worker made the run's pace look like start-up)
    policies = ("search", "heuristic+no-berms")
    remember_pace(scenario, policies, 1.0)  # 60 games: a minute on one process (as if)
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    dialog.south.setCurrentText(policies[0])
    dialog.north.setCurrentText(policies[1])
    dialog.games.setValue(60)
    dialog.seed.setValue(3)
    assert dialog.run()
    assert dialog.job is not None and dialog.job.workers == 2
    qtbot.waitUntil(lambda: dialog.last is not None, timeout=120_000)
    _scenario, doc, table = dialog.last  # type: ignore[misc]
    expected = simulate(scenario, 60, policies, seed=3)
    assert list(table["winner"]) == list(expected["winner"])
    assert list(table["length"]) == list(expected["length"])
    assert doc["games"] == 60
    # the run's pace (one process's seconds a game, the workers' start-up left out)
    # replaced the one set above
    pace = known_pace(scenario, policies)
    assert pace is not None and pace < table.attrs["seconds"] * 2 / 60


def test_an_unknown_pace_is_measured_in_the_background_before_run(qtbot: Any) -> None:
    from tankmap.analysis.simulation.pace import known_pace

    scenario = read_scenario(MIRROR)
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    dialog.south.setCurrentText("heuristic")
    dialog.north.setCurrentText("heuristic")
    dialog.update_estimate()
    assert "measuring" in dialog.estimate.text()
    qtbot.waitUntil(lambda: "a game on this board" in dialog.estimate.text(), timeout=120_000)
    pace = known_pace(scenario, ("heuristic", "heuristic"))
    assert pace is not None
    each = f"{pace:.3g} s" if pace >= 0.01 else f"{pace * 1000:.2g} ms"
    assert f"({each} a game on this board, measured)" in dialog.estimate.text()
    dialog.stop()


@pytest.mark.parametrize("workers", [1, 2])
def test_cancel_ends_a_long_game_at_once(qtbot: Any, workers: int) -> None:
    """A cancel in the first game of a run (one basic-16 game of ``alphabeta:25600``
    takes seconds) ends the run there, before that game is finished: nothing to show. In
    one thread the game stops at its next decision; on two spawned workers they are
    stopped in their game."""
    job = SimulationJob(
        read_scenario(BASIC), 2, ("alphabeta:25600", "alphabeta:25600"), 1, workers=workers
    )
    finished: list[Any] = []
    job.finished.connect(finished.append)
    with qtbot.waitSignal(job.cancelled, timeout=60_000):
        job.start()
        job.cancel()
    job.wait()
    assert finished == []


def test_the_dialog_s_words_get_the_height_their_lines_need(qtbot: Any) -> None:
    """Each wrapped label (the estimate, what each agent does, the default agent's note)
    is as high as its lines at its width once the dialog is on screen: they were set
    after the dialog was sized, and squeezed (clipped, or drawn over the lists)."""
    from tankmap.analysis.simulation.pace import remember_pace

    scenario = read_scenario(BASIC)
    remember_pace(scenario, ("alphabeta", "alphabeta"), 0.15)
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    labels = (dialog.estimate, dialog.south_about, dialog.north_about, dialog.default_note)
    assert all(label.text() for label in labels)
    for label in labels:
        assert label.height() >= label.heightForWidth(label.width()), label.text()
    dialog.south.setCurrentText("random")  # a different description: still fits
    dialog.layout().activate()
    for label in labels:
        assert label.height() >= label.heightForWidth(label.width()), label.text()
    # a low dialog (a small screen) squeezes the results box, not the words
    dialog.south.setCurrentText("alphabeta")
    dialog.resize(dialog.width(), 600)
    qtbot.waitUntil(lambda: dialog.height() == 600, timeout=5_000)
    dialog.layout().activate()
    for label in labels:
        assert label.height() >= label.heightForWidth(label.width()), label.text()
    assert dialog.results.height() < 200


def _random_games(make_window: Callable[..., MainWindow], games: int) -> tuple[Any, Any]:
    """A window on basic-16 and its balance dialog set to ``games`` games of random."""
    w = make_window(BASIC)
    w.run_action("analysis.balance")
    dialog = w.analysis.balance_dialog
    assert dialog is not None
    dialog.games.setValue(games)
    dialog.south.setCurrentText("random")
    dialog.north.setCurrentText("random")
    return w, dialog


def test_opening_another_board_clears_the_last_run_s_results(
    make_window: Callable[..., MainWindow], qtbot: Any
) -> None:
    w, dialog = _random_games(make_window, 10)
    assert dialog.run()
    qtbot.waitUntil(lambda: dialog.last is not None, timeout=60_000)
    assert "White" in dialog.results.toPlainText()
    assert dialog.watch_button.isEnabled() and dialog.report_button.isEnabled()
    assert w.open_file(MIRROR)  # a Final Act board: Tank Chess results would be wrong here
    assert dialog.last is None and dialog.results.toPlainText() == ""
    assert not dialog.watch_button.isEnabled() and not dialog.decided_button.isEnabled()
    assert not dialog.report_button.isEnabled() and dialog.watch() is None
    assert dialog.run_button.isEnabled()
    dialog.close()


def test_opening_another_board_during_a_run_cancels_it_and_drops_its_games(
    make_window: Callable[..., MainWindow], qtbot: Any
) -> None:
    w, dialog = _random_games(make_window, 5000)
    with qtbot.waitSignal(dialog.bar.valueChanged, timeout=60_000):
        assert dialog.run()
    assert w.open_file(MIRROR)
    assert "the run was on the board open before" in dialog.results.toPlainText()
    qtbot.waitUntil(lambda: not dialog.busy() and dialog.run_button.isEnabled(), timeout=60_000)
    assert dialog.last is None and not dialog.discard
    assert "White" not in dialog.results.toPlainText()
    assert not dialog.report_button.isEnabled() and not dialog.watch_button.isEnabled()
    dialog.close()
