"""``run_verdict``: climb an agent family's budgets on a board until its balance verdict
stops moving (``rule.judge``), or the time runs out.

Rung 0 plays the family's first budget against itself: a first look (a fifth of ``games``
games, which gives the climb's pace), then the rest only when rung 1 does not beat it, or at
once when rung 1 might not fit in the time left (as judged before every rung, below: a climb
cut short reads its verdict from it). Rung k plays budget
``2^k B`` against rung k−1 with sides swapped on common seeds (up to ``games`` games: the
same ``games / 2`` seeds once with each agent as south), in up to three looks (``LOOKS``: a
fifth of the seeds, half, all): when the seeds played already show that the new budget beats
the old one (the whole 95 % interval of its score above 0.5:
``Step.clearly_beats_previous``), the rest is not played. A rung
that beats the one before plays no self-play (the rule cannot be met there, whatever its
balance); otherwise the rung before plays its self-play if it has none, then the new one,
and ``rule.judge`` decides — when the two self-play verdicts differ only by noise
(``rule.more_self_play``), both go on to two, then four times ``games`` first, time
permitting. So a climb spends its time on the matches that move it upward,
and on the self-play of the two rungs it is judged on. The climb also stops at the family's
largest budget or when the next rung would not finish within ``time_limit`` seconds
(estimated from the last rung's pace: a doubled budget is assumed to cost twice as much;
with kept games, below, such a rung is started anyway), and a rung still running at the
limit is abandoned. A climb that ends without converging
then plays the self-play of its strongest rung, time permitting, so that the verdict is read
from the strongest agent it played (``Verdict.top``: the last rung with a self-play of at
least ``min_games`` games, else the last with one). Before it spends the rest of its time on
a rung the limit may cut (with kept games, a rung that may not fit is started anyway),
and when the top rung's self-play does not fit, a climb whose rungs have no decided
self-play finishes rung 0's first, time permitting: a climb whose rungs all fitted until
then would otherwise end undecided. Every
run's seed is a ``SeedSequence`` child of ``(seed, rung, role)`` and a match's next look
continues the one before (the games a single run would play), so the same seed gives the same
trace, rung for rung, on any number of workers; only the time limit can cut a trace shorter
on a slower machine (or have rung 0 play its whole self-play at once).

With a ``store`` (``played.PlayedGames``), every run takes the games an earlier climb on
the board played (the same agents, seed and game numbers: the same games) and plays only the
others, adding them as it goes; a kept game counts in a rung's time at the pace it was
played, and the estimate of the next rung's time leaves out its kept games. A rung that
may not finish in the time left is then started anyway when a batch of its match fits (its
games are kept, so the next climb, which replays the rungs played in moments, takes it
further; without kept games it would be played again from nothing, so it waits). A climb
cut by the time limit and run again thus goes on where it stopped, with the trace of one
long enough climb; the reason of a climb cut in the middle
of a rung then says how long that rung needs at most (its games not kept, at ``unit``'s pace).

Optionally (``cross_check``), a family of the other kind (heuristic-based vs independent,
``families.cross_check_family``) plays its cross-check agent against itself once, time
permitting, and the verdict says whether the two agree. With kept games it is played
before a rung that may not fit the time left (with the first rung's self-play, if needed):
such a climb may not converge in this run, and the rung goes on in the next, which takes
the cross-check's games.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise
from typing import Any

import numpy as np
import pandas as pd

from tankmap.analysis.estimates import MIN_VERDICT_GAMES, BalanceEstimate
from tankmap.analysis.simulation.executors import Executor
from tankmap.analysis.simulation.families import Family, cross_check_family, family
from tankmap.analysis.simulation.pace import duration_text
from tankmap.analysis.simulation.runner import simulate
from tankmap.analysis.verdict.cross_check import (
    CROSS_CHECK_MIN_SECONDS,
    cross_check_entry,
    play_check,
)
from tankmap.analysis.verdict.pace import Pace, Reach
from tankmap.analysis.verdict.played import PlayedGames
from tankmap.analysis.verdict.result import Verdict
from tankmap.analysis.verdict.rule import (
    Judgement,
    Step,
    judge,
    more_self_play,
    strongest_played,
)
from tankmap.rules.errors import TankmapError
from tankmap.rules.scenario import Scenario
from tankmap.rules.sides import side_names

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: ``stage`` names the run (``"search:6 vs search:3"``)."""


BATCHES = 20
"""A run's games go to the workers in this many batches (at least one game each): a run is
stopped between batches."""


LOOKS = (0.2, 0.5, 1.0)
"""A match's looks, as shares of its common seeds: a rung whose score's whole interval lies
above 0.5 after a look skips the rest (a rung that wins 0.79 of 40 games needs no 200)."""


