"""Tank Wars (COBI-22104) — a PROVISIONAL ruleset reconstructed from a fragment of the manual.

``rules.tank_wars.ruleset.TankWars`` is the registered ruleset (setup legality, command-token
moves, fire zones); ``rules.tank_wars.engine`` plays rounds (artillery, movement, gunfire,
supply drops); ``rules.tank_wars.data`` holds the numbers (all options, docs/rules.md §3 defaults).
"""

from __future__ import annotations

from tankmap.rules.registry import register
from tankmap.rules.tank_wars.ruleset import TankWars

TANK_WARS = register(TankWars())

__all__ = ["TANK_WARS", "TankWars"]
