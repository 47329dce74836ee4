"""What the three OpenSpiel games share: loading the scenario parameter, cheap cloning."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tankmap.rules.errors import MissingExtraError, TankmapError, import_extra
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.scenario import Scenario

OpenSpielMissingError = MissingExtraError


def require_pyspiel() -> Any:
    """The ``pyspiel`` module; ``MissingExtraError`` naming the extra if it is missing."""
    return import_extra("pyspiel", "openspiel", "OpenSpiel support")


def load_scenario_param(value: str, default: str) -> Scenario:
    """The scenario named by a game parameter: a file path or a built-in map name
    (``tank-chess/basic-16``); ``default`` when empty. ``TankmapError`` if neither."""
    name = value or default
    path = Path(name)
    if not path.is_file():
        builtin = Path(__file__).resolve().parents[2] / "maps" / f"{name}.json"
        if not builtin.is_file():
            raise TankmapError(f"scenario {name!r}: no such file or built-in map")
        path = builtin
    return read_scenario(path)


SCENARIO_PARAMS = {"scenario": ""}  # every game's one parameter: a file or a map name


def game_type(name: str, long_name: str, dynamics: str, chance: str, information: str) -> Any:
    """The ``pyspiel.GameType`` of a tankmap game: two players, zero-sum, terminal
    rewards, observation strings and tensors; information-state strings for the
    imperfect-information (simultaneous) games. ``dynamics``, ``chance`` and
    ``information`` name members of OpenSpiel's enums (``"SIMULTANEOUS"`` …)."""
    pyspiel = require_pyspiel()
    gt = pyspiel.GameType
    imperfect = information == "IMPERFECT_INFORMATION"
    return gt(
        short_name=name,
        long_name=long_name,
        dynamics=getattr(gt.Dynamics, dynamics),
        chance_mode=getattr(gt.ChanceMode, chance),
        information=getattr(gt.Information, information),
        utility=gt.Utility.ZERO_SUM,
        reward_model=gt.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=imperfect,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=SCENARIO_PARAMS,
    )


class Shared:
    """Holds per-game data that every state clone shares (``deepcopy`` returns itself)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self


class Cloned:
    """Holds a mutable engine state. ``deepcopy`` (OpenSpiel's clone of a Python state)
    copies it with the engine's own cheap ``copy``; pickling (OpenSpiel's serialization)
    stores what ``rebuild(*args)`` needs to make it again (``reduce(value)``)."""

    def __init__(
        self,
        value: Any,
        reduce: Callable[[Any], tuple[Any, ...]],
        rebuild: Callable[..., Any],
    ) -> None:
        self.value, self.reduce, self.rebuild = value, reduce, rebuild

    def __deepcopy__(self, memo: dict[int, Any]) -> Cloned:
        v = self.value
        new = v.copy() if hasattr(v, "copy") else copy.deepcopy(v, memo)
        return Cloned(new, self.reduce, self.rebuild)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuilt, (self.rebuild, self.reduce(self.value), self.reduce))


def _rebuilt(
    rebuild: Callable[..., Any], args: tuple[Any, ...], reduce: Callable[[Any], tuple[Any, ...]]
) -> Cloned:
    return Cloned(rebuild(*args), reduce, rebuild)
