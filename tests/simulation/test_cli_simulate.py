"""``tankmap simulate``: the --json contract, the report, and one-line errors."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tankmap.analysis.simulation.agent_info import default_agent
from tankmap.cli import main
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario

ROOT = Path(__file__).resolve().parents[2]
MIRROR = str(ROOT / "maps" / "final-act" / "mirror.json")


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    if "--workers" not in args:
        args = (*args, "--workers", "1")  # in-process unless a test asks for workers
    assert main(["simulate", *args, "--json"]) == 0
    out = capsys.readouterr().out
    return json.loads(out)  # type: ignore[no-any-return]


def test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_json(capsys, MIRROR, "--games", "40", "--seed", "7", "--policy", "heuristic")
    for key in (
        "games",
        "seed",
        "policy",
        "wins",
        "draws",
        "win_rate",
        "balance",
        "length",
        "playouts_per_second",
    ):
        assert key in doc
    assert doc["games"] == 40 and doc["seed"] == 7
    assert doc["policy"] == {"south": "heuristic", "north": "heuristic"}
    assert doc["wins"]["south"] + doc["wins"]["north"] + doc["draws"] == 40
    for side in ("south", "north"):
        r = doc["win_rate"][side]
        assert set(r) >= {"estimate", "ci95"} and len(r["ci95"]) == 2
        assert r["estimate"] == pytest.approx(doc["wins"][side] / 40)
    assert doc["balance"] == pytest.approx(
        1 - abs(doc["wins"]["south"] - doc["wins"]["north"]) / 40
    )
    assert set(doc["length"]) >= {"mean", "median"}
    # same seed, two workers: the same numbers (only the speed may differ)
    again = run_json(
        capsys, MIRROR, "--games", "40", "--seed", "7", "--workers", "2", "--policy", "heuristic"
    )
    for key in ("wins", "draws", "win_rate", "balance", "length"):
        assert again[key] == doc[key]


def test_the_default_agent_is_the_verdict_family_s_whatever_the_number_of_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = run_json(capsys, MIRROR, "--games", "4", "--seed", "1", "--workers", "1")
    assert doc["policy"] == {"south": "search", "north": "search"}
    assert doc["default_agent"]["name"] == "search"
    assert "verdict family" in doc["default_agent"]["reason"]
    assert doc["agents"]["south"]["name"] == "search"
    scenario = read_scenario(map_path("final-act/mirror"))  # type: ignore[arg-type]
    assert default_agent(scenario) == ("search", doc["default_agent"]["reason"])
    asked = run_json(capsys, MIRROR, "--games", "4", "--policy", "random")
    assert asked["policy"] == {"south": "random", "north": "random"}
    assert "default_agent" not in asked
    one_side = run_json(capsys, MIRROR, "--games", "4", "--south", "random", "--workers", "1")
    assert one_side["policy"] == {"south": "random", "north": "search"}
    assert main(["simulate", MIRROR, "--games", "2", "--workers", "1"]) == 0
    assert "default agent search: the everyday agent of" in capsys.readouterr().out


def test_a_long_run_says_how_long_once_its_first_games_are_done(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import time

    from tankmap.commands.simulate import LONG_RUN, _with_estimate

    now = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    seen: list[tuple[int, int]] = []
    tick = _with_estimate(lambda d, t: seen.append((d, t)), ("search", "search"), 2, True)
    now[0] += 3.0
    tick(1, 200)  # 3 s a game: about 10 min left
    now[0] += 3.0
    tick(2, 200)
    err = capsys.readouterr().err
    assert err.count("simulate: about") == 1 and "200 games of search on 2 workers" in err
    assert "10 min" in err and seen == [(1, 200), (2, 200)]
    assert "--policy heuristic is far faster" in err
    slow_heuristic = _with_estimate(lambda d, t: None, ("heuristic", "heuristic"), 1, True)
    now[0] += 30.0
    slow_heuristic(1, 200)  # long, but already the fast agent: no advice to switch
    err = capsys.readouterr().err
    assert "200 games of heuristic" in err and "far faster" not in err
    piped = _with_estimate(lambda d, t: None, ("search", "search"), 2, False)
    now[0] += 30.0
    piped(1, 200)  # not a terminal: scripts reading stderr get errors only
    assert capsys.readouterr().err == ""
    quick = _with_estimate(lambda d, t: None, ("heuristic", "heuristic"), 1, True)
    now[0] += 1.0
    quick(100, 200)  # 1 s for half the games: nothing to say
    assert capsys.readouterr().err == "" and LONG_RUN > 1.0


def test_south_north_policies_and_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = run_json(
        capsys,
        MIRROR,
        "--games",
        "20",
        "--south",
        "heuristic",
        "--north",
        "random",
        "--out",
        str(tmp_path / "rep"),
    )
    assert doc["policy"] == {"south": "heuristic", "north": "random"}
    for name in (
        "report.html",
        "games.csv",
        "summary.json",
        "win_rates.png",
        "lengths.png",
        "deaths.png",
        "routes.png",
    ):
        assert (tmp_path / "rep" / name).stat().st_size > 0
    html = (tmp_path / "rep" / "report.html").read_text()
    assert "Wilson" in html and "deaths.png" in html
    assert "<td>South</td>" in html and "<td>North</td>" in html
    # losses/kills read as "3 tank, 1 at", not as JSON
    lost = doc["losses_by_kind"]["south"]
    if lost:
        kind, n = max(lost.items(), key=lambda kv: (kv[1], kv[0]))
        assert f"{n} {kind}" in html
    assert '{"' not in html.split("<h2>Losses")[1]
    lines = (tmp_path / "rep" / "games.csv").read_text().splitlines()
    assert len(lines) == 21 and lines[0].startswith("game,")


def test_until_ci(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--games", "50", "--seed", "1", "--until-ci", "0.15", "--policy", "heuristic"]
    doc = run_json(capsys, MIRROR, *args)
    assert doc["games"] % 50 == 0 and doc["games"] > 50
    for side in ("south", "north"):
        lo, hi = doc["win_rate"][side]["ci95"]
        assert hi - lo < 0.25


def test_tank_chess_reports_first_mover(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(ROOT / "maps" / "tank-chess" / "basic-16.json")
    doc = run_json(capsys, path, "--games", "4", "--seed", "2")
    assert "first_mover" in doc and doc["ruleset"] == "tank-chess"
    fm = doc["first_mover"]
    lo, hi = fm["advantage_ci95"]  # a difference of win rates carries its interval too
    assert -1 <= lo <= fm["advantage"] <= hi <= 1


def test_the_first_mover_advantage_interval_is_the_win_rate_difference_s() -> None:
    import pandas as pd

    from tankmap.analysis.estimates import difference_ci95
    from tankmap.analysis.simulation.stats import first_mover

    # 20 games: the first mover wins 14, the second 5, one draw
    df = pd.DataFrame(
        {"winner": ["south"] * 14 + ["north"] * 5 + ["draw"], "first": ["south"] * 20}
    )
    fm = first_mover(df)
    assert fm["advantage"] == 0.45
    assert fm["advantage_ci95"] == [round(v, 6) for v in difference_ci95(14, 5, 20)]
    assert fm["advantage_ci95"][0] > 0  # 14 to 5 in 20 games: an advantage beyond noise


@pytest.mark.parametrize(
    "args",
    [
        ["--policy", "clever"],
        ["--games", "0"],
        ["--workers", "0"],
        ["--until-ci", "2"],
    ],
)
def test_user_errors_are_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    assert main(["simulate", MIRROR, *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("tankmap simulate: error:")


def test_missing_file_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["simulate", str(tmp_path / "nope.json")]) == 2


def test_scheduler_local_matches_local_run(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    args = [MIRROR, "--games", "12", "--seed", "11"]
    local = run_json(capsys, *args)
    dask = run_json(capsys, *args, "--scheduler", "local", "--workers", "2")
    for key in ("wins", "draws", "win_rate", "balance", "length"):
        assert dask[key] == local[key]


def test_unreachable_scheduler_is_a_user_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr("tankmap.analysis.simulation.executors.CONNECT_TIMEOUT", 1.0)
    code = main(["simulate", MIRROR, "--games", "2", "--scheduler", "tcp://127.0.0.1:9"])
    assert code == 2
    assert "cannot reach Dask scheduler" in capsys.readouterr().err


def test_illegal_scenario_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Two south tanks on one cell break docs/rules.md §1.2 ("one tank per cell"): refused, exit 2.
    from dataclasses import replace

    from tankmap.rules.fileformat import read_scenario, write_scenario

    sc = read_scenario(MIRROR)
    tanks = [u for u in sc.units if u.side.value == "south"]
    moved = replace(tanks[1], cell=tanks[0].cell)
    bad = sc.replacing(tanks[1], moved)
    path = tmp_path / "bad.json"
    write_scenario(bad, path)
    assert main(["simulate", str(path), "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "illegal scenario" in err and len(err.strip().splitlines()) == 1


def test_tank_wars_is_marked_provisional(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(ROOT / "maps" / "tank-wars" / "default.json")
    doc = run_json(capsys, path, "--games", "5", "--seed", "1")
    assert doc["provisional"] is True
    assert main(["simulate", path, "--games", "5", "--workers", "1"]) == 0
    assert "provisional" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("path", "fmt"),
    [
        ("final-act/mirror.json", "tankmap-final-act-game"),
        ("tank-chess/basic-16.json", "tankmap-game"),
        ("tank-wars/default.json", "tankmap-tank-wars-game"),
    ],
)
def test_record_first_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, path: str, fmt: str
) -> None:
    out = tmp_path / "game.json"
    doc = run_json(
        capsys, str(ROOT / "maps" / path), "--games", "3", "--seed", "4", "--record", str(out)
    )
    data = json.loads(out.read_text())
    assert data["format"] == fmt and doc["record"] == str(out)
    if fmt == "tankmap-final-act-game":
        from tankmap.rules.final_act.engine_record import FinalActRecord

        state = FinalActRecord.load(out).replay()
        # the recorded game is game 0 of the run: same length as the table's first row
        assert state.round == data["result"]["rounds"]


def test_workers_default_to_one_per_cpu(capsys: pytest.CaptureFixture[str]) -> None:
    from tankmap.commands.common import available_cpus

    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"default: one per CPU, here {available_cpus()}" in text
    assert 1 <= available_cpus() <= (os.cpu_count() or 1)


def test_slow_agents_report_progress_per_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command line cuts a run of slow agents into tasks of a game (the bar and its time
    left move per game); fast agents keep the runner's big vectorised tasks."""
    from tankmap.analysis.simulation import runner

    seen: list[int | None] = []
    real = runner.simulate

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("batch_size"))
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "simulate", spy)
    run_json(capsys, MIRROR, "--games", "3", "--policy", "search", "--workers", "1")
    run_json(capsys, MIRROR, "--games", "300", "--policy", "heuristic", "--workers", "1")
    assert seen == [1, None]


