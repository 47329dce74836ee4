"""The strength ladder: Elo fits on hand-made tables, verdict stability, and a real ladder on
a built-in map (ordering, reproducibility for any worker count, CLI JSON contract)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tankmap.analysis.elo import expected_score, fit_elo
from tankmap.analysis.ladder import (
    Match,
    SelfPlay,
    elo_words,
    run_ladder,
    self_play_stats,
    stability,
)
from tankmap.analysis.simulation.agent_info import default_agents, describe
from tankmap.cli import main
from tankmap.maps import map_path
from tankmap.rules.errors import TankmapError
from tankmap.rules.fileformat import read_scenario


def test_even_results_give_equal_ratings() -> None:
    r = fit_elo(
        ["a", "b", "c"], {("a", "b"): (50.0, 100), ("b", "c"): (20.0, 40), ("a", "c"): (10.0, 20)}
    )
    assert abs(r["b"].elo) < 1e-3 and abs(r["c"].elo) < 1e-3
    lo, hi = r["b"].ci95
    assert lo < 0 < hi


def test_a_75_percent_score_is_about_191_elo() -> None:
    r = fit_elo(["weak", "strong"], {("strong", "weak"): (3000.0, 4000)})
    assert r["strong"].elo == pytest.approx(190.8, abs=1.0)  # 400*log10(3); the prior ~0.1
    assert expected_score(r["strong"].elo, 0.0) == pytest.approx(0.75, abs=0.001)


def test_clean_sweep_is_finite_and_intervals_shrink_with_games() -> None:
    small = fit_elo(["r", "h"], {("h", "r"): (20.0, 20)})
    big = fit_elo(["r", "h"], {("h", "r"): (200.0, 200)})
    assert 0 < small["h"].elo < big["h"].elo < 2000
    width = [x["h"].ci95[1] - x["h"].ci95[0] for x in (small, big)]
    assert width[1] < width[0]


def test_transitive_order() -> None:
    r = fit_elo(
        ["a", "b", "c"], {("b", "a"): (70.0, 100), ("c", "b"): (70.0, 100), ("c", "a"): (85.0, 100)}
    )
    assert r["a"].elo < r["b"].elo < r["c"].elo


def test_bad_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="played no game"):
        fit_elo(["a", "b", "c"], {("a", "b"): (1.0, 2)})
    with pytest.raises(ValueError, match="between 0 and"):
        fit_elo(["a", "b"], {("a", "b"): (3.0, 2)})


def _sp(name: str, s: int, n: int, games: int = 400) -> SelfPlay:
    return SelfPlay(name, games, s, n, 10.0, 1.0, 0.0)


@pytest.mark.parametrize(
    "first, second, score, stable",
    [
        # both favour south; x scored 104 of 200 against y: 0.52, interval covers 0.5
        ((250, 150), (240, 160), 104.0, True),
        # the same counts, but x still beats y (124 of 200 = 0.62, lower end 0.55)
        ((250, 150), (240, 160), 124.0, False),
        ((250, 150), (150, 250), 100.0, False),  # opposite sides
        ((205, 195), (300, 100), 100.0, False),  # an even game against a clear south edge
        ((205, 195), (195, 205), 100.0, True),  # both even, no gain
    ],
)
def test_verdict_stability_is_the_verdict_rule(
    first: tuple[int, int], second: tuple[int, int], score: float, stable: bool
) -> None:
    sp = {"x": _sp("x", *first), "y": _sp("y", *second)}
    matches = [Match("y", "x", 200, 200 - score)]  # either order of the pair
    assert stability(sp, ["x", "y"], matches).stable is stable


def test_a_small_ladder_is_never_stable() -> None:
    # 60 self-play games each: under the minimum, the verdicts are undecided
    sp = {"x": _sp("x", 40, 15, games=60), "y": _sp("y", 40, 15, games=60)}
    result = stability(sp, ["x", "y"], [Match("x", "y", 60, 30.0)])
    assert not result.stable and "fewer than 100" in result.reason


def test_balance_interval_and_favoured_side() -> None:
    sp = _sp("x", 300, 100)
    assert sp.balance == pytest.approx(0.5)
    lo, hi = sp.balance_ci95()
    assert lo < 0.5 < hi < 1.0
    assert sp.favoured() == "south"
    assert _sp("y", 200, 200).balance_ci95()[1] == 1.0 and _sp("y", 200, 200).favoured() == "even"
    assert _sp("z", 30, 10, games=40).favoured() == "undecided"


def test_elo_anchor_moves_the_zero_and_the_intervals() -> None:
    results = {("a", "b"): (150.0, 200), ("b", "c"): (120.0, 200)}
    first = fit_elo(["a", "b", "c"], results)
    at_b = fit_elo(["a", "b", "c"], results, anchor="b")
    assert at_b["b"].elo == 0.0 and at_b["b"].ci95 == (0.0, 0.0)
    for name in "abc":
        assert at_b[name].elo == pytest.approx(first[name].elo - first["b"].elo)
    # two agents: the other one's interval is the same width whichever is anchored
    two = {("a", "b"): (150.0, 200)}
    wa, wb = fit_elo(["a", "b"], two), fit_elo(["a", "b"], two, anchor="b")
    assert wa["b"].ci95[1] - wa["b"].ci95[0] == pytest.approx(wb["a"].ci95[1] - wb["a"].ci95[0])
    with pytest.raises(ValueError):
        fit_elo(["a", "b"], two, anchor="z")


def test_ladder_orders_random_below_heuristic_and_is_reproducible() -> None:
    path = map_path("final-act/mirror")
    assert path is not None
    scenario = read_scenario(path)
    one = run_ladder(scenario, ["random", "heuristic"], 20, seed=3, workers=1)
    two = run_ladder(scenario, ["random", "heuristic"], 20, seed=3, workers=2)
    assert one.to_json() == two.to_json()
    assert one.by_strength() == ["heuristic", "random"]
    # anchored at the heuristic; random, swept in every game, is rated from the prior only
    assert one.ratings["heuristic"].elo == 0.0
    doc = one.to_json()
    assert doc["anchor"] == "heuristic"
    entries = {e["name"]: e for e in doc["agents"]}
    # seed 3: the heuristic wins all 20 games (a sweep, reported as such)
    assert entries["random"]["only_sweeps"] and entries["random"]["swept_by"] == ["heuristic"]
    assert entries["heuristic"]["sweeps"] == ["random"]
    assert {"agents", "balance", "stable"} <= set(doc)
    for entry in doc["agents"]:
        assert {"name", "elo", "elo_ci95"} <= set(entry)
    for entry in doc["balance"]:
        assert {"agent", "win_rate", "draws", "balance", "ci95"} <= set(entry)
        assert set(entry["win_rate"]) == {"south", "north"}
    # what kind of play: the heuristic races (few rounds), random wanders
    sp = one.self_play
    assert sp["heuristic"].median_length < sp["random"].median_length
    # each self-play is the run ``simulate`` plays with the same seed and games
    from tankmap.analysis.simulation.runner import simulate

    for agent in ("random", "heuristic"):
        alone = self_play_stats(agent, simulate(scenario, 20, agent, seed=3))
        assert sp[agent].to_json() == alone.to_json()


def test_self_play_stats_count_races_and_races_without_losses() -> None:
    import pandas as pd

    df = pd.DataFrame(
        {
            "winner": ["south", "north", "draw", "south"],
            "end": ["goal", "goal", "limit", "annihilation"],
            "kills_south": [0, 1, 0, 7],
            "kills_north": [0, 0, 0, 0],
            "length": [9, 11, 100, 30],
        }
    )
    sp = self_play_stats("x", df)
    assert (sp.wins_south, sp.wins_north, sp.draws) == (2, 1, 1)
    # two games decided by reaching the line, one of them with no unit lost
    assert sp.race_share == 0.5 and sp.race_no_loss_share == 0.25
    assert sp.units_lost_per_game == 2.0 and sp.median_length == 20.5


def test_ladder_needs_two_agents() -> None:
    path = map_path("final-act/mirror")
    assert path is not None
    with pytest.raises(TankmapError, match="two different agents"):
        run_ladder(read_scenario(path), ["heuristic", "heuristic"], 10)


def test_cli_ladder_json_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "ladder",
        "tank-wars/default",
        "--agents",  # the default line is test_agent_lines'; its search plays Python rounds
        "random,heuristic,regret:8",
        "--games",
        "10",
        "--seed",
        "2",
        "--workers",
        "1",
        "--json",
        "--out",
        str(tmp_path / "rep"),
    ]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [a["name"] for a in doc["agents"]][-1] == "random" or len(doc["agents"]) == 2
    assert all(a["description"] for a in doc["agents"])
    assert isinstance(doc["stable"], bool)
    assert (tmp_path / "rep" / "ladder.html").exists() and (tmp_path / "rep" / "elo.png").exists()
    page = (tmp_path / "rep" / "ladder.html").read_text(encoding="utf-8")
    # its own judgement of its two strongest agents is not called the board's verdict, which
    # it shows too
    assert "Verdict stable" not in page and "Verdict NOT stable" not in page
    assert "The two strongest agents " in page and "The board's verdict: " in page
    assert main(["ladder", "final-act/mirror", "--agents", "heuristic"]) == 2


def test_agent_lines() -> None:
    assert default_agents("final-act") == ["random", "heuristic", "search", "ksearch"]
    assert default_agents("tank-chess") == ["random", "heuristic", "search", "alphabeta"]
    assert "uct" in default_agents("tank-chess", everything=True)
    assert describe("tank-chess", "uct:200").startswith("uct[:N]")
    assert "berm" in describe("final-act", "heuristic+no-berms")
    assert "no description" in describe("final-act", "alphazero")


def test_help_lists_each_games_default_agents(capsys: pytest.CaptureFixture[str]) -> None:
    """--agents' help says what a ladder plays without it, game by game (before: one line,
    "random,heuristic,search", for every game)."""
    with pytest.raises(SystemExit):
        main(["ladder", "--help"])
    text = "".join(capsys.readouterr().out.split())  # wrapping may cut a word anywhere
    for game in ("final-act", "tank-chess", "tank-wars"):
        assert f"{game}:{','.join(default_agents(game))}" in text
    assert "final-act:random,heuristic,search,ksearch;" in text


@pytest.mark.parametrize("game", ["final-act/mirror", "tank-chess/basic-16", "tank-wars/default"])
def test_an_unknown_agent_alone_is_named(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: "a ladder needs at least two different agents" for --agents bogus."""
    assert main(["ladder", game, "--agents", "bogus"]) == 2
    err = capsys.readouterr().err
    assert "policy 'bogus'" in err and "known:" in err
    assert main(["ladder", game, "--agents", "heuristic,heuristic"]) == 2
    assert "two different agents (only 'heuristic' was given)" in capsys.readouterr().err


