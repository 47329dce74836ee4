"""Helpers for the Tank Chess tests: build small positions from compact text."""

from __future__ import annotations

from pathlib import Path

from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit
from tankmap.rules.tank_chess.state import GameState, Turn

RS = get_ruleset("tank-chess")
ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps" / "tank-chess"


def make(
    units: list[str] | tuple[str, ...] = (),
    obstacles: str = "",
    size: tuple[int, int] = (16, 16),
    to_move: str = "south",
    **options: bool | int,
) -> Scenario:
    """Units as ``"W heavy h8 N"`` / ``"B command a5 E"`` (``x`` suffix = wreck), obstacles
    as space-separated cell names (one single-cell obstacle each)."""
    board = Board.of(*size)
    out = []
    for spec in units:
        parts = spec.split()
        side = Side.SOUTH if parts[0] == "W" else Side.NORTH
        out.append(
            Unit(
                parts[1],
                side,
                board.parse_cell(parts[2]),
                Facing.parse(parts[3]),
                wreck=len(parts) > 4 and parts[4] == "x",
            )
        )
    terrain = [Terrain("obstacle", (board.parse_cell(c),)) for c in obstacles.split()]
    scenario = RS.new_scenario(board, options)
    return Scenario(
        ruleset="tank-chess",
        board=board,
        options=scenario.options,
        terrain=tuple(terrain),
        units=tuple(out),
        to_move=Side.parse(to_move),
    )


def move_names(scenario: Scenario, index: int = 0) -> set[str]:
    """``{"h9N", "escape", ...}`` for unit ``index`` through the ruleset API."""
    unit = scenario.units[index]
    names = set()
    for m in RS.moves(scenario, unit):
        names.add("escape" if m.to is None else f"{scenario.board.cell_name(m.to)}{m.facing}")
    return names


def turns_of(state: GameState, piece: int) -> list[Turn]:
    out: list[Turn] = []
    state.piece_turns(piece, out)
    return out
