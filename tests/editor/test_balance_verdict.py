"""The balance dialog's verdict panel: the board's remembered verdict shown first (only one
made by this version's agents), Judge board climbing and remembering it, going on from an
unconverged verdict with its seed, Cancel keeping the games played, and the climb on
spawned workers equal to a one-worker climb."""

from __future__ import annotations

from typing import Any

import pytest

from tankmap import maps
from tankmap.editor.balance import BalanceDialog
from tankmap.rules.fileformat import read_scenario

MIRROR = maps.builtin_maps("final-act")[2]


def test_the_dialog_shows_the_board_s_remembered_verdict_first(qtbot: Any) -> None:
    from tankmap.analysis.verdict.cache import save_verdict

    scenario = read_scenario(MIRROR)
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    assert "none yet for this board (press Judge board)" in dialog.verdict.line.text()
    save_verdict(
        scenario,
        {
            "family": "search",
            "agent": "search:6",
            "favoured": "even",
            "converged": True,
            "balance": 0.97,
            "balance_ci95": [0.85, 1.0],
            "games": 200,
            "seed": 4,
            "reason": "search:6 no longer beats search:3",
        },
    )
    dialog.verdict.refresh()
    text = dialog.verdict.line.text()
    assert "Verdict: even (converged), balance 0.970 [0.850, 1.000], search:6, 200 games" in text
    assert "no longer beats" in text


