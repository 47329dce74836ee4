"""The design assistant: legal edits that make a board more even **beyond noise**.

``suggest`` works in stages, each cheaper than the next is expensive:

1. **Generate** candidate edits (``analysis.suggest_edits``): single-piece terrain edits and,
   on request, one-cell moves of a unit's set-up position, kept only when the ruleset accepts
   them (optionally mirrored onto the other side's matching piece).
2. **Steer** with static analysis: each candidate's terrain-only turns to goal per side. The
   side the playouts favour should get slower, or the other side faster; candidates are
   ranked by how much they move the race that way.
3. **Screen** the best-steered candidates with playouts of the agent on the *search* seeds,
   each paired with the current board on the same seeds and game numbers
   (``analysis.paired``): the balance each one gains.
4. **Confirm** the ``top`` best screened on *fresh* seeds the screening never used, again
   paired with the current board, at a Bonferroni level over the ``top`` comparisons
   (``paired.bonferroni``: a 5 % chance at most that any listed edit is noise). An edit is
   listed only when its improvement's interval (``improvement_ci95``) excludes 0 — otherwise
   the answer is "no edit found that evens the board beyond noise", with what was tried.

The agent: the one asked for, else the everyday agent of the game's verdict family when the planned
runs fit the time budget at its measured pace (``analysis.simulation.pace``), else the
heuristic — and then the result says that the verdict agent should confirm the suggestions
(``confirm_agent`` re-measures the listed edits with another agent, paired, at 95 %).

Everything is seeded; the number of candidates played is planned before any is played (from
the pace and the budget, at most ``max_candidates``), so the same seed and plan give the
same suggestions. ``interrupt`` (optional) is called between steps — after each generated
edit and each batch of games — so a caller can stop a search by raising from it (the
editor's Suggest dock does; the exception propagates and nothing is returned).

Given an ``executor`` (the editor passes one of spawned processes on every CPU), an agent's
runs play on it when one run would take ``pace.LONG_RUN_SECONDS`` or more in one process, and in
the calling process otherwise (the heuristic's runs last well under a second: starting
work on processes would cost more than it saves); the agent's choice and the plan count
the processes its runs will have. The numbers do not depend on it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tankmap.analysis.estimates import BalanceEstimate
from tankmap.analysis.paired import Gain, Outcomes, balance_of, bonferroni, improvement, outcomes
from tankmap.analysis.simulation.executors import Executor
from tankmap.analysis.simulation.pace import (
    duration_text,
    known_pace,
    measure_pace,
    processes_for,
)
from tankmap.analysis.simulation.runner import require_legal, simulate
from tankmap.analysis.suggest_edits import Edit, candidate_edits, race
from tankmap.rules.fileformat import scenario_to_json
from tankmap.rules.scenario import Scenario

__all__ = ["Edit", "Measured", "SuggestResult", "measure", "suggest"]

FALLBACK_AGENT = "heuristic"
PROCESS_SHARE = 0.875
"""What each of several processes adds to a run's speed, as a share of one process, in the
plan: planned at twice one process, a search with ``search`` on flanks-vs-centre on two
(``python -m benchmarks editor_jobs``) overran its 240-s budget by 22 s, its runs about
1.75 times as fast as in one process (estimated from the runs each way played)."""


def speed_of(processes: int) -> float:
    """How many times one process's speed a run on ``processes`` processes has (plan).

    >>> speed_of(1), speed_of(2)
    (1.0, 1.75)
    """
    return 1.0 if processes <= 1 else processes * PROCESS_SHARE


@dataclass
class Measured:
    """A board measured by playouts: its balance and, for a candidate, what it gains over
    the current board on the same seeds."""

    stats: BalanceEstimate
    outcomes: Outcomes
    gain: Gain | None = None
    confirmation: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.stats.balance_ci95()
        n = self.stats.games
        doc: dict[str, Any] = {
            "balance": round(self.stats.balance, 6),
            "ci95": [round(lo, 6), round(hi, 6)],
            "balance_ci95": [round(lo, 6), round(hi, 6)],
            "games": n,
            "win_rate": {
                "south": round(self.stats.wins_south / n, 6) if n else 0.0,
                "north": round(self.stats.wins_north / n, 6) if n else 0.0,
            },
            "favoured": self.stats.favoured(),
        }
        if self.gain is not None:
            doc["improvement"] = round(self.gain.estimate, 6)
            doc["improvement_ci95"] = [round(self.gain.lower, 6), round(self.gain.upper, 6)]
            doc["improvement_level"] = round(self.gain.level, 6)
        if self.confirmation is not None:
            doc["confirmation"] = self.confirmation
        return doc


@dataclass
class SuggestResult:
    """``suggest``'s answer; ``to_json`` is the ``tankmap suggest --json`` document."""

    before: Measured
    before_race: tuple[int | None, int | None]
    suggestions: list[tuple[Edit, Measured]]
    agent: str
    seconds: float
    candidates: int
    played: int
    notes: list[str] = field(default_factory=list)
    agent_reason: str = ""
    remeasured: int = 0
    seed: int = 0
    check_seed: int = 0
    games: int = 0
    tried: list[dict[str, Any]] = field(default_factory=list)
    """Every candidate played: its edits, its screening gain and, when re-measured, its
    gain on the fresh seeds with the interval."""
    reason: str | None = None
    best_rejected: dict[str, Any] | None = None
    confirm_agent: str | None = None

    @property
    def heuristic_only(self) -> bool:
        """Whether the suggestions rest on the heuristic alone (not confirmed by another
        agent): the verdict agent should confirm them."""
        return self.agent.split("+")[0] == FALLBACK_AGENT and self.confirm_agent is None

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "agent_reason": self.agent_reason,
            "heuristic_only": self.heuristic_only,
            "confirm_agent": self.confirm_agent,
            "before": {
                **self.before.to_json(),
                "turns_to_goal": _race_json(self.before_race),
                "seed": self.check_seed,
            },
            "suggestions": [
                {
                    "edits": list(edit.words),
                    "scenario": scenario_to_json(edit.scenario),
                    **measured.to_json(),
                    "turns_to_goal": _race_json(edit.race),
                }
                for edit, measured in self.suggestions
            ],
            "reason": self.reason,
            "best_rejected": self.best_rejected,
            "candidates": self.candidates,
            "played": self.played,
            "remeasured": self.remeasured,
            "tried": self.tried,
            "seconds": round(self.seconds, 1),
            "notes": self.notes,
        }


