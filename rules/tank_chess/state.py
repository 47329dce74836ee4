"""The fast Tank Chess game state: move generation, apply/undo, outcome (docs/rules.md §2.3-2.5).

This is the engine the simulation and perft build on. It is plain Python tuned for speed:
flat ``list`` arrays, precomputed per-board tables (``rules.tank_chess.tables``), cached
move trees and per-position sight maps (``rules.tank_chess.movegen``), int-coded pieces
and turns, apply/undo in place (no copying per move; about 1 µs per push + pop, 0.3 ms
per ``legal_turns`` on the basic 16 × 16 setup).

Pieces
    Piece ``p`` is the index of the unit in ``scenario.units`` (wrecks included, so indices
    are stable for the whole game). Per piece: ``kind[p]`` (code, see ``data.KINDS``),
    ``side[p]`` (0 south/White, 1 north/Black), ``cell[p]`` (-1 once escaped),
    ``facing[p]`` (0 = N … 7 = NW clockwise), ``alive[p]`` (False = wreck).
    ``grid[c]`` is ``EMPTY`` (-1), ``BLOCKED`` (-2: obstacle or wreck) or a live piece index.

Turns
    A turn is a plain tuple ``(piece, cell, facing, target)``: the piece moved, its end cell
    and facing — or ``cell == ESCAPE`` (-1) and ``facing == -1`` for a command tank's
    escape — and the shot piece index or ``NO_TARGET`` (-1). Distinct tuples are distinct
    turns (docs/cli-json.md ``perft``): a shot at a target that survives is still its own turn.

Use
    >>> from rules.tank_chess.state import initial_state, legal_turns, apply, undo, outcome
    >>> st = initial_state(scenario)            # doctest: +SKIP
    >>> for turn in legal_turns(st):            # doctest: +SKIP
    ...     apply(st, turn); ...; undo(st)

    ``st.count_turns()`` counts the legal turns without building them (perft leaves),
    ``st.piece_turns(p, out)`` / ``st.piece_moves(p)`` / ``st.fire_zone(p)`` answer for one
    piece, ``st.hit_armour(cell, target)`` is the armour a shot from ``cell`` meets,
    ``st.copy()`` clones, ``st.position_key()`` is a hashable position (for tables),
    ``outcome(st)`` is ``None`` while the game goes on, ``to_scenario(st)`` writes the
    position back as a scenario (wrecks as ``wreck: true`` units, ``to_move`` set).
    ``apply`` trusts its turn (use ``play`` or ``notation.parse_turn`` for untrusted input);
    the played turns are ``st.history`` entries ``(turn, old_cell, old_facing, ...)`` and
    ``st.turns()`` lists them.

Choices where docs/rules.md is silent (documented here, see also the ruleset docstring):
    - The moving piece's start cell counts as empty while it moves and when it shoots (a
      piece that backs up may fire through the cell it left).
    - ``strict_corners``: the board edge never blocks, so a diagonal escape is never
      refused by it; the backward step obeys ``strict_corners`` when it is diagonal.
    - Escapes (docs/rules.md §2.5): by a forward step, diagonal ones allowed unless the
      option ``diagonal_escape`` is false (the tables then hold straight escapes only);
      by the backward step only with ``backward_escape`` (never through a corner point,
      diagonal only when diagonal escapes are allowed).
    - Destroying *any* command tank of a side wins (a legal army has exactly one).
    - Every live piece can always rotate in place, so "no legal move" only happens to a
      side without live pieces on the board.
    - ``max_turns`` counts plies from the position the state was built from; 0 or less
      means no limit.
"""

from __future__ import annotations

from dataclasses import dataclass

