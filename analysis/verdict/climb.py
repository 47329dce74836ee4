"""``run_verdict``: climb an agent family's budgets on a board until its balance verdict
stops moving (``rule.judge``), or the time runs out.

Rung 0 plays the family's first budget against itself (``games`` games). Rung k plays budget
``2^k B`` against rung k−1 with sides swapped on common seeds (``games`` games: the same
``games / 2`` seeds once with each agent as south) and then against itself. After each rung
from the second on, ``rule.judge`` decides; the climb also stops at the family's largest
budget or when the next rung would not finish within ``time_limit`` seconds (estimated from
the last rung's pace: a doubled budget is assumed to cost twice as much), and a rung still
running at the limit is abandoned. Every run's seed is a ``SeedSequence`` child of
``(seed, rung, role)``, so the same seed gives the same trace, rung for rung, on any number
of workers; only the time limit can cut a trace shorter on a slower machine.

Optionally (``cross_check``), a family of the other kind (heuristic-based vs independent,
``families.cross_check_family``) plays its default agent against itself once, time
permitting, and the verdict says whether the two agree.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tankmap.analysis.estimates import MIN_VERDICT_GAMES, BalanceEstimate
from tankmap.analysis.simulation.families import Family, cross_check_family, family
from tankmap.analysis.simulation.runner import simulate
from tankmap.analysis.verdict.rule import WORD, Judgement, Step, judge
from tankmap.rules.errors import TankmapError
from tankmap.rules.scenario import Scenario
from tankmap.rules.sides import side_names

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: ``stage`` names the run (``"search:6 vs search:3"``)."""

PACE_GROWTH = 3.5
"""The next rung costs about this many times the last rung's self-play per game: its match
mixes the last budget and the doubled one (1.5×), its self-play the doubled one (2×)."""


class _TimeUp(Exception):
    """Raised from a progress callback when the time limit passes during a run."""


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
        """The rung the verdict is read from: the last one played."""
        return self.steps[-1] if self.steps else None

    @property
    def converged(self) -> bool:
        return self.judgement.converged

    def favoured(self) -> str:
        """The top rung's favoured side (``"undecided"`` when nothing was played)."""
        top = self.top
        return "undecided" if top is None else top.self_play.favoured(self.min_games)

    def to_json(self) -> dict[str, Any]:
        top = self.top
        est = top.self_play if top is not None else BalanceEstimate(0, 0, 0, "")
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

    def play(stage: str, pols: tuple[str, str], n: int, run: int) -> Any:
        def tick(done: int, total: int) -> None:
            if progress is not None:
                progress(stage, done, total)
            if clock() > deadline:
                raise _TimeUp

        return simulate(
            scenario, n, pols, seed=run, workers=workers, scheduler=scheduler, progress=tick
        )

    names = {side.value: name for side, name in side_names(scenario.ruleset).items()}
    steps: list[Step] = []
    judgement = Judgement(False, "no rung played")
    half = games // 2
    for rung, budget in enumerate(fam.budgets()):
        agent = fam.agent(budget)
        if steps:
            last = steps[-1]
            pace = last.seconds / max(last.self_play.games + last.match_games, 1)
            needed = PACE_GROWTH * pace * (2 * half + games)
            if clock() + needed > deadline:
                judgement = Judgement(
                    False,
                    f"{judgement.reason}; time limit: the next rung ({agent}) would take about "
                    f"{needed:.0f} s more",
                )
                break
        t0 = clock()
        try:
            points, played = 0.0, 0
            if steps:
                prev = steps[-1].agent
                match_seed = run_seed(seed, rung, 1)
                stage = f"{agent} vs {prev}"
                a_south = play(stage, (agent, prev), half, match_seed)
                a_north = play(stage, (prev, agent), half, match_seed)
                points = _points(a_south, "south") + _points(a_north, "north")
                played = len(a_south) + len(a_north)
            df = play(f"{agent} self-play", (agent, agent), games, run_seed(seed, rung, 0))
        except _TimeUp:
            judgement = Judgement(
                False, f"{judgement.reason}; time limit reached while {agent} was playing"
            )
            break
        est = BalanceEstimate.of_table(df, agent)
        steps.append(Step(agent, budget, est, points, played, clock() - t0))
        judgement = judge(steps, MIN_VERDICT_GAMES, names)
        if judgement.converged:
            break
    else:
        if not judgement.converged:
            judgement = Judgement(
                False, f"{judgement.reason}; the family's largest budget ({fam.limit}) reached"
            )
    check = None
    other = cross_check_family(fam) if cross_check else None
    if other is not None and steps:
        check = _cross_check(other, steps, play, seed, games, clock, deadline, names)
    return Verdict(
        fam, steps, judgement, seed, games, time_limit, clock() - start, cross_check=check
    )


def _cross_check(
    other: Family,
    steps: list[Step],
    play: Callable[[str, tuple[str, str], int, int], Any],
    seed: int,
    games: int,
    clock: Callable[[], float],
    deadline: float,
    names: dict[str, str],
) -> dict[str, Any]:
    """The other family's default agent against itself, and whether it agrees (the reason
    names the sides as ``names`` says: ``{"south": "White", "north": "Black"}``)."""
    agent = other.default_agent()
    top = steps[-1]
    entry: dict[str, Any] = {"agent": agent, "independent": other.independent}
    if clock() + top.seconds > deadline:
        entry.update(favoured=None, agrees=None, reason="skipped: not enough time left")
        return entry
    try:
        df = play(f"{agent} self-play (cross-check)", (agent, agent), games, run_seed(seed, 0, 2))
    except _TimeUp:
        entry.update(favoured=None, agrees=None, reason="time limit reached while it played")
        return entry
    est = BalanceEstimate.of_table(df, agent)
    mine, theirs = top.self_play.favoured(), est.favoured()
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
