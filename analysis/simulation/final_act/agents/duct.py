"""Final Act ``duct[:N]`` and ``duct-h[:N]``: decoupled UCT over every unit's orders and
shells, both sides searching (``duct/search.py`` says how), ``N`` iterations a
round.

- ``duct`` judges a round by its own light playouts and its own value of material and of
  the race to the last line (``duct/playout.py``): it never reads the heuristic's
  choices or rankings, so its verdicts are evidence independent of ``heuristic`` and
  ``search``.
- ``duct-h`` plays the heuristic on both sides in its playouts (heuristic-based).

Whole games with these agents (against each other, ``random`` or ``heuristic``) play on the
compiled kernel (``duct/games.py``); against the other agents the one-game driver
asks ``DuctPolicy`` round by round, which runs the same compiled search on the reference
engine's position. The plain-Python reference of the search is ``duct_ref.py``.

Advanced rules and tokens (docs/rules.md §1.8) and changed readings (§1.8a) are not played:
such a board is refused (``PolicyError``); the Extra Forces R/M repair is.

Measured (2026-11-28, one loaded core, CPU per self-play game): ``duct:16`` 0.013 s,
``duct:64`` 0.05 s, ``duct:128`` 0.14 s, ``duct:256`` 0.29 s (``search:9``: 0.40-0.45 s).
Against ``search:9`` at no more CPU (``benchmarks/strength_per_cpu.py``, 200 games, sides
swapped) ``duct`` scores 0.35 [0.29, 0.42] on extra-forces (``duct:256``) and 0.445 [0.38,
0.51] on mirror (``duct:384``): weaker per CPU second than the heuristic-based search.
Playout depth was measured before choosing 4 (20 games each against ``search:9`` on
extra-forces, at about the same CPU): depth 0 (the round alone, 4096 iterations) 0.05,
depth 1 (2048) 0.50, depth 4 (512) 0.60. ``duct-h`` is weaker still: ``duct-h:64`` scored
0 of 20 against ``search:9``. Each doubling of ``duct`` from 16 to 64 iterations still
scores about 0.70 against the budget before (the ``duct`` family's climb).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tankmap.analysis.simulation.final_act.agents.compiled_policy import (
    CompiledRoundPolicy,
    RoundPlan,
)
from tankmap.analysis.simulation.final_act.agents.duct_ref import search_key
from tankmap.analysis.simulation.final_act.duct.params import DEPTH
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.rules.final_act.engine import State


class DuctPolicy(CompiledRoundPolicy):
    """A ``duct`` agent for the one-game driver (``FinalActDriver.play``) and play mode:
    each round, the compiled search from the reference engine's position."""

    def __init__(
        self, prep: Prepared, side: int, no_berms: bool, playout: int, budget: int
    ) -> None:
        super().__init__(prep, side, "duct")
        self.no_berms = no_berms
        self.playout = playout
        self.budget = budget
        self._work: Any = None  # the search's work space (``round._scratch``)

    def plan(self, state: State, key: int) -> RoundPlan:
        """The round ``duct_search`` plans from ``state``."""
        from tankmap.analysis.simulation.final_act.duct.games import state_arrays
        from tankmap.analysis.simulation.final_act.duct.search import duct_search
        from tankmap.analysis.simulation.final_act.duct.tables import duct_tables
        from tankmap.analysis.simulation.final_act.kernel.round import _scratch

        T, X = duct_tables(self.prep)
        arrays = state_arrays(state, T.repair_on)
        units = len(state.kind)
        out = (  # a plain tuple, as the compiled search was compiled for
            arrays[0].copy(),
            arrays[1].copy(),
            np.full(units, -1, dtype=np.int64),
            np.zeros(units, dtype=np.bool_),
        )
        nobs = np.zeros(2, dtype=np.bool_)
        nobs[self.side] = self.no_berms
        skey = np.uint64(search_key(key, state.round, self.side))
        if self._work is None:
            self._work = _scratch(T, units)
        duct_search(
            T, X, self.side, skey, self.budget, DEPTH, self.playout, nobs, state.round, arrays,
            out, self._work,
        )  # fmt: skip
        return RoundPlan(*out)
