"""The agents play mode uses: every import from ``analysis.simulation``'s drivers and
policies happens in this module and nowhere else in ``analysis.play`` (when those packages
move, this is the one file to follow them).

An agent here answers for one side and one position, seeded:

- Tank Chess (``TankChessAgent.choose``): the simulation's policy object (``random``,
  ``heuristic``, ``uct[:N]``, ``search[:N]``, restrictions ``+no-KIND``) chooses a turn of
  the Python engine — the same decisions as in ``tankmap simulate``'s Python path.
- Final Act (``FinalActAgent``): every agent decides on the one-game reference engine
  (``rules.final_act.engine``) through the reference policies: ``random`` and
  ``heuristic`` are their ``-ref`` twins (the same ideas; the compiled kernel plays
  whole games, not one position), ``search[:N]`` scores its candidates
  as in ``simulate`` (on the compiled kernel, else the one-game engine). Restriction
  ``+no-berms`` is kept; ``+no-KIND`` (which takes units out of the game) is refused.
- Tank Wars (``TankWarsAgent.orders``): the simulation's policy callables.

``HINT_AGENTS`` names, per game, the agents behind **Hint**, strongest first: the first
one the board lets play (``PolicyError`` otherwise) gives the hint.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tankmap.analysis.simulation.agent_info import agents_entry, describe, strength_text
from tankmap.analysis.simulation.budgets import check_budget
from tankmap.analysis.simulation.final_act.agents.factory import make_policy as fa_make_policy
from tankmap.analysis.simulation.final_act.agents.reference import RoundView as FaRoundView
from tankmap.analysis.simulation.final_act.prepared import Prepared as FaPrepared
from tankmap.analysis.simulation.games import PolicyError, get_driver, parse_policy
from tankmap.analysis.simulation.tank_chess.agents.factory import make_policy as tc_make_policy
from tankmap.analysis.simulation.tank_chess.prepared import Prepared as TcPrepared
from tankmap.analysis.simulation.tank_wars.agents.factory import make_policy as tw_make_policy
from tankmap.analysis.simulation.tank_wars.driver import TankWarsRecord
from tankmap.rules.final_act.engine import Game, RoundReport, State
from tankmap.rules.final_act.engine_advanced import Actions
from tankmap.rules.final_act.tables import Order
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario
from tankmap.rules.tank_chess.state import GameState, Turn
from tankmap.rules.tank_wars.engine import Orders, TankWarsState

__all__ = [
    "HINT_AGENTS",
    "PolicyError",
    "FinalActAgent",
    "TankChessAgent",
    "TankWarsAgent",
    "TankWarsRecord",
    "agent_line",
    "agent_names",
    "check_agent",
]

HINT_AGENTS: dict[str, tuple[str, ...]] = {
    "tank-chess": ("alphabeta", "search"),
    "final-act": ("ksearch:8", "search"),
    "tank-wars": ("plan:1024", "search"),
}
"""The agents Hint asks, per game, strongest first (docs/balance.md): families that score
0.8 or more against ``search``'s reference budget at equal CPU per game
(``benchmarks/strength_per_cpu.py``), at budgets that answer in about a tenth of a second,
then ``search`` for the boards the first refuses (Final Act advanced options or changed
readings, which ``ksearch`` does not play)."""


def agent_names(ruleset: str) -> list[str]:
    """The agents offered for ``ruleset`` in play mode, weakest first (Final Act's ``-ref``
    twins left out: in play every Final Act agent is its reference implementation)."""
    return [n for n in get_driver(ruleset).policy_names() if not n.endswith("-ref")]


def check_agent(scenario: Scenario, spec: str) -> None:
    """Raise ``PolicyError`` (one line, the known names) if ``spec`` cannot play a side of
    ``scenario`` in play mode."""
    driver = get_driver(scenario.ruleset)
    if scenario.ruleset == "final-act":
        driver.check_policy(None, spec)
        removed = [r for r in parse_policy(spec)[1] if r != "no-berms"]
        if removed:
            raise PolicyError(
                f"agent {spec!r}: +{removed[0]} takes units out of the game, which play mode "
                "does not do (+no-berms is fine)"
            )
    elif scenario.ruleset == "tank-chess":
        check_budget("tank-chess", spec)  # (the driver's check_policy is skipped below)
        try:
            base, restrictions = parse_policy(spec)
            tc_make_policy(base, restrictions, _TankChessShared.of(scenario), 0)
        except (KeyError, ValueError):  # the driver's own message, with the known names
            driver.check_policy(_Unprepared(), spec)
            raise
    else:
        driver.check_policy(scenario, spec)


class _Unprepared:
    """Stands in for the driver's prepared scenario when only the message is wanted."""

    policy_data = None


