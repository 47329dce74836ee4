"""Leaving a run in the middle of a game the calling process plays (``interrupt``)."""

from __future__ import annotations

import threading

import pytest

from tankmap.analysis.simulation.interrupt import RunAborted, abortable, between_decisions
from tankmap.analysis.simulation.runner import simulate


def test_outside_a_run_between_decisions_does_nothing() -> None:
    between_decisions()
    with abortable(None):
        between_decisions()


def test_inside_an_abortable_run_an_abort_that_answers_true_stops_the_game() -> None:
    asked: list[bool] = []

    def abort() -> bool:
        asked.append(True)
        return len(asked) >= 2

    with abortable(abort):
        between_decisions()  # asked at once: false
        with pytest.raises(RunAborted):
            while True:  # asked again a quarter second later: true
                between_decisions()
    assert len(asked) == 2


def test_abort_is_asked_at_most_every_poll_interval() -> None:
    asked: list[bool] = []
    with abortable(lambda: asked.append(True) or False):
        for _ in range(1000):
            between_decisions()
    assert len(asked) == 1


def test_runs_nest_and_the_outer_one_is_asked_again_on_leaving() -> None:
    with abortable(lambda: True):
        with abortable(lambda: False):
            between_decisions()
        with pytest.raises(RunAborted):
            between_decisions()
    between_decisions()


def test_a_run_in_one_thread_never_stops_another_thread_s_games() -> None:
    errors: list[BaseException] = []

    def other() -> None:
        try:
            between_decisions()
        except BaseException as exc:  # pragma: no cover - the failure this test looks for
            errors.append(exc)

    with abortable(lambda: True):
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert errors == []


@pytest.mark.parametrize(
    ("board", "agent"),
    [
        ("tank-chess/basic-16", "alphabeta:3200"),
        ("final-act/mirror", "search"),
        ("tank-wars/default", "regret"),
    ],
)
def test_a_one_worker_run_stops_in_its_first_game(board: str, agent: str) -> None:
    """Each game's loop asks between decisions: with an abort that answers true at once,
    not even the first game is finished (before, the first task's games were played)."""
    from tankmap.maps import map_path
    from tankmap.rules.fileformat import read_scenario

    path = map_path(board)
    assert path is not None
    table = simulate(read_scenario(path), 4, agent, seed=1, workers=1, abort=lambda: True)
    assert table.attrs["stopped"] and len(table) == 0