def _looks(half: int) -> list[tuple[int, int]]:
    """A match's looks over its ``half`` common seeds (each played once each way): ``(first
    seed, seeds)`` per look (``LOOKS``; with few seeds, fewer looks)."""
    ends = sorted({int(half * share) for share in LOOKS} - {0})
    return [(a, b - a) for a, b in pairwise([0, *ends])]


class ClimbCancelled(Exception):
    """The climb's ``cancelled()`` said stop: raised after the run in progress kept the
    games it finished (in the ``store``)."""


class _TimeUp(Exception):
    """The time limit passed during a run; the message says which, and what was kept."""


def run_seed(seed: int, rung: int, role: int) -> int:
    """The seed of one run of a climb: role 0 = self-play, 1 = match, 2 = cross-check."""
    ss = np.random.SeedSequence(seed, spawn_key=(rung, role))
    return int(ss.generate_state(1, dtype=np.uint32)[0])


def _points(df: Any, side: str) -> float:
    return float((df["winner"] == side).sum() + 0.5 * (df["winner"] == "draw").sum())


def run_verdict(
    scenario: Scenario,
    family_name: str | None = None,
    *,
    seed: int = 0,
    games: int = 200,
    time_limit: float = 180.0,
    workers: int = 1,
    scheduler: str | None = None,
    cross_check: bool = True,
    progress: Progress | None = None,
    clock: Callable[[], float] = time.monotonic,
    fam: Family | None = None,
    store: PlayedGames | None = None,
    cancelled: Callable[[], bool] | None = None,
    started: float | None = None,
    finish: float = 0.0,
    executor: Executor | None = None,
) -> Verdict:
    """Climb ``family_name`` (default: the game's first family; or the ``fam`` given) on
    ``scenario`` — see the module docstring. ``games`` = games per self-play run and per
    match (at least 2; even, for the match's common seeds). With ``store``, the games it
    keeps are taken instead of played again, and every game played is added to it
    (``played.PlayedGames``: a climb goes on where an earlier one on the board stopped;
    ``Verdict.reused_games`` counts them). ``cancelled()``, asked after every batch of
    games (and with two or more workers about every quarter second while games run),
    stops the climb: the run in progress keeps the games it finished (those in progress
    are left unfinished), then ``ClimbCancelled`` is raised. ``time_limit`` counts from
    ``started`` (a ``clock()`` reading; default: now), less ``finish`` seconds that the
    caller needs after the climb: the command line passes its own start and the time its
    exit takes, so that the whole command keeps the limit. ``executor`` (its ``workers``
    then count, not ``workers``): every run's games are played on it, instead of on an
    executor made for each run (the editor passes one of spawned processes: a process
    with a Qt window must not fork). Raises ``TankmapError`` for a
    bad ``games``/``time_limit`` and ``PolicyError`` for an unknown family."""
    if games < 2:
        raise TankmapError(f"a verdict needs at least 2 games per run, not {games}")
    if not time_limit > 0:
        raise TankmapError(f"--time-limit takes a positive number of seconds, not {time_limit}")
    fam = fam if fam is not None else family(scenario.ruleset, family_name)
    if executor is not None:
        workers = executor.workers
    start = clock() if started is None else min(started, clock())
    deadline = start + time_limit - min(max(finish, 0.0), time_limit / 2)

    reused = [0]  # games taken from ``store`` instead of played again
    # the games this climb played itself, per run (taken again later, they are not reused)
    mine: dict[tuple[tuple[str, str], int], set[int]] = {}

    def play(
        stage: str,
        pols: tuple[str, str],
        n: int,
        run: int,
        first: int = 0,
        keep: bool = False,
        need: int = 0,
    ) -> tuple[Any, float]:
        """One run and the seconds its games took: games ``first`` … ``first + n - 1``,
        those kept in ``store`` first (their seconds as they were played), the others
        played now (and kept). At the deadline it raises ``_TimeUp``, or with ``keep``
        returns the games up to the first one it did not finish (``df.attrs["stopped"]``
        then true; ``simulate``'s rule). Either happens as soon as the next batch of games
        would end past the deadline (judged from the time between the last two batches):
        batches are small (a twentieth of the run) so that the limit is kept to within
        seconds; and at the deadline itself (or a cancel) the games in progress are left
        unfinished (``simulate``'s ``abort``). With ``need`` (and ``keep``) the run also
        stops as soon as its pace shows that it cannot reach ``need`` games before the
        deadline (``pace.Reach``)."""
        have = store.kept(pols, run, first, n) if store is not None else []
        took = store.seconds_per_game(pols, run) * len(have) if have and store else 0.0
        own = mine.get((pols, run), set())
        reused[0] += sum(1 for g in range(first, first + len(have)) if g not in own)
        stopped = False
        winners = list(have)
        if len(have) < n:
            pace = Pace(clock, workers)
            reach = Reach(clock, need - len(have))

            def tick(done: int, total: int) -> None:
                reach.seen(done)
                if progress is not None:
                    progress(stage, len(have) + done, n)

            def short() -> bool:
                return need > len(have) and reach.short(deadline)

            t0 = clock()

            def keep_finished(table: pd.DataFrame) -> None:
                # Ctrl-C, SIGTERM or a failure in the middle of the run: keep its games
                # finished so far, so that the next climb takes them too
                if store is not None:
                    new = [str(w) for w in table["winner"]]
                    store.add(pols, run, first + len(have), new, clock() - t0)

            df = simulate(
                scenario,
                n - len(have),
                pols,
                seed=run,
                workers=workers,
                scheduler=scheduler,
                executor=executor,
                progress=tick,
                first_game=first + len(have),
                # between batches: the next one would end past the deadline, or the run
                # cannot reach ``need``; at the deadline itself or a cancel, at once (a game
                # can outlast the time left: a 300-ply Tank Chess draw at 51,200 positions
                # took 132 s)
                stop=lambda: pace.late(deadline) or short(),
                abort=lambda: (cancelled is not None and cancelled()) or clock() >= deadline,
                batch_size=max(1, n // BATCHES),
                interrupted=keep_finished,
            )
            spent = clock() - t0
            new = [str(w) for w in df["winner"]]
            if store is not None:
                store.add(pols, run, first + len(have), new, spent)
            mine.setdefault((pols, run), set()).update(
                range(first + len(have), first + len(have) + len(new))
            )
            winners += new
            took += spent
            stopped = bool(df.attrs.get("stopped"))
        if cancelled is not None and cancelled():
            raise ClimbCancelled
        table = pd.DataFrame({"winner": winners})
        table.attrs.update(seed=run, stopped=stopped)
        if stopped and not keep:
            raise _TimeUp(f"time limit reached during {stage}")
        return table, took

    def fits(units: float) -> bool:
        """Whether a batch of a run of ``units`` self-play games' time fits the time left
        (``unit`` is the time of a game with all workers playing; one plays a batch)."""
        return clock() + unit * units / BATCHES * max(1, workers) <= deadline

    def stored(pols: tuple[str, str], run: int, first: int, n: int) -> int:
        """How many of the run's games ``first`` … ``first + n - 1`` are kept."""
        return len(store.kept(pols, run, first, n)) if store is not None else 0

    names = {side.value: name for side, name in side_names(scenario.ruleset).items()}
    steps: list[Step] = []
    half = games // 2
    unit = 0.0  # seconds per self-play game of the newest rung (estimated from its runs)
    # what the climb is playing: rung i's match, or the self-plays that judge rung i
    phase: tuple[str, int] | None = None

    tables: dict[int, pd.DataFrame] = {}  # each rung's self-play games so far

    def self_played(i: int) -> int:
        """How many of rung ``i``'s self-play games are played (or kept)."""
        return len(tables[i]) if i in tables else 0

    def self_play(i: int, upto: int = games) -> None:
        """Play rung ``i``'s self-play up to its game ``upto`` into ``steps[i]`` (going on
        from the games it has); at the deadline it keeps the games finished so far and
        raises ``_TimeUp``."""
        nonlocal unit, phase
        step = steps[i]
        have = self_played(i)
        if have >= upto:
            return
        run = run_seed(seed, i, 0)
        phase = ("self-play", len(steps) - 1)
        pols = (step.agent, step.agent)
        df, spent = play(f"{step.agent} self-play", pols, upto - have, run, have, keep=True)
        if i == len(steps) - 1 and len(df):
            unit = spent / len(df)
        if i in tables:
            df = pd.concat([tables[i], df], ignore_index=True)
        tables[i] = df
        est = BalanceEstimate.of_table(df, step.agent) if len(df) else None
        steps[i] = replace(step, self_play=est, seconds=step.seconds + spent)
        if len(df) < upto:
            if not len(df):
                raise _TimeUp(
                    f"the time limit came before {step.agent}'s self-play finished a game"
                )
            raise _TimeUp(
                f"the time limit cut {step.agent}'s self-play at {len(df)} of {upto} games"
            )

    notes: list[str] = []  # why the climb stopped where it did, after the rule's reason
    timed_out = False

    def self_play_left(i: int, upto: int) -> int:
        """Rung ``i``'s self-play games up to ``upto`` neither played nor kept."""
        kept = stored((steps[i].agent,) * 2, run_seed(seed, i, 0), 0, upto)
        return max(upto - max(kept, self_played(i)), 0)

    def games_left(i: int) -> tuple[int, int, int]:
        """Rung ``i``'s games not kept yet: its match's, its self-play's, and the rung
        before's self-play's when that one was skipped or cut."""
        last = steps[i - 1]
        agent = fam.agent(last.budget * 2)
        match_seed = run_seed(seed, i, 1)
        match_left = games
        for pols in ((agent, last.agent), (last.agent, agent)):
            match_left -= stored(pols, match_seed, 0, half)
        own_left = games - stored((agent, agent), run_seed(seed, i, 0), 0, games)
        return match_left, own_left, self_play_left(i - 1, games)

    def decided() -> bool:
        """Whether some rung has a self-play the verdict can be read from (at least
        ``MIN_VERDICT_GAMES`` games)."""
        return any(
            s.self_play is not None and s.self_play.games >= MIN_VERDICT_GAMES for s in steps
        )

    def secure_a_verdict() -> None:
        """Before the climb spends the rest of its time on a rung the limit will cut (or
        stops without the top rung's self-play): when no rung has a decided self-play, the
        verdict would be undecided, so rung 0's self-play is finished first if it fits the
        time left at its own pace (its first look's). Its games are the cheapest of the
        climb's, and they are its own: the trace stays the one of a longer climb."""
        have = self_played(0)
        if decided() or not steps or have == 0 or have >= games:
            return
        if clock() + steps[0].seconds / have * self_play_left(0, games) <= deadline:
            self_play(0)

    other = cross_check_family(fam) if cross_check else None
    check_run = run_seed(seed, 0, 2)

    def check_kept() -> int:
        """How many of the cross-check's games are kept."""
        if other is None:
            return 0
        return stored((other.check_agent(),) * 2, check_run, 0, games)

    def secure_a_cross_check() -> None:
        """Before the climb spends the rest of its time on a rung the limit will cut: the
        cross-check's self-play first, as it is played after the climb (``cross_check_entry``),
        its games kept. A climb that cannot converge in this run still says whether the
        family of the other kind agrees with it; the next run takes those games and gives
        the rung the time."""
        if other is None or deadline - clock() < CROSS_CHECK_MIN_SECONDS:
            return
        if check_kept() < games:
            play_check(other, play, check_run, games)

    def more_needs(upto: int) -> float:
        """The seconds the last two rungs' self-plays need to reach ``upto`` games each, at
        the pace ``unit`` (the last rung's; the rung before's at half of it)."""
        i = len(steps) - 1
        return unit * (self_play_left(i, upto) + self_play_left(i - 1, upto) / 2)

    extending: int | None = None  # the size the last two self-plays are going on to

    def go_ahead(needed: float, units: float) -> bool:
        """Whether work of ``needed`` seconds (a rung, or more self-play games) starts now:
        when it fits the time left; or, with kept games (the next climb replays what is
        played in moments and takes it further), when a batch of ``units`` self-play games
        fits — the verdict and its cross-check first, since the limit may cut it. Without
        kept games such work would be played again from nothing, so it waits."""
        if clock() + needed <= deadline:
            return True
        if store is None or not fits(units):
            return False
        secure_a_verdict()
        secure_a_cross_check()
        return fits(units)  # (what is left after them)

    def settle() -> None:
        """While the last two rungs' self-play verdicts disagree only by noise
        (``rule.more_self_play``), play both on to the size it names (``go_ahead``: before
        any stronger rung); otherwise say what more games would tell."""
        nonlocal extending
        while (upto := more_self_play(steps, MIN_VERDICT_GAMES, games)) is not None:
            need = more_needs(upto)
            if not go_ahead(need, self_play_left(len(steps) - 1, upto)):
                notes.append(
                    f"{upto} self-play games of both would tell whether they disagree beyond "
                    f"noise (about {duration_text(need)} more)"
                )
                return
            extending = upto
            self_play(len(steps) - 2, upto)
            self_play(len(steps) - 1, upto)
            extending = None

    def rung_needs(i: int) -> float:
        """Rung ``i``'s worst case in seconds at the pace ``unit`` (a self-play game of rung
        ``i - 1``): its match (1.5 units a game: the last budget and the doubled one), its
        own self-play (2 units) and the rest of the last rung's (less the games kept)."""
        match_left, own_left, last_left = games_left(i)
        return unit * (1.5 * match_left + 2 * own_left + last_left)

    try:
        for rung, budget in enumerate(fam.budgets()):
            agent = fam.agent(budget)
            if not steps:
                # a first look at the self-play (as a match's first look) gives the pace; the
                # rest waits while the next rung fits the time left even if it needs it (a
                # rung that beats this one does not), else it is played now: the verdict of
                # a climb cut short then comes from it. A run's first batch cannot be
                # stopped: with not even one batch of the rest in time, the climb ends here
                steps.append(Step(agent, budget, None))
                self_play(0, max(1, int(games * LOOKS[0])))
                # (the check that starts the next rung below, as it will be made)
                if fam.limit >= 2 * budget and clock() + rung_needs(1) <= deadline:
                    continue
                if not fits(games - self_played(0)):
                    break  # (the end of the climb says there was no time left for the rest)
                self_play(0)
                continue
            last = steps[-1]
            match_seed = run_seed(seed, rung, 1)
            match_left = games_left(rung)[0]
            needed = rung_needs(rung)
            if not go_ahead(needed, 1.5 * match_left):
                timed_out = True
                notes.append(
                    f"time limit: the next rung ({agent}) would take about {needed:.0f} s more"
                )
                break
            spent = 0.0
            points, played = 0.0, 0
            stage = f"{agent} vs {last.agent}"
            phase = ("match", rung)
            # the common seeds in up to three looks (LOOKS): after each, a rung whose
            # score's interval already lies above 0.5 skips the rest
            for first, n in _looks(half):
                a_south, took_south = play(stage, (agent, last.agent), n, match_seed, first)
                a_north, took_north = play(stage, (last.agent, agent), n, match_seed, first)
                spent += took_south + took_north
                points += _points(a_south, "south") + _points(a_north, "north")
                played += len(a_south) + len(a_north)
                if Step(agent, budget, None, points, played).clearly_beats_previous():
                    break
            unit = spent / max(played, 1) * 4 / 3  # self-play of the doubled budget: 2 of 1.5
            steps.append(Step(agent, budget, None, points, played, spent))
            if not steps[-1].beats_previous():
                self_play(len(steps) - 2)  # (its rest, when it had only a first look or none)
                self_play(len(steps) - 1)
                settle()
                if judge(steps, MIN_VERDICT_GAMES).converged:
                    break
        else:
            notes.append(f"the family's largest budget ({fam.limit}) reached")
        # the verdict is read from the strongest rung: give it a whole self-play when it has
        # none (or only its first look)
        if steps and self_played(len(steps) - 1) < games:
            i = len(steps) - 1
            half_of_it = max(self_play_left(i, games) - games * 0.5, 0.0)
            if clock() + unit * half_of_it <= deadline or (store is not None and fits(games)):
                self_play(i)
            else:
                timed_out = True
                notes.append(f"no time left for {steps[-1].agent}'s self-play")
                secure_a_verdict()
    except _TimeUp as cut:
        timed_out = True
        notes.append(str(cut))
        if store is not None and phase is not None and phase[1] > 0:
            # how long the rung cut needs at most, at the pace ``unit`` gives: a self-play
            # game of the rung before while its match is played, of its own after that
            kind, i = phase
            match_left, own_left, last_left = games_left(i)
            if extending is not None:  # (cut in the more games of a disagreement in noise)
                left = more_needs(extending)
                notes.append(
                    f"{extending} self-play games of both need up to about "
                    f"{duration_text(left)} more"
                )
            else:
                if kind == "match":
                    left = rung_needs(i)
                else:  # its match is over: the rung before's self-play only if it is needed
                    last_left = 0 if steps[i].beats_previous() else last_left
                    left = unit / 2 * (2 * own_left + last_left)
                agent = fam.agent(steps[i - 1].budget * 2)
                notes.append(f"{agent}'s rung needs up to about {duration_text(left)} more")
    if timed_out and store is not None:
        notes.append("judge the board again to go on from here (the games played are kept)")
    # (more self-play games cut by the limit are judged at the size planned: ``judge``)
    judgement = judge(steps, MIN_VERDICT_GAMES, names, settling=extending)
    if not judgement.converged and notes:
        judgement = Judgement(False, "; ".join([judgement.reason, *notes]))
    check = None
    top = strongest_played(steps, MIN_VERDICT_GAMES)
    if other is not None and top is not None:
        time_left = deadline - clock()
        check = cross_check_entry(
            other, top, play, check_run, games, time_left, names, check_kept()
        )
    return Verdict(
        fam,
        steps,
        judgement,
        seed,
        games,
        time_limit,
        clock() - start,
        cross_check=check,
        reused_games=reused[0],
    )
