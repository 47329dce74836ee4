"""Fitting the weights of ``regret_value``'s evaluation: self-play games of ``regret`` (or
``plan``) on the built-in boards, every position between rounds labelled with the game's
outcome, and a logistic regression (``regret_value.logistic_fit``) of the outcomes on the
positions' features.

    python -m tankmap.analysis.simulation.tank_wars.agents.regret_fit [GAMES] [BUDGET]
        [AGENT] [WEIGHTS]

prints the weights (one fit per call; ``AGENT`` ``regret`` (the default) or ``plan``,
playing with ``WEIGHTS``, comma-separated, else its own). ``regret.WEIGHTS`` and
``plan.WEIGHTS`` were fitted with it (``plan.WEIGHTS`` says how).
"""

from __future__ import annotations

import sys

import numpy as np

from tankmap import maps
from tankmap.analysis.simulation.tank_wars.agents.plan import plan_policy
from tankmap.analysis.simulation.tank_wars.agents.regret import regret_policy
from tankmap.analysis.simulation.tank_wars.agents.regret_value import features, logistic_fit
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.tank_wars.engine import initial_state, outcome, play_round

BOARDS = ("tank-wars/default", "tank-wars/flank-artillery")


def self_play_rows(
    games: int,
    budget: int,
    seed: int,
    weights: tuple[float, ...] | None = None,
    agent: str = "regret",
) -> tuple[np.ndarray, np.ndarray]:
    """Features and 0/1 outcomes (south won) of every position between rounds of ``games``
    self-play games of ``agent:budget`` (``regret`` or ``plan``) per built-in board (a
    draw: one row each way), playing with ``weights`` (default: the agent's own)."""
    rows: list[list[float]] = []
    wins: list[float] = []
    rng = np.random.default_rng(seed)
    for name in BOARDS:
        path = maps.map_path(name)
        assert path is not None
        scenario = read_scenario(path)
        for _ in range(games):
            extra = {} if weights is None else {"weights": weights}
            players = [
                plan_policy(rng, budget, **extra)  # type: ignore[arg-type]
                if agent == "plan"
                else regret_policy(rng, budget, **extra)  # type: ignore[arg-type]
                for _ in range(2)
            ]
            dice = np.random.default_rng(int(rng.integers(2**63)))
            state = initial_state(scenario)
            seen = []
            while outcome(state) is None:
                state = play_round(state, players[0], players[1], dice)
                if outcome(state) is None:
                    seen.append(features(state))
            result = outcome(state)
            assert result is not None
            labels = [1.0] if result.winner is not None and result.winner.index == 0 else []
            if result.winner is None:
                labels = [1.0, 0.0]
            elif result.winner.index == 1:
                labels = [0.0]
            for x in seen:
                for y in labels:
                    rows.append(x)
                    wins.append(y)
    return np.asarray(rows, dtype=np.float64), np.asarray(wins, dtype=np.float64)


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 1000
    budget = int(argv[1]) if len(argv) > 1 else 32
    agent = argv[2] if len(argv) > 2 else "regret"
    start = tuple(float(v) for v in argv[3].split(",")) if len(argv) > 3 else None
    x, y = self_play_rows(games, budget, seed=29, weights=start, agent=agent)
    w = logistic_fit(x, y)
    print(f"{len(y)} positions from {2 * games} games of {agent}:{budget}")
    print("weights", ", ".join(f"{v:.3f}" for v in w))


if __name__ == "__main__":
    main(sys.argv[1:])
