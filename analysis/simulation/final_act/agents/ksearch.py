"""Final Act ``ksearch[:N]``: ``search``'s planning compiled whole, shells included.

Like ``search``, it improves the heuristic's plan tank by tank against ``N`` sampled enemy
heuristic plans and futures: each candidate is played one round against every sampled
enemy plan, then one heuristic round, and valued by ``agents.search.value``; a tank's other
orders are kept when their mean is better on the same samples (default ``N`` = 6). It
differs in four ways:

- everything (the heuristic's plans, the sweeps, the scoring) is one compiled call per
  decision (``kernel/plan_search.py``), with no Python between candidates;
- it also places shells: after a tank's orders, each firing tank's other targets (cells
  of its fire zone that an enemy unit ends on in a sampled plan) are tried in place of
  the heuristic's shell;
- it sweeps over its tanks twice (the second sweep sees the first's changes; a sweep that
  changes nothing ends it);
- the enemy plans are the kernel heuristic's samples, the futures keyed, ties broken by
  counter noise (so it does not play ``search``'s games); the heuristic's R/M repairs are
  declared and scored (a tank given another order declares none); ``+no-berms`` holds for
  the tried orders too.

Why (measured 2026-11-28 on one loaded core; matches of 100 games against ``search:9``,
sides swapped, 2 workers):

- compiled: cProfile of 6 self-play games of ``search:9`` on extra-forces: of 5.07 s the
  look-ahead kernel took 1.56 s (31 %), the Python loop building its rows 1.94 s, the
  Python heuristic's plans 0.79 s, the rest of the loop about 0.8 s. Compiled with the
  same planning, a self-play game costs 0.20-0.22 s at 9 samples (``search:9``: 0.40-0.47
  s); 18 samples scored 0.71 (extra-forces) and 0.65 (mirror) at about ``search:9``'s CPU.
- shells: the largest gain; one sweep with shells at 18 samples scored 0.91 (extra-forces)
  and 0.89 (mirror).
- two sweeps: 6 samples scored 0.92 on mirror at 0.22 s a game.
- the figure (``benchmarks/strength_per_cpu.py``: the largest budget from 4 in
  half-octave steps within ``search:9``'s CPU per self-play game, then 200 games, sides
  swapped): ``ksearch:8`` scored 0.89 [0.84, 0.93] on extra-forces (0.41 s a game against
  0.53 s) and 0.89 [0.84, 0.93] on mirror (0.37 s against 0.44 s). After ``search`` itself
  became faster (its rows laid out with numpy), ``ksearch:6`` scored 0.915 [0.87, 0.95] on
  extra-forces (0.27 s against 0.34 s) and ``ksearch:4`` 0.865 [0.81, 0.91] on mirror (0.18
  s against 0.24 s).
- not kept: successive halving over a tank's candidates (all on the first 4 futures, the
  better half on as many more, …) bought twice the samples at the same CPU but scored no
  better (mirror 0.62-0.63 at 36-54 samples against 0.65 at 18 without shells; 0.87 and
  extra-forces 0.84 at 36 against 0.89 / 0.91 at 18 with shells); 2 look-ahead rounds
  (mirror, 9 samples, 0.35 s a game) 0.48 against 1 round's 0.59 at 13 samples.

The plain-Python reference is ``ksearch_ref.py`` (same decisions,
``tests/simulation/test_ksearch.py``). Advanced rules and tokens (docs/rules.md §1.8) and
changed readings (§1.8a) are not played: such a board is refused (``PolicyError``); the
Extra Forces R/M repair is.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tankmap.analysis.simulation.final_act.agents.compiled_policy import (
    CompiledRoundPolicy,
    RoundPlan,
)
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.analysis.simulation.noise import mix64
from tankmap.rules.final_act.engine import State

DEFAULT_SAMPLES = 6
SALT_ROUND = 0x6B73_6561_7263_6800


def decision_key(key: int, rnd: int, side: int) -> int:
    """The key of the decision ``side`` makes after ``rnd`` rounds of the game keyed
    ``key``."""
    return mix64(key ^ mix64(SALT_ROUND + 2 * rnd + side))


class KSearchPolicy(CompiledRoundPolicy):
    """A ``ksearch`` agent for the one-game driver (``FinalActDriver.play``): each round,
    the compiled decision from the reference engine's position; the heuristic's memory
    (rounds without progress) kept from round to round."""

    def __init__(
        self, prep: Prepared, side: int, no_berms: bool, samples: int = DEFAULT_SAMPLES
    ) -> None:
        super().__init__(prep, side, "ksearch")
        self.samples = samples
        self.nobs = np.zeros(2, dtype=np.bool_)
        self.nobs[side] = no_berms
        self._memory: Any = None
        self._work: Any = None

    def plan(self, state: State, key: int) -> RoundPlan:
        """The round ``plan_search`` decides from ``state``."""
        from tankmap.analysis.simulation.final_act.kernel.packed import tables
        from tankmap.analysis.simulation.final_act.kernel.plan_search import (
            DEFAULT_SHAPE,
            new_memory,
            plan_search,
        )
        from tankmap.analysis.simulation.final_act.kernel.round import _scratch
        from tankmap.analysis.simulation.final_act.kernel.tables import tables_of

        units = len(state.kind)
        if self._memory is None:
            self._memory = new_memory(units)
            self._work = _scratch(tables(tables_of(self.prep)), units)
        skey = decision_key(key, state.round, self.side)
        out, _ = plan_search(
            self.prep, state, self.side, skey, self.samples, self.nobs, self._memory,
            DEFAULT_SHAPE, self._work,
        )  # fmt: skip
        return RoundPlan(out.dest, out.facing, out.shells, out.repair)
