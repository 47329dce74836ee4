"""One side's Tank Wars round as one line of text, and back (docs/notation.md).

Vehicles are named by their kind (``heavy``, ``medium``, ``artillery``; ``medium1``,
``medium2`` … when a side has several of a kind) or by the field they stand on. A line is
items separated by spaces:

- ``heavy:s2N`` — a command token: ``s1``/``s2`` (straight 1 or 2 fields) or ``d1``/``d2``
  (diagonal) and the arrow's direction (``straight2N`` and ``diagonal1NE`` are read too);
- ``xc10`` — a gunfire token on a field (an enemy field, or a crater of one's own board to
  clear it); several tokens may go on one field;
- ``-`` alone: no tokens at all.

A vehicle without a token stays. ``format_side`` writes what ``parse_side`` reads.
"""

from __future__ import annotations

import re

from tankmap.rules.board import Board
from tankmap.rules.errors import IllegalMoveError, short
from tankmap.rules.geometry import Facing
from tankmap.rules.scenario import Scenario
from tankmap.rules.tank_wars.data import CommandKind
from tankmap.rules.tank_wars.state import Command, Orders, TankWarsState

_SHORT = {"s1": "straight1", "s2": "straight2", "d1": "diagonal1", "d2": "diagonal2"}
_LONG = {v: k for k, v in _SHORT.items()}
_COMMAND_RE = re.compile(
    r"^(?P<token>s1|s2|d1|d2|straight1|straight2|diagonal1|diagonal2)-?"
    r"(?P<direction>ne|nw|se|sw|n|e|s|w)$",
    re.IGNORECASE,
)


class TankWarsLineError(IllegalMoveError):
    """A Tank Wars line that cannot be read; the message quotes the item and says why."""


def vehicle_handles(scenario: Scenario) -> list[str]:
    """Every unit's handle (its kind, numbered when its side has several), in order."""
    out = []
    for u in scenario.units:
        same = [v for v in scenario.units if v.side is u.side and v.kind == u.kind]
        out.append(u.kind if len(same) == 1 else f"{u.kind}{same.index(u) + 1}")
    return out


def format_command(command: Command) -> str:
    """``s2N`` for ``straight2 N``."""
    return f"{_LONG[command.kind.value]}{command.direction.name}"


class TankWarsLines:
    """Reads and writes one scenario's Tank Wars lines (handles fixed at the start)."""

    def __init__(self, scenario: Scenario) -> None:
        self.board: Board = scenario.board
        self.handles = vehicle_handles(scenario)
        self.sides = [u.side.index for u in scenario.units]

    def parse(self, text: str, side: int, state: TankWarsState) -> Orders:
        """``text`` as ``side``'s orders in ``state``; ``TankWarsLineError`` naming the item
        and why (whether the engine executes a token is the engine's business)."""
        line = text.strip()
        if line == "-":
            return Orders()
        if not line:
            raise TankWarsLineError("an empty line (write '-' for no tokens)")
        commands: dict[int, Command] = {}
        gunfire: list[int] = []
        for item in line.split():
            if item[:1] in "xX" and ":" not in item:
                gunfire.append(self._cell(item[1:], item))
                continue
            ref, sep, rest = item.partition(":")
            if not sep:
                raise TankWarsLineError(
                    f"{short(item)}: expected VEHICLE:TOKEN (like heavy:s2N) or a gunfire "
                    "token (like xc10)"
                )
            ident = self._vehicle(ref, item, side, state)
            m = _COMMAND_RE.match(rest)
            if not m:
                raise TankWarsLineError(
                    f"{short(item)}: expected a command token like s1N, s2E, d1NE or d2SW"
                )
            if ident in commands:
                raise TankWarsLineError(f"{short(item)}: {self.handles[ident]} has two tokens")
            token = m["token"].lower()
            kind = CommandKind(_SHORT.get(token, token))
            try:
                commands[ident] = Command(kind, Facing.parse(m["direction"]))
            except IllegalMoveError as exc:
                raise TankWarsLineError(f"{short(item)}: {exc}") from None
        return Orders(commands, tuple(gunfire))

    def _cell(self, text: str, item: str) -> int:
        try:
            return self.board.parse_cell(text)
        except ValueError as exc:
            raise TankWarsLineError(f"{short(item)}: {exc}") from None

    def _vehicle(self, ref: str, item: str, side: int, state: TankWarsState) -> int:
        key = ref.strip().lower()
        mine = [i for i, s in enumerate(self.sides) if s == side]
        found = [i for i in mine if self.handles[i].lower() == key]
        if not found:
            try:
                cell = self.board.parse_cell(key)
            except ValueError:
                live = [v.ident for v in state.vehicles if v.side.index == side]
                names = " ".join(self.handles[i] for i in live)
                raise TankWarsLineError(
                    f"{short(item)}: no vehicle of this side called {ref!r} (vehicles: {names})"
                ) from None
            found = [v.ident for v in state.vehicles if v.cell == cell and v.side.index == side]
            if not found:
                raise TankWarsLineError(f"{short(item)}: no vehicle of this side on {key}")
        if state.vehicle(found[0]) is None:
            raise TankWarsLineError(f"{short(item)}: {self.handles[found[0]]} is destroyed")
        return found[0]

    def format(self, orders: Orders) -> str:
        """The line ``parse`` reads back as ``orders`` (``-`` when it holds no token)."""
        items = [
            f"{self.handles[i]}:{format_command(c)}" for i, c in sorted(orders.commands.items())
        ]
        items += [f"x{self.board.cell_name(c)}" for c in orders.gunfire]
        return " ".join(items) or "-"
