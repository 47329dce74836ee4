"""What the Tank Wars agents share: the ``Policy`` type and each vehicle's choices
(``vehicle_options``: every command it may be given, or staying, with the field it ends on and
the fields it crosses, memoised; ``idle_command``: what a vehicle of a banned kind is
given)."""

from __future__ import annotations

from collections.abc import Callable

from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.engine import Command, Orders, TankWarsState, command_options
from tankmap.rules.tank_wars.state import Vehicle, executes, idle_commands, tokens_ok

Policy = Callable[[TankWarsState, Side], Orders]
"""An agent: the orders of ``side`` in ``state`` (built with its seeded Generator)."""


def _path(state: TankWarsState, cell: int, cmd: Command) -> tuple[int, ...]:
    """Fields a command crosses or enters (the start excluded)."""
    board = state.board
    first = board.offset(cell, *cmd.unit)
    if cmd.unit == cmd.step:
        return (first,)
    return (first, board.offset(cell, *cmd.step))


Option = tuple[Command | None, int, tuple[int, ...]]
_OPTIONS: dict[tuple[int, int, int, str, int, bool], tuple[object, object, tuple[Option, ...]]] = {}


def vehicle_options(state: TankWarsState, v: Vehicle) -> tuple[Option, ...]:
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


def idle_command(state: TankWarsState, v: Vehicle, commands: dict[int, Command]) -> Command | None:
    """What vehicle ``v`` of a banned kind is given: nothing, or — when every vehicle needs
    a token — one that is not executed, within the side's tokens."""
    if state.rules.stay_without_token:
        return None
    for cmd in idle_commands(state, v):
        if tokens_ok(state.rules, {**commands, -1: cmd}):
            return cmd
    return None
