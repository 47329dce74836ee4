"""The ``tank-chess`` ruleset (Forsage Games' Tank Chess, docs/rules.md §2).

Terrain kind ``obstacle`` (any cells; optional ``shape`` naming a catalogue piece, whose
cells must then form that shape). Unit kinds ``command light medium heavy destroyer
mortar`` with the stats of ``resources/rulesets/tank-chess.json``; facing is any of the 8
directions (a missing facing means "toward the enemy"); ``wreck: true`` marks a destroyed
piece. Boards 8 × 8 … 26 × 26 (default 16 × 16). Options: ``strict_corners`` (False),
``max_turns`` (300 plies). Sides are White (south, moves first) and Black (north).

Choices where docs/rules.md is silent are listed in ``rules.tank_chess.state`` and
``rules.tank_chess.checks``; notation in ``rules.tank_chess.notation``.
"""

from __future__ import annotations

from functools import cache
from typing import Any, ClassVar

from tankmap.rules.errors import short
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.ruleset import OptionSpec, Ruleset, UnitMove
from tankmap.rules.scenario import Scenario, Terrain, Unit
from tankmap.rules.tank_chess.checks import check_scenario
from tankmap.rules.tank_chess.data import KINDS, OPTION_SPECS, tank_chess_data
from tankmap.rules.tank_chess.shapes import shape_names
from tankmap.rules.violations import Finished, Violation


@cache
def _unit_moves(size: int) -> tuple[UnitMove, ...]:
    """Shared (immutable) ``UnitMove`` values indexed by state id ``cell * 8 + facing``."""
    facings = tuple(Facing)
    return tuple(UnitMove(s >> 3, facings[s & 7]) for s in range(size * 8))


class TankChess(Ruleset):
    """Tank Chess: alternate turns, move one piece then maybe shoot; win by destroying or
    escaping the command tank."""

    name: ClassVar[str] = "tank-chess"
    title: ClassVar[str] = "Tank Chess (Forsage Games)"
    terrain_kinds: ClassVar[tuple[str, ...]] = ("obstacle",)
    unit_kinds: ClassVar[tuple[str, ...]] = KINDS
    option_specs: ClassVar[tuple[OptionSpec, ...]] = OPTION_SPECS
    default_board: ClassVar[tuple[int, int]] = (16, 16)

    def board_problem(self, columns: int, rows: int) -> str | None:
        data = tank_chess_data()
        lo, hi = data.board_min, data.board_max
        if lo <= columns <= hi and lo <= rows <= hi:
            return None
        return f"Tank Chess boards are {lo}x{lo} to {hi}x{hi}, not {columns}x{rows}"

    def piece_problem(self, piece: Terrain | Unit) -> str | None:
        problem = super().piece_problem(piece)
        if problem:
            return problem
        if isinstance(piece, Unit):
            if piece.damage:
                return "Tank Chess pieces have no damage count (a hit destroys or does nothing)"
            if piece.armour is not None:
                return "Tank Chess armour comes from the piece kind; 'armour' is not allowed"
            return None
        if piece.lane is not None or piece.arrow is not None:
            return "obstacles have no lane or arrow"
        if piece.shape is not None and piece.shape not in shape_names():
            return (
                f"unknown obstacle shape {short(piece.shape)} (known: {', '.join(shape_names())})"
            )
        return None

    def unit_stats(self, kind: str) -> dict[str, Any]:
        stats = tank_chess_data().pieces.get(kind)
        return {} if stats is None else stats.to_json()

    # --- legality -----------------------------------------------------------------------
    def check(self, scenario: Scenario) -> list[Violation]:
        return check_scenario(scenario)

    def finished(self, scenario: Scenario) -> Finished | None:
        """A side whose command tank is a wreck has lost (``command-destroyed``); both
        command tanks wrecks is a finished draw (``both-destroyed``: no game reaches it,
        but a file can say it). A missing command tank is an unfinished setup
        (``check`` reports it incomplete); an escape leaves no position to save."""
        from tankmap.rules.tank_chess.state import command_wrecks

        gone = command_wrecks(scenario)
        if gone[0] and gone[1]:
            return Finished(None, "both-destroyed")
        if gone[0] or gone[1]:
            return Finished(Side.NORTH if gone[0] else Side.SOUTH, "command-destroyed")
        return None

    # --- movement and fire --------------------------------------------------------------
    def _state_and_piece(self, scenario: Scenario, unit: Unit) -> tuple[Any, int]:
        from tankmap.rules.tank_chess.state import GameState

        units = scenario.units
        for p in range(len(units) - 1, -1, -1):  # callers often append the unit asked about
            if units[p] is unit:
                break
        else:
            try:
                p = units.index(unit)
            except ValueError:
                scenario = scenario.adding(unit)
                p = len(scenario.units) - 1
        return GameState(scenario, lenient=True), p

    def moves(self, scenario: Scenario, unit: Unit) -> list[UnitMove]:
        """Distinct end states of a move of ``unit`` now, pieces blocking (docs/cli-json.md);
        the escape is ``UnitMove(None, None)`` and comes last. Wrecks have none."""
        if unit.wreck:
            return []
        state, p = self._state_and_piece(scenario, unit)
        ends, escaped = state.piece_moves(p)
        cache = _unit_moves(scenario.board.size)
        out = [cache[c * 8 + f] for c, f in ends]
        if escaped:
            out.append(UnitMove(None, None))
        return out

    def fire_zone(self, scenario: Scenario, unit: Unit) -> list[int]:
        """Cells ``unit`` could hit from where it stands (docs/cli-json.md ``fire_zone``)."""
        if unit.wreck:
            return []
        state, p = self._state_and_piece(scenario, unit)
        zone: list[int] = state.fire_zone(p)
        return zone

    # --- zones and goals ----------------------------------------------------------------
    def setup_cells(self, scenario: Scenario, side: Side) -> frozenset[int]:
        b = scenario.board
        rows = tank_chess_data().setup_rows
        return frozenset(c for c in range(b.size) if b.own_row(c, side.index) <= rows)

    def goal_cells(self, scenario: Scenario, unit: Unit) -> frozenset[int] | None:
        """Command tank: the empty set (its goal is the escape, a move with ``to=None``);
        every other piece: ``None`` (it cannot win by moving)."""
        return frozenset() if unit.kind == "command" else None
