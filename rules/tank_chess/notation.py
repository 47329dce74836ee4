"""Tank Chess turn notation (docs/rules.md §2.4): parse and format.

A turn is ``<from><to><facing>`` plus ``x<target>`` for a shot: ``h1h3N``, ``c3c5NExd7``,
a rotation in place ``h1h1NE``. Cells are case-insensitive on input, lower case on output;
facings are ``N NE E SE S SW W NW`` (upper case on output). On input the facing may be left
out: the piece then keeps its facing (``h1h3`` = ``h1h3N`` for a piece facing N). A command
tank's escape is written ``<from>esc`` (``escape`` accepted on input), e.g. ``h16esc``.
"Check" and "escape" announcements are not part of the notation.

>>> from rules.tank_chess.notation import parse_turn, format_turn   # doctest: +SKIP
>>> format_turn(state, parse_turn(state, "c3c5nexD7"))               # doctest: +SKIP
'c3c5NExd7'

Errors: ``NotationError`` (bad syntax, off-board cell) and ``IllegalMoveError`` (well
formed but not legal here); both are ``TankmapError`` and ``ValueError`` subclasses whose
message quotes the text and says what is wrong.
"""

from __future__ import annotations

import re

from tankmap.rules.errors import IllegalMoveError, TankmapError, short
from tankmap.rules.geometry import Facing
from tankmap.rules.sides import side_name
from tankmap.rules.tank_chess.data import tank_chess_data
from tankmap.rules.tank_chess.state import ESCAPE, NO_TARGET, SIDES, GameState, Turn

_TURN_RE = re.compile(
    r"^([a-z])([0-9]{1,2})"
    r"(?:(esc|escape)|([a-z])([0-9]{1,2})(ne|nw|se|sw|n|e|s|w)?(?:x([a-z])([0-9]{1,2}))?)$",
    re.IGNORECASE,
)
_EXAMPLE = "expected like 'c3c5N', 'c3c5NExd7' or 'h16esc'"


class NotationError(TankmapError, ValueError):
    """Text that is not a well-formed Tank Chess turn."""


def format_turn(state: GameState, turn: Turn) -> str:
    """Notation of ``turn`` in ``state`` (the position *before* the turn is played)."""
    p, c, f, target = turn
    name = state.scenario.board.cell_name
    start = name(state.cell[p])
    if c == ESCAPE:
        return f"{start}esc"
    text = f"{start}{name(c)}{Facing(f).name}"
    if target != NO_TARGET:
        text += f"x{name(state.cell[target])}"
    return text


def _cell(state: GameState, text: str, col: str, row: str) -> int:
    board = state.scenario.board
    try:
        return board.parse_cell(col + row)
    except ValueError as exc:
        raise NotationError(f"{short(text)}: {exc}") from None


def parse_turn(state: GameState, text: str) -> Turn:
    """The legal turn ``text`` names in ``state`` (side to move). Raises ``NotationError``
    if it is malformed, ``IllegalMoveError`` if it names no legal turn (the message says
    whether the piece, the end cell/facing or the target is the problem)."""
    if not isinstance(text, str):
        raise NotationError(f"a turn must be text like 'c3c5N', not {short(text)}")
    m = _TURN_RE.match(text.strip())
    if not m:
        raise NotationError(f"not Tank Chess notation: {short(text)} ({_EXAMPLE})")
    if state.winner >= 0:
        raise IllegalMoveError(f"{short(text)}: the game is over ({state.reason})")
    start = _cell(state, text, m.group(1), m.group(2))
    name = state.scenario.board.cell_name
    me = state.to_move
    p = state.grid[start]
    if p < 0 or state.side[p] != me:
        mover = side_name("tank-chess", SIDES[me])
        raise IllegalMoveError(
            f"{short(text)}: no {mover} piece on {name(start)} ({mover} to move)"
        )
    what = f"the {tank_chess_data().stats(state.kind[p]).name.lower()} on {name(start)}"
    turns: list[Turn] = []
    state.piece_turns(p, turns)
    if m.group(3):
        turn = (p, ESCAPE, -1, NO_TARGET)
        if turn not in turns:
            raise IllegalMoveError(f"{short(text)}: {what} cannot escape now")
        return turn
    to = _cell(state, text, m.group(4), m.group(5))
    facing = int(Facing.parse(m.group(6))) if m.group(6) else state.facing[p]
    if not any(t[1] == to and t[2] == facing for t in turns):
        raise IllegalMoveError(
            f"{short(text)}: {what} cannot end its move on {name(to)} facing {Facing(facing).name}"
        )
    if m.group(7) is None:
        return (p, to, facing, NO_TARGET)
    aim = _cell(state, text, m.group(7), m.group(8))
    target = state.grid[aim]
    turn = (p, to, facing, target)
    if target < 0 or turn not in turns:
        raise IllegalMoveError(
            f"{short(text)}: {what} cannot shoot at {name(aim)} from {name(to)} facing "
            f"{Facing(facing).name} (needs an enemy piece first on a ray it fires along, "
            "not adjacent, nothing between; a mortar 3-5 cells straight ahead)"
        )
    return turn
