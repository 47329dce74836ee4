"""The status bar's game line: whether the position's game is already over, and the Tank
Chess announcements ("Check!", "Escape!") of the side that has just moved."""

from __future__ import annotations

from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario


def game_status_text(scenario: Scenario) -> str:
    """``"Game over: White wins (command-destroyed)"``, ``"Black: Check!"``, or ``""``."""
    rs = get_ruleset(scenario.ruleset)
    names = rs.side_names()
    done = rs.finished(scenario)
    if done is not None:
        who = "a draw" if done.winner is None else f"{names[done.winner]} wins"
        return f"Game over: {who} ({done.reason})"
    if scenario.ruleset != "tank-chess":
        return ""
    from tankmap.rules.tank_chess.announce import announcements
    from tankmap.rules.tank_chess.state import GameState, PositionError

    if len({u.side for u in scenario.units if u.kind == "command" and not u.wreck}) < 2:
        return ""
    try:
        state = GameState(scenario)
    except PositionError:
        return ""
    said = announcements(state)
    if not said:
        return ""
    just_moved = Side.NORTH if scenario.to_move is Side.SOUTH else Side.SOUTH
    return f"{names[just_moved]}: {' '.join(said)}"