from tankmap.rules.errors import IllegalMoveError, TankmapError, short
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Unit
from tankmap.rules.sides import side_name
from tankmap.rules.tank_chess.data import (
    COMMAND,
    FIRE_MORTAR,
    FIRE_TURRET,
    KINDS,
    OPTION_SPECS,
    kind_facts,
)
from tankmap.rules.tank_chess.movegen import (
    Sight,
    end_states,
    piece_turn_count,
    piece_turns,
    sight_map,
)
from tankmap.rules.tank_chess.perft import perft, perft_divide
from tankmap.rules.tank_chess.tables import (
    BLOCKED,
    EMPTY,
    ESCAPE,
    NO_TARGET,
    Tables,
    tables_for,
    terrain_grid,
)

__all__ = [
    "BLOCKED",
    "EMPTY",
    "ESCAPE",
    "NO_TARGET",
    "GameState",
    "Outcome",
    "PositionError",
    "Turn",
    "apply",
    "initial_state",
    "legal_turns",
    "outcome",
    "perft",
    "perft_divide",
    "to_scenario",
    "undo",
]

Turn = tuple[int, int, int, int]
"""``(piece, cell or ESCAPE, facing or -1, target piece or NO_TARGET)``."""

SIDES = (Side.SOUTH, Side.NORTH)
_DIRS3 = tuple(((f + 7) & 7, f, (f + 1) & 7) for f in range(8))
_DIRS1 = tuple((f,) for f in range(8))
# direction of a unit step (sx, sy) in -1..1: _DIR_OF[(sy + 1) * 3 + sx + 1]
_DIR_OF = [-1] * 9
for _f in Facing:
    _DIR_OF[(_f.dy + 1) * 3 + _f.dx + 1] = int(_f)


class PositionError(TankmapError, ValueError):
    """A scenario cannot be played: not Tank Chess, or two things on one cell."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` (``None`` for a draw) and ``reason``: one of
    ``"command-destroyed"``, ``"escape"``, ``"max-turns"``, ``"no-move"``."""

    winner: Side | None
    reason: str

    def to_json(self) -> dict[str, str | None]:
        return {"winner": None if self.winner is None else self.winner.value, "reason": self.reason}


