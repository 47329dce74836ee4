"""Final Act as the OpenSpiel game ``tankmap_final_act`` (simultaneous moves).

A round's secret orders are given in ``K`` simultaneous steps, ``K`` = the most units a side
has: at step ``k`` each player orders its ``k``-th unit (the scenario's order of that side's
units). The action is ``order * (N + 1) + target``: ``order`` indexes the unit's legal
orders (``0`` = stay, as the engine lists them) and ``target`` is the cell it shells, or
``N`` (the number of cells) for no shell. A unit out of the game has the one action ``0``.
After step ``K`` the round resolves through the rules engine (``Game.play_round``).

Orders stay secret until the round resolves: a player's observation and information state
show the board, the rounds played and its *own* orders of the current round, never the
other side's pending ones. docs/rules.md §1.8 action tokens are not offered (with such options on,
the game is played with no token declared). Returns: +1 / -1 / 0 (draw).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from tankmap.analysis.openspiel.common import (
    SCENARIO_PARAMS,
    Cloned,
    Shared,
    game_type,
    load_scenario_param,
)
from tankmap.rules.fileformat import dumps_scenario, loads_scenario
from tankmap.rules.final_act.engine import Game, State
from tankmap.rules.final_act.engine_actions import Actions
from tankmap.rules.final_act.tables import Order

NAME = "tankmap_final_act"
DEFAULT_MAP = "final-act/mirror"
MAX_ORDERS = 64  # more orders than any Final Act unit has; checked when orders are listed
_PARAMS = SCENARIO_PARAMS
_KINDS = ("tank", "at", "rm")

GAME_TYPE = game_type(
    NAME, "tankmap Final Act", "SIMULTANEOUS", "DETERMINISTIC", "IMPERFECT_INFORMATION"
)


class FinalActGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one scenario (parameter ``scenario``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_PARAMS, **(params or {})}
        scenario = load_scenario_param(str(params["scenario"]), DEFAULT_MAP)
        engine = Game(scenario)
        start = engine.initial_state()
        slots = [[u for u in range(len(start.kind)) if start.side[u] == s] for s in (0, 1)]
        self.cells = scenario.board.size
        self.steps = max(len(slots[0]), len(slots[1]), 1)
        super().__init__(
            GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=MAX_ORDERS * (self.cells + 1),
                max_chance_outcomes=0,
                num_players=2,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=engine.max_rounds * self.steps,
            ),
            params,
        )
        self.engine, self.start, self.slots = engine, start, slots

    def __reduce__(self) -> tuple[Any, ...]:
        return (FinalActGame, (self.get_parameters(),))

    def new_initial_state(self) -> FinalActState:
        return FinalActState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> FinalActObserver:
        return FinalActObserver(self)


class FinalActState(pyspiel.State):  # type: ignore[misc]
    """A position, the rounds played and the orders given so far this round."""

    def __init__(self, game: FinalActGame) -> None:
        super().__init__(game)
        self._shared = Shared(game)
        self._st = Cloned(game.start.copy(), _reduce, _rebuild(game))
        self._step = 0
        self._pending: list[list[int]] = [[], []]  # actions given this round, per player
        self._played: list[tuple[tuple[int, ...], tuple[int, ...]]] = []  # finished rounds

    @property
    def st(self) -> State:
        st: State = self._st.value
        return st

    def _game(self) -> FinalActGame:
        g: FinalActGame = self._shared.value
        return g

    def _unit(self, player: int) -> int:
        slots = self._game().slots[player]
        return slots[self._step] if self._step < len(slots) else -1

    def _options(self, u: int) -> tuple[tuple[Order, ...], list[int]]:
        st = self.st
        orders = st.orders(u) if u >= 0 else ()
        if len(orders) > MAX_ORDERS:
            raise pyspiel.SpielError(f"unit {u} has {len(orders)} orders (> {MAX_ORDERS})")
        return orders, st.fire_zone(u) if u >= 0 and st.alive[u] else []

    # --- OpenSpiel API -------------------------------------------------------------------
    def current_player(self) -> int:
        if self.st.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.SIMULTANEOUS)

    def _legal_actions(self, player: int) -> list[int]:
        u = self._unit(player)
        orders, zone = self._options(u)
        if not orders:
            return [0]
        n = self._game().cells
        out = []
        for i, order in enumerate(orders):
            out.append(i * (n + 1) + n)
            if self.st.can_fire(u, order):
                out.extend(i * (n + 1) + c for c in zone)
        return sorted(out)

    def _apply_actions(self, actions: list[int]) -> None:
        for p in (0, 1):
            self._pending[p].append(int(actions[p]))
        self._step += 1
        if self._step < self._game().steps:
            return
        g = self._game()
        st = self.st
        n = g.cells
        orders: list[Order | None] = [None] * len(st.kind)
        shells: dict[int, int] = {}
        for p in (0, 1):
            for k, a in enumerate(self._pending[p]):
                u = g.slots[p][k] if k < len(g.slots[p]) else -1
                if u < 0 or not st.alive[u]:
                    continue
                order_i, target = divmod(a, n + 1)
                orders[u] = st.orders(u)[order_i]
                if target < n:
                    shells[u] = target
        g.engine.play_round(st, orders, shells, Actions() if g.engine.adv else None)
        self._played.append((tuple(self._pending[0]), tuple(self._pending[1])))
        self._pending = [[], []]
        self._step = 0

    def _action_to_string(self, player: int, action: int) -> str:
        n = self._game().cells
        order_i, target = divmod(action, n + 1)
        shell = "no shell" if target == n else f"shell {self.st.game.board.cell_name(target)}"
        return f"order {order_i}, {shell}"

    def is_terminal(self) -> bool:
        return bool(self.st.over)

    def returns(self) -> list[float]:
        w = self.st.winner
        if w is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if w.index == 0 else [-1.0, 1.0]

    def information_state_string(self, player: int) -> str:
        rounds = " | ".join(f"{a}/{b}" for a, b in self._played)
        return f"rounds: {rounds}\nmine: {self._pending[player]}"

    def observation_string(self, player: int) -> str:
        return f"{self}\nmy orders this round: {self._pending[player]}"

    def __str__(self) -> str:
        st, board = self.st, self.st.game.board
        rows = []
        for r in range(board.rows - 1, -1, -1):
            line = []
            for c in range(board.columns):
                cell = board.cell(c, r)
                here = [
                    u
                    for u in range(len(st.kind))
                    if st.cell[u] == cell and (st.alive[u] or st.wreck[u])
                ]
                if not here:
                    line.append(".")
                    continue
                u = here[0]
                ch = "x" if st.wreck[u] else st.kind[u][0]
                line.append(ch.upper() if st.side[u] == 0 and not st.wreck[u] else ch)
            rows.append("".join(line))
        return "\n".join(rows) + f"\nround {st.round + 1}, step {self._step}"


def _reduce(st: State) -> tuple[Any, ...]:
    return (
        list(st.kind),
        list(st.side),
        list(st.cell),
        [int(f) for f in st.facing],
        list(st.damage),
        list(st.alive),
        list(st.wreck),
        st.round,
        st.wreck_mask,
        None if st.winner is None else st.winner.index,
        st.end,
        list(st.kills),
    )


class _Rebuild:
    """Makes a state again from ``_reduce``'s values (for OpenSpiel's serialization)."""

    def __init__(self, scenario_text: str) -> None:
        self.scenario_text = scenario_text

    def __call__(self, *values: Any) -> State:
        from tankmap.rules.geometry import Facing, Side

        engine = Game(loads_scenario(self.scenario_text))
        st = engine.initial_state()
        (kind, side, cell, facing, damage, alive, wreck, rnd, mask, winner, end, kills) = values
        st.kind, st.side, st.cell = list(kind), list(side), list(cell)
        st.facing = [Facing(f) for f in facing]
        st.damage, st.alive, st.wreck = list(damage), list(alive), list(wreck)
        st.round, st.wreck_mask, st.end, st.kills = rnd, mask, end, list(kills)
        st.winner = None if winner is None else (Side.SOUTH, Side.NORTH)[winner]
        return st


def _rebuild(game: FinalActGame) -> _Rebuild:
    return _Rebuild(dumps_scenario(game.engine.scenario))


class FinalActObserver:
    """Planes: unit kind x side, damaged, wreck, facing (8) x rows x columns."""

    PLANES = 2 * len(_KINDS) + 2 + 8

    def __init__(self, game: FinalActGame) -> None:
        b = game.engine.board
        self.tensor = np.zeros((self.PLANES, b.rows, b.columns), np.float32)
        self.dict = {"observation": self.tensor}
        self._board = b

    def set_from(self, state: FinalActState, player: int) -> None:
        st, b, t = state.st, self._board, self.tensor
        t.fill(0)
        for u in range(len(st.kind)):
            if not (st.alive[u] or st.wreck[u]):
                continue
            r, c = b.row_of(st.cell[u]), b.col_of(st.cell[u])
            if st.wreck[u]:
                t[2 * len(_KINDS) + 1, r, c] = 1
                continue
            t[st.side[u] * len(_KINDS) + _KINDS.index(st.kind[u]), r, c] = 1
            if st.damage[u]:
                t[2 * len(_KINDS), r, c] = 1
            t[2 * len(_KINDS) + 2 + int(st.facing[u]), r, c] = 1

    def string_from(self, state: FinalActState, player: int) -> str:
        return state.observation_string(player)


pyspiel.register_game(GAME_TYPE, FinalActGame)
