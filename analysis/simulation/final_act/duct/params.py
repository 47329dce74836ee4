"""The ``duct`` search's numbers, shared by the compiled search (``search.py``,
``playout.py``) and its plain-Python reference (``agents/duct_ref.py``).

Plain constants (numba compiles them in): changing one changes both implementations.
"""

from __future__ import annotations

DEPTH = 4
"""Rounds played out after the searched round before the position is valued."""
EXPLORE = 0.6
"""The UCB exploration constant (values lie in [-1, 1])."""
EPSILON = 0.2
"""In a light playout, the chance that a tank takes a uniformly random legal order
instead of a shortest-route one."""

LIGHT = 0
"""Playouts by the search's own light policy: ``duct`` (independent of the heuristic)."""
HEURISTIC_PLAYOUTS = 1
"""Playouts by the heuristic on both sides: ``duct-h``."""

# --- the value of a position (``playout._value``) ---------------------------------
TANK_WORTH = 1.0
DAMAGED_WORTH = 0.6
AT_WORTH = 0.3
RM_WORTH = 0.3
RACE = (0.5, 0.2, 0.1)
"""Worth of one round of lead of a side's best, second and third tank (rounds to the
enemy's last line by terrain), in tanks."""
DIST_CAP = 12.0
"""Rounds to the line counted at most (an unreachable or missing tank counts this)."""
SCALE = 4.0
"""A position's score (tanks) divided by this is its value, clipped to ±``CLIP``."""
CLIP = 0.95
"""Values of positions not decided stay inside ±``CLIP``; a won game is worth ±1."""

# --- the counter-based noise (``analysis.simulation.noise``) ----------------------------
SALT_ROUND = 0x5EED_D0C7
"""Mixed with the game key, the round and the side into the key of one search."""
SALT_ITER = 0x17E2_A710
"""Mixed with a search's key and the iteration number into the iteration's key."""
ARM_STRIDE = 2048
"""Noise counters of a search's key per unit: order arm ``j`` at ``u * ARM_STRIDE + j``,
shell arm on cell ``c`` at ``u * ARM_STRIDE + SHELL_NOISE + c``."""
SHELL_NOISE = 1024
REPAIR_ARM = 1000
"""The noise counter (within a unit's stride) of the repair arm."""
PLAYOUT_STRIDE = 128
"""Noise counters of an iteration's key per playout round and unit: slot ``s`` of unit
``u`` in playout round ``r`` is ``(r * units + u) * PLAYOUT_STRIDE + s``: 0 random or
shortest order, 1 which random order, 2 the first enemy a shooter looks at, ``MOVE_TIE +
j`` order ``j``'s tie-break, ``GUESS_TIE + j`` the tie-break of the order a shooter
expects."""
MOVE_TIE = 8
GUESS_TIE = 64
