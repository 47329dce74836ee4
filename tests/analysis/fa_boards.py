"""Final Act boards for analysis tests, built so answers can be derived by hand."""

from __future__ import annotations

from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Terrain, Unit

B = Board.of(12, 12)


def c(name: str) -> int:
    return B.parse_cell(name)


def tank(cell: str, side: Side = Side.SOUTH, facing: Facing | None = None) -> Unit:
    return Unit("tank", side, c(cell), facing or side.forward, name="C")


def swamp(corner: str, side: Side = Side.SOUTH) -> Terrain:
    col, row = B.col_of(c(corner)), B.row_of(c(corner))
    cells = (B.cell(col, row), B.cell(col + 1, row), B.cell(col, row + 1), B.cell(col + 1, row + 1))
    return Terrain("swamp", tuple(sorted(cells)), side=side)


def minefield(cells: str, lane: str, arrow: str, side: Side = Side.SOUTH) -> Terrain:
    return Terrain(
        "minefield",
        tuple(c(x) for x in cells.split()),
        side=side,
        lane=c(lane),
        arrow=Facing.parse(arrow),
    )


def fa(terrain: tuple[Terrain, ...] = (), units: tuple[Unit, ...] = ()) -> Scenario:
    return Scenario(ruleset="final-act", board=B, terrain=terrain, units=units)


# A swamp wall over rows 5-6, columns a-j: only k5/l5/k6/l6 stay open.
SWAMP_WALL = tuple(swamp(x) for x in ("a5", "c5", "e5", "g5", "i5"))
# A minefield wall over row 6; only the k6 lane points north (the others point south).
MINE_WALL = (
    minefield("a6 b6 c6", "b6", "S"),
    minefield("d6 e6 f6", "e6", "S"),
    minefield("g6 h6 i6", "h6", "S"),
    minefield("j6 k6 l6", "k6", "N"),
)