def test_self_play_json_rounds_its_rates_as_simulate_does() -> None:
    """Win rates and their intervals to 6 decimals (they printed 0.21880653237281705)."""
    entry = _sp("x", 7, 5, games=30).to_json()
    for side in ("south", "north"):
        r = entry["win_rate"][side]
        for v in (r["estimate"], *r["ci95"]):
            assert v == round(v, 6)
    assert entry["win_rate"]["south"]["estimate"] == 0.233333
    for v in (entry["balance"], *entry["ci95"], *entry["balance_ci95"]):
        assert v == round(v, 6)


def test_elo_words_name_the_anchor_and_the_sweeps() -> None:
    def entry(name: str, only: bool, swept_by: list[str], sweeps: list[str]) -> dict[str, Any]:
        return {"name": name, "only_sweeps": only, "swept_by": swept_by, "sweeps": sweeps}

    assert elo_words(entry("heuristic", True, ["search"], ["random"]), "heuristic") == (
        "anchor; swept by search"
    )
    assert elo_words(entry("heuristic", False, [], ["random"]), "heuristic") == "anchor"
    assert elo_words(entry("random", True, ["heuristic", "search"], []), "heuristic") == (
        "swept by heuristic, search"
    )
    assert elo_words(entry("search", True, [], ["random"]), "heuristic") == "sweeps random"
    assert elo_words(entry("search", False, [], ["random"]), "heuristic") == ""


