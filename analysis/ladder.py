"""The strength ladder: how a board's balance changes with the strength of play.

``run_ladder`` plays every pair of agents with sides swapped (half the games each way),
fits Elo ratings to those matches (``analysis.elo``), and plays each agent against itself
for the board's balance under that agent. ``stability`` answers the question a designer
needs before quoting a number: do the two strongest agents agree on which side is
favoured, and on the balance within their 95 % intervals?

Every game is seeded from ``seed``: each half of a pairing gets its own ``SeedSequence``
child, and each agent's self-play is the run ``simulate`` plays with ``seed`` itself (so
both give the same balance), so a ladder is reproducible for any worker count.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from tankmap.analysis.elo import Rating, fit_elo
from tankmap.analysis.estimates import MIN_VERDICT_GAMES, BalanceEstimate
from tankmap.analysis.simulation.runner import check_policies, simulate
from tankmap.analysis.simulation.stats import rate
from tankmap.analysis.verdict.rule import Step, judge
from tankmap.rules.errors import TankmapError
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario

RACE_ENDS = ("goal", "escape")  # ways to win by moving (Final Act, Tank Chess)
ANCHOR = "heuristic"
"""The agent rated 0 when it plays in the ladder (else the first agent given): every agent
sweeps ``random``, so ratings anchored there would be set by the fit's prior alone."""


@dataclass(frozen=True)
class SelfPlay:
    """An agent playing both sides: the board's balance under that agent, and what kind of
    play produced it (median length, units lost per game, the share of games decided by
    reaching the goal — Final Act's last line, a Tank Chess escape — and of those won so
    with no unit lost on either side)."""

    agent: str
    games: int
    wins_south: int
    wins_north: int
    median_length: float
    units_lost_per_game: float
    race_share: float
    race_no_loss_share: float = 0.0

    @property
    def estimate(self) -> BalanceEstimate:
        """The balance with its intervals (``analysis.estimates``, as everywhere)."""
        return BalanceEstimate(self.wins_south, self.wins_north, self.games, self.agent)

    @property
    def draws(self) -> int:
        return self.games - self.wins_south - self.wins_north

    @property
    def balance(self) -> float:
        return self.estimate.balance

    def difference_ci95(self) -> tuple[float, float]:
        """95 % interval of (south win rate − north win rate) (``analysis.estimates``)."""
        return self.estimate.difference_ci95()

    def balance_ci95(self) -> tuple[float, float]:
        """95 % interval of the balance (``analysis.estimates``)."""
        return self.estimate.balance_ci95()

    def favoured(self) -> str:
        """``"south"``, ``"north"``, ``"even"`` or ``"undecided"`` (fewer than
        ``MIN_VERDICT_GAMES`` games): ``BalanceEstimate.favoured``."""
        return self.estimate.favoured()

    def to_json(self) -> dict[str, Any]:
        n = self.games
        return {
            "agent": self.agent,
            "games": n,
            "win_rate": {  # rounded to 6 decimals, as simulate's
                "south": rate(self.wins_south, n),
                "north": rate(self.wins_north, n),
            },
            "draws": self.draws,
            "balance": round(self.balance, 6),
            "ci95": [round(v, 6) for v in self.balance_ci95()],
            "balance_ci95": [round(v, 6) for v in self.balance_ci95()],
            "favoured": self.favoured(),
            "median_length": self.median_length,
            "units_lost_per_game": round(self.units_lost_per_game, 4),
            "race_share": round(self.race_share, 4),
            "race_no_loss_share": round(self.race_no_loss_share, 4),
        }


@dataclass(frozen=True)
class Match:
    """Two agents, sides swapped: ``score_a`` points of ``a`` (win 1, draw ½) in ``games``."""

    a: str
    b: str
    games: int
    score_a: float

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "score_a": self.score_a,
            "score_rate_a": round(self.score_a / self.games, 6),
        }


@dataclass(frozen=True)
class Stability:
    """The verdict check of the two strongest agents."""

    stable: bool
    agents: tuple[str, ...]
    reason: str


