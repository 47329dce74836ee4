"""Elo ratings from match results: a Bradley–Terry fit with draws as half points.

The model: agent *i* scores against agent *j* with probability
``1 / (1 + 10 ** ((r_j - r_i) / 400))``. Ratings maximise the likelihood of the observed
scores (``scipy.optimize.minimize``) plus a weak prior — one virtual drawn game between
every pair that met — so that a clean sweep (200 wins out of 200) still has a finite
rating; the prior moves a 75 % score by a few Elo only. Ratings are anchored so that the
``anchor`` agent (by default the first) is 0. Intervals are 95 % Wald intervals from the
observed information (the Hessian of the log-likelihood at the optimum), for each rating
relative to the anchor.

>>> r = fit_elo(["a", "b"], {("a", "b"): (150.0, 200)})   # b scores 50 of 200 against a
>>> round(r["b"].elo)                     # a 25 % score is ~191 Elo below (prior: ~190)
-190
>>> r["a"].elo
0.0
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.optimize import minimize

SCALE = 400.0 / math.log(10.0)  # Elo points per natural-log unit of the odds
Z95 = 1.959963984540054
PRIOR_GAMES = 1.0  # virtual drawn games per pair that met


@dataclass(frozen=True)
class Rating:
    """An agent's Elo (anchor = 0) with its 95 % interval."""

    name: str
    elo: float
    ci95: tuple[float, float]


def fit_elo(
    agents: Sequence[str],
    results: Mapping[tuple[str, str], tuple[float, int]],
    anchor: str | None = None,
) -> dict[str, Rating]:
    """Ratings for ``agents`` from ``results[(a, b)] = (score of a, games)`` (a win 1, a
    draw 0.5), with ``anchor`` (default: the first agent) at 0 and every interval relative
    to it. Pairs may appear in either order, or both (they are added up).

    Raises ``ValueError`` for an agent that played no game, for a negative score or for an
    anchor that is not among ``agents``."""
    if anchor is not None and anchor not in agents:
        raise ValueError(f"anchor {anchor!r} is not one of the agents")
    index = {a: i for i, a in enumerate(agents)}
    n = len(agents)
    wins = np.zeros((n, n))  # wins[i, j] = points of i against j
    games = np.zeros((n, n))
    for (a, b), (score, played) in results.items():
        if not 0 <= score <= played:
            raise ValueError(f"score {score} of {a} vs {b} is not between 0 and {played}")
        i, j = index[a], index[b]
        wins[i, j] += score
        wins[j, i] += played - score
        games[i, j] += played
        games[j, i] += played
    for a in agents:
        if games[index[a]].sum() == 0:
            raise ValueError(f"agent {a!r} played no game")
    met = games > 0
    wins = wins + 0.5 * PRIOR_GAMES * met
    games = games + PRIOR_GAMES * met
    if n == 1:
        return {agents[0]: Rating(agents[0], 0.0, (0.0, 0.0))}

    def nll(free: npt.NDArray[np.float64]) -> float:
        theta = np.concatenate(([0.0], free))
        diff = theta[:, None] - theta[None, :]
        log_p = -np.logaddexp(0.0, -diff)  # log sigmoid(theta_i - theta_j)
        return float(-(wins * log_p).sum() / 1.0)

    def grad(free: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        theta = np.concatenate(([0.0], free))
        p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
        g = -(wins - games * p).sum(axis=1)
        return np.asarray(g[1:], dtype=np.float64)

    fit = minimize(nll, np.zeros(n - 1), jac=grad, method="BFGS", options={"gtol": 1e-9})
    theta = np.concatenate(([0.0], fit.x))
    p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
    w = games * p * (1 - p)  # observed information of the pairwise logistic model
    info = np.diag(w.sum(axis=1)) - w
    cov = np.zeros((n, n))  # of theta, the first agent's held at 0
    cov[1:, 1:] = np.linalg.inv(info[1:, 1:])
    k = index[anchor] if anchor is not None else 0
    theta = theta - theta[k]
    # Var(theta_i - theta_k) = C_ii + C_kk - 2 C_ik
    var = np.clip(np.diag(cov) + cov[k, k] - 2 * cov[:, k], 0.0, None)
    se = np.sqrt(var)
    out = {}
    for name, i in index.items():
        elo = float(theta[i] * SCALE)
        half = float(Z95 * se[i] * SCALE)
        out[name] = Rating(name, elo, (elo - half, elo + half))
    return out


def expected_score(elo_a: float, elo_b: float) -> float:
    """The score ``a`` is expected to make against ``b`` (Elo's logistic curve).

    >>> round(expected_score(191, 0), 2)
    0.75
    """
    return 1.0 / (1.0 + 10 ** ((elo_b - elo_a) / 400.0))
