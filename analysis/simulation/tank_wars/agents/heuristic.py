"""Tank Wars policies (provisional ruleset): ``(state, side) -> Orders`` callables for
``rules.tank_wars.engine.play_round``, built with a seeded Generator.

- ``random``: the engine's baseline ``random_orders`` (uniform command per vehicle, staying
  included; every gunfire token on a uniform target).
- ``heuristic``: each vehicle picks the command (or staying) that collects support tokens
  and avoids craters on its path (each costs 1 AP; a 1-AP vehicle avoids them harder),
  with seeded noise so it stays hard to predict; gunfire tokens go on the enemy fields
  where enemy vehicles are most likely to end (each enemy vehicle's options weighted
  equally, weaker vehicles count more), at most one token per field.
- restriction ``+no-KIND``: vehicles of that kind never get a command (when every
  vehicle must get a token — ``stay_without_token`` off — one that is not executed).
- options ``stay_without_token`` and ``tokens_per_kind`` (docs/rules.md §3.1): the choices
  come from ``command_options`` (a token that is not executed stands for staying) and stay
  within the side's tokens of each kind, vehicle after vehicle.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.engine import (
    Command,
    Orders,
    TankWarsState,
    command_options,
    random_orders,
)
from tankmap.rules.tank_wars.ruleset import board_cells
from tankmap.rules.tank_wars.state import Vehicle, executes, idle_commands, tokens_ok

Policy = Callable[[TankWarsState, Side], Orders]


def _path(state: TankWarsState, cell: int, cmd: Command) -> tuple[int, ...]:
    """Fields a command crosses or enters (the start excluded)."""
    board = state.board
    first = board.offset(cell, *cmd.unit)
    if cmd.unit == cmd.step:
        return (first,)
    return (first, board.offset(cell, *cmd.step))


Option = tuple[Command | None, int, tuple[int, ...]]
_OPTIONS: dict[tuple[int, int, int, str, int, bool], tuple[object, object, tuple[Option, ...]]] = {}


def _options(state: TankWarsState, v: Vehicle) -> tuple[Option, ...]:
    """``command_options(state, v)`` as ``(command, end field, fields crossed)``, memoised
    per board, rules, side, kind, field and 1-AP state (all that decides them)."""
    key = (id(state.board), id(state.rules), v.side.index, v.kind, v.cell, v.armour <= 1)
    found = _OPTIONS.get(key)
    if found is not None and found[0] is state.board and found[1] is state.rules:
        return found[2]
    out: list[Option] = []
    for cmd in command_options(state, v):
        if cmd is None or not executes(state, v, cmd):  # no token, or one not executed
            out.append((cmd, v.cell, ()))
        else:
            path = _path(state, v.cell, cmd)
            out.append((cmd, path[-1], path))
    if len(_OPTIONS) > 100_000:
        _OPTIONS.clear()
    _OPTIONS[key] = (state.board, state.rules, tuple(out))
    return _OPTIONS[key][2]


def _idle(state: TankWarsState, v: Vehicle, commands: dict[int, Command]) -> Command | None:
    """What vehicle ``v`` of a banned kind is given: nothing, or — when every vehicle needs
    a token — one that is not executed, within the side's tokens."""
    if state.rules.stay_without_token:
        return None
    for cmd in idle_commands(state, v):
        if tokens_ok(state.rules, {**commands, -1: cmd}):
            return cmd
    return None


def random_policy(rng: np.random.Generator, banned: frozenset[str] = frozenset()) -> Policy:
    def policy(state: TankWarsState, side: Side) -> Orders:
        orders = random_orders(state, side, rng)
        if not banned:
            return orders
        kinds = {v.ident: v.kind for v in state.vehicles}
        kept = {i: c for i, c in orders.commands.items() if kinds.get(i) not in banned}
        for v in state.vehicles_of(side):
            if v.kind in banned:
                idle = _idle(state, v, kept)
                if idle is not None:
                    kept[v.ident] = idle
        return Orders(kept, orders.gunfire)

    return policy


def heuristic_policy(rng: np.random.Generator, banned: frozenset[str] = frozenset()) -> Policy:
    def policy(state: TankWarsState, side: Side) -> Orders:
        commands: dict[int, Command] = {}
        claimed: set[int] = set()
        for v in state.vehicles_of(side):
            if v.kind in banned:
                claimed.add(v.cell)
                idle = _idle(state, v, commands)
                if idle is not None:
                    commands[v.ident] = idle
                continue
            options = _options(state, v)
            noise = rng.random(len(options)).tolist()
            best: Command | None = None
            best_end = v.cell
            best_score = -1e9
            craters_at = state.craters
            supports = state.supports
            limited = state.rules.tokens_per_kind > 0
            for (cmd, end, path), z in zip(options, noise, strict=True):
                if end in claimed:
                    continue
                if (
                    limited
                    and cmd is not None
                    and not tokens_ok(state.rules, {**commands, -1: cmd})
                ):
                    continue
                craters = sum(1 for c in path if c in craters_at)
                score = (2.0 if end in supports else 0.0) - craters * (
                    3.0 if v.armour <= craters else 1.2
                )
                score += 0.8 * z + (0.3 if cmd is not None else 0.0)
                if score > best_score:
                    best, best_end, best_score = cmd, end, score
            if best is None and not state.rules.stay_without_token:
                # every vehicle needs a token: one not executed, else any left in hand
                best = _idle(state, v, commands) or next(
                    (
                        c
                        for c, _e, _p in options
                        if c is not None and tokens_ok(state.rules, {**commands, -1: c})
                    ),
                    None,
                )
                best_end = v.cell  # at worst it is cancelled
            claimed.add(best_end)
            if best is not None:
                commands[v.ident] = best
        # gunfire: where the enemy most likely ends
        likely: dict[int, float] = {}
        for e in state.vehicles_of(side.other):
            options = _options(state, e)
            w = (1.0 + 1.0 / e.armour) / len(options)
            for _cmd, end, _path_cells in options:
                likely[end] = likely.get(end, 0.0) + w
        n = state.gunfire_available(side)
        # gunfire_targets' fields: the enemy board, and craters on the own board
        enemy_board, own_board = (
            board_cells(state.board, side.other),
            board_cells(state.board, side),
        )
        crater_fields = state.craters
        cells = sorted(
            c for c in likely if c in enemy_board or (c in own_board and c in crater_fields)
        )
        noise = rng.random(len(cells)).tolist()
        order = sorted(range(len(cells)), key=lambda i: -(likely[cells[i]] + 0.05 * noise[i]))
        targets = tuple(cells[i] for i in order[:n])
        return Orders(commands, targets)

    return policy


def make_policy(name: str, restrictions: tuple[str, ...], rng: np.random.Generator) -> Policy:
    """Policy ``name`` (``random``, ``heuristic`` or ``search[:N]``); ``KeyError`` if
    unknown, ``ValueError`` for a bad budget."""
    banned = frozenset(r[3:] for r in restrictions)
    if name == "random":
        return random_policy(rng, banned)
    if name == "heuristic":
        return heuristic_policy(rng, banned)
    if name == "search" or name.startswith("search:"):
        from tankmap.analysis.simulation.policies.tank_wars_search import (
            DEFAULT_SAMPLES,
            search_policy,
        )

        samples = int(name[7:]) if name.startswith("search:") else DEFAULT_SAMPLES
        if samples < 1:
            raise ValueError(samples)
        return search_policy(rng, samples, banned)
    raise KeyError(name)