@dataclass
class LadderResult:
    """What ``run_ladder`` found; ``to_json`` is the ``tankmap ladder --json`` document."""

    agents: list[str]
    ratings: dict[str, Rating]
    matches: list[Match]
    self_play: dict[str, SelfPlay]
    stability: Stability
    seed: int
    games: int
    extra: dict[str, Any] = field(default_factory=dict)

    def by_strength(self) -> list[str]:
        """Agents, strongest first."""
        return sorted(self.agents, key=lambda a: -self.ratings[a].elo)

    def sweeps(self, agent: str) -> list[str]:
        """The agents ``agent`` beat in every game of their match (no draw, no loss)."""
        out = []
        for m in self.matches:
            if m.a == agent and m.score_a == m.games:
                out.append(m.b)
            elif m.b == agent and m.score_a == 0:
                out.append(m.a)
        return out

    def only_sweeps(self, agent: str) -> bool:
        """Whether every match of ``agent`` was a clean sweep one way or the other: its Elo
        then comes from the fit's prior (one virtual draw per pair), not from the games —
        a bound, not a measurement."""
        mine = [m for m in self.matches if agent in (m.a, m.b)]
        return bool(mine) and all(m.score_a in (0, m.games) for m in mine)

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "games": self.games,
            "anchor": self.extra.get("anchor"),
            "agents": [
                {
                    "name": a,
                    "elo": round(self.ratings[a].elo, 1),
                    "elo_ci95": [round(v, 1) for v in self.ratings[a].ci95],
                    "sweeps": self.sweeps(a),
                    "swept_by": [b for b in self.agents if a in self.sweeps(b)],
                    "only_sweeps": self.only_sweeps(a),
                }
                for a in self.by_strength()
            ],
            "matches": [m.to_json() for m in self.matches],
            "balance": [self.self_play[a].to_json() for a in self.by_strength()],
            "stable": self.stability.stable,
            "stability": {"agents": list(self.stability.agents), "reason": self.stability.reason},
            **{k: v for k, v in self.extra.items() if k != "anchor"},
        }


def elo_words(agent: dict[str, Any], anchor: str | None) -> str:
    """What stands for an agent's Elo where the number would not be measured: ``"anchor"``
    (0 by definition, with its sweeps when every match was one), ``"swept by search,
    ksearch"`` or ``"sweeps random"`` for an agent whose every match was a clean sweep (its
    number would be the fit's prior alone); ``""`` for an agent with a measured Elo. Takes
    an entry of the ladder document's ``agents``."""
    sweep = ""
    if agent.get("only_sweeps"):
        if agent.get("swept_by"):
            sweep = "swept by " + ", ".join(agent["swept_by"])
        else:
            sweep = "sweeps " + ", ".join(agent.get("sweeps", []))
    if agent["name"] == anchor:
        return f"anchor; {sweep}" if sweep else "anchor"
    return sweep


def self_play_stats(agent: str, df: pd.DataFrame) -> SelfPlay:
    """The ``SelfPlay`` figures of a ``simulate`` table of ``agent`` against itself."""
    n = len(df)
    if n == 0:
        raise TankmapError("a self-play run needs at least one game")
    lost = df["kills_south"] + df["kills_north"]
    won = df["winner"] != "draw"
    race = won & df["end"].isin(RACE_ENDS)
    return SelfPlay(
        agent=agent,
        games=n,
        wins_south=int((df["winner"] == "south").sum()),
        wins_north=int((df["winner"] == "north").sum()),
        median_length=float(df["length"].median()),
        units_lost_per_game=float(lost.mean()),
        race_share=float(race.sum() / n),
        race_no_loss_share=float((race & (lost == 0)).sum() / n),
    )


