"""How a Tank Chess game ends: the reasons ``GameState.outcome`` gives, their codes in
the compiled kernel's arrays (``REASONS``) and the ``GameResult.end`` of each (``ENDS``)."""

from __future__ import annotations

from tankmap.analysis.simulation.games import (
    END_COMMAND_KILLED,
    END_ESCAPE,
    END_LIMIT,
    END_NO_MOVES,
)

REASONS = ("", "escape", "command-destroyed", "max-turns", "no-move", "both-destroyed")
"""``Position.meta[3]`` codes of ``GameState.reason``."""

ENDS = {
    "command-destroyed": END_COMMAND_KILLED,
    "escape": END_ESCAPE,
    "max-turns": END_LIMIT,
    "no-move": END_NO_MOVES,
}
"""``GameResult.end`` of a ``GameState.reason`` (others are kept as they are)."""
