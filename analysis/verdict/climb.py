"""``run_verdict``: climb an agent family's budgets on a board until its balance verdict
stops moving (``rule.judge``), or the time runs out.

Rung 0 plays the family's first budget against itself (``games`` games). Rung k plays budget
``2^k B`` against rung k−1 with sides swapped on common seeds (up to ``games`` games: the
same ``games / 2`` seeds once with each agent as south), in two looks: when the first half
of the seeds already shows that the new budget beats the old one (the whole 95 % interval of
its score above 0.5: ``Step.clearly_beats_previous``), the second half is not played. A rung
that beats the one before plays no self-play (the rule cannot be met there, whatever its
balance); otherwise the rung before plays its self-play if it has none, then the new one,
and ``rule.judge`` decides. So a climb spends its time on the matches that move it upward,
and on the self-play of the two rungs it is judged on. The climb also stops at the family's
largest budget or when the next rung would not finish within ``time_limit`` seconds
(estimated from the last rung's pace: a doubled budget is assumed to cost twice as much),
and a rung still running at the limit is abandoned. A climb that ends without converging
then plays the self-play of its strongest rung, time permitting, so that the verdict is read
from the strongest agent it played (``Verdict.top``: the last rung with a self-play). Every
run's seed is a ``SeedSequence`` child of ``(seed, rung, role)`` and a match's second look
continues its first (the games a single run would play), so the same seed gives the same
trace, rung for rung, on any number of workers; only the time limit can cut a trace shorter
on a slower machine.

Optionally (``cross_check``), a family of the other kind (heuristic-based vs independent,
``families.cross_check_family``) plays its cross-check agent against itself once, time
permitting, and the verdict says whether the two agree.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from tankmap.analysis.estimates import MIN_VERDICT_GAMES, BalanceEstimate
from tankmap.analysis.simulation.families import Family, cross_check_family, family
from tankmap.analysis.simulation.runner import simulate
from tankmap.analysis.verdict.rule import WORD, Judgement, Step, judge, strongest_played
from tankmap.rules.errors import TankmapError
from tankmap.rules.scenario import Scenario
from tankmap.rules.sides import side_names

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: ``stage`` names the run (``"search:6 vs search:3"``)."""


CROSS_CHECK_MIN_SECONDS = 10.0
"""The cross-check starts only with this much of the time limit left (it then plays until
the limit, keeping the games it finished)."""


BATCHES = 20
"""A run's games go to the workers in this many batches (at least one game each): a run is
stopped between batches."""


