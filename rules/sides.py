"""How texts name the sides and their rows: the one place every message, report, picture and
window asks.

Files and ``--json`` say ``south`` and ``north`` (side 0 at the bottom, side 1 at the top).
A game may give its sides display names in its ruleset data (``"side_names"`` in
``resources/rulesets/<name>.json``): Tank Chess is played White (south) against Black
(north), and every text a person reads says White and Black. A game without display names
says South and North: Final Act's rules name the companies Alpha and Delta but never seat
either at an edge, while its zones, lanes and rows are all told by the edge a side sets up
at, so South and North are the names a Final Act player can place on the board (Tank Wars
likewise).

Rows are named as the board labels them (row 1 at the bottom); a rule that counts rows from
a side's own edge says so in brackets: ``rows 10–12 (north's rows 1–3)``.

>>> side_name("tank-chess", Side.SOUTH)
'White'
>>> result_text("final-act", "north")
'North wins'
>>> rows_text(Board.of(12, 12), Side.NORTH, 1, 3)
"rows 10–12 (north's rows 1–3)"
"""

from __future__ import annotations

from tankmap.rules.board import Board
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset


def side_names(ruleset: str) -> dict[Side, str]:
    """Display names of both sides of ``ruleset`` (``UnknownRulesetError`` if it is not
    registered): ``{SOUTH: "White", NORTH: "Black"}`` in Tank Chess."""
    return get_ruleset(ruleset).side_names()


def side_name(ruleset: str, side: Side | str) -> str:
    """The display name of ``side`` (a ``Side`` or its file name ``"south"``/``"north"``;
    ``ValueError`` for anything else) in ``ruleset``: ``"White"``, ``"North"`` …"""
    return side_names(ruleset)[Side(side)]


def result_text(ruleset: str, winner: Side | str | None) -> str:
    """``"White wins"``, ``"South wins"``, or ``"draw"`` when ``winner`` is ``None`` or
    ``"draw"`` (the outcome words of game tables)."""
    if winner is None or winner == "draw":
        return "draw"
    return f"{side_name(ruleset, winner)} wins"


def rows_text(board: Board, side: Side, first: int, last: int, owner: str | None = None) -> str:
    """Own rows ``first``..``last`` of ``side`` as the board labels them, with the side's
    own count in brackets when it differs: ``"rows 10–12 (north's rows 1–3)"`` on a
    12-row board; where both counts agree (south) just ``"south's rows 1–3"``. ``owner``
    is how the side is called (default its file name, as the rule messages say it)."""
    who = side.value if owner is None else owner
    lo, hi = board_rows(board, side, first, last)
    if (lo, hi) == (first, last):
        return f"{who}'s {_span(first, last)}"
    return f"{_span(lo, hi)} ({who}'s {_span(first, last)})"


def board_rows_text(board: Board, side: Side, first: int, last: int) -> str:
    """Own rows ``first``..``last`` of ``side`` as the board labels them only:
    ``"rows 7–12"`` for north's rows 1–6 on a 12-row board."""
    return _span(*board_rows(board, side, first, last))


def board_rows(board: Board, side: Side, first: int, last: int) -> tuple[int, int]:
    """The board's labels (lowest, highest) of own rows ``first``..``last`` of ``side``,
    clipped to the board."""
    lo, hi = (
        (first, last) if side is Side.SOUTH else (board.rows + 1 - last, board.rows + 1 - first)
    )
    return max(lo, 1), min(hi, board.rows)


def _span(first: int, last: int) -> str:
    return f"row {first}" if first == last else f"rows {first}–{last}"
