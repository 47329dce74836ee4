"""Tank Chess "Check!" and "Escape!" (docs/rules.md §2.4, docs/notation.md).

For one side of a position, as if that side moved next (the opponent's reply ignored):
**check** — one of its legal turns destroys the enemy command tank (the shot reaches it and
its gun beats the armour side it hits); **escape** — its command tank has a legal turn off
the enemy's edge. Both come from a single legal-turn generation of that side.

>>> from tankmap.maps import map_path
>>> from tankmap.rules.fileformat import read_scenario
>>> from tankmap.rules.tank_chess.state import GameState
>>> st = GameState(read_scenario(map_path("tank-chess/basic-16")))
>>> side_status(st, 0).check, side_status(st, 0).escape
(False, False)
"""

from __future__ import annotations

from dataclasses import dataclass

from tankmap.rules.tank_chess.data import COMMAND
from tankmap.rules.tank_chess.notation import format_turn
from tankmap.rules.tank_chess.state import ESCAPE, GameState, Turn

CHECK = "Check!"
ESCAPE_CALL = "Escape!"


@dataclass(frozen=True)
class SideStatus:
    """The turns with which a side, moving next, would destroy the enemy command tank
    (``check_turns``) or move its own command tank off the board (``escape_turns``)."""

    check_turns: tuple[Turn, ...]
    escape_turns: tuple[Turn, ...]
    notation: tuple[tuple[str, ...], tuple[str, ...]]

    @property
    def check(self) -> bool:
        return bool(self.check_turns)

    @property
    def escape(self) -> bool:
        return bool(self.escape_turns)


def side_status(state: GameState, side: int) -> SideStatus:
    """``SideStatus`` of ``side`` (0 south/White, 1 north/Black) in ``state``, whoever is to
    move there; empty once the game is decided."""
    st = state if state.to_move == side else state.copy()
    st.to_move = side
    turns = st.legal_turns()
    checks: list[Turn] = []
    escapes: list[Turn] = []
    for t in turns:
        p, cell, _facing, target = t
        if cell == ESCAPE:
            escapes.append(t)
        elif target >= 0 and st.kind[target] == COMMAND and st.side[target] != side:
            if st.gun[p] > st.hit_armour(cell, target):
                checks.append(t)
    names = (
        tuple(format_turn(st, t) for t in checks),
        tuple(format_turn(st, t) for t in escapes),
    )
    return SideStatus(tuple(checks), tuple(escapes), names)


def announcements(state: GameState) -> tuple[str, ...]:
    """What the side that has just moved (the one *not* to move in ``state``) announces, as
    a player would say it: ``("Check!",)``, ``("Escape!",)``, both, or nothing."""
    status = side_status(state, 1 - state.to_move)
    said = []
    if status.check:
        said.append(CHECK)
    if status.escape:
        said.append(ESCAPE_CALL)
    return tuple(said)
