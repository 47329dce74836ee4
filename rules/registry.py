"""Ruleset registry: ``get_ruleset("final-act")`` returns the (shared) ruleset object."""

from __future__ import annotations

import importlib

from tankmap.rules.errors import UnknownRulesetError, short
from tankmap.rules.ruleset import Ruleset

# Built-in rulesets are imported lazily, on first use.
_BUILTIN_MODULES = {
    "final-act": "tankmap.rules.final_act",
    "tank-chess": "tankmap.rules.tank_chess",
    "tank-wars": "tankmap.rules.tank_wars",
}
_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Register ``ruleset`` under its ``name`` (replacing any earlier one) and return it."""
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def get_ruleset(name: str) -> Ruleset:
    """The ruleset registered as ``name``; ``UnknownRulesetError`` names the known ones."""
    if name not in _REGISTRY and name in _BUILTIN_MODULES:
        _import_builtin(name)
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(ruleset_names()) or "none"
        raise UnknownRulesetError(f"unknown ruleset {short(name)} (known: {known})") from None


def ruleset_names() -> list[str]:
    """Names of every available ruleset, built-in ones first."""
    for name in _BUILTIN_MODULES:
        if name not in _REGISTRY:
            _import_builtin(name)
    return sorted(_REGISTRY, key=lambda n: (n not in _BUILTIN_MODULES, n))


def _import_builtin(name: str) -> None:
    module = _BUILTIN_MODULES[name]
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:  # a ruleset not written yet is simply not available
        if exc.name != module:
            raise