@pytest.mark.parametrize("command", ["simulate", "ladder"])
def test_a_board_without_units_is_refused_in_one_line(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A blank board is legal to edit but has nothing to play: before, simulate reported
    'balance 1.0' from games of length 0."""
    assert main([command, "tank-chess/blank-16", "--games", "4"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "nothing to play: White and Black have no units" in err[0]


def test_record_refuses_an_existing_file_and_an_unwritable_folder_before_playing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--record never overwrites without --force, as play --record and replay -o; an
    existing file or a folder that cannot be written is refused before any game."""
    from tankmap.analysis.simulation import runner

    def no_games(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the games were played")

    scen = tmp_path / "myscen.json"
    scen.write_text('{"format": "tankmap-scenario"}\n')
    base = ["simulate", MIRROR, "--games", "1", "--policy", "random", "--workers", "1"]
    with monkeypatch.context() as m:
        m.setattr(runner, "simulate", no_games)
        assert main([*base, "--record", str(scen)]) == 2
        err = capsys.readouterr().err.strip()
        assert err == f"tankmap simulate: error: {scen}: already exists (use --force to overwrite)"
        missing = tmp_path / "nonexist" / "r.json"
        assert main([*base, "--record", str(missing)]) == 2
        err = capsys.readouterr().err.strip()
        assert err == f"tankmap simulate: error: {missing}: cannot write: No such file or directory"
    assert scen.read_text() == '{"format": "tankmap-scenario"}\n'
    assert main([*base, "--record", str(scen), "--force"]) == 0
    assert json.loads(scen.read_text())["format"] == "tankmap-final-act-game"


def test_max_games_without_until_ci_is_refused_before_playing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """It was silently ignored (the --games were played)."""
    argv = ["simulate", MIRROR, "--games", "10", "--policy", "heuristic", "--max-games", "5"]
    assert main([*argv, "--workers", "1", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and "--max-games only applies with --until-ci" in err[0]


def test_max_games_below_games_caps_the_first_batch(capsys: pytest.CaptureFixture[str]) -> None:
    """--max-games is the cap on all the games, the first --games included (10 were played)."""
    args = ["--games", "10", "--until-ci", "0.3", "--max-games", "5", "--policy", "heuristic"]
    doc = run_json(capsys, MIRROR, *args)
    assert doc["games"] == 5
    assert sum(doc["wins"].values()) + doc["draws"] == 5


def test_the_options_given_are_in_the_header_and_the_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """So that the run can be played again from its output."""
    argv = ["tank-chess/basic-16", "--games", "2", "--policy", "random", "--workers", "1"]
    opts = ["--option", "max_turns=2", "--option", "diagonal_escape=false"]
    doc = run_json(capsys, *argv, *opts)
    assert doc["options"] == {"max_turns": 2, "diagonal_escape": False}
    assert run_json(capsys, *argv)["options"] == {}
    assert main(["simulate", *argv, *opts]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header.endswith(
        "2 games, seed 0, random vs random, --option max_turns=2, --option diagonal_escape=false"
    )
    # and in the HTML report
    out = tmp_path / "rep"
    assert main(["simulate", *argv, *opts, "--out", str(out)]) == 0
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "Options given: max_turns=2, diagonal_escape=false." in page
