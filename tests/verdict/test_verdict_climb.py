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
from verdict_fakes import FakeGames, TimedFakeGames

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
    # the first rung's self-play went on from its first look (24 games) when the second
    # rung did not beat it: all 120 games
    assert [t["games"] for t in doc["trace"]] == [120, 120]


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


STEPS = Family("final-act", "x", base=1, limit=16, independent=True, default_budget=1)


def test_the_time_limit_counts_from_the_start_given(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line passes its own start: a command that spent 30 s before the climb
    (imports, compiling) keeps a 100-s limit as a whole, so x:4's self-play (a game a
    second) is cut at 70 games, where counted from the climb's start it had all 100."""
    from tankmap.analysis.verdict import climb

    one = Family("final-act", "x", base=4, limit=4, independent=True, default_budget=4)
    kw: dict[str, Any] = dict(fam=one, seed=1, games=100, time_limit=100, cross_check=False)
    for started, games in ((0.0, 70), (None, 100)):
        fake = TimedFakeGames()
        fake.now = 30.0
        monkeypatch.setattr(climb, "simulate", fake)
        v = run_verdict(MIRROR, **kw, clock=lambda fake=fake: fake.now, started=started)
        assert v.to_json()["games"] == games
    assert v.seconds == 100 and fake.now == 130  # (the last climb: from its own start)