class GameState:
    """A Tank Chess position with everything the move generator needs (see module doc)."""

    __slots__ = (
        "scenario",
        "tables",
        "columns",
        "size",
        "strict_corners",
        "backward_escape",
        "max_turns",
        "grid",
        "kind",
        "side",
        "cell",
        "facing",
        "alive",
        "speed",
        "gun",
        "fire",
        "armour",
        "pieces_of",
        "to_move",
        "ply",
        "winner",
        "reason",
        "history",
    )

    scenario: Scenario
    tables: Tables
    columns: int
    size: int
    strict_corners: bool
    backward_escape: bool
    max_turns: int
    grid: list[int]
    kind: list[int]
    side: list[int]
    cell: list[int]
    facing: list[int]
    alive: list[bool]
    speed: list[int]
    gun: list[int]
    fire: list[int]
    armour: list[tuple[int, int, int]]
    pieces_of: tuple[tuple[int, ...], tuple[int, ...]]
    to_move: int
    ply: int
    winner: int
    reason: str
    history: list[tuple[Turn, int, int, bool, int, str]]

    def __init__(self, scenario: Scenario, lenient: bool = False) -> None:
        """Build the state of ``scenario``; ``PositionError`` if it is not tank-chess or
        (unless ``lenient``: then the later piece simply wins the cell) two things share a
        cell. Lenient states serve per-unit questions about scenarios still being edited."""
        if scenario.ruleset != "tank-chess":
            raise PositionError(
                f"this is a {scenario.ruleset!r} scenario; the game engine plays tank-chess only"
            )
        board = scenario.board
        info = kind_facts()
        opts = {s.name: s.default for s in OPTION_SPECS}
        opts.update(scenario.options)
        self.scenario = scenario
        self.tables = tables_for(board.columns, board.rows, bool(opts["diagonal_escape"]))
        self.columns = board.columns
        self.size = board.size
        self.strict_corners = bool(opts["strict_corners"])
        self.backward_escape = bool(opts["backward_escape"])
        max_turns = opts["max_turns"]
        self.max_turns = int(max_turns) if isinstance(max_turns, int | float) else 300
        grid = terrain_grid(board.size, scenario.terrain)
        kind: list[int] = []
        side: list[int] = []
        cell: list[int] = []
        facing: list[int] = []
        alive: list[bool] = []
        speed: list[int] = []
        gun: list[int] = []
        fire: list[int] = []
        armour: list[tuple[int, int, int]] = []
        by_side: tuple[list[int], list[int]] = ([], [])
        south = Side.SOUTH
        for p, u in enumerate(scenario.units):
            facts = info.get(u.kind)
            if facts is None:
                raise PositionError(f"unknown tank-chess piece kind {short(u.kind)}")
            c = u.cell
            if grid[c] != EMPTY and not lenient:
                what = "another piece" if grid[c] >= 0 else "an obstacle or a wreck"
                where = board.cell_name(c)
                raise PositionError(f"cannot play: the {u.label} on {where} shares it with {what}")
            si = 0 if u.side is south else 1
            kind.append(facts[0])
            side.append(si)
            cell.append(c)
            facing.append(int(u.facing) if u.facing is not None else 4 * si)
            alive.append(not u.wreck)
            speed.append(facts[1])
            gun.append(facts[2])
            fire.append(facts[3])
            armour.append(facts[4])
            if u.wreck:
                grid[c] = BLOCKED
            else:
                grid[c] = p
                by_side[si].append(p)
        self.kind, self.side, self.cell, self.facing, self.alive = kind, side, cell, facing, alive
        self.speed, self.gun, self.fire, self.armour = speed, gun, fire, armour
        self.grid = grid
        self.pieces_of = (tuple(by_side[0]), tuple(by_side[1]))
        self.to_move = scenario.to_move.index
        self.ply = 0
        self.winner = -1
        self.reason = ""
        self.history = []
        gone = command_wrecks(scenario)  # a position whose game is already decided
        if gone[0] and gone[1]:
            self.reason = "both-destroyed"
        elif gone[0] or gone[1]:
            self.winner, self.reason = (1 if gone[0] else 0), "command-destroyed"

    # --- cloning and comparing ---------------------------------------------------------
    def copy(self) -> GameState:
        """An independent clone (same position, same history)."""
        new = object.__new__(GameState)
        for name in GameState.__slots__:
            value = getattr(self, name)
            setattr(new, name, value.copy() if isinstance(value, list) else value)
        return new

    def position_key(self) -> tuple[object, ...]:
        """Hashable key of the position (pieces, wrecks, side to move; not the ply)."""
        return (self.to_move, tuple(self.cell), tuple(self.facing), tuple(self.alive))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return (
            self.scenario.board == other.scenario.board
            and self.scenario.terrain == other.scenario.terrain
            and self.position_key() == other.position_key()
            and self.grid == other.grid
            and (self.ply, self.winner, self.reason) == (other.ply, other.winner, other.reason)
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    # --- move generation ----------------------------------------------------------------
    def piece_turns(self, p: int, out: list[Turn], sight: Sight | None = None) -> None:
        """Append every legal turn of live piece ``p`` (whoever is to move) to ``out``.
        ``sight`` is an optional sight map of ``p``'s side (``movegen.sight_map``)."""
        piece_turns(self, p, out, sight)

    def piece_turn_count(self, p: int, sight: Sight | None = None) -> int:
        """``len`` of what ``piece_turns(p, ...)`` would append, without building turns."""
        return piece_turn_count(self, p, sight)

    def legal_turns(self) -> list[Turn]:
        """Every legal turn of the side to move (empty once the game is decided)."""
        out: list[Turn] = []
        if self.winner >= 0 or self.reason:
            return out
        alive, cell = self.alive, self.cell
        sight = sight_map(self, self.to_move)
        for p in self.pieces_of[self.to_move]:
            if alive[p] and cell[p] >= 0:
                piece_turns(self, p, out, sight)
        return out

    def count_turns(self) -> int:
        """``len(self.legal_turns())`` without building the list (perft leaves)."""
        if self.winner >= 0 or self.reason:
            return 0
        n = 0
        alive, cell = self.alive, self.cell
        sight = sight_map(self, self.to_move)
        for p in self.pieces_of[self.to_move]:
            if alive[p] and cell[p] >= 0:
                n += piece_turn_count(self, p, sight)
        return n

    def piece_end_states(self, p: int) -> tuple[set[int], bool]:
        """Fast form of ``piece_moves``: the end state ids ``cell * 8 + facing`` as a fresh
        set (unordered) and whether piece ``p`` can escape."""
        grid = self.grid
        c0 = self.cell[p]
        grid[c0] = EMPTY
        try:
            return end_states(self, p, c0, self.facing[p])
        finally:
            grid[c0] = p

    def piece_moves(self, p: int) -> tuple[list[tuple[int, int]], bool]:
        """Piece ``p``'s distinct end states ``(cell, facing)`` (sorted) and whether it can
        escape, in the current position, whoever is to move."""
        states, escaped = self.piece_end_states(p)
        return sorted((s >> 3, s & 7) for s in states), escaped

    def fire_zone(self, p: int) -> list[int]:
        """docs/cli-json.md ``fire_zone`` of piece ``p`` where it stands, sorted: direct fire — ray
        cells at distance ≥ 2 with every cell between empty, not an obstacle or wreck (so
        the first piece on a ray, own or enemy, is in and nothing beyond); mortar — the
        on-board cells 3-5 straight ahead that are not an obstacle or wreck."""
        t = self.tables
        c, f = self.cell[p], self.facing[p]
        grid = self.grid
        zone: set[int] = set()
        if self.fire[p] == FIRE_MORTAR:
            zone.update(x for x in t.mortar[f * self.size + c] if grid[x] != BLOCKED)
            return sorted(zone)
        dirs = _DIRS3[f] if self.fire[p] == FIRE_TURRET else _DIRS1[f]
        for d in dirs:
            i = d * self.size + c
            a = t.ray_first[i]
            if a < 0 or grid[a] != EMPTY:
                continue
            for x in t.ray_rest[i]:
                v = grid[x]
                if v == BLOCKED:
                    break
                zone.add(x)
                if v != EMPTY:
                    break
        return sorted(zone)

    # --- playing ------------------------------------------------------------------------
    def hit_armour(self, shooter_cell: int, target: int) -> int:
        """The armour value of ``target`` facing a shot from ``shooter_cell`` (docs/rules.md §2.3:
        front if the direction target→shooter is its facing, rear if opposite, else side)."""
        tc = self.cell[target]
        cols = self.columns
        dx = shooter_cell % cols - tc % cols
        dy = shooter_cell // cols - tc // cols
        d = _DIR_OF[((dy > 0) - (dy < 0) + 1) * 3 + (dx > 0) - (dx < 0) + 1]
        tf = self.facing[target]
        front, side, rear = self.armour[target]
        if d == tf:
            return front
        if d == (tf + 4) & 7:
            return rear
        return side

    def push(self, turn: Turn) -> None:
        """Apply ``turn`` (trusted: it must come from ``legal_turns``) in place."""
        p, c, f, target = turn
        grid = self.grid
        oc = self.cell[p]
        of = self.facing[p]
        pw, pr = self.winner, self.reason
        me = self.side[p]
        destroyed = False
        grid[oc] = EMPTY
        if c == ESCAPE:
            self.cell[p] = -1
            self.winner = me
            self.reason = "escape"
        else:
            grid[c] = p
            self.cell[p] = c
            self.facing[p] = f
            if target >= 0 and self.gun[p] > self.hit_armour(c, target):
                destroyed = True
                self.alive[target] = False
                grid[self.cell[target]] = BLOCKED
                if self.kind[target] == COMMAND:
                    self.winner = me
                    self.reason = "command-destroyed"
        self.to_move ^= 1
        self.ply += 1
        self.history.append((turn, oc, of, destroyed, pw, pr))

    def pop(self) -> Turn:
        """Undo the last ``push`` and return its turn; ``IndexError`` if none."""
        turn, oc, of, destroyed, pw, pr = self.history.pop()
        p, c, _f, target = turn
        grid = self.grid
        if c != ESCAPE:
            grid[c] = EMPTY
        grid[oc] = p
        self.cell[p] = oc
        self.facing[p] = of
        if destroyed:
            self.alive[target] = True
            grid[self.cell[target]] = target
        self.winner, self.reason = pw, pr
        self.to_move ^= 1
        self.ply -= 1
        return turn

    def play(self, turn: Turn) -> None:
        """``push`` after checking that ``turn`` is legal; ``IllegalMoveError`` if not."""
        if self.winner >= 0 or self.reason:
            raise IllegalMoveError(f"the game is over ({self.reason})")
        p = turn[0]
        if not (0 <= p < len(self.kind)) or self.side[p] != self.to_move or not self.alive[p]:
            raise IllegalMoveError(f"piece {p} is not a live piece of the side to move")
        out: list[Turn] = []
        self.piece_turns(p, out)
        if turn not in out:
            raise IllegalMoveError(f"turn {turn} is not legal in this position")
        self.push(turn)

    def turns(self) -> list[Turn]:
        """The turns played since the initial position, in order."""
        return [h[0] for h in self.history]

    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on, else how it ended (docs/rules.md §2.5)."""
        if self.winner >= 0:
            return Outcome(SIDES[self.winner], self.reason)
        if self.reason:  # decided before any turn: both command tanks destroyed
            return Outcome(None, self.reason)
        if 0 < self.max_turns <= self.ply:
            return Outcome(None, "max-turns")
        alive, cell = self.alive, self.cell
        if not any(alive[p] and cell[p] >= 0 for p in self.pieces_of[self.to_move]):
            return Outcome(None, "no-move")
        return None

    def to_scenario(self) -> Scenario:
        """The current position as a scenario (wrecks marked, escaped pieces left out)."""
        from dataclasses import replace

        units: list[Unit] = []
        for p, u in enumerate(self.scenario.units):
            if self.cell[p] < 0:
                continue
            units.append(
                replace(
                    u,
                    cell=self.cell[p],
                    facing=Facing(self.facing[p]),
                    wreck=not self.alive[p],
                )
            )
        return replace(self.scenario, units=tuple(units), to_move=SIDES[self.to_move])

    def piece_label(self, p: int) -> str:
        """``"White light tank on c3"`` style text for messages."""
        colour = side_name("tank-chess", SIDES[self.side[p]])
        where = "off the board" if self.cell[p] < 0 else self.scenario.board.cell_name(self.cell[p])
        return f"{colour} {KINDS[self.kind[p]]} on {where}"


def command_wrecks(scenario: Scenario) -> tuple[bool, bool]:
    """Per side (south, north): it has a command tank and every one it has is a wreck."""
    out = []
    for side in SIDES:
        mine = [u for u in scenario.units if u.kind == "command" and u.side is side]
        out.append(bool(mine) and all(u.wreck for u in mine))
    return out[0], out[1]


# --- the functional API the brief names ---------------------------------------------------
def initial_state(scenario: Scenario) -> GameState:
    """The playable state of a tank-chess scenario (``to_move`` from the scenario, ply 0).
    Raises ``PositionError`` if it is not tank-chess or two things share a cell."""
    return GameState(scenario)


def legal_turns(state: GameState) -> list[Turn]:
    return state.legal_turns()


def apply(state: GameState, turn: Turn) -> None:
    """Apply a trusted turn in place (see ``GameState.push``)."""
    state.push(turn)


def undo(state: GameState) -> Turn:
    """Undo the last applied turn in place and return it."""
    return state.pop()


def outcome(state: GameState) -> Outcome | None:
    return state.outcome()


def to_scenario(state: GameState) -> Scenario:
    return state.to_scenario()
