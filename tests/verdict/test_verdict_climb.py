"""The verdict's climb (analysis.verdict.climb) and ``tankmap verdict`` end to end, with a
family whose every rung is the same fast agent: a match between equal agents on common
seeds scores exactly one half, so the climb stops at its second rung when the two
self-play verdicts agree."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import Any

import pytest

from tankmap.analysis.simulation import families as fam_mod
from tankmap.analysis.simulation.families import Family
from tankmap.analysis.verdict.cache import load_verdict
from tankmap.analysis.verdict.climb import run_verdict
from tankmap.cli import main as cli
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario


@dataclass(frozen=True)
class SameAgent(Family):
    """Every budget plays ``name`` itself (a stand-in for a family that has plateaued)."""

    def agent(self, budget: int) -> str:
        return self.name


MIRROR = read_scenario(map_path("final-act/mirror"))  # type: ignore[arg-type]
FLAT = SameAgent("final-act", "heuristic", base=1, limit=8, independent=False, default_budget=1)


def test_equal_rungs_converge_at_the_second_rung() -> None:
    v = run_verdict(MIRROR, fam=FLAT, seed=3, games=120, cross_check=False)
    doc = v.to_json()
    assert doc["converged"] is True
    assert [t["agent"] for t in doc["trace"]] == ["heuristic", "heuristic"]
    assert doc["trace"][0]["score_vs_previous"] is None
    assert doc["trace"][1]["score_vs_previous"] == 0.5  # the same games, sides swapped
    assert doc["trace"][1]["match_games"] == 120
    assert doc["favoured"] == doc["trace"][1]["favoured"]
    assert doc["games"] == 120


def test_same_seed_same_verdict_on_one_and_two_workers() -> None:
    one = run_verdict(MIRROR, fam=FLAT, seed=5, games=100, workers=1, cross_check=False)
    two = run_verdict(MIRROR, fam=FLAT, seed=5, games=100, workers=2, cross_check=False)
    strip = lambda d: {k: v for k, v in d.items() if k != "seconds"}  # noqa: E731
    a, b = one.to_json(), two.to_json()
    for t in a["trace"] + b["trace"]:
        t.pop("seconds")
    assert strip(a) == strip(b)


def test_a_time_limit_stops_the_climb_unconverged() -> None:
    ticks = itertools.count(0, 50)  # every look at the clock: 50 s later
    v = run_verdict(
        MIRROR,
        fam=FLAT,
        seed=3,
        games=100,
        time_limit=60,
        cross_check=False,
        clock=lambda: float(next(ticks)),
    )
    assert not v.converged
    assert "time limit" in v.judgement.reason


def test_the_family_s_largest_budget_ends_the_climb() -> None:
    # two rungs whose self-play verdicts (100 games, different seeds) may disagree: the
    # climb is cut by the limit of 2 at the latest
    short = SameAgent(
        "final-act", "heuristic", base=1, limit=2, independent=False, default_budget=1
    )
    v = run_verdict(MIRROR, fam=short, seed=3, games=100, cross_check=False)
    assert len(v.steps) == 2
    assert v.converged or "largest budget" in v.judgement.reason


def test_cross_check_with_a_family_of_the_other_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    other = SameAgent("final-act", "random", base=1, limit=1, independent=True, default_budget=1)
    monkeypatch.setitem(fam_mod._FAMILIES, "final-act", [FLAT, other])
    v = run_verdict(MIRROR, fam=FLAT, seed=3, games=100)
    cc = v.to_json()["cross_check"]
    assert cc["agent"] == "random" and cc["independent"] is True
    assert cc["games"] == 100 and cc["agrees"] in (True, False)


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json_contract_and_cache(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(fam_mod._FAMILIES, "final-act", [FLAT])
    code, out, err = run_cli(
        [
            "verdict",
            "final-act/mirror",
            "--games",
            "100",
            "--seed",
            "2",
            "--workers",
            "1",
            "--json",
        ],
        capsys,
    )
    assert code == 0, err
    doc: dict[str, Any] = json.loads(out)
    for key in (
        "file",
        "agent",
        "favoured",
        "win_rate",
        "draws",
        "balance",
        "balance_ci95",
        "games",
        "converged",
        "reason",
        "trace",
        "seconds",
    ):
        assert key in doc
    assert doc["favoured"] in ("south", "north", "even", "undecided")
    for t in doc["trace"]:
        assert {"agent", "games", "favoured", "score_vs_previous", "score_ci95"} <= set(t)
    cached = load_verdict(MIRROR)
    assert cached is not None and cached["balance"] == doc["balance"]
    code, out, _ = run_cli(
        ["verdict", "final-act/mirror", "--games", "100", "--seed", "2", "--workers", "1"], capsys
    )
    assert code == 0 and "converged" in out and "rung" in out


@pytest.mark.parametrize(
    "args",
    [["--games", "1"], ["--time-limit", "0"], ["--family", "nonesuch"]],
)
def test_cli_bad_input_is_one_line_and_exit_2(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(["verdict", "final-act/mirror", *args], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "error" in err
