"""Bounded budgets (issue 32): ``search:N``, ``uct:N`` past their limit — and any budget
that is not a small whole number — are refused in one line naming the limit, before any
game (``search:1000000000`` used to run for ever); ``perft`` refuses a depth whose count
is estimated past an hour."""

from __future__ import annotations

from pathlib import Path

import pytest

from tankmap.analysis.simulation.budgets import BUDGETS, check_budget
from tankmap.analysis.simulation.games import PolicyError
from tankmap.cli import main

MAPS = {"final-act": "final-act/mirror", "tank-chess": "tank-chess/basic-16"}
MAPS["tank-wars"] = "tank-wars/default"


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize(("ruleset", "agent"), sorted(BUDGETS))
@pytest.mark.parametrize("over", [1, 10**9 - 1])
def test_a_budget_past_the_limit_is_one_line_naming_it(
    ruleset: str, agent: str, over: int, capsys: pytest.CaptureFixture[str]
) -> None:
    limit = BUDGETS[ruleset, agent].limit
    spec = f"{agent}:{limit + over}"
    assert main(["simulate", MAPS[ruleset], "--policy", spec, "--games", "2"]) == 2
    err = one_line(capsys)
    assert spec in err and f"from 1 to {limit:,}" in err
    assert check_budget(ruleset, f"{agent}:{limit}+no-heavy") == limit  # the limit itself


@pytest.mark.parametrize(
    "spec",
    ["search:0", "search:-3", "search:" + "9" * 5000, "search:\u0663", "search:\u00b2", "search:"],
)
def test_a_budget_that_is_no_small_whole_number_is_one_line(
    spec: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # before: "9" * 5000 and "²" ended in a ValueError traceback
    assert main(["simulate", "final-act/mirror", "--policy", spec, "--games", "2"]) == 2
    assert "from 1 to 500" in one_line(capsys)


@pytest.mark.parametrize("spec", ["random:5", "heuristic:2", "heuristic-ref:1"])
def test_an_agent_without_a_budget_refuses_one(spec: str) -> None:
    with pytest.raises(PolicyError, match=r"takes no budget in final-act \(agents with a budget"):
        check_budget("final-act", spec)


def test_the_ladder_refuses_a_bad_budget_before_any_game() -> None:
    from tankmap.analysis.ladder import run_ladder
    from tankmap.commands.common import load

    played: list[int] = []
    with pytest.raises(PolicyError, match="from 1 to 1,000"):
        run_ladder(
            load("tank-chess/basic-16"),
            ["random", "heuristic", "uct:1001"],
            games=4,
            progress=lambda done, _total: played.append(done),
        )
    assert played == []  # before: the random-heuristic pairing was played first


def test_perft_refuses_a_depth_past_an_hour_naming_the_deepest_allowed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # basic-16: 549 turns, 301,997 sequences of two; depth 4 is some 9e10 (two days)
    assert main(["perft", "tank-chess/basic-16", "--depth", "4"]) == 2
    err = one_line(capsys)
    assert "tank-chess/basic-16: --depth 4" in err and "at most --depth 3 here" in err
    assert "2,000,000,000" in err
    assert main(["perft", "tank-chess/basic-16", "--depth", "21"]) == 2
    assert "between 0 and 20" in one_line(capsys)


def test_perft_goes_deeper_where_few_turns_are_possible(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from tankmap.maps import resolve

    doc = json.loads(Path(resolve("tank-chess/basic-16")).read_text("utf-8"))
    doc["units"] = [u for u in doc["units"] if u["kind"] == "command"]  # two pieces
    # White's command tank (h1) boxed in by one more obstacle: 7 turns against Black's 111,
    # so depth 4 is allowed (estimated from depths 1 and 2) and counted in under a second
    doc["terrain"].append({"kind": "obstacle", "cells": ["g1", "g2", "h2", "i2", "i1"]})
    lone = tmp_path / "commanders.json"
    lone.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["perft", str(lone), "--depth", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["nodes"] > 0