def _race_json(race: tuple[int | None, int | None]) -> dict[str, int | None]:
    return {"south": race[0], "north": race[1]}


def measure(
    scenario: Scenario,
    agent: str,
    games: int,
    seed: int,
    workers: int,
    interrupt: Callable[[], None] | None = None,
    first_game: int = 0,
    executor: Executor | None = None,
) -> Measured:
    """Self-play of ``agent`` on ``scenario`` (games ``first_game`` … of ``seed``): the
    balance and the per-game outcomes. ``interrupt`` is called after each batch of games;
    ``executor``: the games are played on it (else on one made for ``workers``)."""
    tick = None if interrupt is None else (lambda _done, _total: interrupt())
    df = simulate(
        scenario,
        games,
        agent,
        seed=seed,
        workers=workers,
        progress=tick,
        first_game=first_game,
        executor=executor,
    )
    return Measured(BalanceEstimate.of_table(df, agent), outcomes(df))


def agent_pace(scenario: Scenario, agent: str) -> float:
    """Seconds a game of ``agent`` against itself takes on ``scenario`` in one process: as
    last measured there (``analysis.simulation.pace``), else measured now."""
    pace = known_pace(scenario, (agent, agent))
    return measure_pace(scenario, (agent, agent)) if pace is None else pace


def run_place(
    scenario: Scenario, agent: str, games: int, workers: int, executor: Executor | None
) -> tuple[int, Executor | None]:
    """Where runs of ``games`` games of ``agent`` play: ``(workers, None)`` without an
    ``executor`` (each run on ``workers`` processes); with one, ``(its workers, it)`` when
    ``pace.processes_for`` says so (a run of ``pace.LONG_RUN_SECONDS`` or more in one
    process), else ``(1, None)`` (in the calling process)."""
    if executor is None:
        return workers, None
    processes = processes_for(games, agent_pace(scenario, agent), executor.workers)
    return (processes, executor) if processes > 1 else (1, None)


