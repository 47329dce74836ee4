"""What the compiled Final Act agents (``duct``, ``ksearch``) share when they play on the
one-game driver (``FinalActDriver.play``) and in play mode: the boards they refuse, the
game key drawn at the first decision, and the turn of the kernel's arrays into the
engine's orders, shells and R/M repairs. Each agent says only how it plans a round
(``CompiledRoundPolicy.plan``)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.agents.reference import RoundView
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


class RoundPlan(NamedTuple):
    """One side's round as the kernel gives it, one entry per unit: destination cell,
    facing, the cell shelled (``-1``: none) and whether it repairs (an R/M)."""

    dest: npt.NDArray[np.int64]
    facing: npt.NDArray[np.int64]
    shells: npt.NDArray[np.int64]
    repair: npt.NDArray[np.bool_]


class CompiledRoundPolicy:
    """A Final Act agent whose round is planned by one compiled call (``plan``), from the
    reference engine's position, keyed by a key drawn from the game's generator at its
    first decision. Boards with advanced rules or changed readings are refused
    (``PolicyError``); the R/M repair is played."""

    def __init__(self, prep: Prepared, side: int, name: str) -> None:
        refuse_slow(prep, name)
        self.prep = prep
        self.side = side
        self.key: int | None = None
        self._repairs: list[int] = []

    def plan(self, state: State, key: int) -> RoundPlan:
        """The side's round from ``state`` for the game keyed ``key``."""
        raise NotImplementedError

    def decide(
        self, view: RoundView, rng: np.random.Generator
    ) -> tuple[dict[int, Order], dict[int, int]]:
        """The side's orders and shells (its R/M repairs follow from ``act``)."""
        st = view.state
        if self.key is None:
            self.key = key_of(rng)
        out = self.plan(st, self.key)
        orders: dict[int, Order] = {}
        fired: dict[int, int] = {}
        self._repairs = []
        for u in st.live(self.side):
            orders[u] = (int(out.dest[u]), Facing(int(out.facing[u])))
            if out.shells[u] >= 0:
                fired[u] = int(out.shells[u])
            if out.repair[u]:
                self._repairs.append(u)
        return orders, fired

    def act(
        self,
        view: RoundView,
        orders: dict[int, Order],
        shells: dict[int, int],
        rng: np.random.Generator,
    ) -> Actions:
        """The R/M repairs chosen with this round's orders."""
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