def test_the_dialog_does_not_show_a_verdict_made_by_other_agent_code(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tankmap.analysis import code_version
    from tankmap.analysis.verdict.cache import save_verdict

    scenario = read_scenario(MIRROR)
    with monkeypatch.context() as m:  # saved before an update that changed the agents
        m.setattr(code_version, "code_version", lambda: "an earlier tankmap")
        save_verdict(
            scenario,
            {
                "family": "search",
                "agent": "search:6",
                "favoured": "south",
                "converged": True,
                "games": 200,
            },
        )
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    text = dialog.verdict.line.text()
    assert "made by other agent code" in text and "favours" not in text
    assert "press Judge board again" in text
    assert dialog.verdict.button.text() == "&Judge board"


def _flat_family(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Final Act's only verdict family for the test: every rung plays the fast heuristic,
    so a climb converges at its second rung."""
    from dataclasses import dataclass

    from tankmap.analysis.simulation import families as fam_mod
    from tankmap.analysis.simulation.families import Family

    @dataclass(frozen=True)
    class Flat(Family):
        def agent(self, budget: int) -> str:
            return self.name

    flat = Flat("final-act", "heuristic", base=1, limit=4, independent=False, default_budget=1)
    monkeypatch.setitem(fam_mod._FAMILIES, "final-act", [flat])
    return flat


def test_judge_board_climbs_and_remembers_the_verdict(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:

    from tankmap.analysis.verdict.cache import load_verdict

    _flat_family(monkeypatch)
    scenario = read_scenario(MIRROR)
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    job = dialog.verdict.judge()
    assert job is not None and dialog.verdict.busy()
    assert dialog.verdict.button.text() == "Cancel &judging"
    with qtbot.waitSignal(job.finished, timeout=120_000):
        pass
    qtbot.waitUntil(lambda: not dialog.verdict.busy(), timeout=10_000)
    doc = load_verdict(scenario)
    assert doc is not None and doc["converged"] and doc["seed"] == dialog.seed.value()
    assert "(converged)" in dialog.verdict.line.text()
    dialog.stop()


def test_judging_never_replaces_a_verdict_that_rests_on_more(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tankmap.analysis.verdict.cache import load_verdict, save_verdict

    flat = _flat_family(monkeypatch)
    scenario = read_scenario(MIRROR)
    trace = [{"agent": f"x:{i}", "games": 200, "match_games": 200} for i in range(6)]
    kept = {
        "family": flat.name,
        "agent": "x:5",
        "favoured": "north",
        "converged": True,
        "balance": 0.61,
        "balance_ci95": [0.5, 0.72],
        "games": 200,
        "seed": 9,
        "trace": trace,
        "reason": "a longer climb",
    }
    save_verdict(scenario, kept)
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    job = dialog.verdict.judge()
    assert job is not None
    with qtbot.waitSignal(job.finished, timeout=120_000):
        pass
    qtbot.waitUntil(lambda: not dialog.verdict.busy(), timeout=10_000)
    assert load_verdict(scenario, flat.name) == kept
    text = dialog.verdict.line.text()
    assert "favours North (converged), balance 0.610 [0.500, 0.720], x:5" in text
    assert "rested on less than the verdict kept for the board, which stays" in text
    dialog.stop()


def test_an_unconverged_verdict_offers_to_go_on_judging_with_its_seed(qtbot: Any) -> None:
    from tankmap.analysis.verdict.cache import save_verdict

    scenario = read_scenario(MIRROR)
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    assert dialog.verdict.button.text() == "&Judge board"  # no verdict yet
    save_verdict(
        scenario,
        {
            "family": "search",
            "favoured": "south",
            "converged": False,
            "agent": "search:12",
            "balance": 0.8,
            "balance_ci95": [0.7, 0.9],
            "games": 200,
            "seed": 3,
            "reason": "search:12 still beats search:6; time limit: ...; judge the board again "
            "to go on from here (the games played are kept)",
        },
    )
    dialog.seed.setValue(3)
    assert dialog.verdict.button.text() == "Go on &judging"
    assert "judge the board again" in dialog.verdict.line.text()
    dialog.seed.setValue(4)  # another seed climbs from the start
    assert dialog.verdict.button.text() == "&Judge board"


def test_cancel_judging_keeps_the_games_already_played(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:

    from tankmap.analysis.verdict.played import PlayedGames
    from tankmap.editor.verdict_panel import VerdictJob

    _flat_family(monkeypatch)
    scenario = read_scenario(MIRROR)
    assert PlayedGames.of(scenario).count() == 0
    # one worker: its games finish in order, so the first ones done are a prefix to keep
    # (with two, the first batch done may follow one still running, which is then lost)
    job = VerdictJob(scenario, seed=6, workers=1)

    def cancel_once_games_are_done(stage: str, done: int, total: int) -> None:
        if done > 0:
            job.cancel()  # the climb stops after the game in progress, keeping those finished

    job.progress.connect(cancel_once_games_are_done)
    with qtbot.waitSignal(job.cancelled, timeout=60_000):
        job.start()
    job.wait()
    kept = PlayedGames.of(scenario).count()
    assert 0 < kept < 200  # the games finished before the cancel, kept


def test_judging_plays_on_spawned_workers_the_games_of_a_one_worker_climb(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The editor judges a board on every CPU, as ``tankmap verdict`` does, with worker
    processes started fresh (spawned: nothing of this Qt process in them), and its climb
    is the one a single worker climbs with the same seed."""

    from worker_probe import qt_loaded

    from tankmap.analysis.simulation import executors
    from tankmap.analysis.verdict.climb import run_verdict
    from tankmap.editor.verdict_panel import VerdictJob

    with executors.make_executor(2, start_method="spawn", abortable=True) as ex:
        assert qt_loaded() and ex.map(qt_loaded, [()] * 2, None) == [False, False]

    flat = _flat_family(monkeypatch)
    from tankmap.editor import jobs

    made: list[executors.Executor] = []

    def recording(*args: Any, **kw: Any) -> executors.Executor:
        made.append(jobs.gui_executor(*args, **kw))
        return made[-1]

    monkeypatch.setattr("tankmap.editor.verdict_panel.gui_executor", recording)
    scenario = read_scenario(MIRROR)
    job = VerdictJob(scenario, seed=6, workers=2)
    docs: list[dict[str, Any]] = []
    job.finished.connect(docs.append)
    with qtbot.waitSignal(job.finished, timeout=120_000):
        job.start()
    job.wait()
    assert [type(e).__name__ for e in made] == ["ProcessExecutor"]
    assert made[0].workers == 2 and made[0]._start_method == "spawn"  # type: ignore[attr-defined]
    alone = run_verdict(scenario, seed=6, fam=flat, workers=1).to_json()
    keys = ("agent", "games", "favoured", "balance", "score_vs_previous")
    assert [[t[k] for k in keys] for t in docs[0]["trace"]] == [
        [t[k] for k in keys] for t in alone["trace"]
    ]


def _flat_dialog(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> BalanceDialog:
    """A balance dialog on mirror whose verdict family is ``_flat_family``."""
    _flat_family(monkeypatch)
    scenario = read_scenario(MIRROR)
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    return dialog


def test_the_results_show_the_verdict_judged_after_the_run(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    dialog = _flat_dialog(qtbot, monkeypatch)
    dialog.games.setValue(20)
    dialog.south.setCurrentText("heuristic")
    dialog.north.setCurrentText("heuristic")
    assert dialog.run()
    qtbot.waitUntil(lambda: dialog.last is not None, timeout=60_000)
    assert "none yet for this board" in dialog.results.toPlainText()
    job = dialog.verdict.judge()
    assert job is not None
    with qtbot.waitSignal(job.finished, timeout=120_000):
        pass
    qtbot.waitUntil(lambda: not dialog.verdict.busy(), timeout=10_000)
    text = dialog.results.toPlainText()
    assert "none yet for this board" not in text
    assert "Verdict: " in text and "(converged)" in text and "20 games" in text
    dialog.stop()


def test_judging_says_how_long_it_has_run_and_may_run(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    dialog = _flat_dialog(qtbot, monkeypatch)
    now = [100.0]
    dialog.verdict.clock = lambda: now[0]
    job = dialog.verdict.judge()
    assert job is not None
    assert (
        "Judging the board (0:00 of up to 3:00): starting the climb" in dialog.verdict.line.text()
    )
    now[0] += 65
    dialog.verdict._progress("heuristic vs heuristic", 40, 100)
    assert "(1:05 of up to 3:00): heuristic vs heuristic, 40 of 100 games" in (
        dialog.verdict.line.text()
    )
    with qtbot.waitSignal(job.finished, timeout=120_000):
        pass
    dialog.stop()
