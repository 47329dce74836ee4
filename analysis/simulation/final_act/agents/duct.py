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

from tankmap.analysis.simulation.final_act.agents.duct_ref import search_key
from tankmap.analysis.simulation.final_act.agents.reference import RoundView
from tankmap.analysis.simulation.final_act.duct.params import DEPTH
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.analysis.simulation.games import PolicyError
from tankmap.analysis.simulation.noise import key_of
from tankmap.rules.final_act.engine import RoundReport, State
from tankmap.rules.final_act.engine_actions import Actions
from tankmap.rules.final_act.tables import Order
from tankmap.rules.geometry import Facing


def refuse_slow(prep: Prepared, name: str) -> None:
    """``PolicyError`` when ``prep``'s game has advanced options (other than R/M repair) or
    changed readings on, which only the reference agents play."""
    game = prep.game
    if game.adv.slow or game.readings.changed:
        on = sorted(game.adv.slow) + [f"reading {r}" for r in game.readings.changed]
        raise PolicyError(
            f"{name} plays the basic rules and Extra Forces only, not {', '.join(on)}: "
            "use heuristic or search on this board"
        )


class DuctPolicy:
    """A ``duct`` agent for the one-game driver (``FinalActDriver.play``) and play mode:
    each round, the compiled search from the reference engine's position, keyed by a key
    drawn from the game's generator at its first decision."""

    def __init__(
        self, prep: Prepared, side: int, no_berms: bool, playout: int, budget: int
    ) -> None:
        refuse_slow(prep, "duct")
        self.prep = prep
        self.side = side
        self.no_berms = no_berms
        self.playout = playout
        self.budget = budget
        self.key: int | None = None
        self._repairs: list[int] = []
        self._work: Any = None  # the search's work space (``round._scratch``)

    def decide(
        self, view: RoundView, rng: np.random.Generator
    ) -> tuple[dict[int, Order], dict[int, int]]:
        """The side's orders and shells (its R/M repairs follow from ``act``)."""
        from tankmap.analysis.simulation.final_act.duct.games import state_arrays
        from tankmap.analysis.simulation.final_act.duct.search import duct_search
        from tankmap.analysis.simulation.final_act.duct.tables import duct_tables
        from tankmap.analysis.simulation.final_act.kernel.round import _scratch

        st = view.state
        if self.key is None:
            self.key = key_of(rng)
        T, X = duct_tables(self.prep)
        state = state_arrays(st, T.repair_on)
        units = len(st.kind)
        out = (
            state[0].copy(),
            state[1].copy(),
            np.full(units, -1, dtype=np.int64),
            np.zeros(units, dtype=np.bool_),
        )
        nobs = np.zeros(2, dtype=np.bool_)
        nobs[self.side] = self.no_berms
        skey = np.uint64(search_key(self.key, st.round, self.side))
        if self._work is None:
            self._work = _scratch(T, units)
        duct_search(
            T, X, self.side, skey, self.budget, DEPTH, self.playout, nobs, st.round, state, out,
            self._work,
        )  # fmt: skip
        dest, fac, shells, repair = out
        orders: dict[int, Order] = {}
        fired: dict[int, int] = {}
        self._repairs = []
        for u in st.live(self.side):
            orders[u] = (int(dest[u]), Facing(int(fac[u])))
            if shells[u] >= 0:
                fired[u] = int(shells[u])
            if repair[u]:
                self._repairs.append(u)
        return orders, fired

    def act(
        self,
        view: RoundView,
        orders: dict[int, Order],
        shells: dict[int, int],
        rng: np.random.Generator,
    ) -> Actions:
        """The R/M repairs the search chose with this round's orders."""
        return Actions(rm_repair=list(self._repairs))

    def pre_round(self, state: State, rng: np.random.Generator) -> Actions:
        """No start-of-round tokens (boards with tokens are refused)."""
        return Actions()

    def respond(
        self,
        phase: str,
        state: State,
        shells: dict[int, int],
        report: RoundReport,
        rng: np.random.Generator,
    ) -> Actions:
        """No mid-round tokens (boards with tokens are refused)."""
        return Actions()

    def spare_ats(self, view: RoundView, orders: dict[int, Order]) -> list[int]:
        """The engine's default choice of the AT a shell on two takes (as the kernel)."""
        return []

    def pick_tokens(self, tokens: list[str], k: int, rng: np.random.Generator) -> list[str]:
        """(Boards with tokens are refused.)"""
        return tokens[:k]
