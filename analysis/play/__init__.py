"""Play a board: a person plays a side against an agent, or both sides at one screen.

One session object per game (``open_session``) knows whose decision is awaited, reads and
checks decisions written as lines of text (docs/notation.md), asks the agents and the hint
agent (``agents``, the one module that imports them), takes back, and keeps the standard
game record (docs/formats.md). The editor's play mode (``editor/play``) and ``tankmap
play`` are thin views over it.

>>> from tankmap.maps import map_path
>>> from tankmap.rules.fileformat import read_scenario
>>> from tankmap.analysis.play import HUMAN, open_session
>>> s = open_session(read_scenario(map_path("tank-chess/basic-16")), (HUMAN, "random"), 1)
>>> s.submit(s.waiting()[0], "h1h4N")          # doctest: +SKIP
>>> s.step_agents()                             # doctest: +SKIP

Modules: ``base`` (the common session), ``tank_chess``, ``final_act`` (+
``final_act_lines``), ``tank_wars`` (+ ``tank_wars_lines``), ``records`` (resume a record,
a record as lines), ``text`` (the terminal's board diagram), ``names`` (side names).
"""

from __future__ import annotations

from typing import Any

from tankmap.analysis.play.base import HUMAN, LineError, PlaySession, Result
from tankmap.rules.errors import TankmapError
from tankmap.rules.scenario import Scenario

__all__ = ["HUMAN", "LineError", "PlaySession", "Result", "check_playable", "open_session"]


def check_playable(scenario: Scenario) -> None:
    """Raise ``TankmapError`` (one line) if ``scenario`` cannot be played: illegal, a side
    without units, or a position whose game is already over."""
    from tankmap.analysis.simulation.runner import require_legal

    require_legal(scenario, "play")


def open_session(
    scenario: Scenario, players: tuple[str, str], seed: int = 0, **extra: Any
) -> PlaySession:
    """A new game of ``scenario`` with ``players`` (south, north): ``HUMAN`` or an agent
    name (``agents.agent_names``). ``TankmapError`` (one line) for a scenario that cannot
    be played (illegal, no units, already decided) or an unknown agent. ``extra``: Final
    Act ``hands`` (the action tokens dealt), Tank Wars ``dice_seed`` (from a record)."""
    check_playable(scenario)
    session = _new_session(scenario, seed, **extra)
    session.set_players(players)
    return session


def _new_session(scenario: Scenario, seed: int, **extra: Any) -> PlaySession:
    people = (HUMAN, HUMAN)
    if scenario.ruleset == "tank-chess":
        from tankmap.analysis.play.tank_chess import TankChessSession

        return TankChessSession(scenario, people, seed)
    if scenario.ruleset == "final-act":
        from tankmap.analysis.play.final_act import FinalActSession

        return FinalActSession(scenario, people, seed, hands=extra.get("hands"))
    if scenario.ruleset == "tank-wars":
        from tankmap.analysis.play.tank_wars import TankWarsSession

        return TankWarsSession(scenario, people, seed, dice_seed=extra.get("dice_seed"))
    raise TankmapError(f"play mode does not know the game {scenario.ruleset!r}")
