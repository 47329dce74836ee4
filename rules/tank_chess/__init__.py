"""Tank Chess (Forsage Games): ruleset, fast game state, notation, game records.

Importing this package registers the ``tank-chess`` ruleset. The game engine API lives in
``rules.tank_chess.state`` (``initial_state``, ``legal_turns``, ``apply``, ``undo``,
``outcome``, ``to_scenario``, ``perft``); turn notation in ``rules.tank_chess.notation``;
saved games in ``rules.tank_chess.record``.
"""

from __future__ import annotations

from tankmap.rules.registry import register
from tankmap.rules.tank_chess.ruleset import TankChess

TANK_CHESS = register(TankChess())

__all__ = ["TANK_CHESS", "TankChess"]
