"""The Tank Wars agent of a name (``random``, ``heuristic``, ``search[:N]``, ``plan[:N]``,
``regret[:N]``, ``regret-heuristic[:N]``, with ``+no-KIND`` restrictions)."""

from __future__ import annotations

import numpy as np

from tankmap.analysis.simulation.tank_wars.agents.heuristic import heuristic_policy
from tankmap.analysis.simulation.tank_wars.agents.options import Policy
from tankmap.analysis.simulation.tank_wars.agents.plan import DEFAULT_SAMPLES as PLAN_SAMPLES
from tankmap.analysis.simulation.tank_wars.agents.plan import plan_policy
from tankmap.analysis.simulation.tank_wars.agents.random import random_policy
from tankmap.analysis.simulation.tank_wars.agents.regret import (
    DEFAULT_ITERATIONS,
    HEURISTIC,
    LIGHT,
    regret_policy,
)
from tankmap.analysis.simulation.tank_wars.agents.search import DEFAULT_SAMPLES, search_policy


def make_policy(name: str, restrictions: tuple[str, ...], rng: np.random.Generator) -> Policy:
    """Policy ``name`` (``random``, ``heuristic``, ``search[:N]``, ``plan[:N]``,
    ``regret[:N]`` or ``regret-heuristic[:N]``); ``KeyError`` if unknown, ``ValueError``
    for a bad budget."""
    banned = frozenset(r[3:] for r in restrictions)
    if name == "random":
        return random_policy(rng, banned)
    if name == "heuristic":
        return heuristic_policy(rng, banned)
    if name == "search" or name.startswith("search:"):
        samples = int(name[7:]) if name.startswith("search:") else DEFAULT_SAMPLES
        if samples < 1:
            raise ValueError(samples)
        return search_policy(rng, samples, banned)
    base, _, budget = name.partition(":")
    if base == "plan":
        samples = int(budget) if budget else PLAN_SAMPLES
        if samples < 1:
            raise ValueError(samples)
        return plan_policy(rng, samples, banned)
    if base in ("regret", "regret-heuristic"):
        iterations = int(budget) if budget else DEFAULT_ITERATIONS
        if iterations < 1:
            raise ValueError(iterations)
        return regret_policy(rng, iterations, banned, LIGHT if base == "regret" else HEURISTIC)
    raise KeyError(name)
