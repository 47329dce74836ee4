"""What one simulated game returns, and the per-ruleset *drivers* that play games.

A **driver** knows how to play one game of its ruleset from a prepared scenario with two
named policies and a seeded ``numpy.random.Generator``. The runner (``runner.py``) is
game-agnostic: it looks the driver up by ruleset name, prepares the scenario once per worker
process and calls ``play_seeded`` (games by number, the driver derives their randomness
from the run's seed), else ``play_many`` or ``play`` once per game.

Built-in drivers are imported lazily from ``analysis.simulation.<game>.driver``; tests
(or plug-ins) may ``register_driver`` their own.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

import numpy as np

from tankmap.rules.errors import TankmapError
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario

# How a game may end (the ``end`` column of the runner's table).
END_GOAL = "goal"  # Final Act: a tank on the enemy's last line of defence
END_ANNIHILATION = "annihilation"  # a side has nothing left that can win (no tanks...)
END_COMMAND_KILLED = "command-destroyed"  # Tank Chess: command tank destroyed
END_ESCAPE = "escape"  # Tank Chess: command tank left by the enemy edge
END_NO_MOVES = "no-moves"  # Tank Chess: side to move has no legal turn (draw)
END_LIMIT = "limit"  # round / ply limit reached (draw)


class Death(NamedTuple):
    """A unit knocked out (or eliminated) during a game; ``by_kind`` is the kind of the
    enemy unit that did it (``None`` if no single unit did, e.g. Tank Wars artillery).
    A named tuple, not a dataclass: a simulation makes millions and a tuple is built five
    times faster."""

    side: Side
    kind: str
    cell: int
    round: int
    by_kind: str | None = None


@dataclass(frozen=True)
class GameResult:
    """The outcome of one playout.

    ``winner`` is ``None`` for a draw. ``length`` counts rounds (simultaneous games) or plies
    (Tank Chess). ``kills[i]`` = enemy units knocked out by side ``i`` (0 = south).
    ``winning_unit`` labels the unit that won the game by movement (Final Act tank on the
    enemy line, Tank Chess escaping command tank) or made the deciding shot; ``route`` is
    the cells that unit stood on, in order (start first). ``first`` is the side that moved
    first (alternating games; south for simultaneous ones).
    """

    winner: Side | None
    length: int
    end: str
    kills: tuple[int, int] = (0, 0)
    winning_unit: str | None = None
    route: tuple[int, ...] = ()
    deaths: tuple[Death, ...] = ()
    first: Side = Side.SOUTH
    record: Any = field(default=None, compare=False)


class Driver(Protocol):
    """Plays games of one ruleset. ``prepare`` runs once per worker and scenario."""

    def prepare(self, scenario: Scenario) -> Any:
        """Precompute what every game of ``scenario`` shares (tables, distances...)."""
        ...

    def policy_names(self) -> tuple[str, ...]:
        """Base policy names this driver understands (``random``, ``heuristic``, ...)."""
        ...

    def restrictions(self) -> tuple[str, ...]:
        """Restrictions a policy name may add (``"no-berms"``: ``heuristic+no-berms``)."""
        ...

    def check_policy(self, prepared: Any, spec: str) -> None:
        """Raise ``PolicyError`` if ``spec`` is not a valid policy for this game."""
        ...

    def play(
        self,
        prepared: Any,
        policies: tuple[str, str],
        rng: np.random.Generator,
        record: bool = False,
    ) -> GameResult:
        """Play one game: ``policies[0]`` plays south, ``policies[1]`` north."""
        ...


class PolicyError(TankmapError, ValueError):
    """An unknown policy name or restriction for this ruleset."""


class NoDriverError(TankmapError, ValueError):
    """The ruleset has no simulation driver."""


_BUILTIN_DRIVERS = {
    "final-act": "tankmap.analysis.simulation.final_act.driver",
    "tank-chess": "tankmap.analysis.simulation.tank_chess.driver",
    "tank-wars": "tankmap.analysis.simulation.tank_wars.driver",
}
_DRIVERS: dict[str, Driver] = {}


def register_driver(ruleset: str, driver: Driver) -> Driver:
    """Make ``driver`` play games of ``ruleset`` (replaces any earlier one)."""
    _DRIVERS[ruleset] = driver
    return driver


def get_driver(ruleset: str) -> Driver:
    """The driver for ``ruleset``; ``NoDriverError`` if that ruleset cannot be simulated."""
    if ruleset not in _DRIVERS and ruleset in _BUILTIN_DRIVERS:
        module = importlib.import_module(_BUILTIN_DRIVERS[ruleset])
        _DRIVERS.setdefault(ruleset, module.DRIVER)
    try:
        return _DRIVERS[ruleset]
    except KeyError:
        raise NoDriverError(f"ruleset {ruleset!r} has no simulation engine yet") from None


def parse_policy(spec: str) -> tuple[str, tuple[str, ...]]:
    """Split ``"heuristic+no-berms+no-at"`` into ``("heuristic", ("no-berms", "no-at"))``.

    A policy spec is a base name, optionally with a parameter after a colon
    (``"uct:200"`` = 200 playouts per move), followed by ``+``-separated restrictions.
    Raises ``PolicyError`` on an empty part.
    """
    parts = [p.strip() for p in spec.strip().lower().split("+")]
    if not parts or any(not p for p in parts):
        raise PolicyError(f"bad policy {spec!r} (expected like 'heuristic' or 'random+no-berms')")
    for r in parts[1:]:
        if not r.startswith("no-") or len(r) <= 3:
            raise PolicyError(f"bad restriction {r!r} in policy {spec!r} (expected 'no-<what>')")
    return parts[0], tuple(parts[1:])
