"""The Tank Wars round engine (PROVISIONAL ruleset, docs/rules.md §3).

API (all values immutable; randomness only through a ``numpy.random.Generator``)::

    state = initial_state(scenario)                 # TankWarsState (raises TankmapError)
    command_options(state, vehicle) -> [None, Command, ...]   # what a vehicle can plan
    gunfire_targets(state, side) -> [cell, ...]     # enemy board + own craters
    state.gunfire_available(side) -> int            # how many gunfire tokens to place
    state = play_round(state, orders_south, orders_north, rng, events=None)
    outcome(state) -> Outcome(winner, reason) | None
    final, result = play_game(state, policy_south, policy_north, rng)
    hit_probability(k) = 1 − (35/36)**k             # a field hit by k shells at least once

``orders_south``/``orders_north`` are ``Orders(commands={ident: Command}, gunfire=(cell,
...))`` or a policy ``(state, side) -> Orders``; a policy is called after the artillery
phase (``state.in_round`` is True), so it plans knowing where the shells fell, as players
do. ``play_round`` is ``artillery_phase`` followed by ``resolve_orders``; both are public,
and ``artillery_phase_with``/``resolve_orders_with`` take their dice from a ``draw(n)``
callable instead of a Generator (a search rolls its own dice with them).
``events`` (a list) receives an ``Event`` for everything that happens (a ``destroyed``
event names the vehicle, its side and field: deaths and kills for statistics).
``command_end(board, cell, command)`` is where a token would take a vehicle;
``Orders.to_json``/``from_json`` serialise orders for game records. The engine's dice are
the only randomness it uses: give it a Generator of its own (not the policies') and a record
of (seed, orders per round) replays exactly (a round that ended in its artillery phase
called no policy: record it as ``(NO_ORDERS, NO_ORDERS)``).

A round (docs/rules.md §3; one player acts, then the other — the two boards never interact, so
the order only fixes the order of dice rolls):

1. **Artillery**: each side fires one shot per shell of its live vehicles, or
   ``long_range_shots`` if none of their cards has shells (with ``shells_used_up`` the
   shells are a stock for the game: each vehicle fires those it has left, ``spent``).
   Dice: one roll 0..35 per shot (see ``draw_rolls``), south's shots first, then north's;
   the roll is the field (``roll_to_cell``). A support token there is removed; else a
   vehicle there loses 1 AP (and no crater is placed: the shot hit the vehicle; option
   ``hit_leaves_crater``: a crater is placed under it too); else a crater is placed (a
   field holds at most one crater).
   Fire is simultaneous: vehicles at 0 AP are removed at the end of the phase.
2–3. **Planning**: the orders (command tokens, gunfire tokens). A vehicle without a token
   stays, unless ``stay_without_token`` is off (then every live vehicle needs one);
   ``tokens_per_kind`` (when above 0) caps a side's tokens of each kind.
4. **Movement**, south's vehicles in card order (the order of the scenario's units), then
   north's. A command is *not executed* when its token is outside the vehicle's pattern, it
   is a 2-field token and the vehicle has 1 AP left, or it ends off the vehicle's own board.
   It is *cancelled* when its end field holds a vehicle at that moment (a vehicle that moved
   away earlier frees its field). Otherwise the vehicle moves; each crater on the fields it
   crosses or enters costs 1 AP and is removed; at 0 AP it is destroyed at once (later
   craters on its path stay). Ending on a support token collects it: +``support_armour`` AP,
   never above the kind's starting AP. Fields passed over may hold vehicles.
5. **Gunfire**: a token on an enemy field costs the vehicle standing there after movement
   1 AP per token (a vehicle that did not move is hit too unless
   ``gunfire_hits_stationary`` is off); a token on a crater of one's own board removes the
   crater. Simultaneous; destroyed vehicles are removed at the end of the phase.
6. **Supply drop**: ``supply_drops`` rolls per side onto its own board (south's first). A
   vehicle there collects it at once; a field with a crater or support token wastes it;
   else a support token is placed.

A side may place at most ``gunfire_available`` tokens: the starting ``gunfire_tokens``
minus the gunfire symbols of its destroyed vehicles (tokens already placed this round stay;
extra tokens in an ``Orders`` are ignored, the first ones count). The game ends as soon as a
side has lost its last vehicle (both at once: a draw); later phases of that round are not
played. After ``max_rounds`` rounds it is a draw.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tankmap.rules.errors import IllegalMoveError, short
from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.ruleset import board_cells
from tankmap.rules.tank_wars.state import (
    FIELDS,
    NO_ORDERS,
    Command,
    Event,
    Orders,
    Outcome,
    TankWarsState,
    Vehicle,
    command_end,
    command_options,
    gunfire_targets,
    hit_probability,
    hit_probability_exact,
    initial_state,
    outcome,
    roll_to_cell,
    to_scenario,
    tokens_ok,
)

Policy = Callable[[TankWarsState, Side], Orders]
OrdersSource = Orders | Policy

__all__ = [
    "FIELDS",
    "NO_ORDERS",
    "Command",
    "Event",
    "Orders",
    "Outcome",
    "Policy",
    "TankWarsState",
    "Vehicle",
    "Dice",
    "artillery_phase",
    "artillery_phase_with",
    "draw_choices",
    "draw_rolls",
    "command_end",
    "command_options",
    "gunfire_targets",
    "hit_probability",
    "hit_probability_exact",
    "initial_state",
    "outcome",
    "play_game",
    "play_round",
    "random_orders",
    "resolve_orders",
    "resolve_orders_with",
    "roll_to_cell",
    "to_scenario",
]

_SIDES = (Side.SOUTH, Side.NORTH)


_PER_DRAW = 12  # 36**12 < 2**63: twelve rolls fit in one int64 draw


def draw_rolls(rng: np.random.Generator, n: int) -> list[int]:
    """``n`` independent uniform dice rolls ``0..35`` (letter die × number die).

    Rolls are the base-36 digits (least significant first) of ``rng.integers(0, 36**m)``
    with ``m = min(12, rolls still needed)``: exactly uniform, and one cheap scalar draw per
    twelve rolls instead of one array draw per call.
    """
    out: list[int] = []
    while n > 0:
        m = min(_PER_DRAW, n)
        value = int(rng.integers(0, FIELDS**m))
        for _ in range(m):
            value, digit = divmod(value, FIELDS)
            out.append(digit)
        n -= m
    return out


class _Work:
    """Mutable scratch copy of a state used while a phase resolves."""

    def __init__(self, state: TankWarsState, events: list[Event] | None, phase: str) -> None:
        self.state = state
        self.vehicles = list(state.vehicles)
        self.armour = [v.armour for v in state.vehicles]
        self.cells = [v.cell for v in state.vehicles]
        self.alive = [True] * len(self.vehicles)
        self.at = {v.cell: i for i, v in enumerate(state.vehicles)}
        self.craters = set(state.craters)
        self.supports = set(state.supports)
        self.lost = list(state.lost_gunfire)
        self.spent = state.spent
        self.events = events
        self.phase = phase
        self.round = state.round + 1

    def log(self, side: Side, what: str, cell: int, vehicle: int | None = None) -> None:
        if self.events is not None:
            self.events.append(Event(self.round, self.phase, side, what, cell, vehicle))

    def damage(self, i: int, side: Side, what: str, cell: int) -> None:
        self.armour[i] -= 1
        self.log(side, what, cell, self.vehicles[i].ident)

    def destroy(self, i: int) -> None:
        """Remove vehicle ``i`` now (its side loses its gunfire symbols)."""
        v = self.vehicles[i]
        self.alive[i] = False
        if self.at.get(self.cells[i]) == i:
            del self.at[self.cells[i]]
        self.lost[v.side.index] += self.state.rules.kind(v.kind).gunfire
        self.log(v.side, "destroyed", self.cells[i], v.ident)

    def sweep(self) -> None:
        """Remove every vehicle at 0 AP (end of a simultaneous phase)."""
        for i in range(len(self.vehicles)):
            if self.alive[i] and self.armour[i] <= 0:
                self.destroy(i)

    def repair(self, i: int) -> None:
        top = self.state.rules.kind(self.vehicles[i].kind).armour
        self.armour[i] = min(top, self.armour[i] + self.state.rules.support_armour)

    def sides_alive(self) -> int:
        return len({self.vehicles[i].side for i in range(len(self.vehicles)) if self.alive[i]})

    def result(self, *, in_round: bool, finished: bool) -> TankWarsState:
        cells, armour, alive = self.cells, self.armour, self.alive
        vehicles = tuple(
            v
            if v.cell == cells[i] and v.armour == armour[i]
            else Vehicle(v.ident, v.kind, v.side, cells[i], armour[i], v.name)
            for i, v in enumerate(self.vehicles)
            if alive[i]
        )
        state = self.state
        return TankWarsState(
            state.rules,
            state.board,
            vehicles,
            frozenset(self.craters),
            frozenset(self.supports),
            (self.lost[0], self.lost[1]),
            state.round + (1 if finished else 0),
            in_round,
            self.spent,
        )


Dice = Callable[[int], list[int]]
"""Where a phase takes its dice: ``draw(n)`` returns ``n`` rolls ``0..35`` (the engine's own
``lambda n: draw_rolls(rng, n)``; a search may give rolls of its own generator)."""


def artillery_phase(
    state: TankWarsState, rng: np.random.Generator, events: list[Event] | None = None
) -> TankWarsState:
    """Phase 1 of the next round; returns the state with ``in_round`` True (or the finished
    round if a side lost its last vehicle). ``IllegalMoveError`` if the game is over or the
    artillery has already fired this round."""
    return artillery_phase_with(state, lambda n: draw_rolls(rng, n), events)


def artillery_phase_with(
    state: TankWarsState, draw: Dice, events: list[Event] | None = None
) -> TankWarsState:
    """``artillery_phase`` with its dice from ``draw`` (called once, for every shot of the
    phase, south's first)."""
    if state.in_round:
        raise IllegalMoveError("the artillery has already fired this round")
    if outcome(state) is not None:
        raise IllegalMoveError("the game is over")
    w = _Work(state, events, "artillery")
    shots = [state.artillery_shots(s) for s in _SIDES]
    if state.rules.shells_used_up:  # every vehicle fires the shells it has left
        spent = list(state.spent) or [0] * (1 + max((v.ident for v in state.vehicles), default=0))
        for v in state.vehicles:
            spent[v.ident] += state.shells_left(v)
        w.spent = tuple(spent)
    total = shots[0] + shots[1]
    rolls = draw(total)
    k = 0
    for side in _SIDES:
        target = side.other
        for _ in range(shots[side.index]):
            cell = roll_to_cell(state.board, target, rolls[k])
            k += 1
            i = w.at.get(cell)
            if cell in w.supports:
                w.supports.discard(cell)
                w.log(side, "shot-support", cell)
            elif i is not None:
                w.damage(i, side, "shot-hit", cell)
                if state.rules.hit_leaves_crater and cell not in w.craters:
                    w.craters.add(cell)  # under the vehicle (option hit_leaves_crater)
                    w.log(side, "crater-left", cell, w.vehicles[i].ident)
            elif cell in w.craters:
                w.log(side, "shot-on-crater", cell)
            else:
                w.craters.add(cell)
                w.log(side, "shot-crater", cell)
    w.sweep()
    over = w.sides_alive() < 2
    return w.result(in_round=not over, finished=over)


def _checked(
    state: TankWarsState, side: Side, orders: Orders
) -> tuple[dict[int, Command], list[int]]:
    """The commands of ``side``'s live vehicles and its gunfire tokens (at most the available
    count). ``IllegalMoveError`` for a command to an enemy vehicle, a command that is not a
    ``Command``, a live vehicle without a token when ``stay_without_token`` is off, more
    tokens of a kind than ``tokens_per_kind``, or a gunfire token on a field that is
    neither enemy nor an own crater."""
    commands: dict[int, Command] = {}
    for ident, cmd in orders.commands.items():
        v = state.vehicle(ident)
        if v is None:
            continue  # destroyed (or never existed): its token is simply not executed
        if v.side is not side:
            raise IllegalMoveError(f"{side} cannot command the {v.side} {v.kind} ({ident})")
        if not isinstance(cmd, Command):
            raise IllegalMoveError(
                f"{side} order for vehicle {ident} is not a Command: {short(cmd)}"
            )
        commands[ident] = cmd
    rules = state.rules
    if not rules.stay_without_token:
        for v in state.vehicles_of(side):
            if v.ident not in commands:
                raise IllegalMoveError(
                    f"{side} {v.kind} ({v.ident}) has no command token (stay_without_token off)"
                )
    if not tokens_ok(rules, commands):
        raise IllegalMoveError(
            f"{side} uses more than {rules.tokens_per_kind} command tokens of one kind"
        )
    enemy = board_cells(state.board, side.other)
    for cell in orders.gunfire:
        if cell not in enemy and cell not in state.craters:
            name = state.board.cell_name(cell) if 0 <= cell < state.board.size else str(cell)
            raise IllegalMoveError(
                f"{side} gunfire token on {name}: only enemy fields and own craters"
            )
    return commands, list(orders.gunfire[: state.gunfire_available(side)])


def resolve_orders(
    state: TankWarsState,
    orders_south: Orders,
    orders_north: Orders,
    rng: np.random.Generator,
    events: list[Event] | None = None,
) -> TankWarsState:
    """Phases 4–6 of the round whose artillery has fired (``state.in_round``); returns the
    state after the round. Raises ``IllegalMoveError`` (see ``_checked``) for bad orders or
    when the artillery has not fired yet."""
    return resolve_orders_with(
        state, orders_south, orders_north, lambda n: draw_rolls(rng, n), events
    )


def resolve_orders_with(
    state: TankWarsState,
    orders_south: Orders,
    orders_north: Orders,
    draw: Dice,
    events: list[Event] | None = None,
) -> TankWarsState:
    """``resolve_orders`` with its dice from ``draw`` (called once, for the supply drops,
    and only when the round gets that far)."""
    if not state.in_round:
        raise IllegalMoveError("fire the artillery (artillery_phase) before resolving orders")
    plans = [_checked(state, Side.SOUTH, orders_south), _checked(state, Side.NORTH, orders_north)]
    rules, board = state.rules, state.board
    w = _Work(state, events, "movement")
    moved = [False] * len(w.vehicles)
    for side in _SIDES:
        commands = plans[side.index][0]
        own = board_cells(board, side)
        for i, v in enumerate(w.vehicles):
            cmd = commands.get(v.ident) if v.side is side else None
            if cmd is None or not w.alive[i]:
                continue
            dist = cmd.kind.distance
            dx, dy = cmd.unit
            start = w.cells[i]
            end = board.offset(start, *cmd.step)
            if (
                cmd.kind not in rules.kind(v.kind).moves
                or (dist == 2 and w.armour[i] <= 1)
                or end < 0
                or end not in own
            ):
                w.log(side, "not-executed", start, v.ident)
                continue
            if end in w.at:
                w.log(side, "cancelled", end, v.ident)
                continue
            del w.at[start]
            moved[i] = True
            for step in range(1, dist + 1):
                c = board.offset(start, dx * step, dy * step)
                w.cells[i] = c
                if c in w.craters:
                    w.craters.discard(c)
                    w.damage(i, side, "crater-hit", c)
                    if w.armour[i] <= 0:
                        break
            if w.armour[i] <= 0:
                w.destroy(i)
                continue
            w.at[end] = i
            w.log(side, "moved", end, v.ident)
            if end in w.supports:
                w.supports.discard(end)
                w.repair(i)
                w.log(side, "collected", end, v.ident)
    if w.sides_alive() < 2:
        return w.result(in_round=False, finished=True)
    w.phase = "gunfire"
    for side in _SIDES:
        enemy = board_cells(board, side.other)
        for cell in plans[side.index][1]:
            if cell in enemy:
                hit = w.at.get(cell)
                if hit is not None and (moved[hit] or rules.gunfire_hits_stationary):
                    w.damage(hit, side, "gunfire-hit", cell)
            elif cell in w.craters:
                w.craters.discard(cell)
                w.log(side, "crater-cleared", cell)
    w.sweep()
    if w.sides_alive() < 2:
        return w.result(in_round=False, finished=True)
    w.phase = "supply"
    drops = rules.supply_drops
    rolls = draw(2 * drops)
    for k, roll in enumerate(rolls):
        side = _SIDES[k // drops]
        cell = roll_to_cell(board, side, roll)
        there = w.at.get(cell)
        if there is not None:
            w.repair(there)
            w.log(side, "supply-collected", cell, w.vehicles[there].ident)
        elif cell in w.craters or cell in w.supports:
            w.log(side, "supply-lost", cell)
        else:
            w.supports.add(cell)
            w.log(side, "supply", cell)
    return w.result(in_round=False, finished=True)


def play_round(
    state: TankWarsState,
    orders_south: OrdersSource,
    orders_north: OrdersSource,
    rng: np.random.Generator,
    events: list[Event] | None = None,
) -> TankWarsState:
    """One whole round: ``artillery_phase`` then ``resolve_orders`` (policies are called in
    between, south first). Raises ``IllegalMoveError`` if the game is over or orders are bad.
    """
    mid = artillery_phase(state, rng, events)
    if not mid.in_round:  # a side lost its last vehicle to the artillery
        return mid
    south = orders_south(mid, Side.SOUTH) if callable(orders_south) else orders_south
    north = orders_north(mid, Side.NORTH) if callable(orders_north) else orders_north
    return resolve_orders(mid, south, north, rng, events)


def play_game(
    state: TankWarsState,
    south: OrdersSource,
    north: OrdersSource,
    rng: np.random.Generator,
    events: list[Event] | None = None,
) -> tuple[TankWarsState, Outcome]:
    """Play rounds until ``outcome`` is decided; returns the final state and the outcome."""
    result = outcome(state)
    while result is None:
        state = play_round(state, south, north, rng, events)
        result = outcome(state)
    return state, result


def random_orders(state: TankWarsState, side: Side, rng: np.random.Generator) -> Orders:
    """Baseline orders: per vehicle (card order) a uniform pick among ``command_options``
    (staying included), then every available gunfire token on a uniform pick of
    ``gunfire_targets`` (``draw_choices`` makes all the picks). With ``tokens_per_kind``
    the vehicles pick one after the other among the tokens still in hand."""
    mine = [v for v in state.vehicles if v.side is side]
    options = [command_options(state, v) for v in mine]
    n = state.gunfire_available(side)
    targets = gunfire_targets(state, side)
    commands: dict[int, Command] = {}
    if state.rules.tokens_per_kind > 0:  # one vehicle after the other, within the tokens
        for v, opts in zip(mine, options, strict=True):
            left = [c for c in opts if c is None or tokens_ok(state.rules, {**commands, -1: c})]
            chosen = left[draw_choices(rng, [len(left)])[0]] if left else None
            if chosen is not None:
                commands[v.ident] = chosen
        picks = draw_choices(rng, [len(targets)] * n)
        return Orders(commands, tuple(targets[j] for j in picks))
    picks = draw_choices(rng, [len(o) for o in options] + [len(targets)] * n)
    for v, opts, pick in zip(mine, options, picks, strict=False):
        chosen = opts[pick]
        if chosen is not None:
            commands[v.ident] = chosen
    gunfire = tuple(targets[j] for j in picks[len(mine) :])
    return Orders(commands, gunfire)


def draw_choices(rng: np.random.Generator, sizes: list[int]) -> list[int]:
    """Independent uniform picks ``0..size-1`` for each of ``sizes`` (each ≥ 1): the
    mixed-radix digits of as few ``rng.integers(0, product)`` draws as fit in 62 bits."""
    out: list[int] = []
    i = 0
    while i < len(sizes):
        product, j = 1, i
        while j < len(sizes) and product * sizes[j] < 1 << 62:
            product *= sizes[j]
            j += 1
        if j == i:  # a single huge size gets its own draw
            product, j = sizes[i], i + 1
        value = int(rng.integers(0, product)) if product > 1 else 0
        for size in sizes[i:j]:
            value, digit = divmod(value, size)
            out.append(digit)
        i = j
    return out
