"""Tank Wars game state, orders and events (the values ``rules.tank_wars.engine`` plays on).

PROVISIONAL ruleset (rules §3). All values here are immutable; the engine returns new states.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from tankmap.rules.board import Board
from tankmap.rules.errors import IllegalMoveError, TankmapError, short
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Terrain, Unit
from tankmap.rules.tank_wars.data import CommandKind, TankWarsRules
from tankmap.rules.tank_wars.ruleset import TankWars, board_cells

FIELDS = 36
"""Fields of one side's own board (6 letters × 6 numbers on the two dice)."""


@dataclass(frozen=True)
class Vehicle:
    """A live vehicle. ``ident`` is its index in the scenario's unit list (stable for the
    whole game; orders name vehicles by it). ``armour`` is its current AP (≥ 1)."""

    ident: int
    kind: str
    side: Side
    cell: int
    armour: int
    name: str | None = None


@dataclass(frozen=True)
class Command:
    """A command token: ``kind`` (straight/diagonal, 1 or 2 fields) pointing ``direction``.

    Raises ``IllegalMoveError`` if the arrow does not fit the token (a straight token points
    N/E/S/W, a diagonal one NE/SE/SW/NW).

    >>> str(Command(CommandKind.STRAIGHT2, Facing.N))
    'straight2 N'
    """

    kind: CommandKind
    direction: Facing
    # (dx, dy) of one field and of the whole command: derived, kept because the search
    # agents ask for them millions of times (an enum's dx is a property lookup)
    unit: tuple[int, int] = field(init=False, repr=False, compare=False)
    step: tuple[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.direction not in self.kind.directions:
            raise IllegalMoveError(
                f"a {self.kind.value} token cannot point {self.direction.name}"
                f" (use {' '.join(d.name for d in self.kind.directions)})"
            )
        dx, dy, d = self.direction.dx, self.direction.dy, self.kind.distance
        object.__setattr__(self, "unit", (dx, dy))
        object.__setattr__(self, "step", (dx * d, dy * d))

    def __str__(self) -> str:
        return f"{self.kind.value} {self.direction.name}"

    @classmethod
    def parse(cls, text: str) -> Command:
        """``Command.parse("diagonal1 NE")``; ``TankmapError`` on bad text."""
        parts = text.split()
        if len(parts) != 2:
            raise IllegalMoveError(f"a command is like 'straight2 N', not {short(text)}")
        try:
            direction = Facing.parse(parts[1])
        except ValueError as exc:
            raise IllegalMoveError(str(exc)) from None
        return cls(CommandKind.parse(parts[0]), direction)


ALL_COMMANDS: tuple[Command, ...] = tuple(Command(k, d) for k in CommandKind for d in k.directions)
"""The 16 token placements (4 tokens × 4 arrow directions)."""


@dataclass(frozen=True)
class Orders:
    """One side's plan for a round: a command token per vehicle (``ident`` → command; a
    vehicle without an entry stays) and the fields its gunfire tokens go on (enemy-board
    fields, or craters on its own board to clear them; a field may get several tokens)."""

    commands: Mapping[int, Command] = field(default_factory=lambda: MappingProxyType({}))
    gunfire: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.commands, MappingProxyType):
            object.__setattr__(self, "commands", MappingProxyType(dict(self.commands)))
        object.__setattr__(self, "gunfire", tuple(self.gunfire))

    def __hash__(self) -> int:
        return hash((tuple(sorted(self.commands.items())), self.gunfire))

    def to_json(self, board: Board) -> dict[str, Any]:
        """``{"commands": {"0": "straight2 N"}, "gunfire": ["c10"]}`` (for game records)."""
        return {
            "commands": {str(i): str(c) for i, c in sorted(self.commands.items())},
            "gunfire": [board.cell_name(c) for c in self.gunfire],
        }

    @classmethod
    def from_json(cls, data: Any, board: Board) -> Orders:
        """Inverse of ``to_json``; ``IllegalMoveError`` on malformed data."""
        try:
            commands = {int(k): Command.parse(v) for k, v in data["commands"].items()}
            gunfire = tuple(board.parse_cell(c) for c in data["gunfire"])
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise IllegalMoveError(f"bad Tank Wars orders {short(data)}: {exc}") from None
        return cls(commands, gunfire)