def choose_agent(
    scenario: Scenario,
    games: int,
    budget: float,
    workers: int,
    runs: int,
    executor: Executor | None = None,
) -> tuple[str, str]:
    """The everyday agent of the game's verdict family when ``runs`` runs of ``games``
    games fit in ``budget`` seconds at its measured pace on the processes its runs would
    have (``run_place``), else the heuristic; and why."""
    from tankmap.analysis.simulation.agent_info import default_agent

    strongest, _why = default_agent(scenario)
    if strongest == FALLBACK_AGENT:
        return FALLBACK_AGENT, "the game's default agent"
    pace = agent_pace(scenario, strongest)
    processes, _on = run_place(scenario, strongest, games, workers, executor)
    needed = runs * games * pace / speed_of(processes)
    if needed <= budget:
        return strongest, f"the strongest agent; {runs} runs fit the budget (about {needed:.0f} s)"
    return FALLBACK_AGENT, (
        f"{strongest}, the strongest agent, would need about {duration_text(needed)} for "
        f"{runs} runs of {games} games: the heuristic searched instead; confirm its "
        f"suggestions with {strongest}"
    )


def plan_candidates(
    scenario: Scenario, agent: str, games: int, budget: float, workers: int, top: int, most: int
) -> int:
    """How many candidates the budget lets the search screen (at least ``top``, at most
    ``most``), from the agent's pace on this board and ``workers`` processes a run."""
    pace = agent_pace(scenario, agent)
    runs = int(budget * speed_of(workers) / max(games * pace, 1e-9)) - 2 - top
    return max(min(top, most), min(most, runs))


def suggest(
    scenario: Scenario,
    agent: str | None = None,
    games: int = 400,
    budget: float = 240.0,
    seed: int = 0,
    keep_symmetry: bool = False,
    workers: int = 1,
    top: int = 3,
    progress: Callable[[int, int], None] | None = None,
    max_candidates: int = 24,
    units: bool = False,
    interrupt: Callable[[], None] | None = None,
    confirm_agent: str | None = None,
    executor: Executor | None = None,
) -> SuggestResult:
    """Suggest up to ``top`` edits that make the board more even beyond noise (see the
    module docstring); ``agent=None`` chooses one by the budget. ``executor``: the long
    runs play on it (module docstring), else each on ``workers`` processes. Raises
    ``IllegalScenarioError`` for an illegal or finished board, ``PolicyError`` for an
    unknown agent, and whatever ``interrupt`` raises."""
    require_legal(scenario)
    start = time.monotonic()
    notes: list[str] = []
    if agent is None:
        agent, agent_reason = choose_agent(
            scenario, games, budget, workers, runs=2 + min(max_candidates, 6) + top,
            executor=executor,
        )  # fmt: skip
    else:
        agent_reason = "asked for"
    processes, on = run_place(scenario, agent, games, workers, executor)
    limit = plan_candidates(scenario, agent, games, budget, processes, top, max_candidates)
    if limit < max_candidates:
        notes.append(
            f"only {limit} of up to {max_candidates} candidate edits were played: more do "
            f"not fit --budget ({budget:g} s) at {agent}'s pace on this board"
        )
    search_seed, check_seed = (
        int(v) for v in np.random.SeedSequence(seed).generate_state(2, dtype=np.uint32)
    )
    base_search = measure(scenario, agent, games, search_seed, processes, interrupt, executor=on)
    before = measure(scenario, agent, games, check_seed, processes, interrupt, executor=on)
    base_race = race(scenario)
    favoured = before.stats.favoured()
    if favoured not in ("south", "north"):
        favoured = "south" if before.stats.wins_south >= before.stats.wins_north else "north"
    edits = []
    for edit in candidate_edits(scenario, keep_symmetry, units):
        if interrupt is not None:
            interrupt()
        edits.append(edit)
    # best steered first; among equals, one edit of each piece in turn (so a flat race
    # figure still spreads the playouts over every piece)
    ranked = sorted(edits, key=lambda e: (-_steer(e.race, base_race, favoured), e.rank))
    ranked = [e for e in ranked if _steer(e.race, base_race, favoured) > 0] or ranked
    screened: list[tuple[float, int, Edit]] = []
    limit = min(len(ranked), limit)
    for i, edit in enumerate(ranked[:limit]):
        m = measure(edit.scenario, agent, games, search_seed, processes, interrupt, executor=on)
        gain = balance_of(m.outcomes) - balance_of(base_search.outcomes)
        screened.append((gain, i, edit))
        if progress is not None:
            progress(i + 1, limit)
    screened.sort(key=lambda x: (-x[0], x[1]))
    finalists = [edit for gain, _i, edit in screened[:top] if gain > 0]
    level = bonferroni(len(finalists))
    listed: list[tuple[Edit, Measured]] = []
    rejected: list[tuple[Edit, Measured]] = []
    for k, edit in enumerate(finalists):
        fresh = measure(edit.scenario, agent, games, check_seed, processes, interrupt, executor=on)
        fresh.gain = improvement(before.outcomes, fresh.outcomes, level, seed=seed + k)
        (listed if fresh.gain.lower > 0 else rejected).append((edit, fresh))
    listed.sort(key=lambda x: -(x[1].gain.estimate if x[1].gain else 0.0))
    fresh_gain = {id(e): m.gain for e, m in listed + rejected}
    tried: list[dict[str, Any]] = []
    for gain, _i, edit in screened:
        entry: dict[str, Any] = {"edits": list(edit.words), "screening_gain": round(gain, 6)}
        g = fresh_gain.get(id(edit))
        if g is not None:
            entry["improvement"] = round(g.estimate, 6)
            ci95 = [round(g.lower, 6), round(g.upper, 6)]
            entry["improvement_ci95"] = ci95  # the suggestions' name
            entry["improvement_ci"] = list(ci95)  # the name design-assistant.md gave first
            entry["listed"] = g.lower > 0
        tried.append(entry)
    if confirm_agent is not None and listed:
        c_processes, c_on = run_place(scenario, confirm_agent, games, workers, executor)
        confirm(
            scenario, listed, confirm_agent, games, check_seed, c_processes, interrupt, seed,
            executor=c_on,
        )  # fmt: skip
    reason = None
    best_rejected = None
    if not listed:
        reason = (
            f"no edit found that evens the board beyond noise: {len(edits)} legal edits, "
            f"{len(screened)} played on {games} games each, {len(finalists)} re-measured on "
            "fresh seeds"
        )
        if rejected:
            edit, m = max(rejected, key=lambda x: x[1].gain.estimate if x[1].gain else 0.0)
            assert m.gain is not None
            best_rejected = {"edits": list(edit.words), **m.to_json()}
            reason += (
                f" (the best, {'; '.join(edit.words)}, gained {m.gain.estimate:+.3f} "
                f"[{m.gain.lower:+.3f}, {m.gain.upper:+.3f}])"
            )
        if before.stats.favoured() == "even":  # (whatever was re-measured)
            reason += "; the board is even as far as its games can tell"
    return SuggestResult(
        before,
        base_race,
        listed,
        agent,
        time.monotonic() - start,
        len(edits),
        len(screened),
        notes,
        agent_reason=agent_reason,
        remeasured=len(finalists),
        reason=reason,
        best_rejected=best_rejected,
        confirm_agent=confirm_agent,
        seed=seed,
        check_seed=check_seed,
        games=games,
        tried=tried,
    )


