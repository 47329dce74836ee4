"""A verdict goes on where the last one on the board stopped (``analysis.verdict.played``):
the games a climb played are kept per board and taken instead of played again, so a climb
cut by its time limit and run again gives the trace of one long enough climb."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from verdict_fakes import FakeGames, TimedFakeGames

from tankmap.analysis import code_version as code_version_mod
from tankmap.analysis.simulation.families import Family
from tankmap.analysis.verdict import played as played_mod
from tankmap.analysis.verdict.climb import run_verdict
from tankmap.analysis.verdict.played import PlayedGames, games_path
from tankmap.cli import main as cli
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario

MIRROR = read_scenario(map_path("final-act/mirror"))  # type: ignore[arg-type]
STEPS = Family("final-act", "x", base=1, limit=16, independent=True, default_budget=1)


@dataclass(frozen=True)
class Heuristic(Family):
    """Every budget plays the real ``heuristic`` (fast games)."""

    def agent(self, budget: int) -> str:
        return "heuristic"


def _games(fake: FakeGames) -> int:
    return sum(n for _, n, _ in fake.runs)


def _climb(
    fake: TimedFakeGames, limit: float, store: PlayedGames | None, fam: Family = STEPS
) -> dict[str, Any]:
    start = fake.now
    return run_verdict(
        MIRROR,
        fam=fam,
        seed=1,
        games=200,
        time_limit=limit,
        cross_check=False,
        clock=lambda: fake.now - start,
        store=store,
    ).to_json()


def _one_long_climb(monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], TimedFakeGames]:
    """The whole climb without a time limit to speak of (each fake game takes one second:
    x:1 … x:8: the first look at x:1's self-play (40 games: x:2 beats it, so the rest is
    never needed), 40 games of each of the first two matches (stopped at their first look),
    all 200 of x:8 against x:4 and both of their self-plays, 720 games), and fresh fake games
    for the climbs to compare with it."""
    from tankmap.analysis.verdict import climb

    whole = TimedFakeGames()
    monkeypatch.setattr(climb, "simulate", whole)
    one = _climb(whole, 10_000, None)
    assert one["converged"] and _games(whole) == 720
    fake = TimedFakeGames()
    monkeypatch.setattr(climb, "simulate", fake)
    return one, fake


def test_a_cut_climb_run_again_gives_the_trace_of_one_long_climb(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    one, fake = _one_long_climb(monkeypatch)
    store = PlayedGames(tmp_path / "games.json")
    # x:2's rung would not fit in 125 s: x:1's whole self-play is played at once (the
    # verdict of the cut climb comes from it), and cut at 120 games
    cut = _climb(fake, 125, store)
    assert not cut["converged"] and cut["games"] == 120
    assert "judge the board again to go on from here" in cut["reason"]
    assert cut["reused_games"] == 0 and store.count() == 120

    again = _climb(fake, 10_000, PlayedGames(tmp_path / "games.json", store.runs))
    assert again["reused_games"] == 40  # x:1's first look: its rest is not needed now
    assert _games(fake) == 800  # 120 games in the cut climb, the other 680 now
    strip = ("seconds", "reused_games")
    assert {k: v for k, v in again.items() if k not in strip} == {
        k: v for k, v in one.items() if k not in strip
    }
    # a kept game counts at the pace it was played: the trace's times are the long climb's
    assert [t["seconds"] for t in again["trace"]] == [t["seconds"] for t in one["trace"]]


def test_climbs_too_long_for_the_limit_get_there_in_steps(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    one, fake = _one_long_climb(monkeypatch)
    # without kept games a rung longer than the limit is never started: no progress
    alone = [_climb(fake, 250, None) for _ in range(2)]
    assert [len(d["trace"]) for d in alone] == [1, 1]
    # with them, each 250-s climb plays about 250 games further, and the verdict is read
    # from the strongest decided self-play meanwhile
    store = PlayedGames(tmp_path / "games.json")
    docs = [_climb(fake, 250, store)]
    while not docs[-1]["converged"] and len(docs) < 10:
        docs.append(_climb(fake, 250, store))
    assert docs[-1]["converged"] and 4 <= len(docs) <= 6
    assert all(d["games"] >= 100 for d in docs)  # never a verdict from a cut self-play
    # the one difference: x:2's rung never fits 250 s, so x:1's whole self-play is played
    # at once (the verdict of a climb cut short then comes from it), where the long climb
    # needed only its first look
    first = [d["trace"].pop(0) for d in (docs[-1], one)]
    assert [f["games"] for f in first] == [200, 40]
    strip = ("seconds", "reused_games", "time_limit")
    assert {k: v for k, v in docs[-1].items() if k not in strip} == {
        k: v for k, v in one.items() if k not in strip
    }


def test_a_cancelled_climb_keeps_the_games_it_finished(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from tankmap.analysis.verdict import climb

    fake = TimedFakeGames()  # asks ``stop`` after every 10 games
    monkeypatch.setattr(climb, "simulate", fake)
    store = PlayedGames(tmp_path / "games.json")
    asked = [0]

    def cancelled() -> bool:
        asked[0] += 1
        # the 6th time: 10 games into x:2 against x:1, after x:1's first look (40 games)
        return asked[0] > 5

    with pytest.raises(climb.ClimbCancelled):
        run_verdict(MIRROR, fam=STEPS, seed=1, games=200, store=store, cancelled=cancelled)
    assert store.count() == 50
    again = _climb(fake, 10_000, store)
    assert again["reused_games"] == 50 and again["converged"]


def _cut_reason(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, limit: float, fam: Family = STEPS
) -> str:
    """The reason of a climb on fresh fake games with ``limit`` and games kept in
    ``tmp_path``."""
    from tankmap.analysis.verdict import climb

    fake = TimedFakeGames()
    monkeypatch.setattr(climb, "simulate", fake)
    return str(_climb(fake, limit, PlayedGames(tmp_path / "games.json"), fam)["reason"])


def test_a_cut_rung_says_how_long_it_needs_at_most(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The reason of a climb the limit cut in the middle of a rung says how much longer the
    rung needs, at most, so that a user knows how long to let it run. By hand, 1-s games
    and a 235-s limit: x:1's self-play takes 200 s (one self-play game of x:1 a second);
    x:2's rung (never fitting 235 s) is started; its match's first look plays 20 games with
    x:2 south, then the north half is cut after 10 (the next 10 would end at 240 s). Left:
    170 match games at 1.5 units (each side's agent: x:1, and x:2 at twice its cost), x:2's
    self-play (200 games at 2 units), x:1's none: 255 + 400 = 655 s."""
    from tankmap.analysis.verdict import climb

    reason = _cut_reason(monkeypatch, tmp_path, 235)
    assert PlayedGames(None, played_mod._read(tmp_path / "games.json")).count() == 230
    assert "time limit reached during x:2 vs x:1; x:2's rung needs up to about 11 min more;" in (
        reason
    )
    # without kept games, x:2's rung is not started (it could never fit): no such estimate
    fresh = TimedFakeGames()
    monkeypatch.setattr(climb, "simulate", fresh)
    alone = _climb(fresh, 235, None)["reason"]
    assert "the next rung (x:2) would take about 700 s more" in alone
    assert "needs up to" not in alone


