"""A deliberately plain reference for Tank Wars (rules §3, provisional; cli-json.md ``moves``).

Written from the rule text and docs/cli-json.md only (never from ``rules/tank_wars``). Cells are
``(column, row)`` tuples, 0-based, on the 6 × 12 grid: south's own board is rows 0–5, north's
rows 6–11 (north's own row k is grid row 12 − k, 1-based). Sides: 0 south, 1 north.

Where docs/rules.md §3 is silent the reference follows the project's documented choice
(the public docstrings of ``rules.tank_wars``), each marked ``[choice]`` below: support
tokens give ``support_armour`` AP (never above the starting AP); movement runs in card
order, south's vehicles first; a vehicle destroyed by a crater leaves the board at once;
gunfire tokens beyond the side's available count are ignored; the game ends after the
phase in which a side lost its last vehicle.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

COLS, ROWS, HALF = 6, 12, 6
Cell = tuple[int, int]
KINDS = ("heavy", "medium", "artillery")

# rules §3 defaults, transcribed by hand: count, armour points, pattern, shells, gunfire symbols.
KIND_DEFAULTS: dict[str, dict[str, Any]] = {
    "heavy": {"count": 1, "armour": 3, "moves": "straight1,straight2", "shells": 0, "gunfire": 1},
    "medium": {"count": 1, "armour": 2, "moves": "straight1,diagonal1", "shells": 0, "gunfire": 1},
    "artillery": {"count": 1, "armour": 2, "moves": "straight1", "shells": 4, "gunfire": 1},
}
GAME_DEFAULTS: dict[str, Any] = {
    "gunfire_tokens": 3,  # docs/rules.md: a side starts with 3 gunfire tokens
    "long_range_shots": 1,  # docs/rules.md: one long-range shot
    "supply_drops": 1,  # docs/rules.md: one per side per round
    "setup_rows": 2,  # docs/rules.md: own rows 1-2
    "support_armour": 1,  # [choice] docs/rules.md does not say what a support token gives
    "gunfire_hits_stationary": True,  # [choice] "ends movement" read as "after movement"
    "max_rounds": 100,  # [choice] simulation limit (as Final Act)
}

STEP = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
# command token -> (absolute arrow directions, fields)
TOKENS = {
    "straight1": (("N", "E", "S", "W"), 1),
    "straight2": (("N", "E", "S", "W"), 2),
    "diagonal1": (("NE", "SE", "SW", "NW"), 1),
    "diagonal2": (("NE", "SE", "SW", "NW"), 2),
}


@dataclass(frozen=True)
class Rules:
    kinds: Mapping[str, Mapping[str, Any]]  # kind -> count, armour, moves (set), shells, gunfire
    game: Mapping[str, Any]

    @staticmethod
    def of(options: Mapping[str, Any]) -> Rules:
        """Defaults overridden by ``options`` (``<kind>_<what>`` or a game option name)."""
        kinds: dict[str, dict[str, Any]] = {}
        for kind, base in KIND_DEFAULTS.items():
            k = {what: options.get(f"{kind}_{what}", v) for what, v in base.items()}
            k["moves"] = frozenset(t for t in str(k["moves"]).replace(" ", "").split(",") if t)
            kinds[kind] = k
        game = {name: options.get(name, v) for name, v in GAME_DEFAULTS.items()}
        return Rules(kinds, game)


def side_of(c: Cell) -> int:
    """Whose own board the field is on."""
    return 0 if c[1] < HALF else 1


def own_row(side: int, c: Cell) -> int:
    """1-based row counted from ``side``'s back edge."""
    return c[1] + 1 if side == 0 else ROWS - c[1]


def on_grid(c: Cell) -> bool:
    return 0 <= c[0] < COLS and 0 <= c[1] < ROWS


def token_end(c: Cell, token: str, direction: str) -> Cell:
    """Where a token takes a vehicle on ``c`` (may be off the grid)."""
    dx, dy = STEP[direction]
    n = TOKENS[token][1]
    return (c[0] + n * dx, c[1] + n * dy)


def token_path(c: Cell, token: str, direction: str) -> list[Cell]:
    """The fields crossed and entered, in order (the last one is the end field)."""
    dx, dy = STEP[direction]
    return [(c[0] + k * dx, c[1] + k * dy) for k in range(1, TOKENS[token][1] + 1)]


def roll_field(side: int, roll: int) -> Cell:
    """Dice roll 0..35 (project encoding: letter die = roll % 6, number die = roll // 6 + 1)
    -> the field of ``side``'s own board: column = letter, own row = number."""
    letter, number = roll % 6, roll // 6 + 1
    return (letter, number - 1) if side == 0 else (letter, ROWS - number)


