"""The verdict's stopping rule on hand-made match tables (analysis.verdict.rule)."""

from __future__ import annotations

from typing import Any

import pytest

from tankmap.analysis.estimates import BalanceEstimate
from tankmap.analysis.verdict.rule import Step, judge, strongest_played

MIN = 100


def rung(agent: str, ws: int, wn: int, n: int, points: float = 0.0, played: int = 0) -> Step:
    return Step(agent, 1, BalanceEstimate(ws, wn, n, agent), points, played)


def test_converged_when_no_gain_and_the_same_side() -> None:
    # 104 of 200 points = 0.52, Wilson [0.451, 0.588]: 0.5 inside, under 0.55
    steps = [rung("s:3", 130, 60, 200), rung("s:6", 125, 65, 200, 104, 200)]
    j = judge(steps, MIN)
    assert j.converged
    assert "no longer beats" in j.reason and "both favour south" in j.reason


def test_converged_when_both_even() -> None:
    steps = [rung("s:3", 98, 95, 200), rung("s:6", 96, 99, 200, 99, 200)]
    j = judge(steps, MIN)
    assert j.converged and "both call it even" in j.reason


def test_not_converged_while_the_bigger_budget_wins() -> None:
    # 124 of 200 = 0.62, Wilson lower end 0.551 > 0.5: it still beats the smaller budget
    steps = [rung("s:3", 130, 60, 200), rung("s:6", 125, 65, 200, 124, 200)]
    j = judge(steps, MIN)
    assert not j.converged and "s:6 still beats s:3" in j.reason


def test_a_score_of_055_or_more_counts_as_a_gain_even_inside_noise() -> None:
    # 28 of 50 = 0.56: the interval [0.42, 0.69] covers 0.5, but the score is not under 0.55
    steps = [rung("s:3", 130, 60, 200), rung("s:6", 125, 65, 200, 28, 50)]
    assert steps[1].beats_previous() is True
    assert not judge(steps, MIN).converged


def test_a_worse_bigger_budget_does_not_beat_the_smaller() -> None:
    steps = [rung("s:3", 130, 60, 200), rung("s:6", 125, 65, 200, 60, 200)]
    assert steps[1].beats_previous() is False
    assert judge(steps, MIN).converged


def test_not_converged_when_the_verdicts_disagree() -> None:
    steps = [rung("s:3", 130, 60, 200), rung("s:6", 100, 95, 200, 100, 200)]
    j = judge(steps, MIN)
    assert not j.converged
    assert "s:6 calls it even but s:3 favours south" in j.reason


def test_undecided_never_agrees() -> None:
    # 60 games per rung: both lopsided, but under the minimum: undecided, not converged
    steps = [rung("s:3", 50, 10, 60), rung("s:6", 50, 10, 60, 30, 60)]
    j = judge(steps, MIN)
    assert not j.converged and "fewer than 100 self-play games" in j.reason


@pytest.mark.parametrize("steps", [[], [rung("s:3", 130, 60, 200)]])
def test_one_rung_is_never_converged(steps: list[Step]) -> None:
    assert not judge(steps, MIN).converged


def test_both_missing_pieces_are_named() -> None:
    steps = [rung("s:3", 130, 60, 200), rung("s:6", 60, 130, 200, 150, 200)]
    reason = judge(steps, MIN).reason
    assert "still beats" in reason and "favours north but s:3 favours south" in reason


def test_the_climb_names_tank_chess_sides_white_and_black() -> None:
    """Reasons a person reads say White/Black in Tank Chess (the JSON's ``favoured`` stays
    south/north): the rule's and the cross-check's words."""
    from tankmap.analysis.verdict.rule import side_word as _word

    names = {"south": "White", "north": "Black"}
    assert _word("south", names) == "favours White"
    assert _word("north", names) == "favours Black"
    assert _word("even", names) == "calls it even"
    assert _word("undecided", names) == "is undecided"


def test_a_rung_without_self_play_is_judged_on_its_match_alone() -> None:
    # 124 of 200 still beats: the missing self-play is not what is missing
    beating = [rung("s:3", 130, 60, 200), Step("s:6", 6, None, 124, 200)]
    j = judge(beating, MIN)
    assert (
        not j.converged and j.reason == "s:6 still beats s:3 (0.620 [0.551, 0.684] over 200 games)"
    )
    # no gain (104 of 200), but a self-play is missing: never converged without it
    flat = [Step("s:3", 3, None, 130, 200), rung("s:6", 125, 65, 200, 104, 200)]
    j = judge(flat, MIN)
    assert not j.converged and "no self-play of s:3" in j.reason
    assert flat[0].to_json(MIN)["favoured"] == "undecided"
    assert flat[0].to_json(MIN)["games"] == 0 and flat[0].to_json(MIN)["balance"] is None


