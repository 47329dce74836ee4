"""``TANKMAP_KERNEL``: unset or ``python`` (Tank Chess on its Python reference path; Final
Act has one fast engine, its kernel, and plays the same); anything else is refused with
one line before a game is played. Where numba cannot be imported, Final Act ``random``/
``heuristic`` play their reference versions and say so."""

from __future__ import annotations

from pathlib import Path

import pytest

from tankmap.analysis.simulation import kernel_switch
from tankmap.analysis.simulation.final_act import driver as fa_driver
from tankmap.analysis.simulation.runner import record_game, simulate
from tankmap.cli import main
from tankmap.rules.fileformat import read_scenario

ROOT = Path(__file__).resolve().parents[2]
MIRROR = ROOT / "maps" / "final-act" / "mirror.json"


@pytest.mark.parametrize(
    ("value", "python"), [(None, False), ("", False), ("python", True)], ids=str
)
def test_known_values(monkeypatch: pytest.MonkeyPatch, value: str | None, python: bool) -> None:
    if value is None:
        monkeypatch.delenv("TANKMAP_KERNEL", raising=False)
    else:
        monkeypatch.setenv("TANKMAP_KERNEL", value)
    assert kernel_switch.python_only() is python


@pytest.mark.parametrize(
    ("value", "says"),
    [("numpy", "the numpy engine was removed"), ("Python", "not a known value"), ("1", "'1'")],
)
def test_unknown_values_are_refused_before_any_game(
    monkeypatch: pytest.MonkeyPatch, value: str, says: str
) -> None:
    monkeypatch.setenv("TANKMAP_KERNEL", value)
    scenario = read_scenario(MIRROR)
    for run in (
        lambda: simulate(scenario, 5, "heuristic", seed=1),
        lambda: record_game(scenario, "random", seed=1),
    ):
        with pytest.raises(kernel_switch.KernelSwitchError, match=says):
            run()


def test_the_command_line_says_it_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TANKMAP_KERNEL", "numpy")
    assert main(["simulate", str(MIRROR), "--games", "3", "--workers", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert "TANKMAP_KERNEL='numpy'" in err and "\n" not in err and "Traceback" not in err


def test_final_act_plays_the_same_games_with_python(monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = read_scenario(MIRROR)
    first = simulate(scenario, 30, ("heuristic", "random+no-berms"), seed=21)
    monkeypatch.setenv("TANKMAP_KERNEL", "python")
    second = simulate(scenario, 30, ("heuristic", "random+no-berms"), seed=21)
    assert first.equals(second)


def test_without_numba_random_and_heuristic_play_the_reference_agents(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the kernel cannot load, the kernel's agents give way to their reference
    versions (other draws, so other games) with a note, as for an option it does not
    model."""
    scenario = read_scenario(MIRROR)
    monkeypatch.setattr(fa_driver, "_kernel_available", lambda: False)
    driver = fa_driver.DRIVER
    assert not driver.batched(("heuristic", "random"), driver.prepare(scenario))
    note = driver.fallback_note(scenario, ("heuristic", "random"))
    assert note is not None and "numba" in note and "heuristic-ref" in note
    assert driver.fallback_note(scenario, ("heuristic-ref", "search")) is None
    plain = simulate(scenario, 6, ("heuristic", "random"), seed=3, workers=1)
    ref = simulate(scenario, 6, ("heuristic-ref", "random-ref"), seed=3, workers=1)
    columns = ["winner", "length", "end", "kills_south", "kills_north", "deaths", "route"]
    assert plain[columns].equals(ref[columns])
