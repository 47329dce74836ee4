"""The balance dialog with slow agents and in words (issue 18 items 2 and 3): slow agents
(search, uct, the -ref engines) are played a game or a few per batch so the bar moves per
game, the bar says how many games are done and about how long the rest takes (from the pace
after the first batch, which also pays for warming up); each side's agent is described
under its list; AT/R-M restrictions are offered only where the board has those units."""

from __future__ import annotations

from typing import Any

from tankmap import maps
from tankmap.analysis.simulation.batching import progress_batch as batch_size
from tankmap.analysis.simulation.batching import time_left
from tankmap.editor.balance import BalanceDialog
from tankmap.editor.balance_job import SimulationJob, progress_text
from tankmap.rules.fileformat import read_scenario

MIRROR = maps.ROOT / "final-act" / "mirror.json"


def test_slow_agents_play_a_game_or_a_few_per_batch() -> None:
    s = read_scenario(MIRROR)
    assert batch_size(s, 40, ("search", "search"), 1000) == 1
    assert batch_size(s, 10_000, ("search:5", "heuristic"), 1000) == 50  # 200 steps
    assert batch_size(s, 40, ("uct", "random"), 1000) == 1
    assert batch_size(s, 1000, ("heuristic", "heuristic+no-berms"), 1000) == 250
    assert batch_size(s, 100_000, ("random", "heuristic"), 1000) == 1000
    advanced = s.with_options(officer_loss=True)  # played by the slower reference engine
    assert batch_size(advanced, 1000, ("heuristic", "heuristic"), 1000) == 5


def test_time_left_from_the_pace_after_the_first_batch() -> None:
    assert time_left(0, 40, now=5.0, started=0.0, first=None) is None
    assert time_left(1, 40, now=2.0, started=0.0, first=None) == 78.0  # 2 s a game so far
    # then 0.25 s a game since the first one (the first paid for the warm-up)
    assert time_left(3, 40, now=2.5, started=0.0, first=(2.0, 1)) == 37 * 0.25
    assert progress_text(0, 40, None) == "0 of 40 games · playing the first games…"
    assert progress_text(3, 40, 9.25) == "3 of 40 games · about 9 s left"
    assert progress_text(3, 400, 150.0) == "3 of 400 games · about 2 min left"
    assert progress_text(40, 40, 0.0) == "40 of 40 games · done"


def test_the_bar_says_games_and_time_left(qtbot: Any) -> None:
    dialog = BalanceDialog(lambda: read_scenario(MIRROR))
    qtbot.addWidget(dialog)
    clock = [10.0]
    dialog.clock = lambda: clock[0]
    dialog.started, dialog.first_done = 10.0, None
    clock[0] = 12.0
    dialog._progress(1, 40)
    assert dialog.bar.text() == "1 of 40 games · about 78 s left"
    clock[0] = 12.5
    dialog._progress(3, 40)
    assert dialog.bar.text() == "3 of 40 games · about 9 s left"


def test_a_search_run_moves_the_bar_every_game(qtbot: Any) -> None:
    job = SimulationJob(read_scenario(MIRROR), 2, ("search:1", "heuristic"), 3)
    ticks: list[tuple[int, int]] = []
    job.progress.connect(lambda done, total: ticks.append((done, total)))
    with qtbot.waitSignal(job.finished, timeout=120_000):
        job.start()
    job.wait()
    assert ticks == [(1, 2), (2, 2)]


def test_each_agent_is_described_under_its_list(qtbot: Any) -> None:
    dialog = BalanceDialog(lambda: read_scenario(MIRROR))
    qtbot.addWidget(dialog)
    # the default agent (the game's strongest everyday one) is described from the start
    assert dialog.south_about.text().startswith("search[:N] — ")
    dialog.north.setCurrentText("random")
    assert dialog.north_about.text().startswith("random — ")
    assert dialog.south_about.text().startswith("search[:N] — ")


def test_at_and_rm_restrictions_only_with_extra_forces(qtbot: Any) -> None:
    def names(path: Any) -> set[str]:
        dialog = BalanceDialog(lambda: read_scenario(path))
        qtbot.addWidget(dialog)
        return {dialog.south.itemText(i) for i in range(dialog.south.count())}

    plain = names(MIRROR)
    assert "heuristic+no-berms" in plain
    assert not {"heuristic+no-at", "heuristic+no-rm"} & plain
    extra = names(maps.ROOT / "final-act" / "extra-forces.json")
    assert {"heuristic+no-at", "heuristic+no-rm"} <= extra