def test_the_verdict_is_read_from_the_strongest_decided_self_play() -> None:
    full = rung("x:1", 120, 60, 200)
    cut = rung("x:2", 30, 30, 60, points=60, played=100)  # a self-play the limit cut short
    none = Step("x:4", 4, None, 80, 100)
    assert strongest_played([full, cut, none], 100) is full
    assert strongest_played([full, cut, none]) is cut  # no minimum: the last one played
    assert strongest_played([Step("x:1", 1, None), cut], 100) is cut  # nothing decided
    assert strongest_played([none], 100) is None


def test_the_headline_says_when_the_cross_check_disagrees() -> None:
    """Converged or not, a verdict whose cross-check sees the board differently says so
    where it names its side (the command's headline, the remembered verdict's line, the
    report), not only further down."""
    from tankmap.analysis.verdict.cache import verdict_line
    from tankmap.analysis.verdict.rule import state_text
    from tankmap.commands.verdict import text_report

    doc: dict[str, Any] = {
        "favoured": "north", "converged": False, "agent": "alphabeta:6400", "games": 200,
        "seed": 1, "balance": 0.48, "balance_ci95": [0.367, 0.603], "draws": 0.0,
        "win_rate": {"south": 0.24, "north": 0.76}, "reason": "time limit", "trace": [],
        "seconds": 179.0,
        "cross_check": {"agent": "search", "agrees": False, "reason": "search calls it even"},
    }  # fmt: skip
    assert state_text(doc) == "NOT converged; search disagrees"
    assert text_report(doc, "basic-16", ("White", "Black")).splitlines()[0] == (
        "basic-16: Black FAVOURED (NOT converged; search disagrees)"
    )
    assert "favours Black (NOT converged; search disagrees)" in verdict_line(
        doc, ("White", "Black")
    )
    for agrees in (True, None):
        doc["cross_check"]["agrees"] = agrees
        assert state_text(doc) == "NOT converged"
    doc["converged"] = True
    assert state_text({**doc, "cross_check": None}) == "converged"


def test_the_text_gives_the_win_rates_with_their_intervals() -> None:
    """The self-play line shows each side's 95 % interval, as --json's win_rate_ci95 has it
    (before: "South 0.525, North 0.475" alone)."""
    from tankmap.commands.verdict import text_report

    doc: dict[str, Any] = {
        "favoured": "even", "converged": True, "agent": "search:3", "games": 200, "seed": 0,
        "balance": 0.95, "balance_ci95": [0.85, 1.0], "draws": 0.0,
        "win_rate": {"south": 0.525, "north": 0.475},
        "win_rate_ci95": {"south": [0.456, 0.593], "north": [0.407, 0.544]},
        "reason": "even", "trace": [], "seconds": 3.0,
    }  # fmt: skip
    line = text_report(doc, "mirror", ("South", "North")).splitlines()[1]
    assert line == (
        "  search:3 self-play, 200 games, seed 0: South 0.525 [0.456, 0.593], "
        "North 0.475 [0.407, 0.544], draws 0.000; balance 0.950 [0.850, 1.000]"
    )


def test_a_gain_inside_noise_is_worded_as_one_that_may_hold() -> None:
    # 25 of 40 = 0.625, Wilson [0.470, 0.758]: 0.5 inside, but not under 0.55 -> not
    # "no longer beats"; the reason must not read as a clear win
    weak = [rung("s:6", 130, 60, 200), rung("s:12", 125, 65, 200, 25, 40)]
    j = judge(weak, MIN)
    assert not j.converged
    assert j.reason == (
        "s:12 may still beat s:6 (0.625 [0.470, 0.758] over 40 games: a score of 0.55 or more)"
    )
    # 124 of 200 = 0.62, lower end 0.551 > 0.5: a clear win says so plainly
    clear = [rung("s:6", 130, 60, 200), rung("s:12", 125, 65, 200, 124, 200)]
    assert judge(clear, MIN).reason.startswith("s:12 still beats s:6 (0.620 [0.551, 0.684]")