def stability(
    self_play: dict[str, SelfPlay],
    strongest: Sequence[str],
    matches: Sequence[Match] = (),
    names: Mapping[str, str] | None = None,
) -> Stability:
    """The verdict rule (``analysis.verdict.rule.judge``) on the two strongest agents:
    stable when the strongest no longer beats the second (its match score's 95 % interval
    reaches 0.5 and the score is under 0.55) and both favour the same side or both call the
    board even, each on at least ``MIN_VERDICT_GAMES`` games. A ladder of different agents
    is rarely stable: the strongest usually still beats the next one, and only a climb of
    its own budgets (``tankmap verdict``) shows where its verdict stops moving. The reason
    names the sides as ``names`` says (``{"south": "White", "north": "Black"}``).

    >>> sp = {a: SelfPlay(a, 400, s, n, 10, 1.0, 0.0) for a, s, n in
    ...       (("x", 250, 150), ("y", 240, 160), ("z", 150, 250))}
    >>> ms = [Match("x", "y", 200, 104.0), Match("x", "z", 200, 104.0)]
    >>> stability(sp, ["x", "y"], ms).stable, stability(sp, ["x", "z"], ms).stable
    (True, False)
    """
    if len(strongest) < 2:
        only = tuple(strongest)
        return Stability(False, only, "one agent only: nothing to compare")
    a, b = strongest[0], strongest[1]
    points, played = 0.0, 0
    for m in matches:
        if (m.a, m.b) == (a, b):
            points, played = m.score_a, m.games
        elif (m.a, m.b) == (b, a):
            points, played = m.games - m.score_a, m.games
    steps = [
        Step(b, 0, self_play[b].estimate),
        Step(a, 0, self_play[a].estimate, points, played),
    ]
    judgement = judge(steps, MIN_VERDICT_GAMES, names)
    reason = judgement.reason
    if not judgement.converged:
        reason += " (tankmap verdict climbs one agent's budgets to a converged verdict)"
    return Stability(judgement.converged, (a, b), reason)


def run_ladder(
    scenario: Scenario,
    agents: Sequence[str],
    games: int,
    seed: int = 0,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> LadderResult:
    """Play the ladder of ``agents`` on ``scenario``: ``games`` per pairing (half with each
    agent as south) and ``games`` of self-play per agent. Raises ``PolicyError`` for an
    unknown agent (checked first), ``TankmapError`` for fewer than two distinct agents or
    fewer than 2 games."""
    agents = list(dict.fromkeys(a.strip() for a in agents if a.strip()))
    check_policies(scenario, agents)  # every agent known, every budget bounded: first
    if len(agents) < 2:
        given = f"only {agents[0]!r} was given" if agents else "none was given"
        raise TankmapError(f"a ladder needs at least two different agents ({given})")
    if games < 2:
        raise TankmapError(f"a ladder needs at least 2 games per pairing, not {games}")
    pairs = [(a, b) for i, a in enumerate(agents) for b in agents[i + 1 :]]
    runs: list[tuple[str, str, int]] = []
    half = games // 2
    for a, b in pairs:
        runs.append((a, b, half))
        runs.append((b, a, games - half))
    children = np.random.SeedSequence(seed).spawn(len(runs))
    seeds = [int(child.generate_state(1, dtype=np.uint32)[0]) for child in children]
    # an agent's self-play is the run ``simulate`` plays with the ladder's seed: the same
    # board, agent, seed and games give the same balance in both
    runs += [(a, a, games) for a in agents]
    seeds += [seed] * len(agents)
    total = sum(n for _, _, n in runs)
    done_before = 0
    tables: list[pd.DataFrame] = []
    for (south, north, n), run_seed in zip(runs, seeds, strict=True):

        def tick(done: int, _total: int, base: int = done_before) -> None:
            if progress is not None:
                progress(base + done, total)

        tables.append(
            simulate(
                scenario,
                n,
                (south, north),
                seed=run_seed,
                workers=workers,
                scheduler=scheduler,
                progress=tick,
            )
        )
        done_before += n
    matches = []
    results: dict[tuple[str, str], tuple[float, int]] = {}
    for k, (a, b) in enumerate(pairs):
        as_south, as_north = tables[2 * k], tables[2 * k + 1]
        score = _points(as_south, "south") + _points(as_north, "north")
        played = len(as_south) + len(as_north)
        matches.append(Match(a, b, played, score))
        results[(a, b)] = (score, played)
    anchor = ANCHOR if ANCHOR in agents else agents[0]
    ratings = fit_elo(agents, results, anchor=anchor)
    sp = {a: self_play_stats(a, tables[2 * len(pairs) + i]) for i, a in enumerate(agents)}
    ladder = LadderResult(
        agents, ratings, matches, sp, Stability(False, (), ""), seed, games, {"anchor": anchor}
    )
    names = {side.value: name for side, name in get_ruleset(scenario.ruleset).side_names().items()}
    ladder.stability = stability(sp, ladder.by_strength()[:2], matches, names)
    return ladder


def _points(df: pd.DataFrame, side: str) -> float:
    """Points of the agent playing ``side`` in ``df`` (win 1, draw ½)."""
    return float((df["winner"] == side).sum() + 0.5 * (df["winner"] == "draw").sum())
