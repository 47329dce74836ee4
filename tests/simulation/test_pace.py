"""``analysis.simulation.pace``: where a run plays (``processes_for``), a round number of
games for a time (``games_for``), and a measured pace that plays on until it has spent
``MEASURE_SECONDS`` of CPU (or ``MEASURE_MOST`` games)."""

from __future__ import annotations

import pytest

from tankmap.analysis.simulation import pace
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario


def test_a_run_uses_every_cpu_only_when_it_is_long() -> None:
    assert pace.LONG_RUN_SECONDS == 10.0
    assert pace.processes_for(400, 0.025, 2) == 2  # exactly 10 s in one process
    assert pace.processes_for(400, 0.024, 2) == 1  # 9.6 s: not worth starting processes
    assert pace.processes_for(400, 0.15, 1) == 1  # one CPU
    assert pace.processes_for(400, None, 2) == 1  # pace unknown
    assert pace.processes_for(400, 0.15, 4) == 4


def test_games_for_rounds_down_and_keeps_a_floor() -> None:
    assert (pace.games_for(60, 0.13), pace.games_for(60, 0.002), pace.games_for(60, 5.0)) == (
        400,
        30000,
        100,
    )
    assert pace.games_for(60, 0.125, workers=2) == 900  # 960 rounded down to hundreds


def test_measure_pace_plays_on_until_its_cpu_time(monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = read_scenario(map_path("final-act/mirror"))
    played: list[int] = []
    clock = [0.0]

    def fake_cpu() -> float:  # each game "takes" 0.5 s of CPU
        return clock[0]

    from tankmap.analysis.simulation import runner

    simulate = runner.simulate

    def counting(*args: object, **kw: object) -> object:
        played.append(1)
        clock[0] += 0.5
        return simulate(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(pace.time, "process_time", fake_cpu)
    monkeypatch.setattr(runner, "simulate", counting)
    assert pace.measure_pace(scenario, ("heuristic", "heuristic")) == pytest.approx(0.5)
    # one warm-up game, then four timed ones: 2 s of CPU (two games only, before)
    assert len(played) == 1 + 4
    assert pace.known_pace(scenario, ("heuristic", "heuristic")) == pytest.approx(0.5)
