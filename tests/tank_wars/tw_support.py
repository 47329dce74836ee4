"""Helpers for the Tank Wars tests: scenarios from short tables and scripted dice."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tankmap.rules.board import Board
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit
from tankmap.rules.tank_wars.data import CommandKind
from tankmap.rules.tank_wars.engine import Command, Event, TankWarsState, initial_state
from tankmap.rules.tank_wars.ruleset import TankWars

BOARD = Board.of(6, 12)
TW: TankWars = get_ruleset("tank-wars")  # type: ignore[assignment]


def cell(name: str) -> int:
    return BOARD.parse_cell(name)


def names(cells: Any) -> list[str]:
    return [BOARD.cell_name(c) for c in cells]


def unit(kind: str, side: str, where: str, armour: int | None = None, **kw: Any) -> Unit:
    return Unit(kind, Side(side), cell(where), armour=armour, **kw)


def scenario(
    units: list[Unit],
    craters: tuple[str, ...] = (),
    supports: tuple[str, ...] = (),
    **options: Any,
) -> Scenario:
    """A tank-wars scenario with these units (card order = list order) and tokens."""
    terrain = [Terrain("crater", (cell(c),)) for c in craters]
    terrain += [Terrain("support", (cell(c),)) for c in supports]
    base = TW.new_scenario(options=options)
    return base.with_units(units).with_terrain(terrain)


def planning(s: Scenario) -> TankWarsState:
    """The state of ``s`` as if the artillery had just fired (ready for resolve_orders)."""
    return replace(initial_state(s), in_round=True)


def cmd(text: str) -> Command:
    """``cmd("straight2 N")``."""
    kind, direction = text.split()
    from tankmap.rules.geometry import Facing

    return Command(CommandKind(kind), Facing[direction])


class ScriptedDice:
    """Stands in for ``numpy.random.Generator`` in the engine. The engine draws ``m`` dice
    rolls as the base-36 digits (least significant first) of ``integers(0, 36**m)``
    (``engine.draw_rolls``); this returns the next ``m`` scripted rolls encoded that way and
    records ``m`` for each call."""

    def __init__(self, rolls: list[int]) -> None:
        self.rolls = list(rolls)
        self.calls: list[int] = []

    def integers(self, low: int, high: int | None = None, size: int | None = None) -> int:
        assert size is None and high is not None and low == 0
        m = 0
        while 36**m < high:
            m += 1
        assert 36**m == high, f"not a dice draw: integers(0, {high})"
        self.calls.append(m)
        assert len(self.rolls) >= m, f"the test scripted too few dice rolls (need {m})"
        out, self.rolls = self.rolls[:m], self.rolls[m:]
        return sum(r * 36**i for i, r in enumerate(out))


def roll(name: str, target: Side) -> int:
    """The dice roll (0..35) that lands on field ``name`` of ``target``'s board: letter =
    column, number = own row of ``target``."""
    c = cell(name)
    col, row = BOARD.col_of(c), BOARD.row_of(c)
    own_row = row + 1 if target is Side.SOUTH else BOARD.rows - row
    return 6 * (own_row - 1) + col


def armour_by_cell(state: object) -> dict[str, int]:
    return {BOARD.cell_name(v.cell): v.armour for v in state.vehicles}  # type: ignore[attr-defined]


def whats(events: list[Event]) -> list[str]:
    return [e.what for e in events]