def test_the_command_line_s_time_limit_counts_from_its_start(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    import time

    from tankmap import cli as cli_mod
    from tankmap.analysis.verdict import climb

    seen: dict[str, Any] = {}

    def fake_verdict(*args: Any, **kw: Any) -> Any:
        seen.update(kw)
        return run_verdict(*args, **{**kw, "fam": FLAT, "cross_check": False})

    monkeypatch.setattr(climb, "run_verdict", fake_verdict)
    monkeypatch.setenv("TANKMAP_CACHE_DIR", str(tmp_path))
    before = time.monotonic()
    code, _, err = run_cli(["verdict", "final-act/mirror", "--games", "100", "--json"], capsys)
    assert code == 0, err
    assert before <= seen["started"] <= time.monotonic()  # (called with arguments: now)
    monkeypatch.setattr("sys.argv", ["tankmap", "verdict", "final-act/mirror", "--games", "100"])
    assert cli_mod.main() == 0
    assert seen["started"] == cli_mod.STARTED  # (run as the command: its process's start)


def test_a_rung_that_beats_the_one_before_stops_at_its_first_look_and_skips_self_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tankmap.analysis.verdict import climb

    fake = FakeGames()
    monkeypatch.setattr(climb, "simulate", fake)
    doc = run_verdict(MIRROR, fam=STEPS, seed=1, games=100, cross_check=False).to_json()
    trace = doc["trace"]
    assert [t["agent"] for t in trace] == ["x:1", "x:2", "x:4", "x:8"]
    # x:1 plays the first look of its self-play (20 games, a fifth), and no more: x:2 beats
    # it on the first look's 10 seeds (a fifth of 50) both ways: 20 games, no self-play
    # (never needed: x:4 beats it too); x:4 gets its self-play when x:8 no longer beats it
    # (all three looks: 10, 15 and 25 seeds, 100 games)
    assert [t["match_games"] for t in trace] == [0, 20, 20, 100]
    assert [t["games"] for t in trace] == [20, 0, 100, 100]
    assert trace[0]["favoured"] == "undecided"  # (20 games decide nothing)
    assert trace[1]["balance"] is None and trace[1]["favoured"] == "undecided"
    assert trace[3]["score_vs_previous"] == 0.5
    assert doc["converged"] is True and doc["agent"] == "x:8" and doc["favoured"] == "even"
    # each look continues the one before: games 10..24, then 25..49 of the same seed
    for pols in (("x:8", "x:4"), ("x:4", "x:8")):
        looks = [(n, first) for p, n, first in fake.runs if p == pols]
        assert looks == [(10, 0), (15, 10), (25, 25)]
    assert not any(pols == ("x:2", "x:2") for pols, _, _ in fake.runs)
    assert [(n, first) for p, n, first in fake.runs if p == ("x:1", "x:1")] == [(20, 0)]


def test_an_unconverged_climb_reads_its_verdict_from_the_strongest_rung(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tankmap.analysis.verdict import climb

    monkeypatch.setattr(climb, "simulate", FakeGames())
    short = Family("final-act", "x", base=1, limit=4, independent=True, default_budget=1)
    v = run_verdict(MIRROR, fam=short, seed=1, games=100, cross_check=False)
    doc = v.to_json()
    assert not v.converged and "largest budget" in v.judgement.reason
    assert "x:4 still beats x:2" in v.judgement.reason
    # the top rung beat the one before, yet plays its self-play at the end: the verdict
    # comes from x:4, the strongest agent the climb played, not from x:1
    assert [t["games"] for t in doc["trace"]] == [20, 0, 100]
    assert doc["agent"] == "x:4" and doc["games"] == 100


def test_text_and_report_show_a_rung_without_self_play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    from tankmap.analysis.verdict import climb

    monkeypatch.setattr(climb, "simulate", FakeGames())
    monkeypatch.setitem(fam_mod._FAMILIES, "final-act", [STEPS])
    monkeypatch.setenv("TANKMAP_CACHE_DIR", str(tmp_path / "cache"))
    args = ["verdict", "final-act/mirror", "--games", "100", "--seed", "1"]
    code, out, err = run_cli([*args, "--out", str(tmp_path / "v")], capsys)
    assert code == 0, err
    row = next(line for line in out.splitlines() if line.strip().startswith("x:2 "))
    assert "(not needed)" in row and "1.000 [" in row  # its score against x:1
    page = (tmp_path / "v" / "verdict.html").read_text(encoding="utf-8")
    assert "no self-play: not needed: it still beats the rung before" in page
    assert (tmp_path / "v" / "trace.png").stat().st_size > 0


def _climb_in_125_s(monkeypatch: pytest.MonkeyPatch, fake: TimedFakeGames) -> Any:
    """The ``STEPS`` climb on ``fake``'s clock with a 125-s limit (no cross-check)."""
    from tankmap.analysis.verdict import climb

    monkeypatch.setattr(climb, "simulate", fake)
    return run_verdict(
        MIRROR,
        fam=STEPS,
        seed=1,
        games=200,
        time_limit=125,
        cross_check=False,
        clock=lambda: fake.now,
    )


def test_a_self_play_cut_by_the_time_limit_keeps_its_finished_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:

    fake = TimedFakeGames()
    v = _climb_in_125_s(monkeypatch, fake)
    doc = v.to_json()
    assert not v.converged
    assert v.judgement.reason.endswith("the time limit cut x:1's self-play at 120 of 200 games")
    assert doc["agent"] == "x:1" and doc["games"] == 120 and doc["favoured"] == "even"


def test_a_game_longer_than_the_time_left_is_left_unfinished_at_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # game 50 of x:1's self-play takes 1,000 s more (a 300-ply Tank Chess draw at a high
    # budget took 132 s): the run ends at the limit, with the 50 games before it

    fake = TimedFakeGames(slow={50: 1000.0})
    v = _climb_in_125_s(monkeypatch, fake)
    assert fake.now <= 125
    assert v.judgement.reason.endswith("the time limit cut x:1's self-play at 50 of 200 games")


def test_a_self_play_cut_before_its_first_game_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    # game 0 of x:1's self-play outlasts the limit: no game finished ("at 0 of 40 games"
    # before)
    fake = TimedFakeGames(slow={0: 1000.0})
    v = _climb_in_125_s(monkeypatch, fake)
    assert fake.now <= 125 and v.to_json()["games"] == 0
    assert v.judgement.reason.endswith("the time limit came before x:1's self-play finished a game")


def _cross_checked(monkeypatch: pytest.MonkeyPatch, games: int, time_limit: float) -> Any:
    """A climb of x:4 alone (its self-play a game a second on the fake clock), then the
    cross-check x:2's self-play (the bare name "x" stands for it here)."""
    from tankmap.analysis.verdict import climb

    fake = TimedFakeGames()
    monkeypatch.setattr(climb, "simulate", fake)
    other = Family("final-act", "x", base=2, limit=2, independent=False, default_budget=2)
    monkeypatch.setitem(fam_mod._FAMILIES, "final-act", [STEPS, other])
    one = Family("final-act", "x", base=4, limit=4, independent=True, default_budget=4)
    monkeypatch.setattr(Family, "default_agent", lambda self: "x:2")
    kw: dict[str, Any] = dict(fam=one, seed=1, games=games, time_limit=time_limit)
    return run_verdict(MIRROR, **kw, clock=lambda: fake.now)


def test_a_cross_check_that_cannot_reach_100_games_stops_keeps_its_games_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # x:4's self-play takes 100 s of the 155: the cross-check plays a game a second, so it
    # could reach 55 games, not the 100 a side needs: it stops as soon as its pace shows it
    # (after its second batch of ten), not at the limit (50 games, before), and the verdict
    # comes 35 s sooner
    v = _cross_checked(monkeypatch, 100, 155)
    cc = v.to_json()["cross_check"]
    assert cc["agent"] == "x:2" and cc["games"] == 20 and cc["favoured"] == "undecided"
    assert cc["agrees"] is None and "cut it at 20 of 100 games" in cc["reason"]
    assert "could not reach 100" in cc["reason"] and v.seconds == 120


def test_a_cross_check_that_can_reach_100_games_plays_on_to_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 125 s left after x:4's self-play: 100 games fit, not all 200
    cc = _cross_checked(monkeypatch, 200, 325).to_json()["cross_check"]
    assert cc["games"] == 120 and cc["favoured"] == "even" and cc["agrees"] is True


def test_the_cross_check_plays_its_family_s_check_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from tankmap.analysis.verdict import climb

    fake = TimedFakeGames()
    monkeypatch.setattr(climb, "simulate", fake)
    # its everyday agent is the bare "x"; as a cross-check it plays x:2
    other = Family(
        "final-act", "x", base=2, limit=2, independent=False, default_budget=1, check_budget=2
    )
    monkeypatch.setitem(fam_mod._FAMILIES, "final-act", [STEPS, other])
    one = Family("final-act", "x", base=4, limit=4, independent=True, default_budget=4)
    v = run_verdict(MIRROR, fam=one, seed=1, games=100, time_limit=155, clock=lambda: fake.now)
    assert v.to_json()["cross_check"]["agent"] == "x:2"
    assert other.default_agent() == "x"


def test_each_game_s_default_family_and_its_cross_check() -> None:
    from tankmap.analysis.simulation.families import cross_check_family, family

    wars = family("tank-wars")
    other = cross_check_family(wars)
    assert wars.name == "regret" and wars.independent
    assert other is not None and other.name == "plan" and not other.independent
    assert other.check_agent() == "plan:512"  # as strong as the climb's top rungs
    # Tank Chess climbs from twice alphabeta's everyday budget: from 3,200 (where it first
    # looks two turns ahead), a doubling stays inside one of its strength steps
    chess = family("tank-chess")
    assert chess.name == "alphabeta" and chess.base == 6400 and chess.default_budget == 3200
    assert family("final-act").name == "search"


def test_a_run_s_pace_counts_a_batch_as_workers_times_the_gap_between_two() -> None:
    """With two workers, batches finish in turn: one started now takes about twice the time
    between the last two finishing (judged from that time alone, a batch the caller started
    could end past the limit); the first batch takes as long as the run so far."""
    from tankmap.analysis.verdict.pace import Pace

    now = [0.0]
    pace = Pace(lambda: now[0], workers=2)
    now[0] = 10.0
    assert not pace.late(20.0)  # first batch: 10 s, so the next ends at 20
    now[0] = 15.0
    assert pace.late(24.0)  # 5 s between two: a batch takes 10, to 25 (one worker: 20)
    one = Pace(lambda: now[0], workers=1)
    now[0] = 25.0
    one.late(100.0)
    now[0] = 30.0
    assert not one.late(35.0)
