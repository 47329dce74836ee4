"""The position as text for the terminal (``tankmap play``): a board diagram with
coordinates, north at the top, one piece letter per cell — upper case for south (White),
lower case for north (Black) — with its facing as an arrow, and for the simultaneous games
a list of each side's units by the handles their orders use.

Letters: Tank Chess C command, L light, M medium, H heavy, D destroyer, R mortar, ``#``
obstacle, ``x`` wreck; Final Act T tank, A AT, R R/M, ``*`` after a damaged unit, ``+``
after a cell holding more than one unit, terrain ``=`` berm, ``~`` swamp, ``:`` minefield
(``|`` its lane), ``x`` wreck; Tank Wars H heavy, M medium, A artillery with their armour
points, ``o`` crater, ``s`` support token.
"""

from __future__ import annotations

from collections.abc import Sequence

from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario, Unit

ARROWS = "↑↗→↘↓↙←↖"
ASCII_ARROWS = "^/>\\v/<\\"
LETTERS = {
    "tank-chess": {
        "command": "C",
        "light": "L",
        "medium": "M",
        "heavy": "H",
        "destroyer": "D",
        "mortar": "R",
    },
    "final-act": {"tank": "T", "at": "A", "rm": "R"},
    "tank-wars": {"heavy": "H", "medium": "M", "artillery": "A"},
}
TERRAIN = {
    "obstacle": "#",
    "berm-large": "=",
    "berm-small": "=",
    "swamp": "~",
    "minefield": ":",
    "crater": "o",
    "support": "s",
}


def board_text(position: Scenario, ascii_only: bool = False) -> str:
    """The diagram of ``position`` (see the module docstring); ``ascii_only`` draws
    facings with ``^ > v <`` and ``/ \\`` for terminals without arrows."""
    b = position.board
    arrows = ASCII_ARROWS if ascii_only else ARROWS
    cells = ["."] * b.size
    for piece in position.terrain:
        mark = TERRAIN.get(piece.kind, "?")
        for c in piece.cells:
            cells[c] = "|" if piece.lane == c else mark
    by_cell: dict[int, list[Unit]] = {}
    for u in position.units:
        by_cell.setdefault(u.cell, []).append(u)
    for c, units in by_cell.items():
        cells[c] = _unit_text(position.ruleset, units, arrows)
    width = max(3, max(len(t) for t in cells) + 1)
    label = len(str(b.rows)) + 1
    head = " " * label + "".join(chr(97 + col).center(width) for col in range(b.columns))
    lines = [head]
    for row in range(b.rows - 1, -1, -1):
        texts = (cells[b.cell(col, row)].center(width) for col in range(b.columns))
        lines.append(f"{row + 1:>{label - 1}} " + "".join(texts).rstrip())
    lines.append(head)
    return "\n".join(lines)


def _unit_text(ruleset: str, units: Sequence[Unit], arrows: str) -> str:
    top = next((u for u in units if not u.wreck), units[0])
    if top.wreck:
        return "x"
    letter = LETTERS.get(ruleset, {}).get(top.kind, top.kind[:1].upper())
    if top.side is Side.NORTH:
        letter = letter.lower()
    if ruleset == "tank-wars":
        return f"{letter}{top.armour if top.armour is not None else ''}"
    text = letter + (arrows[int(top.facing)] if top.facing is not None else "")
    if top.damage:
        text += "*"
    if len(units) > 1:
        text += "+"
    return text


def unit_list(board_cells: Sequence[tuple[Side, str, str]]) -> list[str]:
    """Per side, ``south: C e2N, 1A b2N (damaged), AT1 e2N``, from ``(side, handle,
    where)`` entries (``where``: cell, facing and notes)."""
    out = []
    for side in Side:
        items = [f"{handle} {where}" for s, handle, where in board_cells if s is side]
        out.append(f"{side.value}: " + (", ".join(items) or "nothing left"))
    return out
