"""Tank Wars as the OpenSpiel game ``tankmap_tank_wars`` (simultaneous moves, chance).

A round (the rules engine's phases, docs/rules.md §3 as the repository's rules document states it):

1. **Artillery** — one chance node per shot (36 equally likely outcomes: the two dice),
   south's shots first; then the engine's ``artillery_phase`` with those rolls.
2. **Planning** — simultaneous steps: first one per vehicle slot (the ``k``-th live
   vehicle of each side in card order; action ``i`` = the ``i``-th entry of
   ``command_options``, ``0`` = no token unless every vehicle needs one; with
   ``tokens_per_kind`` only tokens still in hand), then one per gunfire token (action ``32 + j`` =
   the ``j``-th field of ``gunfire_targets``, ``32 + N`` = no token). Plans stay secret
   until the round resolves.
3. **Supply drop** — one chance node per drop roll, then ``resolve_orders`` moves, fires
   and drops with those rolls.

Returns: +1 / -1 / 0 (draw, also at the round limit). Tank Wars is provisional in tankmap
(see the rules document), and so is this game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from tankmap.analysis.openspiel.common import (
    SCENARIO_PARAMS,
    Shared,
    game_type,
    load_scenario_param,
)
from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.engine import artillery_phase, resolve_orders
from tankmap.rules.tank_wars.state import (
    FIELDS,
    Command,
    Orders,
    TankWarsState,
    command_options,
    gunfire_targets,
    initial_state,
    outcome,
    tokens_ok,
)

NAME = "tankmap_tank_wars"
DEFAULT_MAP = "tank-wars/default"
COMMAND_SLOTS = 32  # more than the 1 + 16 command options a vehicle can have
_PARAMS = SCENARIO_PARAMS
_SIDES = (Side.SOUTH, Side.NORTH)
_KINDS = ("heavy", "medium", "artillery")

GAME_TYPE = game_type(
    NAME,
    "tankmap Tank Wars (provisional)",
    "SIMULTANEOUS",
    "EXPLICIT_STOCHASTIC",
    "IMPERFECT_INFORMATION",
)


class ScriptedDice:
    """Stands in for the engine's ``numpy`` Generator: ``integers(0, 36**m)`` returns the
    next ``m`` rolls as base-36 digits, least significant first (``draw_rolls``' reading)."""

    def __init__(self, rolls: list[int]) -> None:
        self.rolls = list(rolls)

    def integers(self, low: int, high: int) -> int:
        m, h = 0, 1
        while h < high:
            h, m = h * FIELDS, m + 1
        value = 0
        for k in range(m):
            value += self.rolls.pop(0) * FIELDS**k
        return value


class TankWarsGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one scenario (parameter ``scenario``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_PARAMS, **(params or {})}
        scenario = load_scenario_param(str(params["scenario"]), DEFAULT_MAP)
        start = initial_state(scenario)
        rules = start.rules
        self.cells = start.board.size
        self.vehicle_slots = max(len(start.vehicles_of(s)) for s in _SIDES)
        self.gunfire_slots = rules.gunfire_tokens
        per_round = self.vehicle_slots + self.gunfire_slots + 2 * rules.supply_drops + 64
        super().__init__(
            GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=COMMAND_SLOTS + self.cells + 1,
                max_chance_outcomes=FIELDS,
                num_players=2,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=rules.max_rounds * per_round,
            ),
            params,
        )
        self.start = start

    def __reduce__(self) -> tuple[Any, ...]:
        return (TankWarsGame, (self.get_parameters(),))

    def new_initial_state(self) -> TankWarsGameState:
        return TankWarsGameState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TankWarsObserver:
        return TankWarsObserver(self)


