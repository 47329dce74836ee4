"""Upper limits of the agents' budgets: ``search:N`` and ``uct:N`` past them are refused
in one line (``search:1000000000`` used to run for ever).

A budget is the work an agent does per decision. Each limit is a round number at which a
100-game self-play of the agent on a built-in board still ends within the hour on one CPU
core. Measured with ``runner.simulate(board, games, "agent:N", seed=1, workers=1)``:
CPU seconds per game (``time.process_time``, on a loaded two-core machine; 4 games at the
default and ten times it, 2 at the limit), and what 100 games at the limit take:

- Final Act ``search`` (N sampled enemy plans per round; mirror): 3 → 0.15 s,
  30 → 1.26 s, **500** → 22.7 s (30 rounds, 0.76 s a round): 100 games ≈ 38 min.
- Tank Chess ``search`` (N lines per turn; basic-16): 60 → 0.45 s, 600 → 2.3 s,
  **10,000** → 7.2 s (0.24 s a turn): 100 games ≈ 12 min. Its cost levels off: it widens
  to N/6 of the heuristic's ranked turns, and a position has some 550.
- Tank Chess ``alphabeta`` (N positions per turn): basic-16 2,800 → 0.60 s, sample-20
  3,200 → 1.10 s, about linear in N: **131,072** → about 28 s (sample-20 45 s): 100
  games ≈ 45-75 min.
- Tank Chess ``uct`` (N playouts per turn; basic-16): 48 → 0.86 s, 480 → 13.2 s,
  **1,000** → 7.9 s (0.93 s a turn, games of 8-13 turns): 100 games ≈ 13-22 min.
- Tank Wars ``search`` (N sampled futures per round; default): 3 → 0.64 s, 30 → 6.3 s,
  **150** → 28.4 s (3.0 s a round): 100 games ≈ 47 min.
- Final Act ``ksearch`` (N sampled enemy plans per round; mirror): 6 → 0.31 s,
  60 → 2.8 s, **500** → 25.7 s: 100 games ≈ 43 min.
- Final Act ``duct`` and ``duct-h`` (N iterations per round; mirror): 16 → 0.013 s,
  64 → 0.05 s, 128 → 0.14 s, about linear: **8,192** → about 9 s: 100 games ≈ 15 min.
- Tank Wars ``plan`` (N sampled futures per round; default): 128 → 0.093 s, 1,280 → 1.38 s,
  **16,384** → 17.5 s: 100 games ≈ 29 min.
- Tank Wars ``regret`` and ``regret-heuristic`` (N regret-matching iterations per round;
  default): 32 → 0.073 s, 128 → 0.27 s, 512 → 1.16 s, about linear: **16,384** → about
  37 s: 100 games ≈ an hour.

An agent that takes a budget must have its entry in ``BUDGETS``: ``check_budget`` refuses
a budget for any other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tankmap.analysis.simulation.games import PolicyError, parse_policy
from tankmap.rules.errors import short


@dataclass(frozen=True)
class Budget:
    """An agent's budget: its default, its upper limit and what it counts."""

    default: int
    limit: int
    unit: str


BUDGETS: dict[tuple[str, str], Budget] = {
    ("final-act", "search"): Budget(3, 500, "sampled enemy plans per round"),
    ("final-act", "ksearch"): Budget(6, 500, "sampled enemy plans per round"),
    ("final-act", "duct"): Budget(64, 8_192, "iterations per round"),
    ("final-act", "duct-h"): Budget(32, 8_192, "iterations per round"),
    ("tank-chess", "search"): Budget(60, 10_000, "lines per turn"),
    ("tank-chess", "alphabeta"): Budget(3_200, 131_072, "positions per turn"),
    ("tank-chess", "uct"): Budget(48, 1_000, "playouts per turn"),
    ("tank-wars", "search"): Budget(3, 150, "sampled futures per round"),
    ("tank-wars", "plan"): Budget(128, 16_384, "sampled futures per round"),
    ("tank-wars", "regret"): Budget(64, 16_384, "regret-matching iterations per round"),
    ("tank-wars", "regret-heuristic"): Budget(64, 16_384, "regret-matching iterations per round"),
}
"""(ruleset, agent) -> its budget (see the module docstring for how the limits were
chosen)."""

_DIGITS = re.compile(r"[0-9]{1,12}")


def check_budget(ruleset: str, spec: str) -> int | None:
    """The budget ``N`` of the agent ``spec`` (``"search:50+no-at"``) of ``ruleset``, or
    ``None`` when it gives none. ``PolicyError`` — one line naming the limit — for a
    budget that is not a whole number from 1 to the agent's limit, or on an agent that
    takes no budget.

    >>> check_budget("tank-chess", "uct:200")
    200
    """
    base, _restrictions = parse_policy(spec)
    name, colon, text = base.partition(":")
    if not colon:
        return None
    budget = BUDGETS.get((ruleset, name))
    if budget is None:
        takes = [f"{n}:N (at most {b.limit:,})" for (r, n), b in BUDGETS.items() if r == ruleset]
        raise PolicyError(
            f"policy {short(spec)}: {short(name)} takes no budget in {ruleset} "
            f"(agents with a budget: {', '.join(takes) or 'none'})"
        )
    if _DIGITS.fullmatch(text) and 1 <= int(text) <= budget.limit:
        return int(text)
    raise PolicyError(
        f"policy {short(spec)}: the budget of {ruleset} {name} is a whole number from 1 to "
        f"{budget.limit:,} {budget.unit} (default {budget.default}; at {budget.limit:,} a "
        "100-game self-play takes about an hour of one CPU core)"
    )
