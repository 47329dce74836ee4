"""The three games as OpenSpiel Python games (optional extra ``tankmap[openspiel]``).

Importing ``tankmap.analysis.openspiel`` registers

- ``tankmap_tank_chess`` — sequential, perfect information, no chance;
- ``tankmap_final_act`` — simultaneous moves (one simultaneous step per unit slot);
- ``tankmap_tank_wars`` — simultaneous moves with chance nodes for every die roll;

each with the game parameter ``scenario`` (a scenario file or a built-in map name such as
``final-act/mirror``; default the game's standard built-in map). Returns are +1 / -1 for
a win / loss and 0 for a draw. ``docs/interop.md`` has the action encodings and an example::

    import pyspiel
    import tankmap.analysis.openspiel  # registers the games
    game = pyspiel.load_game("tankmap_tank_chess", {"scenario": "tank-chess/basic-16"})

Raises ``OpenSpielMissingError`` (one line naming the extra) when ``open_spiel`` is not
installed.
"""

from __future__ import annotations

from tankmap.analysis.openspiel.common import OpenSpielMissingError, require_pyspiel

require_pyspiel()

from tankmap.analysis.openspiel import final_act, tank_chess, tank_wars  # noqa: E402

GAMES = {
    "tankmap_final_act": final_act,
    "tankmap_tank_chess": tank_chess,
    "tankmap_tank_wars": tank_wars,
}

__all__ = ["GAMES", "OpenSpielMissingError"]