def confirm(
    scenario: Scenario,
    listed: list[tuple[Edit, Measured]],
    agent: str,
    games: int,
    check_seed: int,
    workers: int = 1,
    interrupt: Callable[[], None] | None = None,
    seed: int = 0,
    executor: Executor | None = None,
) -> None:
    """Re-measure the board and each listed edit with ``agent`` on the fresh seeds
    (``check_seed``), paired, and set each ``Measured.confirmation`` (the gain at 95 %, and
    whether its interval excludes 0). ``executor``: every game is played on it (the
    editor's Confirm passes one of spawned processes, kept for all the runs)."""
    base = measure(scenario, agent, games, check_seed, workers, interrupt, executor=executor)
    for k, (edit, m) in enumerate(listed):
        again = measure(
            edit.scenario, agent, games, check_seed, workers, interrupt, executor=executor
        )
        check = improvement(base.outcomes, again.outcomes, 0.95, seed=seed + 100 + k)
        m.confirmation = {
            "agent": agent,
            "balance_before": round(base.stats.balance, 6),
            "balance": round(again.stats.balance, 6),
            "improvement": round(check.estimate, 6),
            "improvement_ci95": [round(check.lower, 6), round(check.upper, 6)],
            "confirmed": check.lower > 0,
        }


def _steer(
    after: tuple[int | None, int | None], base: tuple[int | None, int | None], favoured: str
) -> float:
    """How much an edit slows the favoured side's race (or speeds the other's)."""
    s0, n0 = base
    s1, n1 = after
    if s0 is None or n0 is None or s1 is None or n1 is None:
        return 0.0
    gap0 = (n0 - s0) if favoured == "south" else (s0 - n0)  # favoured side's lead
    gap1 = (n1 - s1) if favoured == "south" else (s1 - n1)
    return float(gap0 - gap1)