def test_a_rung_without_self_play_says_whether_none_was_needed() -> None:
    from tankmap.analysis.verdict.rule import unplayed_text

    beat = {"score_vs_previous": 0.65, "score_ci95": [0.553, 0.736]}
    assert unplayed_text(beat) == "not needed: it still beats the rung before"
    assert unplayed_text({**beat, "score_ci95": [0.45, 0.75]}) == (
        "not needed: it still beats the rung before"  # 0.65 is 0.55 or more
    )
    no_gain = {"score_vs_previous": 0.52, "score_ci95": [0.45, 0.59]}
    assert unplayed_text(no_gain) == "not played"  # it needed one: the climb ended first
    assert unplayed_text({"score_vs_previous": None, "score_ci95": None}) == "not played"


def test_a_verdict_before_any_self_play_game_names_its_agent_and_no_balance() -> None:
    """A climb cut before its first self-play game: the agent a verdict would be read from
    (never null), and no balance figure in its text or its remembered line (an empty
    estimate's balance, 1.000, would read as a perfectly even board)."""
    from tankmap.analysis.simulation.families import family
    from tankmap.analysis.verdict.cache import verdict_line
    from tankmap.analysis.verdict.result import Verdict
    from tankmap.analysis.verdict.rule import Judgement
    from tankmap.commands.verdict import text_report

    steps = [Step("search:3", 3, None)]
    v = Verdict(family("final-act"), steps, Judgement(False, "cut"), 11, 50, 0.5, 0.6)
    doc = v.to_json()
    assert doc["agent"] == "search:3" and doc["games"] == 0 and doc["favoured"] == "undecided"
    lines = text_report(doc, "flanks", ("South", "North")).splitlines()
    assert lines[1] == "  search:3 self-play, no game finished yet, seed 11"
    assert "(not played)" in lines[4] and "(not needed)" not in lines[4]
    assert verdict_line(doc) == (
        "verdict: undecided (NOT converged): no self-play game finished yet, search:3, seed 11"
    )
    empty = Verdict(family("final-act"), [], Judgement(False, "no rung played"), 1, 50, 1, 0)
    assert empty.to_json()["agent"] == "search:3"


def test_a_verdict_line_with_too_few_games_says_how_many_a_verdict_needs() -> None:
    """An undecided verdict keeps its balance and interval (as verdict.html shows them:
    88 games of a lopsided board say something), and says how many games it rests on
    of the number a verdict needs; before: "1 games", as if it were a verdict's."""
    from tankmap.analysis.verdict.cache import verdict_line

    doc: dict[str, Any] = {
        "favoured": "undecided", "converged": False, "agent": "alphabeta:6400", "games": 88,
        "seed": 3, "balance": 0.5, "balance_ci95": [0.331, 0.691], "min_games": 100,
    }  # fmt: skip
    assert verdict_line(doc) == (
        "verdict: undecided (NOT converged), balance 0.500 [0.331, 0.691], alphabeta:6400, "
        "88 of the 100 self-play games a verdict needs, seed 3"
    )
    decided = {**doc, "favoured": "even", "games": 201, "balance": 0.97, "balance_ci95": [0.8, 1]}
    assert verdict_line(decided) == (
        "verdict: even (NOT converged), balance 0.970 [0.800, 1.000], alphabeta:6400, "
        "201 games, seed 3"
    )


def test_the_cross_check_line_names_its_agent_games_and_balance() -> None:
    from tankmap.commands.verdict import cross_check_text

    cc = {
        "agent": "duct", "games": 200, "balance": 0.98, "balance_ci95": [0.842, 1.0],
        "favoured": "even", "agrees": False,
        "reason": "duct calls it even but search:48 favours South: ...",
    }  # fmt: skip
    assert cross_check_text(cc) == (
        "duct self-play, 200 games, balance 0.980 [0.842, 1.000]: duct calls it even but "
        "search:48 favours South: ..."
    )
    few = {"agent": "duct", "games": 40, "favoured": "undecided", "agrees": None,
           "reason": "undecided: fewer than the 100 games a side needs"}  # fmt: skip
    assert cross_check_text(few) == (
        "duct self-play, 40 games: undecided: fewer than the 100 games a side needs"
    )
    skipped = {"agent": "duct", "favoured": None, "agrees": None,
               "reason": "skipped: not enough time left"}  # fmt: skip
    assert cross_check_text(skipped) == "duct: skipped: not enough time left"
