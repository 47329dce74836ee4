"""The Tank Wars (COBI-22104) ruleset: setup legality, command-token moves and fire zones.

PROVISIONAL (docs/rules.md §3): only the middle pages of the manual survive, so every number is a
default and an option (see ``rules.tank_wars.data``). Choices made where docs/rules.md is silent:

- The scenario is one 6 × 12 grid: south's own board is rows 1–6, north's rows 7–12 (north's
  own row k is row 13 − k). A vehicle belongs on its own board; one on the other board is an
  error (``wrong-board``).
- Vehicles have no facing (a facing in the file is ignored, with a warning); ``armour`` is the
  vehicle's armour points (AP), absent = the kind's starting AP; 0 or more than the starting
  AP is an error. Destroyed vehicles leave the board, so a ``wreck`` is an error.
- Craters and support tokens are terrain; every cell of such a piece is one token. Two tokens
  on one field, or a vehicle on a token, are errors (a vehicle that enters a crater removes
  it; one that ends on a support token collects it) — except a vehicle on a crater with
  ``hit_leaves_crater`` (the crater an artillery hit left under it).
- ``moves``: the end fields of the command tokens of the vehicle's pattern in the absolute
  directions (straight N/E/S/W, diagonal NE/SE/SW/NW). A token ending off the vehicle's own
  6 × 6 board or on a field held by another unit is not a move; nor is a 2-field token of a
  vehicle with 1 AP left. The facing of every move is ``None``. Fields passed over are not
  checked (only where a move ends matters).
- ``fire_zone``: the whole enemy board (36 fields) for every live vehicle — gunfire tokens
  may be placed anywhere there.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache
from typing import ClassVar

from tankmap.rules.board import Board
from tankmap.rules.errors import short
from tankmap.rules.geometry import Side
from tankmap.rules.ruleset import OptionSpec, Ruleset, UnitMove
from tankmap.rules.scenario import Scenario, Unit
from tankmap.rules.sides import board_rows_text, rows_text
from tankmap.rules.tank_wars.data import (
    COLUMNS,
    DATA,
    HALF_ROWS,
    OPTION_SPECS,
    ROWS,
    TERRAIN_KINDS,
    UNIT_KINDS,
    TankWarsRules,
)
from tankmap.rules.violations import Severity, Violation


def half_of(board: Board, cell: int) -> Side:
    """Whose own board ``cell`` lies on (south: rows 1–6, north: rows 7–12)."""
    return Side.SOUTH if board.row_of(cell) < HALF_ROWS else Side.NORTH


@cache
def board_cells(board: Board, side: Side) -> range:
    """The 36 cells of ``side``'s own board, in increasing order (cached per board)."""
    half = HALF_ROWS * board.columns
    return range(0, half) if side is Side.SOUTH else range(half, 2 * half)


