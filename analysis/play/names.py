"""How ``--as`` words map to sides in play mode (the sides' names themselves come from
``rules.sides.side_name``)."""

from __future__ import annotations

from tankmap.rules.errors import TankmapError
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset


def parse_as(ruleset: str, text: str) -> tuple[Side, ...]:
    """The sides a person plays for ``--as TEXT``: ``south``, ``north`` or ``both``
    (``white``/``black`` too in Tank Chess, any case). ``TankmapError`` otherwise."""
    word = text.strip().lower()
    if word == "both":
        return (Side.SOUTH, Side.NORTH)
    names = {name.lower(): side for side, name in get_ruleset(ruleset).side_names().items()}
    names.update({"south": Side.SOUTH, "north": Side.NORTH})
    if word in names:
        return (names[word],)
    known = ", ".join(sorted(set(names) | {"both"}))
    raise TankmapError(f"--as {text!r}: not a side of {ruleset} (use {known})")