class _Pace:
    """When a run's batches finish: ``late(deadline)`` — asked as each one does — says
    whether the next would finish past ``deadline`` (as long after this one as this one
    after the one before, or after the run's start)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.last = clock()

    def late(self, deadline: float) -> bool:
        now = self.clock()
        gap, self.last = now - self.last, now
        return now + gap > deadline


class _TimeUp(Exception):
    """The time limit passed during a run; the message says which, and what was kept."""


@dataclass
class Verdict:
    """What a climb found; ``to_json`` is the ``tankmap verdict --json`` document."""

    family: Family
    steps: list[Step]
    judgement: Judgement
    seed: int
    games: int
    time_limit: float
    seconds: float
    min_games: int = MIN_VERDICT_GAMES
    cross_check: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def top(self) -> Step | None:
        """The rung the verdict is read from: the last one with a self-play."""
        return strongest_played(self.steps)

    @property
    def converged(self) -> bool:
        return self.judgement.converged

    def favoured(self) -> str:
        """The top rung's favoured side (``"undecided"`` when nothing was played)."""
        top = self.top
        return "undecided" if top is None else top.favoured(self.min_games)

    def to_json(self) -> dict[str, Any]:
        top = self.top
        est = top.self_play if top is not None and top.self_play else BalanceEstimate(0, 0, 0, "")
        n = max(est.games, 1)
        doc: dict[str, Any] = {
            "agent": top.agent if top is not None else None,
            "family": self.family.name,
            "independent": self.family.independent,
            "favoured": self.favoured(),
            "win_rate": {
                "south": round(est.wins_south / n, 6),
                "north": round(est.wins_north / n, 6),
            },
            "win_rate_ci95": {
                side: [round(v, 6) for v in est.win_rate(side)[1]] for side in ("south", "north")
            },
            "draws": round(est.draws / n, 6),
            "balance": round(est.balance, 6),
            "balance_ci95": [round(v, 6) for v in est.balance_ci95()],
            "difference_ci95": [round(v, 6) for v in est.difference_ci95()],
            "games": est.games,
            "converged": self.converged,
            "reason": self.judgement.reason,
            "trace": [s.to_json(self.min_games) for s in self.steps],
            "cross_check": self.cross_check,
            "seed": self.seed,
            "games_per_run": self.games,
            "min_games": self.min_games,
            "time_limit": self.time_limit,
            "seconds": round(self.seconds, 2),
        }
        doc.update(self.extra)
        return doc


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
) -> Verdict:
    """Climb ``family_name`` (default: the game's first family; or the ``fam`` given) on
    ``scenario`` — see the module docstring. ``games`` = games per self-play run and per
    match (at least 2; even, for the match's common seeds). Raises ``TankmapError`` for a
    bad ``games``/``time_limit`` and ``PolicyError`` for an unknown family."""
    if games < 2:
        raise TankmapError(f"a verdict needs at least 2 games per run, not {games}")
    if not time_limit > 0:
        raise TankmapError(f"--time-limit takes a positive number of seconds, not {time_limit}")
    fam = fam if fam is not None else family(scenario.ruleset, family_name)
    start = clock()
    deadline = start + time_limit

    def play(
        stage: str, pols: tuple[str, str], n: int, run: int, first: int = 0, keep: bool = False
    ) -> Any:
        """One run; at the deadline it raises ``_TimeUp``, or with ``keep`` returns the games
        ``first``, ``first + 1``, … up to the first one it did not finish
        (``df.attrs["stopped"]`` then true; ``simulate``'s rule). Either
        happens as soon as the next batch of games would end past the deadline (judged from
        the time between the last two batches): batches are small (a twentieth of the run)
        so that the limit is kept to within seconds."""
        pace = _Pace(clock)

        def tick(done: int, total: int) -> None:
            if progress is not None:
                progress(stage, done, total)
            if not keep and pace.late(deadline):
                raise _TimeUp(f"time limit reached during {stage}")

        return simulate(
            scenario,
            n,
            pols,
            seed=run,
            workers=workers,
            scheduler=scheduler,
            progress=tick,
            first_game=first,
            stop=(lambda: pace.late(deadline)) if keep else None,
            batch_size=max(1, n // BATCHES),
        )

    names = {side.value: name for side, name in side_names(scenario.ruleset).items()}
    steps: list[Step] = []
    half = games // 2
    unit = 0.0  # seconds per self-play game of the newest rung (estimated from its runs)

    def self_play(i: int) -> None:
        """Play rung ``i``'s self-play into ``steps[i]``; at the deadline it keeps the games
        finished so far and raises ``_TimeUp``."""
        nonlocal unit
        step = steps[i]
        t0 = clock()
        run = run_seed(seed, i, 0)
        df = play(f"{step.agent} self-play", (step.agent, step.agent), games, run, keep=True)
        spent = clock() - t0
        if i == len(steps) - 1 and len(df):
            unit = spent / len(df)
        est = BalanceEstimate.of_table(df, step.agent) if len(df) else None
        steps[i] = replace(step, self_play=est, seconds=step.seconds + spent)
        if df.attrs.get("stopped"):
            raise _TimeUp(
                f"the time limit cut {step.agent}'s self-play at {len(df)} of {games} games"
            )

    notes: list[str] = []  # why the climb stopped where it did, after the rule's reason
    try:
        for rung, budget in enumerate(fam.budgets()):
            agent = fam.agent(budget)
            if not steps:
                steps.append(Step(agent, budget, None))
                self_play(0)
                continue
            last = steps[-1]
            # the worst case of this rung: its match (1.5 units a game: the last budget and
            # the doubled one), the last rung's self-play if it was skipped, its own (2 units)
            needed = unit * games * (1.5 + 2 + (last.self_play is None))
            if clock() + needed > deadline:
                notes.append(
                    f"time limit: the next rung ({agent}) would take about {needed:.0f} s more"
                )
                break
            t0 = clock()
            points, played = 0.0, 0
            match_seed = run_seed(seed, rung, 1)
            stage = f"{agent} vs {last.agent}"
            # the common seeds in two looks: after the first half of them, a rung whose
            # score's interval already lies above 0.5 skips the second half
            for first, n in ((0, half // 2), (half // 2, half - half // 2)):
                if n == 0:
                    continue
                a_south = play(stage, (agent, last.agent), n, match_seed, first)
                a_north = play(stage, (last.agent, agent), n, match_seed, first)
                points += _points(a_south, "south") + _points(a_north, "north")
                played += len(a_south) + len(a_north)
                if Step(agent, budget, None, points, played).clearly_beats_previous():
                    break
            spent = clock() - t0
            unit = spent / max(played, 1) * 4 / 3  # self-play of the doubled budget: 2 of 1.5
            steps.append(Step(agent, budget, None, points, played, spent))
            if not steps[-1].beats_previous():
                if last.self_play is None:
                    self_play(len(steps) - 2)
                self_play(len(steps) - 1)
                if judge(steps, MIN_VERDICT_GAMES).converged:
                    break
        else:
            notes.append(f"the family's largest budget ({fam.limit}) reached")
        # the verdict is read from the strongest rung: give it a self-play when it has none
        if steps and steps[-1].self_play is None:
            if clock() + unit * games * 0.5 <= deadline:  # at least about half of its games
                self_play(len(steps) - 1)
            else:
                notes.append(f"no time left for {steps[-1].agent}'s self-play")
    except _TimeUp as cut:
        notes.append(str(cut))
    judgement = judge(steps, MIN_VERDICT_GAMES, names)
    if not judgement.converged and notes:
        judgement = Judgement(False, "; ".join([judgement.reason, *notes]))
    check = None
    other = cross_check_family(fam) if cross_check else None
    top = strongest_played(steps)
    if other is not None and top is not None:
        check = _cross_check(other, top, play, seed, games, clock, deadline, names)
    return Verdict(
        fam, steps, judgement, seed, games, time_limit, clock() - start, cross_check=check
    )


def _cross_check(
    other: Family,
    top: Step,
    play: Callable[..., Any],
    seed: int,
    games: int,
    clock: Callable[[], float],
    deadline: float,
    names: dict[str, str],
) -> dict[str, Any]:
    """The other family's cross-check agent (``Family.check_agent``) against itself, and
    whether it agrees with ``top``
    (the rung the verdict is read from; the reason
    names the sides as ``names`` says: ``{"south": "White", "north": "Black"}``)."""
    agent = other.check_agent()
    entry: dict[str, Any] = {"agent": agent, "independent": other.independent}
    if deadline - clock() < CROSS_CHECK_MIN_SECONDS:
        entry.update(favoured=None, agrees=None, reason="skipped: not enough time left")
        return entry
    # as long as the time limit allows: a cut run keeps the games it finished
    run = run_seed(seed, 0, 2)
    df = play(f"{agent} self-play (cross-check)", (agent, agent), games, run, keep=True)
    if len(df) < MIN_VERDICT_GAMES:
        entry.update(
            favoured="undecided",
            games=len(df),
            agrees=None,
            reason=f"the time limit cut it at {len(df)} of {games} games: undecided",
        )
        return entry
    est = BalanceEstimate.of_table(df, agent)
    mine, theirs = top.favoured(MIN_VERDICT_GAMES), est.favoured()
    if mine == "undecided":
        entry.update(
            favoured=theirs,
            games=est.games,
            agrees=None,
            reason=f"{agent} {_word(theirs, names)}; {top.agent} is undecided",
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
            else f"{agent} {_word(theirs, names)} but {top.agent} {_word(mine, names)}: the "
            "heuristic-based and independent agents see this board differently"
        ),
    )
    return entry


def _word(favoured: str, names: dict[str, str]) -> str:
    """``"favours White"``, ``"calls it even"``, … (``rule.WORD`` with the game's side names)."""
    return f"favours {names[favoured]}" if favoured in names else WORD[favoured]