def test_a_rung_cut_in_its_self_plays_says_what_they_need(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """By hand, 1-s games and a 600-s limit: x:1's self-play (200 s), x:2's and x:4's
    matches (40 games each: both win their first look), x:8's (200 games: x:8 is no
    stronger than x:4) end at 480 s; x:4's self-play then plays 120 games before the limit.
    The pace: a self-play game of x:8 takes 4/3 s (a match game, 1 s, is 1.5 units of the
    weaker agent's). Left: x:4's 80 games at 2/3 s and x:8's 200 at 4/3 s: 320 s."""
    assert (
        "the time limit cut x:4's self-play at 120 of 200 games; x:8's rung needs up to about "
        "5 min more;" in _cut_reason(monkeypatch, tmp_path, 600)
    )


def test_a_top_rung_cut_in_its_last_self_play_leaves_out_the_self_play_it_needs_not(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """By hand, 1-s games, a 350-s limit, budgets up to 4: x:1's self-play (200 s), x:2's
    and x:4's matches (40 games each, both won at the first look) end at 280 s; the climb
    has reached its largest budget and gives x:4, the top rung, its self-play, cut at 70
    games. Left: x:4's 130 games at 1 s (its measured pace); x:2's self-play is not
    counted, as x:4 beat x:2 (it never needs playing): 130 s, not 230 s."""
    short = Family("final-act", "x", base=1, limit=4, independent=True, default_budget=1)
    assert (
        "the time limit cut x:4's self-play at 70 of 200 games; x:4's rung needs up to about "
        "2 min more;" in _cut_reason(monkeypatch, tmp_path, 350, short)
    )


def test_ctrl_c_keeps_the_games_the_run_in_progress_finished(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Ctrl-C (or SIGTERM) in the middle of a run: the games finished so far are kept, with
    the runs before it, and the next climb gives the trace of one uninterrupted climb.
    (Before: the run in progress was lost.)"""
    from tankmap.analysis.verdict import climb

    one, _ = _one_long_climb(monkeypatch)
    # 10 games into the north half of x:2's first look (after x:1's first 40 and 20 south)
    fake = TimedFakeGames(ctrl_c_at=70)
    monkeypatch.setattr(climb, "simulate", fake)
    store = PlayedGames(tmp_path / "games.json")
    with pytest.raises(KeyboardInterrupt):
        _climb(fake, 10_000, store)
    on_disk = played_mod._read(tmp_path / "games.json")
    assert PlayedGames(None, on_disk).count() == 70  # written as kept
    again = _climb(fake, 10_000, store)
    assert again["reused_games"] == 70
    strip = ("seconds", "reused_games")
    for doc in (again, one):
        for t in doc["trace"]:
            t.pop("seconds")
    assert {k: v for k, v in again.items() if k not in strip} == {
        k: v for k, v in one.items() if k not in strip
    }


def test_games_are_written_as_played_and_read_back(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TANKMAP_CACHE_DIR", str(tmp_path))
    store = PlayedGames.of(MIRROR)
    store.add(("a", "b"), 7, 0, ["south", "north", "draw"], 3.0)
    store.add(("a", "b"), 7, 5, ["north"], 2.0)  # games 3 and 4 not played
    path = games_path(MIRROR)
    assert path.parent == tmp_path / "verdict" / "games" and path.exists()
    back = PlayedGames.of(MIRROR)
    assert back.kept(("a", "b"), 7, 0, 10) == ["south", "north", "draw"]  # up to the gap
    assert back.kept(("a", "b"), 7, 1, 1) == ["north"]
    assert back.kept(("a", "b"), 7, 5, 3) == ["north"]
    assert back.kept(("b", "a"), 7, 0, 3) == [] and back.kept(("a", "b"), 8, 0, 3) == []
    assert back.seconds_per_game(("a", "b"), 7) == pytest.approx(5.0 / 4)
    assert back.count() == 4
    assert PlayedGames.of(MIRROR, fresh=True).count() == 0


def test_two_verdicts_of_a_board_at_once_keep_each_others_games(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The editor and a terminal judging one board: each write merges into the file as it
    is, so neither drops the games the other kept. (Before: the last to write won.)"""
    monkeypatch.setenv("TANKMAP_CACHE_DIR", str(tmp_path))
    editor, terminal = PlayedGames.of(MIRROR), PlayedGames.of(MIRROR)
    editor.add(("a", "b"), 7, 0, ["south", "north"], 2.0)
    terminal.add(("c", "d"), 1, 0, ["draw"], 1.0)
    terminal.add(("a", "b"), 7, 2, ["north"], 4.0)  # the editor's run, further on
    editor.add(("a", "b"), 7, 3, ["south"], 1.0)
    back = PlayedGames.of(MIRROR)
    assert back.kept(("a", "b"), 7, 0, 10) == ["south", "north", "north", "south"]
    assert back.kept(("c", "d"), 1, 0, 10) == ["draw"]
    assert back.seconds_per_game(("a", "b"), 7) == pytest.approx(1.0)  # the last writer's pace
    # --fresh plays every game again (it takes none) and leaves the others in the file
    fresh = PlayedGames.of(MIRROR, fresh=True)
    fresh.add(("a", "b"), 7, 0, ["south"], 1.0)
    assert fresh.kept(("c", "d"), 1, 0, 10) == [] and PlayedGames.of(MIRROR).count() == 5


def _add_runs(path: Path, name: str, count: int) -> None:
    store = PlayedGames(path)
    for i in range(count):
        store.add((name, name), i, 0, ["south"], 0.1)


def test_concurrent_writers_lose_no_run(tmp_path: Path) -> None:
    """Two processes adding runs to one file at once (each write locks, reads, merges and
    replaces it): every run is there at the end."""
    import multiprocessing
    import sys

    if not sys.platform.startswith("linux"):
        pytest.skip("fork and flock")
    path = tmp_path / "games.json"
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_add_runs, args=(path, name, 60)) for name in ("p", "q")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    assert PlayedGames(None, played_mod._read(path)).count() == 120


def test_games_kept_by_other_code_are_not_reused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TANKMAP_CACHE_DIR", str(tmp_path))
    PlayedGames.of(MIRROR).add(("a", "b"), 7, 0, ["south"], 1.0)
    assert PlayedGames.of(MIRROR).count() == 1
    monkeypatch.setattr(code_version_mod, "code_version", lambda: "other code")
    assert PlayedGames.of(MIRROR).count() == 0


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[]",
        '{"code": "%s", "runs": []}',
        '{"code": "%s", "runs": {"a | b | 7": {"winners": "sx", "seconds": 1, "played": 2}}}',
        '{"code": "%s", "runs": {"a | b | 7": {"winners": "s", "seconds": -1, "played": 1}}}',
    ],
)
def test_a_malformed_file_counts_as_no_games(
    text: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TANKMAP_CACHE_DIR", str(tmp_path))
    path = games_path(MIRROR)
    path.parent.mkdir(parents=True)
    path.write_text(text.replace("%s", code_version_mod.code_version()), encoding="utf-8")
    store = PlayedGames.of(MIRROR)
    assert store.count() == 0 and store.kept(("a", "b"), 7, 0, 1) == []
    store.add(("a", "b"), 7, 0, ["north"], 1.0)  # and it is replaced by a good one
    assert json.loads(path.read_text(encoding="utf-8"))["runs"]["a | b | 7"]["winners"] == "n"


def test_a_store_that_cannot_be_written_does_not_stop_the_climb(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from tankmap.analysis.verdict import climb

    monkeypatch.setattr(climb, "simulate", FakeGames())
    blocker = tmp_path / "a file"
    blocker.write_text("", encoding="utf-8")
    store = PlayedGames(blocker / "games.json")  # under a file: cannot be written
    doc = run_verdict(MIRROR, fam=STEPS, seed=1, games=100, cross_check=False, store=store)
    assert doc.converged and doc.to_json()["agent"] == "x:8"


def test_real_games_kept_are_the_games_a_fresh_climb_plays(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TANKMAP_CACHE_DIR", str(tmp_path))
    flat = Heuristic("final-act", "heuristic", base=1, limit=2, independent=False, default_budget=1)

    def climb() -> dict[str, Any]:
        v = run_verdict(
            MIRROR, fam=flat, seed=4, games=100, cross_check=False, store=PlayedGames.of(MIRROR)
        )
        doc = v.to_json()
        for t in doc["trace"]:
            t.pop("seconds")
        return doc

    first, again = climb(), climb()
    # 300 games (2 self-plays, 1 match); the match's runs with the agents the other way
    # round are the same games here (one agent on both rungs): the first climb takes those
    # 50 from the games it just played, which are not games of an earlier verdict
    assert first["reused_games"] == 0 and again["reused_games"] == 300
    strip = ("seconds", "reused_games")
    assert {k: v for k, v in first.items() if k not in strip} == {
        k: v for k, v in again.items() if k not in strip
    }


def test_cli_goes_on_from_the_kept_games_and_fresh_plays_them_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tankmap.analysis.simulation import families as fam_mod
    from tankmap.analysis.verdict import climb

    fake = FakeGames()
    monkeypatch.setattr(climb, "simulate", fake)
    monkeypatch.setitem(fam_mod._FAMILIES, "final-act", [STEPS])
    monkeypatch.setenv("TANKMAP_CACHE_DIR", str(tmp_path))
    args = ["verdict", "final-act/mirror", "--games", "100", "--seed", "1", "--json"]
    docs = []
    for extra in ([], [], ["--fresh"]):
        assert cli([*args, *extra]) == 0
        docs.append(json.loads(capsys.readouterr().out))
    played = _games(fake)
    assert docs[0]["reused_games"] == 0 and docs[2]["reused_games"] == 0
    assert docs[1]["reused_games"] > 0 and played == 2 * docs[1]["reused_games"]
    for d in docs:
        for t in d["trace"]:
            t.pop("seconds")
    assert docs[0]["trace"] == docs[1]["trace"] == docs[2]["trace"]
    assert cli(args[:-1]) == 0
    assert "games taken from earlier verdicts of this board" in capsys.readouterr().out


def test_a_rung_that_may_not_fit_the_time_left_is_started_when_its_games_are_kept(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """At a 1,300-s limit x:8's rung fits the limit but not the time left: after x:1's
    first look (40 s) and the first looks of x:2's and x:4's matches (40 s each), it is
    reckoned at 4/3 s a unit (x:4's pace) for 300 units of match, 400 of its own self-play
    and 200 of x:4's: 1,200 s, past 1,300 s from 120 s. Without kept games it waits for the
    next climb; with them it is started (x:1's self-play is finished first, so that a cut
    climb still names a side) and, as its games take 1 s each, converges at 880 s."""
    _, fake = _one_long_climb(monkeypatch)
    waits = _climb(fake, 1300, None)
    assert not waits["converged"]
    assert "the next rung (x:8) would take about 1200 s more" in waits["reason"]
    store = PlayedGames(tmp_path / "games.json")
    fake.now = 0.0
    goes = _climb(fake, 1300, store)
    assert goes["converged"] and goes["agent"] == "x:8"
    assert fake.now == 880
    assert [t["games"] for t in goes["trace"]] == [200, 0, 200, 200]


def test_a_rung_that_never_fits_starts_only_if_a_batch_on_one_of_the_workers_fits(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With kept games, a rung longer than the limit is started when one batch of it fits
    the time left; a batch runs on one worker, so with two it takes twice the pace that
    all workers together give (``fits``). At a 265-s limit: x:1's whole self-play (200 s:
    x:2's rung cannot fit) and x:2's first look (40 games, clearly better: 240 s) leave
    25 s, at 4/3 s per self-play unit (x:2's pace). x:4's match is 300 units, a batch 1/20
    of it: 20 s on one worker, started; 40 s with two, not started — nor x:2's self-play
    (a batch of 200 units: 26.7 s)."""
    from tankmap.analysis.verdict import climb

    def climb_with(workers: int) -> tuple[dict[str, Any], int]:
        fake = TimedFakeGames()
        monkeypatch.setattr(climb, "simulate", fake)
        store = PlayedGames(tmp_path / f"games-{workers}.json")
        doc = run_verdict(
            MIRROR,
            fam=STEPS,
            seed=1,
            games=200,
            time_limit=265,
            workers=workers,
            cross_check=False,
            clock=lambda: fake.now,
            store=store,
        ).to_json()
        return doc, store.count()

    one, kept_one = climb_with(1)
    assert "time limit reached during x:4 vs x:2" in one["reason"] and kept_one > 240
    two, kept_two = climb_with(2)
    assert kept_two == 240
    assert "the next rung (x:4) would take about" in two["reason"]
    assert "no time left for x:2's self-play" in two["reason"]


def test_the_first_rung_s_rest_is_not_started_when_not_one_batch_of_it_fits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run cannot stop its first batch: at a 45-s limit, x:1's first look (40 games,
    one second each) leaves 5 s, and a batch of its rest (8 of 160 games) needs 8 s, so
    the climb ends at 40 s with the first look's games (it used to start the rest and end
    at 50 s)."""
    from tankmap.analysis.verdict import climb

    fake = TimedFakeGames()
    monkeypatch.setattr(climb, "simulate", fake)
    doc = _climb(fake, 45, None)
    assert fake.now <= 45
    assert doc["games"] == 40 and not doc["converged"]
    assert "no time left for x:1's self-play" in doc["reason"]


class CostlyFakeGames(TimedFakeGames):
    """``TimedFakeGames`` whose games cost as real budgets do: a game takes as many seconds
    as the larger budget ``N`` of its two agents ``x:N``."""

    def __call__(self, scenario: Any, n: int, pols: Any, **kw: Any) -> Any:
        cost = max(int(p.split(":")[1]) for p in pols)
        before = self.now
        df = super().__call__(scenario, n, pols, **kw)
        self.now = before + (self.now - before) * cost
        return df


def test_a_climb_cut_in_a_rung_it_could_never_finish_still_names_a_side(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Games as dear as their budget, a 900-s limit, kept games. By hand: x:1's first look
    (40 s) leaves room for x:2's rung (860 s at 1 s a unit), so its rest waits; x:2's first
    look (40 games at 2 s) beats it: 120 s. x:4's rung needs 2,400 s at x:2's pace (8/3 s a
    unit) and can never fit, so with kept games it is started, and every rung after it
    too: x:8 ties x:4 and its match runs into the limit. No rung had a decided self-play,
    so before x:4's rung the climb finishes x:1's (160 games at 1 s, to 280 s): the verdict
    names x:1's side (even), not "undecided"."""
    from tankmap.analysis.verdict import climb

    fake = CostlyFakeGames()
    monkeypatch.setattr(climb, "simulate", fake)
    doc = _climb(fake, 900, PlayedGames(tmp_path / "games.json"))
    assert not doc["converged"] and "time limit reached during x:8 vs x:4" in doc["reason"]
    assert doc["agent"] == "x:1" and doc["games"] == 200 and doc["favoured"] == "even"
    assert [r for r in fake.runs if r[0] == ("x:1", "x:1")] == [
        (("x:1", "x:1"), 40, 0),
        (("x:1", "x:1"), 160, 40),
    ]


def test_a_climb_cut_in_a_rung_it_could_never_finish_gets_its_cross_check_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """As above (900-s limit, games as dear as their budget, kept games), with a
    cross-check family (x:2's self-play, 2 s a game). By hand: x:1's first look (40 s),
    x:2's first look (120 s); x:4's rung can never fit, so before it the climb finishes
    x:1's self-play (to 280 s) and plays the cross-check's 200 games (to 680 s), then
    x:4's match, whose first look beats x:2 (40 games at 4 s: 840 s). x:8's rung would
    need a batch of 80 s: the climb stops there and gives x:4 its self-play until the
    limit; the cross-check kept is judged. Before, it was skipped (no time left)."""
    from tankmap.analysis.simulation import families as fam_mod
    from tankmap.analysis.verdict import climb

    fake = CostlyFakeGames()
    monkeypatch.setattr(climb, "simulate", fake)
    other = Family("final-act", "x", base=2, limit=2, independent=False, default_budget=2)
    monkeypatch.setitem(fam_mod._FAMILIES, "final-act", [STEPS, other])
    monkeypatch.setattr(Family, "check_agent", lambda self: "x:2")
    doc = run_verdict(
        MIRROR,
        fam=STEPS,
        seed=1,
        games=200,
        time_limit=900,
        clock=lambda: fake.now,
        store=PlayedGames(tmp_path / "games.json"),
    ).to_json()
    assert not doc["converged"] and "x:4 still beats x:2" in doc["reason"]
    assert "the next rung (x:8) would take about" in doc["reason"]
    assert doc["agent"] == "x:1" and doc["favoured"] == "even"
    cc = doc["cross_check"]
    assert cc["agent"] == "x:2" and cc["games"] == 200 and cc["agrees"] is True
    order = [pols for pols, _n, _first in fake.runs]
    check = order.index(("x:2", "x:2"))
    assert order[check - 1] == ("x:1", "x:1") and order[check + 1] == ("x:4", "x:2")


def test_games_a_climb_played_itself_and_takes_again_are_not_counted_as_reused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The cross-check played before x:4's rung (previous test) is taken again from the
    store at the end: those 200 games are this climb's own, not "taken from earlier
    verdicts"; a second climb of the board takes games of the first."""
    from tankmap.analysis.simulation import families as fam_mod
    from tankmap.analysis.verdict import climb

    other = Family("final-act", "x", base=2, limit=2, independent=False, default_budget=2)
    monkeypatch.setitem(fam_mod._FAMILIES, "final-act", [STEPS, other])
    monkeypatch.setattr(Family, "check_agent", lambda self: "x:2")
    store = PlayedGames(tmp_path / "games.json")

    def judged() -> dict[str, Any]:
        fake = CostlyFakeGames()
        monkeypatch.setattr(climb, "simulate", fake)
        return run_verdict(
            MIRROR, fam=STEPS, seed=1, games=200, time_limit=900, clock=lambda: fake.now,
            store=store,
        ).to_json()  # fmt: skip

    assert judged()["reused_games"] == 0
    assert 0 < judged()["reused_games"] <= store.count()