NO_ORDERS = Orders()


def command_end(board: Board, cell: int, command: Command) -> int:
    """The field ``command`` would take a vehicle on ``cell`` to, or -1 if off the grid
    (whether it stays on the vehicle's own board is for the caller: ``board_cells``)."""
    dx, dy = command.step
    return board.offset(cell, dx, dy)


@dataclass(frozen=True)
class Event:
    """Something that happened in a round (for game records, tests and heat maps).

    ``what`` is one of: ``shot-support`` (artillery removed a support token), ``shot-hit``
    (artillery −1 AP), ``crater-left`` (a crater under the vehicle just hit, with
    ``hit_leaves_crater``), ``shot-crater``, ``shot-on-crater`` (hit an existing crater:
    nothing changes), ``not-executed`` (command outside the pattern, 2 fields with 1 AP, off the
    board), ``cancelled`` (ends on an occupied field), ``moved``, ``crater-hit`` (−1 AP,
    crater removed), ``collected`` (support token), ``gunfire-hit``, ``crater-cleared``,
    ``supply`` (support token placed), ``supply-collected``, ``supply-lost``, ``destroyed``.
    ``side`` is the side acting (the shooter for shots and gunfire, the owner otherwise);
    ``vehicle`` the ident of the vehicle concerned, if any.
    """

    round: int
    phase: str
    side: Side
    what: str
    cell: int
    vehicle: int | None = None


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` (``None`` = draw) and ``reason`` (``destroyed``,
    ``both-destroyed`` or ``round-limit``)."""

    winner: Side | None
    reason: str


@dataclass(frozen=True)
class TankWarsState:
    """A Tank Wars position between rounds.

    ``vehicles`` are the live vehicles in card order (the order of the scenario's units);
    ``craters``/``supports`` the token fields; ``lost_gunfire[i]`` the gunfire symbols side
    ``i`` has lost with destroyed vehicles; ``round`` the number of rounds finished;
    ``in_round`` is True between the artillery phase and the resolution of the orders (the
    moment both sides plan, knowing where the shells fell); ``spent[ident]`` the shells
    vehicle ``ident`` has fired so far (kept only with ``shells_used_up``; empty = none;
    a position saved as a scenario does not keep it).
    """

    rules: TankWarsRules
    board: Board
    vehicles: tuple[Vehicle, ...]
    craters: frozenset[int] = frozenset()
    supports: frozenset[int] = frozenset()
    lost_gunfire: tuple[int, int] = (0, 0)
    round: int = 0
    in_round: bool = False
    spent: tuple[int, ...] = ()

    def vehicles_of(self, side: Side) -> tuple[Vehicle, ...]:
        return tuple(v for v in self.vehicles if v.side is side)

    def vehicle(self, ident: int) -> Vehicle | None:
        """The live vehicle ``ident``, or ``None`` if it is destroyed (or never existed)."""
        for v in self.vehicles:
            if v.ident == ident:
                return v
        return None

    def gunfire_available(self, side: Side) -> int:
        """Gunfire tokens ``side`` may place this round: the starting tokens minus the
        gunfire symbols of its destroyed vehicles (never below 0)."""
        return max(0, self.rules.gunfire_tokens - self.lost_gunfire[side.index])

    def shells_left(self, v: Vehicle) -> int:
        """Shells vehicle ``v`` fires in the next artillery phase: its card's shells, less
        those already fired with ``shells_used_up``."""
        card = self.rules.kind(v.kind).shells
        if not self.rules.shells_used_up or v.ident >= len(self.spent):
            return card
        return max(0, card - self.spent[v.ident])

    def artillery_shots(self, side: Side) -> int:
        """Shots ``side`` fires in the next artillery phase: the shells of its live vehicles
        (``shells_left``), or ``long_range_shots`` if none of their cards has shells (no
        artillery vehicle; one that has used up its shells still counts as one)."""
        mine = [v for v in self.vehicles if v.side is side]
        if not any(self.rules.kind(v.kind).shells for v in mine):
            return self.rules.long_range_shots
        return sum(self.shells_left(v) for v in mine)


def roll_to_cell(board: Board, side: Side, roll: int) -> int:
    """The field of ``side``'s own board for a dice roll ``0..35``: letter die = column
    ``roll % 6`` (A..F), number die = own row ``roll // 6 + 1`` of ``side``.

    >>> b = Board.of(6, 12)
    >>> b.cell_name(roll_to_cell(b, Side.SOUTH, 0)), b.cell_name(roll_to_cell(b, Side.NORTH, 0))
    ('a1', 'a12')
    """
    col, own_row = roll % board.columns, roll // board.columns + 1
    row = own_row - 1 if side is Side.SOUTH else board.rows - own_row
    return row * board.columns + col


def hit_probability(k: int, fields: int = FIELDS) -> float:
    """Probability that a given field is hit at least once by ``k`` uniform artillery shots:
    ``1 − ((fields − 1) / fields) ** k``. ``ValueError`` if ``k < 0`` or ``fields < 1``.

    >>> round(hit_probability(4), 4)
    0.1066
    """
    return float(hit_probability_exact(k, fields))


def hit_probability_exact(k: int, fields: int = FIELDS) -> Fraction:
    """``hit_probability`` as an exact fraction (``1/36`` for one shot)."""
    if k < 0 or fields < 1:
        raise ValueError(f"need k >= 0 and fields >= 1, not k={k}, fields={fields}")
    return 1 - Fraction(fields - 1, fields) ** k


def initial_state(scenario: Scenario, rules: TankWarsRules | None = None) -> TankWarsState:
    """The state at the start of the next round of ``scenario`` (a setup or a saved
    position): live units in scenario order, their AP (``armour`` or the kind's starting AP),
    craters and support tokens from the terrain.

    Raises ``TankmapError`` if the position cannot be played: a wreck, a vehicle off its own
    board, two vehicles on one field, a vehicle on a token, or AP out of range.
    """
    ruleset = TankWars()
    if rules is None:
        rules = ruleset.rules(scenario)
    fatal = [
        v
        for v in ruleset.check(scenario)
        if v.severity.value == "error" and v.code != "outside-setup-rows"
    ]
    if fatal:
        raise TankmapError(f"cannot play this Tank Wars position: {fatal[0].message}")
    vehicles = tuple(
        Vehicle(
            ident=i,
            kind=u.kind,
            side=u.side,
            cell=u.cell,
            armour=u.armour if u.armour is not None else rules.kind(u.kind).armour,
            name=u.name,
        )
        for i, u in enumerate(scenario.units)
    )
    craters = frozenset(c for t in scenario.terrain if t.kind == "crater" for c in t.cells)
    supports = frozenset(c for t in scenario.terrain if t.kind == "support" for c in t.cells)
    return TankWarsState(rules, scenario.board, vehicles, craters, supports)


def to_scenario(state: TankWarsState, base: Scenario) -> Scenario:
    """``base`` with the state's live vehicles (AP as ``armour``) and tokens, e.g. to save a
    position or ask ``TankWars().moves`` about it. Destroyed vehicles are left out."""
    units = []
    for v in state.vehicles:
        units.append(Unit(kind=v.kind, side=v.side, cell=v.cell, name=v.name, armour=v.armour))
    terrain = [Terrain("crater", (c,)) for c in sorted(state.craters)]
    terrain += [Terrain("support", (c,)) for c in sorted(state.supports)]
    return base.with_units(units).with_terrain(terrain)


def outcome(state: TankWarsState) -> Outcome | None:
    """``None`` while the game goes on; else who won. A side that has lost its last vehicle
    loses (both at once: a draw); reaching ``max_rounds`` rounds is a draw."""
    alive = {v.side for v in state.vehicles}
    if not alive:
        return Outcome(None, "both-destroyed")
    if len(alive) == 1:
        return Outcome(next(iter(alive)), "destroyed")
    if state.round >= state.rules.max_rounds and not state.in_round:
        return Outcome(None, "round-limit")
    return None


def command_options(state: TankWarsState, vehicle: Vehicle) -> list[Command | None]:
    """The commands ``vehicle`` can usefully plan now: ``None`` (no token: it stays) and
    every token of its pattern whose end field is on its own board, without the 2-field
    tokens when it has 1 AP left. Occupancy is not checked (it depends on card order).
    Without ``stay_without_token`` ``None`` is not allowed: in its place come the
    ``idle_commands`` (tokens that would not be executed: the vehicle stays)."""
    out: list[Command | None] = []
    if state.rules.stay_without_token:
        out.append(None)
    else:
        out.extend(idle_commands(state, vehicle))
    for cmd in command_table(state.board, vehicle.side, state.rules, vehicle.kind)[vehicle.cell]:
        if cmd.kind.distance == 2 and vehicle.armour <= 1:
            continue
        out.append(cmd)
    return out


def executes(state: TankWarsState, vehicle: Vehicle, command: Command) -> bool:
    """Whether ``command`` would be executed for ``vehicle`` (in its pattern, not 2 fields
    with 1 AP left, ending on its own board), occupancy aside."""
    if command.kind not in state.rules.kind(vehicle.kind).moves:
        return False
    if command.kind.distance == 2 and vehicle.armour <= 1:
        return False
    end = command_end(state.board, vehicle.cell, command)
    return end >= 0 and end in board_cells(state.board, vehicle.side)


def idle_commands(state: TankWarsState, vehicle: Vehicle) -> list[Command]:
    """Per token kind, the first placement that would not be executed for ``vehicle`` (a
    token it may be given to stay where it is), in token order; none for a kind every
    placement of which moves it."""
    out = []
    for kind in CommandKind:
        for d in kind.directions:
            cmd = Command(kind, d)
            if not executes(state, vehicle, cmd):
                out.append(cmd)
                break
    return out


def tokens_ok(rules: TankWarsRules, commands: Mapping[int, Command]) -> bool:
    """Whether ``commands`` (one side's) use at most ``tokens_per_kind`` tokens of each kind
    (always, when it is 0)."""
    limit = rules.tokens_per_kind
    if limit <= 0:
        return True
    count: dict[CommandKind, int] = {}
    for cmd in commands.values():
        count[cmd.kind] = count.get(cmd.kind, 0) + 1
    return all(n <= limit for n in count.values())


def gunfire_targets(state: TankWarsState, side: Side) -> list[int]:
    """Fields ``side`` may put a gunfire token on: every field of the enemy board, then the
    craters on its own board (to clear them)."""
    own = board_cells(state.board, side)
    return list(board_cells(state.board, side.other)) + sorted(c for c in state.craters if c in own)


_TABLES: dict[tuple[Board, Side, frozenset[CommandKind]], tuple[tuple[Command, ...], ...]] = {}


def command_table(
    board: Board, side: Side, rules: TankWarsRules, kind: str
) -> tuple[tuple[Command, ...], ...]:
    """Per cell, the tokens of ``kind``'s pattern that end on ``side``'s own board (cached)."""
    pattern = rules.kind(kind).moves
    key = (board, side, pattern)
    table = _TABLES.get(key)
    if table is None:
        cells = board_cells(board, side)
        rows: list[tuple[Command, ...]] = []
        for c in range(board.size):
            ok = []
            for cmd in ALL_COMMANDS:
                if cmd.kind not in pattern:
                    continue
                to = board.offset(c, *cmd.step)
                if to >= 0 and to in cells:
                    ok.append(cmd)
            rows.append(tuple(ok))
        table = _TABLES[key] = tuple(rows)
    return table
