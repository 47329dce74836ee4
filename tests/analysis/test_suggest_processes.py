"""The design assistant on an executor (the editor's spawned workers): an agent's runs go to
it only when one would take ``pace.LONG_RUN_SECONDS`` or more in one process; the choice of
agent and the plan count the processes its runs get; the numbers are those of the same
plan played without it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tankmap.analysis import suggest as suggest_module
from tankmap.analysis.simulation.executors import Executor, OnDone
from tankmap.analysis.simulation.pace import remember_pace
from tankmap.analysis.suggest import choose_agent, run_place, suggest
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario

FLANKS = map_path("final-act/flanks-vs-centre")


class CountingExecutor(Executor):
    """Two workers as far as the plan knows; runs the tasks here and counts the runs."""

    workers = 2

    def __init__(self) -> None:
        self.runs = 0

    def map(
        self,
        fn: Callable[..., Any],
        tasks: Sequence[Any],
        on_done: OnDone | None,
        abort: Callable[[], bool] | None = None,
    ) -> list[Any]:
        self.runs += 1
        return super().map(fn, tasks, on_done, abort)


def test_runs_go_to_the_executor_only_when_long() -> None:
    scenario = read_scenario(FLANKS)
    ex = CountingExecutor()
    remember_pace(scenario, ("search", "search"), 0.05)  # 400 games: 20 s in one process
    remember_pace(scenario, ("heuristic", "heuristic"), 0.001)  # 0.4 s
    assert run_place(scenario, "search", 400, 1, ex) == (2, ex)
    assert run_place(scenario, "search", 100, 1, ex) == (1, None)  # 5 s
    assert run_place(scenario, "heuristic", 400, 1, ex) == (1, None)
    assert run_place(scenario, "search", 400, 3, None) == (3, None)  # the command line's way
    one = Executor()  # one CPU: nothing to gain
    assert run_place(scenario, "search", 400, 1, one) == (1, None)


def test_the_everyday_agent_is_chosen_when_its_runs_fit_on_the_processes() -> None:
    scenario = read_scenario(FLANKS)
    remember_pace(scenario, ("search", "search"), 0.05)
    # 11 runs of 400 games: 220 s in one process, 126 s on two (1.75 times as fast)
    agent, why = choose_agent(scenario, 400, 150, 1, 11)
    assert agent == "heuristic" and "would need about 4 min for 11 runs" in why
    agent, why = choose_agent(scenario, 400, 150, 1, 11, executor=CountingExecutor())
    assert agent == "search" and "about 126 s" in why
    # a short need is said in seconds, not as "about 0 min" (40 games: 22 s)
    agent, why = choose_agent(scenario, 40, 5, 1, 11)
    assert agent == "heuristic" and "would need about 22 s for 11 runs" in why


def test_a_long_agent_s_runs_play_on_the_executor_with_the_numbers_of_the_same_plan(
    monkeypatch: Any,
) -> None:
    """``heuristic`` made to look slow (a remembered pace of 0.5 s a game: 40 games are
    20 s) plays every run on the executor, with the plan of two processes; played without
    the executor on two workers per run (the command line's way), the same suggestions."""
    scenario = read_scenario(FLANKS)
    remember_pace(scenario, ("heuristic", "heuristic"), 0.5)
    kw: dict[str, Any] = dict(games=40, budget=200, seed=2, top=2, max_candidates=5)
    planned: list[int] = []
    plan = suggest_module.plan_candidates

    def spy(*args: Any) -> int:
        planned.append(args[4])  # the processes a run has
        return plan(*args)

    monkeypatch.setattr(suggest_module, "plan_candidates", spy)
    ex = CountingExecutor()
    on = suggest(scenario, "heuristic", executor=ex, **kw)
    assert ex.runs > 0 and planned == [2]
    off = suggest(scenario, "heuristic", workers=2, **kw)
    strip = lambda d: {k: v for k, v in d.items() if k != "seconds"}  # noqa: E731
    assert strip(on.to_json()) == strip(off.to_json())
    # a fast agent's runs stay here
    remember_pace(scenario, ("heuristic", "heuristic"), 0.001)
    ex = CountingExecutor()
    suggest(scenario, "heuristic", executor=ex, **kw)
    assert ex.runs == 0 and planned[-1] == 1