def hit_probability(k: int) -> Fraction:
    """A given field is hit at least once by k uniform shots: 1 − (35/36)^k."""
    return 1 - Fraction(35, 36) ** k


# --- setup legality ---------------------------------------------------------------------------
@dataclass(frozen=True)
class SetupUnit:
    kind: str
    side: int
    cell: Cell
    armour: int | None = None
    wreck: bool = False


@dataclass(frozen=True)
class SetupToken:
    kind: str  # crater / support
    cells: tuple[Cell, ...]
    side: int | None = None


def check(
    units: list[SetupUnit], tokens: list[SetupToken], rules: Rules
) -> tuple[bool, bool, set[Cell]]:
    """(legal, complete, fields named by errors). rules §3: vehicles on own rows 1..setup_rows
    of their own board, one per field, at most ``count`` per kind and side (fewer is only
    incomplete). [choice] also errors: AP outside 1..starting AP, a wreck, a vehicle on a
    token, two tokens on one field, a token marked for a side lying on the other board."""
    bad: set[Cell] = set()
    rows = int(rules.game["setup_rows"])
    held: dict[Cell, int] = {}
    for u in units:
        held[u.cell] = held.get(u.cell, 0) + 1
        if side_of(u.cell) != u.side or own_row(u.side, u.cell) > rows:
            bad.add(u.cell)
        start = int(rules.kinds[u.kind]["armour"])
        if u.wreck or (u.armour is not None and not 1 <= u.armour <= start):
            bad.add(u.cell)
    bad |= {c for c, n in held.items() if n > 1}
    complete = True
    for side in (0, 1):
        for kind in KINDS:
            mine = [u.cell for u in units if u.side == side and u.kind == kind]
            want = int(rules.kinds[kind]["count"])
            if len(mine) > want:
                bad.update(mine)
            complete = complete and len(mine) >= want
    token_count: dict[Cell, int] = {}
    for t in tokens:
        for c in t.cells:
            token_count[c] = token_count.get(c, 0) + 1
            if c in held or (t.side is not None and side_of(c) != t.side):
                bad.add(c)
    bad |= {c for c, n in token_count.items() if n > 1}
    return not bad, complete, bad


# --- moves (cli-json.md) ------------------------------------------------------------------------
def moves(vehicles: list[tuple[str, int, Cell, int]], i: int, rules: Rules) -> set[Cell]:
    """End fields of vehicle ``i``'s command tokens: its pattern, absolute directions; a
    2-field token needs more than 1 AP; ending off its own board or on a field held by any
    other vehicle is not a move. ``vehicles`` = (kind, side, cell, AP)."""
    kind, side, cell, ap = vehicles[i]
    held = {v[2] for j, v in enumerate(vehicles) if j != i}
    out: set[Cell] = set()
    for token in rules.kinds[kind]["moves"]:
        dirs, n = TOKENS[token]
        if n == 2 and ap <= 1:
            continue
        for d in dirs:
            end = token_end(cell, token, d)
            if on_grid(end) and side_of(end) == side and end not in held:
                out.add(end)
    return out


def fire_zone(side: int) -> set[Cell]:
    """Gunfire may go on any field of the enemy board."""
    return {(c, r) for c in range(COLS) for r in range(ROWS) if side_of((c, r)) != side}


# --- rounds -----------------------------------------------------------------------------------
@dataclass
class Vehicle:
    ident: int
    kind: str
    side: int
    cell: Cell
    ap: int


@dataclass
class Orders:
    commands: dict[int, tuple[str, str]] = field(default_factory=dict)  # ident -> (token, dir)
    gunfire: list[Cell] = field(default_factory=list)


