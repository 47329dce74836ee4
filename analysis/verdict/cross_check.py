"""A verdict's cross-check: the family of the other kind (heuristic-based vs independent,
``families.cross_check_family``) plays its cross-check agent (``Family.check_agent``)
against itself, and the verdict says whether the two kinds agree.

``play_check`` plays (or takes from the kept games) its self-play through the climb's
``play``; ``cross_check_entry`` judges it against the rung the verdict is read from. The climb
plays it after the climb, time permitting, and — with kept games — before a rung that may
not fit the time left (``climb.run_verdict``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tankmap.analysis.estimates import MIN_VERDICT_GAMES, BalanceEstimate
from tankmap.analysis.simulation.families import Family
from tankmap.analysis.verdict.rule import Step, side_word

CROSS_CHECK_MIN_SECONDS = 10.0
"""The cross-check starts only with this much of the time limit left (it then plays until
the limit, keeping the games it finished)."""

Play = Callable[..., tuple[Any, float]]
"""The climb's ``play(stage, pols, n, run, first=0, keep=False, need=0)``."""


def play_check(other: Family, play: Play, run: int, games: int, n: int | None = None) -> Any:
    """The cross-check's self-play (run seed ``run``): its first ``n`` (default ``games``)
    games, those kept taken first, the rest played as long as the time limit allows and no
    longer than its pace shows it can reach the games a side needs."""
    agent = other.check_agent()
    stage = f"{agent} self-play (cross-check)"
    need = min(MIN_VERDICT_GAMES, games)
    df, _ = play(stage, (agent, agent), games if n is None else n, run, keep=True, need=need)
    return df


def cross_check_entry(
    other: Family,
    top: Step,
    play: Play,
    run: int,
    games: int,
    time_left: float,
    names: dict[str, str],
    kept: int = 0,
) -> dict[str, Any]:
    """``other``'s cross-check (``play_check``) and whether it agrees with ``top`` (the
    rung the verdict is read from; the reason names the sides as ``names`` says:
    ``{"south": "White", "north": "Black"}``). ``kept`` of its games are kept (played
    before a rung the limit cut, or by an earlier climb): with under
    ``CROSS_CHECK_MIN_SECONDS`` of ``time_left``, those alone are judged when they are
    enough, else it is skipped."""
    agent = other.check_agent()
    entry: dict[str, Any] = {"agent": agent, "independent": other.independent}
    n = games
    if time_left < CROSS_CHECK_MIN_SECONDS:
        if kept < min(MIN_VERDICT_GAMES, games):
            entry.update(favoured=None, agrees=None, reason="skipped: not enough time left")
            return entry
        n = kept
    df = play_check(other, play, run, games, n)
    if len(df) < MIN_VERDICT_GAMES:
        entry.update(
            favoured="undecided",
            games=len(df),
            agrees=None,
            reason=(
                f"the time limit cut it at {len(df)} of {games} games (at its pace it "
                f"could not reach {MIN_VERDICT_GAMES}): undecided"
                if len(df) < games
                else f"undecided: fewer than the {MIN_VERDICT_GAMES} games a side needs"
            ),
        )
        return entry
    est = BalanceEstimate.of_table(df, agent)
    mine, theirs = top.favoured(MIN_VERDICT_GAMES), est.favoured()
    if mine == "undecided":
        entry.update(
            favoured=theirs,
            balance=round(est.balance, 6),
            balance_ci95=[round(v, 6) for v in est.balance_ci95()],
            games=est.games,
            agrees=None,
            reason=f"{agent} {side_word(theirs, names)}; {top.agent} is undecided",
        )
        return entry
    agrees = mine == theirs
    entry.update(
        favoured=theirs,
        balance=round(est.balance, 6),
        balance_ci95=[round(v, 6) for v in est.balance_ci95()],
        games=est.games,
        agrees=agrees,
        reason=(
            f"{agent} agrees"
            if agrees
            else f"{agent} {side_word(theirs, names)} but {top.agent} "
            f"{side_word(mine, names)}: the heuristic-based and independent agents see this "
            "board differently"
        ),
    )
    return entry
