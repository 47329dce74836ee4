"""Agent *families*: one agent at budgets B, 2B, 4B, … — the rungs of a verdict's climb.

``tankmap verdict`` judges a board with a family of agents whose strength grows with its
budget (``search:3``, ``search:6``, …): it climbs until a bigger budget no longer beats the
one before it (``analysis.verdict``). A family says which agent name takes the budget, the
first budget of a climb, the largest it may try, and whether the agent chooses its moves
without the game's heuristic (``independent``): agreement between an independent family
and a heuristic-based one is evidence that a verdict is the board's, not the heuristic's.

Each game lists its families, the verdict's default first: the family whose climb fits the
default time limit best, which is not always the strongest agent per CPU second (Final
Act ``ksearch`` and Tank Wars ``plan`` are stronger; ``docs/balance.md``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tankmap.analysis.simulation.games import PolicyError


@dataclass(frozen=True)
class Family:
    """An agent name that takes a budget (``name:N``) and the budgets a climb tries; the
    bare ``name`` plays ``default_budget``."""

    ruleset: str
    name: str
    base: int
    limit: int
    independent: bool
    default_budget: int
    check_budget: int | None = None
    """The budget it plays as another family's cross-check (``None``: its everyday agent)."""

    def agent(self, budget: int) -> str:
        """The agent name at ``budget`` (``"search:12"``)."""
        return f"{self.name}:{budget}"

    def budgets(self) -> Iterator[int]:
        """``base``, ``2 base``, ``4 base``, … up to ``limit``."""
        b = self.base
        while b <= self.limit:
            yield b
            b *= 2

    def default_agent(self) -> str:
        """The family's everyday agent: its bare name, which plays ``default_budget``."""
        return self.name

    def check_agent(self) -> str:
        """The agent it plays as another family's cross-check (``check_budget``, else its
        everyday agent)."""
        return self.default_agent() if self.check_budget is None else self.agent(self.check_budget)


_FAMILIES: dict[str, list[Family]] = {
    "final-act": [
        # ksearch (stronger per CPU second: ksearch:8 scores 0.89 against search:9 at less
        # CPU) is not a family: its budgets keep winning (mirror, 2 workers: from 2 it
        # stopped at ksearch:8, still beating 4 by 0.61; from 8, ksearch:16 beat 8 by 0.600
        # [0.502, 0.691] and the climb stopped at 150 s), where search levels off at 12:
        # with its faster rows, search's climb converged on mirror (both seeds, 144-169 s),
        # extra-forces and flanks-vs-centre (seed 1, 161 s and 144 s) (2026-11-28)
        Family("final-act", "search", base=3, limit=96, independent=False, default_budget=3),
        Family("final-act", "duct", base=16, limit=2048, independent=True, default_budget=64),
    ],
    "tank-chess": [
        # alphabeta from 6,400 positions a turn: its strength comes in steps (it first looks
        # two turns ahead from about 3,000 positions on the built-in boards, some 500 turns a
        # position), and a doubling inside a step looks like a plateau. basic-16, seed 2,
        # from base 100: 1600 no longer beat 800 (0.520), "converged, White favoured"; yet
        # 3200 beat 1600 0.880 [0.802, 0.930] (seed 1), and 3200's self-play favoured Black.
        # From base 3200 (2026-12-07, seed 2): 6400 no longer beat 3200 (0.535 [0.466,
        # 0.603]), "converged"; yet 12800 beats 6400 by 0.75 (seed 1, 40 games, twice)
        Family(
            "tank-chess",
            "alphabeta",
            base=6400,
            limit=102400,
            independent=True,
            default_budget=3200,
        ),
        Family("tank-chess", "search", base=30, limit=960, independent=False, default_budget=60),
    ],
    "tank-wars": [
        # regret first: as strong per CPU second as search (regret:512 scored 0.545
        # [0.48, 0.61] against search:9 on default at 62 % of its CPU), and its climb fits
        # the default time limit (default board: converged in 98 s) where search's does not
        # (search:3's self-play alone takes 45 s; search:6's rung would take 320 s more).
        # Base 32 (0.07 s CPU per game); from base 8 the rungs 8->16 and 16->32 still scored
        # 0.55-0.58; from 32, 64 scored 0.47-0.59 against 32 on the built-ins
        Family("tank-wars", "regret", base=32, limit=1024, independent=True, default_budget=64),
        # plan: search's planning compiled, far stronger per CPU second (plan:1024 scored
        # 0.818 [0.761, 0.867] against search:9 at less CPU), the cross-check of regret's
        # verdicts (plan:128's self-play takes about 0.09 s of CPU a game, search:3's 0.64 s).
        # Its climb from 32 converged on default (seed 2) at plan:256, but in 176 s; regret's
        # in 77 s: regret stays first. As a cross-check it plays 512 futures: on default
        # (seed 1) plan:128's self-play favoured South (balance 0.77 [0.64, 0.91]) where
        # regret's converged climb and plan:512 (0.96 [0.82, 1.00]) call it even; a check
        # weaker than the climb's top rung is no check (about 0.45 s of CPU a game)
        Family(
            "tank-wars",
            "plan",
            base=32,
            limit=16384,
            independent=False,
            default_budget=128,
            check_budget=512,
        ),
        Family("tank-wars", "search", base=3, limit=96, independent=False, default_budget=3),
    ],
}


def register_family(family: Family, first: bool = False) -> Family:
    """Add ``family`` to its game's list (as the verdict's default when ``first``),
    replacing a family of the same name."""
    found = [f for f in _FAMILIES.setdefault(family.ruleset, []) if f.name != family.name]
    _FAMILIES[family.ruleset] = [family, *found] if first else [*found, family]
    return family


def families(ruleset: str) -> tuple[Family, ...]:
    """The game's families, the verdict's default first (empty for a game without any)."""
    return tuple(_FAMILIES.get(ruleset, ()))


def family(ruleset: str, name: str | None = None) -> Family:
    """The family ``name`` of ``ruleset`` (default: the game's first); ``PolicyError`` when
    the game has no such family."""
    known = families(ruleset)
    if not known:
        raise PolicyError(f"{ruleset} has no agent family to climb")
    if name is None:
        return known[0]
    for f in known:
        if f.name == name:
            return f
    names = ", ".join(f.name for f in known)
    raise PolicyError(f"{ruleset} has no agent family {name!r} (known: {names})")


def cross_check_family(main: Family) -> Family | None:
    """A family of the same game of the other kind (independent vs heuristic-based) to
    compare a verdict with, or ``None``."""
    for f in families(main.ruleset):
        if f.independent != main.independent:
            return f
    return None