def agent_line(scenario: Scenario, spec: str, side: Side) -> str:
    """``"heuristic — ...; ladder Elo +120 [..] on this board, strongest of 3"``: what the
    agent does and how strong the last ``tankmap ladder`` of this board found it."""
    entry = agents_entry(scenario, (spec, spec))[side.value]
    return f"{describe(scenario.ruleset, spec)} — {strength_text(entry)}"


def _rng(seed: int, *key: int) -> np.random.Generator:
    return np.random.default_rng([seed, *key])


# --- Tank Chess -----------------------------------------------------------------------------
class _TankChessShared:
    """The policies' per-scenario data (escape tables, memo), built once per scenario."""

    _cache: dict[Scenario, Any] = {}

    @classmethod
    def of(cls, scenario: Scenario) -> Any:
        found = cls._cache.get(scenario)
        if found is None:
            cls._cache.clear()  # one board at a time is what play mode needs
            found = cls._cache[scenario] = TcPrepared(GameState(scenario))
        return found


class TankChessAgent:
    """Agent ``spec`` playing ``side`` (0 south/White, 1 north/Black); seeded."""

    def __init__(self, scenario: Scenario, spec: str, side: int, seed: int, key: int = 0) -> None:
        base, restrictions = parse_policy(spec)
        self.spec = spec
        self.policy = tc_make_policy(base, restrictions, _TankChessShared.of(scenario), side)
        self.rng = _rng(seed, side, key)

    def choose(self, state: GameState) -> Turn:
        """The agent's turn in ``state`` (its side to move; ``state`` is not changed)."""
        turn: Turn = self.policy.choose(state.copy(), None, self.rng)
        return turn


# --- Final Act ------------------------------------------------------------------------------
class FinalActAgent:
    """Agent ``spec`` giving ``side``'s orders, shells and declarations, one decision at a
    time, as the simulation's one-game driver asks them (docs in the module)."""

    _prepared: dict[int, Any] = {}

    def __init__(self, game: Game, spec: str, side: int, seed: int, key: int = 0) -> None:
        base, restrictions = parse_policy(spec)
        prep = self._prepared.get(id(game))
        if prep is None or prep.game is not game:
            self._prepared.clear()
            prep = self._prepared[id(game)] = FaPrepared(game)
        self.prep = prep
        self.spec = spec
        self.side = side
        self.policy = fa_make_policy(base.removesuffix("-ref"), restrictions, prep, side)
        self.rng = _rng(seed, side, key)

    def pick_tokens(self, tokens: list[str], k: int) -> list[str]:
        """``k`` of the action tokens offered (option ``token_share`` pick)."""
        return list(self.policy.pick_tokens(tokens, k, self.rng))

    def pre_round(self, state: State) -> Actions:
        """Start-of-round tokens (quick sand, mine clearing)."""
        return self.policy.pre_round(state.copy(), self.rng)

    def decide(self, state: State) -> tuple[dict[int, Order], dict[int, int], Actions]:
        """Orders, shells and the declarations made with them (advanced actions, which AT
        to keep when a shell hits two) for the round about to be played."""
        st = state.copy()
        view = FaRoundView(st, self.prep)
        orders, shells = self.policy.decide(view, self.rng)
        acts = Actions()
        if st.game.adv:
            acts = self.policy.act(view, orders, shells, self.rng)
        acts.at_spared.extend(self.policy.spare_ats(view, orders))
        return orders, shells, acts

    def respond(
        self, phase: str, state: State, shells: dict[int, int], report: RoundReport
    ) -> Actions:
        """Mid-round declarations: ``"moved"`` (smoke) or ``"hit"`` (Red Cross)."""
        return self.policy.respond(phase, state.copy(), dict(shells), report, self.rng)


# --- Tank Wars ------------------------------------------------------------------------------
class TankWarsAgent:
    """Agent ``spec`` planning ``side``'s command and gunfire tokens; seeded."""

    def __init__(self, spec: str, side: int, seed: int, key: int = 0) -> None:
        base, restrictions = parse_policy(spec)
        self.spec = spec
        self.policy = tw_make_policy(base, restrictions, _rng(seed, side, key))

    def orders(self, state: TankWarsState, side: Side) -> Orders:
        """The side's orders for the round whose artillery has fired (``state.in_round``)."""
        return self.policy(state, side)
