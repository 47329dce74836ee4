"""What a verdict's climb found (``Verdict``): its family, rungs and judgement, the rung the
verdict is read from, and the ``tankmap verdict --json`` document (``docs/cli-json.md``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tankmap.analysis.estimates import MIN_VERDICT_GAMES, BalanceEstimate
from tankmap.analysis.simulation.families import Family
from tankmap.analysis.verdict.rule import Judgement, Step, strongest_played


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
    reused_games: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def top(self) -> Step | None:
        """The rung the verdict is read from: the last one with a decided self-play (at
        least ``min_games`` games), else the last one with a self-play."""
        return strongest_played(self.steps, self.min_games)

    @property
    def converged(self) -> bool:
        return self.judgement.converged

    def agent(self) -> str:
        """The agent the verdict is read from: the top rung's, else (no self-play game
        finished yet) the first rung's, the one a verdict would be read from first."""
        top = self.top
        if top is not None:
            return top.agent
        return self.steps[0].agent if self.steps else self.family.agent(self.family.base)

    def favoured(self) -> str:
        """The top rung's favoured side (``"undecided"`` when nothing was played)."""
        top = self.top
        return "undecided" if top is None else top.favoured(self.min_games)

    def to_json(self) -> dict[str, Any]:
        top = self.top
        est = top.self_play if top is not None and top.self_play else BalanceEstimate(0, 0, 0, "")
        n = max(est.games, 1)
        doc: dict[str, Any] = {
            "agent": self.agent(),
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
            "reused_games": self.reused_games,
        }
        doc.update(self.extra)
        return doc
