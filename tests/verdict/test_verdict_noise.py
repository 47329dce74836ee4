"""Self-play verdicts that disagree only by noise get more games before a climb is called
unconverged (``rule.more_self_play``, ``climb.run_verdict``).

The counts below are hand-checked against the Agresti–Caffo interval of the win-rate
difference (one virtual win added to each side): 120 south and 80 north wins of 200 give
d = 41/202 = 0.203, sd = sqrt((0.599 + 0.401 − 0.041) / 202) = 0.0689, so [0.068, 0.338]
— south; 110 and 90 of 200 give 0.099 ± 0.137 = [−0.038, 0.236] — even, overlapping."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from verdict_fakes import FakeGames, TimedFakeGames

from tankmap.analysis.estimates import BalanceEstimate
from tankmap.analysis.simulation.families import Family
from tankmap.analysis.verdict.climb import run_verdict
from tankmap.analysis.verdict.played import PlayedGames
from tankmap.analysis.verdict.rule import Step, judge, more_self_play, within_noise
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario

MIN = 100
MIRROR = read_scenario(map_path("final-act/mirror"))  # type: ignore[arg-type]
TWO = Family("final-act", "n", base=1, limit=2, independent=True, default_budget=1)


def rung(agent: str, ws: int, wn: int, n: int, points: float = 0.0, played: int = 0) -> Step:
    return Step(agent, 1, BalanceEstimate(ws, wn, n, agent), points, played)


# ---- the rule, on hand-made tables ---------------------------------------------------


def test_overlapping_difference_intervals_are_within_noise() -> None:
    south = BalanceEstimate(120, 80, 200, "a")  # [0.063, 0.333]
    even = BalanceEstimate(110, 90, 200, "b")  # [-0.038, 0.236]
    lopsided = BalanceEstimate(140, 60, 200, "c")  # [0.269, 0.523]
    level = BalanceEstimate(100, 100, 200, "d")  # [-0.138, 0.138]
    assert within_noise(south, even) and within_noise(even, south)
    assert not within_noise(lopsided, level)


def test_a_disagreement_within_noise_asks_for_twice_then_four_times_the_games() -> None:
    # s:6 no longer beats s:3 (100 of 200 points), s:3 favours south, s:6 calls it even
    steps = [rung("s:3", 120, 80, 200), rung("s:6", 110, 90, 200, 100, 200)]
    assert more_self_play(steps, MIN, 200) == 400
    j = judge(steps, MIN)
    assert not j.converged
    assert "s:6 calls it even but s:3 favours south (within noise, over 200 and 200" in j.reason
    # after 400 each, still one side and even (220/180 is south: [0.002, 0.197]; 205/195
    # is even): 800; after 800 each, no more
    steps = [rung("s:3", 240, 160, 400), rung("s:6", 205, 195, 400, 100, 200)]
    assert more_self_play(steps, MIN, 200) == 800
    steps = [rung("s:3", 480, 320, 800), rung("s:6", 410, 390, 800, 100, 200)]
    assert more_self_play(steps, MIN, 200) is None
    # (a rung with more games already: the size is above the smaller of the two)
    steps = [rung("s:3", 480, 320, 800), rung("s:6", 110, 90, 200, 100, 200)]
    assert more_self_play(steps, MIN, 200) == 400


@pytest.mark.parametrize(
    "steps",
    [
        # beyond noise: south [0.269, 0.523] against even [-0.138, 0.138]
        [rung("s:3", 140, 60, 200), rung("s:6", 100, 100, 200, 100, 200)],
        # the bigger budget still wins (124 of 200 = 0.62, lower end 0.551)
        [rung("s:3", 120, 80, 200), rung("s:6", 110, 90, 200, 124, 200)],
        # they agree: nothing to settle
        [rung("s:3", 120, 80, 200), rung("s:6", 121, 79, 200, 100, 200)],
        # undecided: too few games is not a disagreement (the climb plays its 200 first)
        [rung("s:3", 60, 20, 80), rung("s:6", 110, 90, 200, 100, 200)],
        # a self-play missing
        [Step("s:3", 3, None), rung("s:6", 110, 90, 200, 100, 200)],
        # one rung
        [rung("s:3", 120, 80, 200)],
    ],
)
def test_no_more_games_when_they_would_not_settle_anything(steps: list[Step]) -> None:
    assert more_self_play(steps, MIN, 200) is None


def test_self_plays_going_on_to_more_games_are_judged_only_at_that_size() -> None:
    # both favour south at 400 and 290 games (s:6: 165 vs 125, d = 40/292 = 0.137 [0.023, 0.251]),
    # but they are going on to 400 each: not converged until both have them
    steps = [rung("s:3", 240, 160, 400), rung("s:6", 165, 125, 290, 100, 200)]
    assert judge(steps, MIN).converged
    j = judge(steps, MIN, settling=400)
    assert not j.converged
    assert j.reason == (
        "s:6 no longer beats s:3, and their self-play verdicts, which differed within "
        "noise, are judged again at 400 games each"
    )
    done = [rung("s:3", 240, 160, 400), rung("s:6", 230, 170, 400, 100, 200)]
    assert judge(done, MIN, settling=400).converged


def test_a_disagreement_beyond_noise_is_not_called_noise() -> None:
    steps = [rung("s:3", 140, 60, 200), rung("s:6", 100, 100, 200, 100, 200)]
    reason = judge(steps, MIN).reason
    assert reason == "s:6 calls it even but s:3 favours south"


# ---- the climb --------------------------------------------------------------------------


class Scripted(FakeGames):
    """``n:1`` and ``n:2`` are equal in a match (south wins the even games), and their
    self-plays are scripted by game number: ``n:1`` wins south 6 games in 10 (120 of 200:
    south), ``n:2`` 11 in 20 over its first 200 games (110: even, within noise of
    ``n:1``'s) and 6 in 10 after that, or with ``apart`` 1 in 2 (100: even, beyond noise
    of ``n:1``'s 7 in 10)."""

    def __init__(self, apart: bool = False, later: int = 6) -> None:
        super().__init__()
        self.apart = apart
        self.later = later  # n:2's south wins in 10 from its game 200 on

    def winner(self, pols: tuple[str, str], g: int) -> str:
        a, b = pols
        if a != b:
            return "south" if g % 2 == 0 else "north"
        if a == "n:1":
            return "south" if g % 10 < (7 if self.apart else 6) else "north"
        if self.apart:
            return "south" if g % 2 == 0 else "north"
        if g < 200:
            return "south" if g % 20 < 11 else "north"
        return "south" if g % 10 < self.later else "north"

    def __call__(self, scenario: Any, n: int, pols: Any, **kw: Any) -> Any:
        import pandas as pd

        first = int(kw.get("first_game", 0))
        self.runs.append((tuple(pols), n, first))
        games = range(first, first + n)
        if kw.get("progress") is not None:
            kw["progress"](n, n)
        return pd.DataFrame(
            {"game": list(games), "winner": [self.winner(tuple(pols), g) for g in games]}
        )


class TimedScripted(TimedFakeGames, Scripted):
    """``Scripted``'s games on ``TimedFakeGames``'s clock: one second a game, but two for
    ``n:2``'s self-play games and three for ``n:1``'s from its game 200 on."""

    def __init__(self, later: int = 6) -> None:
        TimedFakeGames.__init__(self)
        self.apart = False
        self.later = later

    def __call__(self, scenario: Any, n: int, pols: Any, **kw: Any) -> Any:
        if tuple(pols) == ("n:2", "n:2"):
            self.slow = dict.fromkeys(range(1000), 1.0)
        elif tuple(pols) == ("n:1", "n:1"):
            self.slow = dict.fromkeys(range(200, 1000), 2.0)
        else:
            self.slow = {}
        return TimedFakeGames.__call__(self, scenario, n, pols, **kw)


def _climb(monkeypatch: pytest.MonkeyPatch, fake: FakeGames) -> Any:
    """The ``TWO`` climb on ``fake``'s games (200 a run, no time limit to speak of)."""
    from tankmap.analysis.verdict import climb

    monkeypatch.setattr(climb, "simulate", fake)
    return run_verdict(MIRROR, fam=TWO, seed=1, games=200, cross_check=False)


def _self_plays(fake: FakeGames, agent: str) -> list[tuple[int, int]]:
    return [(n, first) for pols, n, first in fake.runs if pols == (agent, agent)]


def test_a_climb_settles_a_disagreement_within_noise_with_more_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = Scripted()
    v = _climb(monkeypatch, fake)
    doc = v.to_json()
    # at 200 games each n:2 called it even, n:1 south; at 400 each (240/160 and 230/170)
    # both favour south
    assert v.converged, v.judgement.reason
    assert "both favour South" in v.judgement.reason
    assert [t["games"] for t in doc["trace"]] == [400, 400]
    assert [t["favoured"] for t in doc["trace"]] == ["south", "south"]
    assert doc["agent"] == "n:2" and doc["games"] == 400 and doc["favoured"] == "south"
    # the self-plays went on from the games they had: the same runs, games 200 … 399
    assert _self_plays(fake, "n:2") == [(200, 0), (200, 200)]
    assert _self_plays(fake, "n:1")[-1] == (200, 200)


def test_a_disagreement_beyond_noise_plays_no_more_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    v = _climb(monkeypatch, Scripted(apart=True))
    assert not v.converged
    assert "n:2 calls it even but n:1 favours South;" in v.judgement.reason
    assert "within noise" not in v.judgement.reason
    assert [t["games"] for t in v.to_json()["trace"]] == [200, 200]


def _timed_climb(
    monkeypatch: pytest.MonkeyPatch,
    limit: float,
    store: PlayedGames | None = None,
    later: int = 6,
) -> Any:
    from tankmap.analysis.verdict import climb

    fake = TimedScripted(later)
    monkeypatch.setattr(climb, "simulate", fake)
    return run_verdict(
        MIRROR,
        fam=TWO,
        seed=1,
        games=200,
        time_limit=limit,
        cross_check=False,
        clock=lambda: fake.now,
        store=store,
    )


def test_more_games_that_do_not_fit_the_time_left_are_named_not_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # n:1's first look (40 s), the match (200 s), the rest of n:1's self-play (160 s) and
    # n:2's (400 s) end at 800 s; 200 more of n:2 at its 2 s a game and 200 of n:1 (at half
    # n:2's pace, as the climb reckons) need about 600 s: they do not fit 1,000 s (the
    # second rung did: 40 s + 860 s at n:1's pace)
    v = _timed_climb(monkeypatch, 1000)
    assert not v.converged
    assert (
        "400 self-play games of both would tell whether they disagree beyond noise "
        "(about 10 min more)" in v.judgement.reason
    )
    assert [t["games"] for t in v.to_json()["trace"]] == [200, 200]


def test_more_games_cut_by_the_limit_say_what_they_still_need(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # 800 + 600 s fits 1,500 s, but n:1's 200 more games take 600 s, not 200: the limit
    # cuts n:2's after them, and the games played are kept for the next climb
    store = PlayedGames(tmp_path / "games.json")
    v = _timed_climb(monkeypatch, 1500, store)
    assert not v.converged
    reason = v.judgement.reason
    assert "the time limit cut n:2's self-play at 250 of 400 games" in reason
    assert "400 self-play games of both need up to about" in reason
    assert "n:2's rung needs" not in reason
    trace = v.to_json()["trace"]
    assert [t["games"] for t in trace] == [400, 250]
    # run again on the kept games: the climb goes on and settles it
    again = _timed_climb(monkeypatch, 1500, PlayedGames(tmp_path / "games.json", store.runs))
    assert again.converged and again.favoured() == "south"


def test_with_kept_games_more_games_that_may_not_fit_are_started_and_go_on_next_time(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # as above, 600 s more do not fit 1,000 s from 800 s; with kept games they are started
    # anyway (a batch fits): n:1's take 30 s per 10 games, so the limit stops them after
    # 60 more, at 980 s; the next climb replays those in moments and goes on to converge
    store = PlayedGames(tmp_path / "games.json")
    first = _timed_climb(monkeypatch, 1000, store)
    assert not first.converged
    assert "the time limit cut n:1's self-play at 260 of 400 games" in first.judgement.reason
    assert "400 self-play games of both need up to about" in first.judgement.reason
    assert "would tell" not in first.judgement.reason
    runs = [first]
    while not runs[-1].converged and len(runs) < 5:
        runs.append(_timed_climb(monkeypatch, 1000, PlayedGames(store.path, store.runs)))
    assert runs[-1].converged and runs[-1].favoured() == "south"
    assert [t["games"] for t in runs[-1].to_json()["trace"]] == [400, 400]
    assert len(runs) == 2


def test_more_games_cut_by_the_limit_are_not_judged_where_the_cut_fell(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # n:2 wins every game as south from its game 200 on: cut at 250 games (160 south wins,
    # 90 north: d = 0.28, south), the two would agree, but they are judged at 400 each
    store = PlayedGames(tmp_path / "games.json")
    v = _timed_climb(monkeypatch, 1500, store, later=10)
    trace = v.to_json()["trace"]
    assert [t["games"] for t in trace] == [400, 250]
    assert [t["favoured"] for t in trace] == ["south", "south"]
    assert not v.converged
    assert v.judgement.reason.startswith(
        "n:2 no longer beats n:1, and their self-play verdicts, which differed within noise, "
        "are judged again at 400 games each; the time limit cut n:2's self-play at 250"
    )
    again = _timed_climb(monkeypatch, 1500, PlayedGames(store.path, store.runs), later=10)
    assert again.converged and [t["games"] for t in again.to_json()["trace"]] == [400, 400]