def test_cli_ladder_text_gives_the_anchor_0(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["ladder", "tank-wars/default", "--agents", "random,heuristic", "--games", "10"]
    assert main([*argv, "--workers", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    anchor = next(line for line in lines if line.strip().startswith("heuristic "))
    assert anchor.split()[1:3] == ["0", "(anchor;"]
    assert any(line.startswith("  the two strongest agents ") for line in lines)
    assert "  verdict: none yet for this board (run 'tankmap verdict' on it)" in lines


def test_cli_ladder_text_keeps_its_columns_with_a_long_sweep(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # "swept by heuristic, regret:8, plan:8" pushed that row's balance eight places right
    argv = ["ladder", "tank-wars/default", "--agents", "random,heuristic,regret:8,plan:8"]
    assert main([*argv, "--games", "10", "--workers", "1"]) == 0
    import re

    rows = [
        line for line in capsys.readouterr().out.splitlines() if re.search(r" \d\.\d{3} \[", line)
    ]
    starts = {re.search(r" \d\.\d{3} \[", row).start() for row in rows}  # type: ignore[union-attr]
    assert len(rows) == 4 and len(starts) == 1


def test_an_elo_chart_of_sweeps_alone_keeps_an_elo_scale() -> None:
    """Only the anchor's 0 to draw: matplotlib's axis ran from -0.04 to 0.04."""
    from tankmap.analysis.ladder_report import elo_figure

    agents = [
        {"name": "heuristic", "only_sweeps": True, "swept_by": [], "sweeps": ["random"],
         "elo": 0.0, "elo_ci95": [0.0, 0.0]},
        {"name": "random", "only_sweeps": True, "swept_by": ["heuristic"], "sweeps": [],
         "elo": None, "elo_ci95": None},
    ]  # fmt: skip
    fig = elo_figure({"agents": agents, "anchor": "heuristic", "games": 10, "seed": 0})
    lo, hi = fig.axes[0].get_xlim()
    assert lo <= -400 and hi >= 400