@dataclass
class Game:
    rules: Rules
    vehicles: list[Vehicle]  # live ones, card order
    craters: set[Cell]
    supports: set[Cell]
    lost: list[int] = field(default_factory=lambda: [0, 0])  # gunfire symbols lost
    round: int = 0
    in_round: bool = False
    result: tuple[int | None, str] | None = None
    rolls_used: int = 0

    def of_side(self, side: int) -> list[Vehicle]:
        return [v for v in self.vehicles if v.side == side]

    def at(self, c: Cell) -> Vehicle | None:
        return next((v for v in self.vehicles if v.cell == c), None)

    def start_ap(self, v: Vehicle) -> int:
        return int(self.rules.kinds[v.kind]["armour"])

    def gunfire_available(self, side: int) -> int:
        return max(0, int(self.rules.game["gunfire_tokens"]) - self.lost[side])

    def shots(self, side: int) -> int:
        """Shells of the live vehicles; a side without an artillery vehicle (no shells)
        gets the long-range shot(s)."""
        n = sum(int(self.rules.kinds[v.kind]["shells"]) for v in self.of_side(side))
        return n if n > 0 else int(self.rules.game["long_range_shots"])

    def roll(self, rolls: Iterator[int]) -> int:
        self.rolls_used += 1
        return next(rolls)

    def remove_destroyed(self) -> None:
        for v in [v for v in self.vehicles if v.ap <= 0]:
            self.destroy(v)

    def destroy(self, v: Vehicle) -> None:
        """Losing a vehicle loses its gunfire symbols' worth of tokens."""
        self.vehicles.remove(v)
        self.lost[v.side] += int(self.rules.kinds[v.kind]["gunfire"])

    def check_end(self) -> bool:
        """A side that has lost its last vehicle loses (both at once: draw); ends the round."""
        alive = [bool(self.of_side(s)) for s in (0, 1)]
        if all(alive):
            return False
        self.result = (
            (None, "both-destroyed") if not any(alive) else (alive.index(True), "destroyed")
        )
        self.finish_round()
        return True

    def finish_round(self) -> None:
        self.round += 1
        self.in_round = False
        if self.result is None and self.round >= int(self.rules.game["max_rounds"]):
            self.result = (None, "round-limit")

    def collect(self, v: Vehicle) -> None:
        v.ap = min(self.start_ap(v), v.ap + int(self.rules.game["support_armour"]))

    # phase 1
    def artillery(self, rolls: Iterator[int]) -> None:
        """Each side fires at the other board: support token -> removed; vehicle -> −1 AP;
        else a crater (one per field). Simultaneous: the dead leave at the phase end."""
        assert self.result is None and not self.in_round
        shots = [self.shots(0), self.shots(1)]
        for shooter in (0, 1):
            for _ in range(shots[shooter]):
                c = roll_field(1 - shooter, self.roll(rolls))
                v = self.at(c)
                if c in self.supports:
                    self.supports.discard(c)
                elif v is not None:
                    v.ap -= 1
                else:
                    self.craters.add(c)
        self.remove_destroyed()
        self.in_round = True
        self.check_end()

    # phases 4-6
    def resolve(self, orders: tuple[Orders, Orders], rolls: Iterator[int]) -> None:
        assert self.result is None and self.in_round
        available = [self.gunfire_available(s) for s in (0, 1)]
        planned_craters = set(self.craters)
        moved: set[int] = set()
        for side in (0, 1):
            for v in self.of_side(side):
                if v in self.vehicles and v.ident in orders[side].commands:
                    if self.move(v, *orders[side].commands[v.ident]):
                        moved.add(v.ident)
        if self.check_end():
            return
        hits: dict[int, int] = {}
        for side in (0, 1):
            for c in orders[side].gunfire[: available[side]]:
                if side_of(c) == side:
                    assert c in planned_craters, "gunfire on an own plain field"
                    self.craters.discard(c)
                    continue
                v = self.at(c)
                if v is not None and (
                    v.ident in moved or self.rules.game["gunfire_hits_stationary"]
                ):
                    hits[v.ident] = hits.get(v.ident, 0) + 1
        for v in self.vehicles:
            v.ap -= hits.get(v.ident, 0)
        self.remove_destroyed()
        if self.check_end():
            return
        for side in (0, 1):
            for _ in range(int(self.rules.game["supply_drops"])):
                c = roll_field(side, self.roll(rolls))
                v = self.at(c)
                if v is not None:
                    self.collect(v)
                elif c not in self.craters and c not in self.supports:
                    self.supports.add(c)
        self.finish_round()

    def move(self, v: Vehicle, token: str, direction: str) -> bool:
        """Execute one command token; True if the vehicle left its field."""
        if token not in self.rules.kinds[v.kind]["moves"] or direction not in TOKENS[token][0]:
            return False  # outside the pattern: not executed
        if TOKENS[token][1] == 2 and v.ap <= 1:
            return False  # 2-field command with 1 AP left
        end = token_end(v.cell, token, direction)
        if not on_grid(end) or side_of(end) != v.side:
            return False  # would leave its own board
        if self.at(end) is not None:
            return False  # cancelled: ends on an occupied field
        for c in token_path(v.cell, token, direction):
            if c in self.craters:  # crossed or entered: −1 AP, crater removed
                self.craters.discard(c)
                v.ap -= 1
                if v.ap <= 0:
                    self.destroy(v)
                    return True
        v.cell = end
        if end in self.supports:
            self.supports.discard(end)
            self.collect(v)
        return True