class TankWars(Ruleset):
    """Tank Wars (COBI-22104), provisional. Board 6 × 12 only (two 6 × 6 boards)."""

    name: ClassVar[str] = DATA["name"]
    title: ClassVar[str] = DATA["title"]
    provisional: ClassVar[bool] = bool(DATA["provisional"])
    terrain_kinds: ClassVar[tuple[str, ...]] = TERRAIN_KINDS
    unit_kinds: ClassVar[tuple[str, ...]] = UNIT_KINDS
    option_specs: ClassVar[tuple[OptionSpec, ...]] = OPTION_SPECS
    default_board: ClassVar[tuple[int, int]] = (COLUMNS, ROWS)

    # --- numbers --------------------------------------------------------------------------
    def rules(self, scenario: Scenario) -> TankWarsRules:
        """The scenario's numbers (its options over the docs/rules.md §3 defaults)."""
        return TankWarsRules.of(self.options(scenario))

    def board_problem(self, columns: int, rows: int) -> str | None:
        if (columns, rows) != (COLUMNS, ROWS):
            return (
                f"Tank Wars uses a {COLUMNS}x{ROWS} board (two {COLUMNS}x{HALF_ROWS} boards),"
                f" not {columns}x{rows}"
            )
        return None

    def unit_stats(self, kind: str) -> dict[str, object]:
        k = TankWarsRules.defaults().kind(kind)
        return {
            "display": k.display,
            "armour": k.armour,
            "moves": sorted(c.value for c in k.moves),
            "shells": k.shells,
            "gunfire": k.gunfire,
            "provisional": True,
        }

    def starting_armour(self, scenario: Scenario, unit: Unit) -> int:
        """The unit's current AP: its ``armour`` if given, else its kind's starting AP."""
        if unit.armour is not None:
            return unit.armour
        return self.rules(scenario).kind(unit.kind).armour

    # --- legality -------------------------------------------------------------------------
    def check(self, scenario: Scenario) -> list[Violation]:
        """Setup rules (rules §3): vehicles on own rows 1..``setup_rows`` of their own board,
        one per field, per-kind counts (too many: error, fewer: incomplete), AP within
        1..starting AP, no wrecks, tokens one per field and never under a vehicle.

        Codes: ``wrong-board``, ``outside-setup-rows``, ``wreck-at-setup``,
        ``armour-out-of-range``, ``cell-shared``, ``too-many``, ``missing``, ``overlap``,
        ``unit-on-crater``, ``unit-on-support``, ``unknown-kind``, ``facing-ignored``
        (warning). Unknown terrain kinds are ignored (the file reader refuses them).
        """
        rules = self.rules(scenario)
        board = scenario.board
        out: list[Violation] = []
        occupant: dict[int, list[Unit]] = defaultdict(list)
        for u in scenario.units:
            occupant[u.cell].append(u)
            name = board.cell_name(u.cell)
            if u.kind not in UNIT_KINDS:
                out.append(
                    Violation(
                        "unknown-kind",
                        Severity.ERROR,
                        f"{u.side} {short(u.kind)} at {name}: not a Tank Wars vehicle"
                        f" ({', '.join(UNIT_KINDS)})",
                        (u.cell,),
                        u.side,
                    )
                )
                continue
            k = rules.kind(u.kind)
            label = f"{u.side} {k.display} at {name}"
            if u.wreck:
                out.append(
                    Violation(
                        "wreck-at-setup",
                        Severity.ERROR,
                        f"{label}: destroyed vehicles leave the board (no wrecks in Tank Wars)",
                        (u.cell,),
                        u.side,
                    )
                )
            if half_of(board, u.cell) is not u.side:
                out.append(
                    Violation(
                        "wrong-board",
                        Severity.ERROR,
                        f"{label}: a vehicle stays on its own board "
                        f"({board_rows_text(board, u.side, 1, HALF_ROWS)})",
                        (u.cell,),
                        u.side,
                    )
                )
            elif board.own_row(u.cell, u.side.index) > rules.setup_rows:
                out.append(
                    Violation(
                        "outside-setup-rows",
                        Severity.ERROR,
                        f"{label}: vehicles set up on "
                        f"{rows_text(board, u.side, 1, rules.setup_rows)}",
                        (u.cell,),
                        u.side,
                    )
                )
            if u.armour is not None and not 1 <= u.armour <= k.armour:
                out.append(
                    Violation(
                        "armour-out-of-range",
                        Severity.ERROR,
                        f"{label}: armour {u.armour} is outside 1..{k.armour}",
                        (u.cell,),
                        u.side,
                    )
                )
            if u.facing is not None:
                out.append(
                    Violation(
                        "facing-ignored",
                        Severity.WARNING,
                        f"{label}: Tank Wars vehicles have no facing ({u.facing} is ignored)",
                        (u.cell,),
                        u.side,
                    )
                )
        for cell, units in occupant.items():
            if len(units) > 1:
                out.append(
                    Violation(
                        "cell-shared",
                        Severity.ERROR,
                        f"{len(units)} vehicles on {board.cell_name(cell)}: one vehicle per field",
                        (cell,),
                        units[0].side,
                    )
                )
        for side in Side:
            for k in rules.kinds:
                mine = [u for u in scenario.units if u.side is side and u.kind == k.kind]
                if len(mine) > k.count:
                    out.append(
                        Violation(
                            "too-many",
                            Severity.ERROR,
                            f"{side} has {len(mine)} {k.display}s (at most {k.count})",
                            tuple(u.cell for u in mine),
                            side,
                        )
                    )
                elif len(mine) < k.count:
                    out.append(
                        Violation(
                            "missing",
                            Severity.INCOMPLETE,
                            f"{side} has {len(mine)} of {k.count} {k.display}s",
                            (),
                            side,
                        )
                    )
        out.extend(self._token_violations(scenario, occupant))
        return out

    def _token_violations(
        self, scenario: Scenario, occupant: dict[int, list[Unit]]
    ) -> list[Violation]:
        board = scenario.board
        hit_leaves_crater = self.rules(scenario).hit_leaves_crater
        out: list[Violation] = []
        tokens: dict[int, list[str]] = defaultdict(list)
        for t in scenario.terrain:
            if t.kind not in TERRAIN_KINDS:
                continue
            for c in t.cells:
                tokens[c].append(t.kind)
            wrong = tuple(
                c for c in t.cells if t.side is not None and half_of(board, c) is not t.side
            )
            if wrong:
                out.append(
                    Violation(
                        "wrong-board",
                        Severity.ERROR,
                        f"{t.side} {t.kind} on {' '.join(board.cell_name(c) for c in wrong)}:"
                        f" a token marked {t.side} must lie on {t.side}'s board",
                        wrong,
                        t.side,
                    )
                )
        for cell, kinds in sorted(tokens.items()):
            name = board.cell_name(cell)
            if len(kinds) > 1:
                out.append(
                    Violation(
                        "overlap",
                        Severity.ERROR,
                        f"{' and '.join(kinds)} on {name}: one token per field",
                        (cell,),
                        half_of(board, cell),
                    )
                )
            if cell in occupant:
                for kind in sorted(set(kinds)):
                    if kind == "crater" and hit_leaves_crater:
                        continue  # the crater a shot left under the vehicle it hit
                    why = (
                        "a vehicle entering a crater removes it"
                        if kind == "crater"
                        else "a vehicle ending on a support token collects it"
                    )
                    out.append(
                        Violation(
                            f"unit-on-{kind}",
                            Severity.ERROR,
                            f"vehicle on a {kind} at {name}: {why}",
                            (cell,),
                            occupant[cell][0].side,
                        )
                    )
        return out

    # --- movement and fire ----------------------------------------------------------------
    def moves(self, scenario: Scenario, unit: Unit) -> list[UnitMove]:
        """The distinct end fields of the command tokens ``unit`` may execute now (see the
        module docstring), sorted by cell; every facing is ``None``."""
        if unit.wreck:
            return []
        board = scenario.board
        if half_of(board, unit.cell) is not unit.side or unit.kind not in UNIT_KINDS:
            return []
        k = self.rules(scenario).kind(unit.kind)
        armour = self.starting_armour(scenario, unit)
        taken = {u.cell for u in scenario.units if u is not unit}
        ends: set[int] = set()
        for command in k.moves:
            if command.distance == 2 and armour <= 1:
                continue
            for d in command.directions:
                to = board.offset(unit.cell, d.dx * command.distance, d.dy * command.distance)
                if to >= 0 and half_of(board, to) is unit.side and to not in taken:
                    ends.add(to)
        return [UnitMove(c, None) for c in sorted(ends)]

    def fire_zone(self, scenario: Scenario, unit: Unit) -> list[int]:
        """The whole enemy board (36 fields, sorted) for a live vehicle; ``[]`` for a wreck."""
        if unit.wreck:
            return []
        return list(board_cells(scenario.board, unit.side.other))

    # --- zones and goals ------------------------------------------------------------------
    def setup_cells(self, scenario: Scenario, side: Side) -> frozenset[int]:
        """Own rows 1..``setup_rows`` of ``side``'s own board."""
        b = scenario.board
        rows = self.rules(scenario).setup_rows
        return frozenset(c for c in board_cells(b, side) if b.own_row(c, side.index) <= rows)

    def goal_cells(self, scenario: Scenario, unit: Unit) -> frozenset[int] | None:
        """``None``: a Tank Wars vehicle never wins by moving (only by destroying)."""
        return None
