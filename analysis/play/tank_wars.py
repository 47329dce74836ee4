"""A Tank Wars game being played (provisional ruleset, docs/rules.md §3).

Each round the artillery fires first (its dice are rolled as the round starts, so both
sides plan knowing where the shells fell, as players do); then both sides give their
command and gunfire tokens in secret (one line each, ``tank_wars_lines``); then the engine
resolves movement, gunfire and the supply drop (more dice). The dice come from one
generator seeded by ``dice_seed``, in the order a game record replays them, so the record
(``TankWarsRecord``) plays back the very same game. Taking back a round rolls its
artillery dice again from the same generator state: the same shells fall.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from tankmap.analysis.play.base import SIDES, LineError, PlaySession, Result, refused
from tankmap.analysis.play.tank_wars_lines import TankWarsLineError, TankWarsLines, format_command
from tankmap.analysis.replay import ReplayStep, tank_wars_gunfire, tank_wars_step
from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario
from tankmap.rules.sides import side_name
from tankmap.rules.tank_wars.engine import (
    NO_ORDERS,
    Event,
    Orders,
    TankWarsState,
    artillery_phase,
    command_end,
    command_options,
    gunfire_targets,
    initial_state,
    outcome,
    resolve_orders,
    to_scenario,
)
from tankmap.rules.tank_wars.engine import _checked as _checked  # the engine's own checks

SYNTAX = """\
A round's tokens: VEHICLE:TOKEN for each vehicle that moves, then xFIELD for each gunfire
token, e.g. heavy:s2N medium:d1NE xc10 xd11   (- alone: no tokens)
TOKEN is s1/s2 (straight 1 or 2 fields) or d1/d2 (diagonal) with its direction; VEHICLE is
its kind (medium1, medium2 when there are several) or the field it stands on."""


class TankWarsSession(PlaySession):
    """A Tank Wars game (see the module docstring and ``base.PlaySession``)."""

    game = "tank-wars"

    def __init__(
        self,
        scenario: Scenario,
        players: tuple[str, str],
        seed: int,
        dice_seed: int | None = None,
    ) -> None:
        super().__init__(scenario, players, seed)
        if dice_seed is None:
            dice_seed = int(np.random.default_rng([seed, 7]).integers(2**63))
        self.dice_seed = dice_seed
        self.dice = np.random.default_rng(dice_seed)
        self.state: TankWarsState = initial_state(scenario)
        self.lines_io = TankWarsLines(scenario)
        self.rounds: list[tuple[Orders, Orders]] = []
        self.snapshots: list[tuple[TankWarsState, Mapping[str, Any]]] = []
        self.parts: dict[int, Orders] = {}
        self.lines: list[tuple[Side, str]] = []
        self.events: list[Event] = []  # the round's events so far (its artillery)
        self.start: dict[int, int] = {}
        self._begin_round()

    def _make_agent(self, spec: str, side: int, key: int) -> Any:
        from tankmap.analysis.play.agents import TankWarsAgent

        return TankWarsAgent(spec, side, self.seed, key)

    def _begin_round(self) -> None:
        """Snapshot the position, then roll the round's artillery."""
        if len(self.snapshots) == len(self.rounds):
            self.snapshots.append((self.state, self.dice.bit_generator.state))
        self.parts, self.lines, self.events = {}, [], []
        if outcome(self.state) is not None:
            return
        self.start = {v.ident: v.cell for v in self.state.vehicles}
        self.state = artillery_phase(self.state, self.dice, self.events)
        if not self.state.in_round:  # a side lost its last vehicle to the artillery
            self._close_round((NO_ORDERS, NO_ORDERS), [])

    def _close_round(self, orders: tuple[Orders, Orders], gunfire: list[Any]) -> None:
        number = len(self.rounds) + 1
        self.steps.append(
            tank_wars_step(self.scenario, number, self.events, self.start, gunfire, self.state)
        )
        self.rounds.append(orders)
        self.revealed = sorted(self.lines, key=lambda entry: entry[0].index)

    # --- the game -----------------------------------------------------------------------
    def waiting(self) -> list[Side]:
        if not self.state.in_round:
            return []
        return [s for s in SIDES if s.index not in self.parts]

    def phase(self) -> str:
        return "orders" if self.state.in_round else "over"

    @property
    def result(self) -> Result | None:
        out = outcome(self.state)
        return None if out is None else Result(out.winner, out.reason)

    @property
    def round_number(self) -> int:
        return len(self.rounds) + 1

    def parse(self, side: Side, line: str) -> Orders:
        """``side``'s orders read from ``line`` and checked by the engine; ``LineError``."""
        text = line.strip()
        self.check_line(side, text)
        try:
            orders = self.lines_io.parse(text, side.index, self.state)
        except TankWarsLineError as exc:
            raise refused(text, exc) from None
        self.check(side, orders, text)
        return orders

    def check(self, side: Side, orders: Orders, text: str) -> None:
        """The engine's checks of one side's orders alone (``LineError`` naming ``text``)."""
        have = self.state.gunfire_available(side)
        if len(orders.gunfire) > have:
            raise LineError(f"{text!r}: {len(orders.gunfire)} gunfire tokens, {have} in hand")
        try:  # the checks ``resolve_orders`` makes of one side's orders
            _checked(self.state, side, orders)
        except IllegalMoveError as exc:
            raise refused(text, exc) from None

    def submit(self, side: Side, line: str) -> None:
        self.submit_orders(side, self.parse(side, line))

    def submit_orders(self, side: Side, orders: Orders) -> None:
        """Play ``side``'s orders (as ``submit``; the board clicks)."""
        text = self.lines_io.format(orders)
        self.check_line(side, text)
        self.check(side, orders, text)
        self.parts[side.index] = orders
        self.lines.append((side, text))
        if self.waiting():
            return
        pair = (self.parts[0], self.parts[1])
        gunfire = tank_wars_gunfire(self.state, pair)
        self.state = resolve_orders(self.state, pair[0], pair[1], self.dice, self.events)
        self._close_round(pair, gunfire)
        self._begin_round()

    def agent_line(self, side: Side) -> str:
        return self.lines_io.format(self.agent(side).orders(self.state, side))

    def hint_line(self, side: Side) -> str:
        return self.lines_io.format(self.hint_agent(side).orders(self.state, side))

    def undo(self) -> bool:
        people = [s for s in SIDES if self.is_human(s)]
        if any(side in people for side, _ in self.lines):
            self._restore()
            return True
        if not self.rounds:
            return False
        self.rounds.pop()
        self.steps.pop()
        self.snapshots.pop()
        self._restore()
        return True

    def _restore(self) -> None:
        """Back to the start of the round of the last snapshot (same dice to come)."""
        self.state, dice = self.snapshots[-1]
        self.dice.bit_generator.state = dice
        self._begin_round()

    # --- views --------------------------------------------------------------------------
    def current_step(self) -> ReplayStep | None:
        if not self.state.in_round:
            return None
        return tank_wars_step(
            self.scenario, self.round_number, self.events, self.start, [], self.state
        )

    def position(self) -> Scenario:
        return to_scenario(self.state, self.scenario)

    def record(self) -> Any:
        from tankmap.analysis.play.agents import TankWarsRecord
        from tankmap.analysis.simulation.tank_wars.driver import result_of

        return TankWarsRecord(
            self.scenario, self.dice_seed, list(self.rounds), result_of(self.state)
        )

    def syntax(self) -> str:
        return SYNTAX

    def legal_lines(self, side: Side) -> list[str]:
        if side not in self.waiting():
            return []
        st = self.state
        name = st.board.cell_name
        out = []
        for v in st.vehicles_of(side):
            tokens = [
                f"{format_command(c)}->{name(command_end(st.board, v.cell, c))}"
                for c in command_options(st, v)
                if c is not None
            ]
            handle = self.lines_io.handles[v.ident]
            out.append(f"{handle} ({v.kind} on {name(v.cell)}, {v.armour} AP): {' '.join(tokens)}")
        fields = gunfire_targets(st, side)
        out.append(
            f"gunfire: {st.gunfire_available(side)} tokens on {name(fields[0])}..{name(fields[-1])}"
            + (" or own craters" if any(c in st.craters for c in fields) else "")
        )
        return out

    def unit_entries(self) -> list[tuple[Side, str, str]]:
        """``(side, handle, "b2 (3 AP)")`` of every live vehicle, for the text view."""
        name = self.state.board.cell_name
        return [
            (v.side, self.lines_io.handles[v.ident], f"{name(v.cell)} ({v.armour} AP)")
            for v in self.state.vehicles
        ]

    def prompt(self) -> str:
        if self.over:
            return "the game is over"
        names = " and ".join(side_name(self.game, s) for s in self.waiting())
        return f"Round {self.round_number}: {names} to give tokens"