class TankWarsGameState(pyspiel.State):  # type: ignore[misc]
    """Between rounds, or inside one: rolls drawn so far and the plans given so far."""

    def __init__(self, game: TankWarsGame) -> None:
        super().__init__(game)
        self._shared = Shared(game)
        self.tw: TankWarsState = game.start
        self._rolls: list[int] = []
        self._step = 0  # planning step inside the round
        self._plans: list[list[int]] = [[], []]
        self._log: list[str] = []  # what both players have seen: rolls and finished rounds

    def _game(self) -> TankWarsGame:
        g: TankWarsGame = self._shared.value
        return g

    def _phase(self) -> str:
        g, tw = self._game(), self.tw
        if outcome(tw) is not None:
            return "over"
        if not tw.in_round:
            return "artillery"
        if self._step < g.vehicle_slots + g.gunfire_slots:
            return "plan"
        return "supply"

    # --- OpenSpiel API -------------------------------------------------------------------
    def current_player(self) -> int:
        phase = self._phase()
        if phase == "over":
            return int(pyspiel.PlayerId.TERMINAL)
        if phase == "plan":
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return int(pyspiel.PlayerId.CHANCE)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(r, 1.0 / FIELDS) for r in range(FIELDS)]

    def _apply_action(self, action: int) -> None:  # a chance outcome: one die roll
        self._rolls.append(int(action))
        self._log.append(f"roll {action}")
        tw = self.tw
        if not tw.in_round:
            if len(self._rolls) == tw.artillery_shots(Side.SOUTH) + tw.artillery_shots(Side.NORTH):
                self.tw = artillery_phase(tw, ScriptedDice(self._rolls))  # type: ignore[arg-type]
                self._rolls = []
                self._step = 0
                self._plans = [[], []]
            return
        if len(self._rolls) == 2 * tw.rules.supply_drops:
            orders = [self._orders(s) for s in _SIDES]
            self.tw = resolve_orders(tw, orders[0], orders[1], ScriptedDice(self._rolls))  # type: ignore[arg-type]
            self._log.append(f"round plans {self._plans[0]} / {self._plans[1]}")
            self._rolls = []

    def _slot_options(self, player: int) -> list[int]:
        g, tw, side = self._game(), self.tw, _SIDES[player]
        if self._step < g.vehicle_slots:
            vehicles = tw.vehicles_of(side)
            if self._step >= len(vehicles):
                return [0]
            options = command_options(tw, vehicles[self._step])
            if tw.rules.tokens_per_kind <= 0:
                return list(range(len(options)))
            chosen = self._commands(side, self._plans[player][: self._step])
            return [  # within the side's tokens of each kind (docs/rules.md §3.1)
                i
                for i, c in enumerate(options)
                if c is None or tokens_ok(tw.rules, {**chosen, -1: c})
            ]
        j = self._step - g.vehicle_slots
        none = COMMAND_SLOTS + g.cells
        if j >= tw.gunfire_available(side):
            return [none]
        return [COMMAND_SLOTS + i for i in range(len(gunfire_targets(tw, side)))] + [none]

    def _legal_actions(self, player: int) -> list[int]:
        if self._phase() == "plan":
            return self._slot_options(player)
        return []

    def _apply_actions(self, actions: list[int]) -> None:
        for p in (0, 1):
            self._plans[p].append(int(actions[p]))
        self._step += 1

    def _orders(self, side: Side) -> Orders:
        g, tw = self._game(), self.tw
        plan = self._plans[side.index]
        commands = self._commands(side, plan[: g.vehicle_slots])
        targets = gunfire_targets(tw, side)
        gunfire = tuple(
            targets[a - COMMAND_SLOTS]
            for a in plan[g.vehicle_slots :]
            if COMMAND_SLOTS <= a < COMMAND_SLOTS + len(targets)
        )
        return Orders(commands, gunfire)

    def _commands(self, side: Side, picks: list[int]) -> dict[int, Command]:
        """The command tokens of ``side``'s vehicle slots ``picks`` (indices into each
        vehicle's ``command_options``)."""
        vehicles = self.tw.vehicles_of(side)
        commands: dict[int, Command] = {}
        for k, a in enumerate(picks):
            if k < len(vehicles):
                cmd = command_options(self.tw, vehicles[k])[a]
                if cmd is not None:
                    commands[vehicles[k].ident] = cmd
        return commands

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"roll {action} ({'ABCDEF'[action % 6]}{action // 6 + 1})"
        if action < COMMAND_SLOTS:
            return "no token" if action == 0 else f"command option {action}"
        g = self._game()
        if action == COMMAND_SLOTS + g.cells:
            return "no gunfire"
        return f"gunfire target {action - COMMAND_SLOTS}"

    def is_terminal(self) -> bool:
        return outcome(self.tw) is not None

    def returns(self) -> list[float]:
        out = outcome(self.tw)
        if out is None or out.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if out.winner is Side.SOUTH else [-1.0, 1.0]

    def information_state_string(self, player: int) -> str:
        return f"{' | '.join(self._log)}\nmy plan: {self._plans[player]}"

    def observation_string(self, player: int) -> str:
        return f"{self}\nmy plan: {self._plans[player]}"

    def __str__(self) -> str:
        tw = self.tw
        board = tw.board
        at = {v.cell: v for v in tw.vehicles}
        rows = []
        for r in range(board.rows - 1, -1, -1):
            line = []
            for c in range(board.columns):
                cell = board.cell(c, r)
                v = at.get(cell)
                if v is not None:
                    ch = v.kind[0]
                    line.append(ch.upper() if v.side is Side.SOUTH else ch)
                elif cell in tw.craters:
                    line.append("o")
                elif cell in tw.supports:
                    line.append("+")
                else:
                    line.append(".")
            rows.append("".join(line))
        return "\n".join(rows) + f"\nround {tw.round + 1}, phase {self._phase()}"


class TankWarsObserver:
    """Planes: vehicle kind x side, armour (scaled), crater, support x rows x columns."""

    PLANES = 2 * len(_KINDS) + 3

    def __init__(self, game: TankWarsGame) -> None:
        b = game.start.board
        self.tensor = np.zeros((self.PLANES, b.rows, b.columns), np.float32)
        self.dict = {"observation": self.tensor}
        self._board = b

    def set_from(self, state: TankWarsGameState, player: int) -> None:
        tw, b, t = state.tw, self._board, self.tensor
        t.fill(0)
        for v in tw.vehicles:
            r, c = b.row_of(v.cell), b.col_of(v.cell)
            t[v.side.index * len(_KINDS) + _KINDS.index(v.kind), r, c] = 1
            t[2 * len(_KINDS), r, c] = v.armour / 5.0
        for cell in tw.craters:
            t[2 * len(_KINDS) + 1, b.row_of(cell), b.col_of(cell)] = 1
        for cell in tw.supports:
            t[2 * len(_KINDS) + 2, b.row_of(cell), b.col_of(cell)] = 1

    def string_from(self, state: TankWarsGameState, player: int) -> str:
        return state.observation_string(player)


pyspiel.register_game(GAME_TYPE, TankWarsGame)
