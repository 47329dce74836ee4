"""The ``duct`` agents' names and budgets, and how a side plays a kernel game with them
(``games.py``). Loads no compiled code."""

from __future__ import annotations

from dataclasses import dataclass

from tankmap.analysis.simulation.budgets import BUDGETS
from tankmap.analysis.simulation.final_act.duct.params import HEURISTIC_PLAYOUTS, LIGHT
from tankmap.analysis.simulation.games import PolicyError

PLAYOUTS = {"duct": LIGHT, "duct-h": HEURISTIC_PLAYOUTS}
"""The agents' names and their playouts."""
DEFAULT_BUDGET = {name: BUDGETS[("final-act", name)].default for name in PLAYOUTS}
"""Iterations a round of the bare names (``budgets.BUDGETS``)."""
BUDGET_LIMIT = BUDGETS[("final-act", "duct")].limit
"""The largest budget accepted (``budgets.BUDGETS``: a game at it takes seconds)."""
KERNEL_AGENTS = ("random", "heuristic", *PLAYOUTS)
"""The agents a kernel game with ``duct`` players may pit against them."""


def parse_duct(base: str) -> tuple[int, int] | None:
    """``(playout, budget)`` of a ``duct``/``duct-h`` name (``"duct"``, ``"duct:128"``),
    ``None`` for other names; ``PolicyError`` (one line) for a budget that is not a whole
    number from 1 to ``BUDGET_LIMIT``."""
    name, colon, budget = base.partition(":")
    if name not in PLAYOUTS:
        return None
    if not colon:
        return PLAYOUTS[name], DEFAULT_BUDGET[name]
    if not budget.isdigit() or not 1 <= int(budget) <= BUDGET_LIMIT:
        raise PolicyError(
            f"{name}:N takes N iterations a round, a whole number from 1 to {BUDGET_LIMIT} "
            f"(got {budget!r})"
        )
    return PLAYOUTS[name], int(budget)


@dataclass(frozen=True)
class SidePlayer:
    """How one side plays a kernel game: ``agent`` (one of ``KERNEL_AGENTS``, without a
    budget), a search's ``budget`` (iterations a round) and ``playout``, ``no_berms``, and
    the unit kinds taken out before round 1 (``+no-KIND``)."""

    agent: str
    budget: int = 0
    playout: int = LIGHT
    no_berms: bool = False
    removed: tuple[str, ...] = ()

    @staticmethod
    def of(base: str, restrictions: tuple[str, ...]) -> SidePlayer | None:
        """The side's player for a policy ``base`` name and its restrictions, or ``None``
        when the agent does not play kernel games."""
        duct = parse_duct(base)
        name = base.partition(":")[0]
        if duct is None and name not in KERNEL_AGENTS:
            return None
        playout, budget = duct if duct is not None else (LIGHT, 0)
        removed = tuple(r[3:] for r in restrictions if r != "no-berms")
        return SidePlayer(name, budget, playout, "no-berms" in restrictions, removed)
