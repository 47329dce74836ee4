"""How play mode names sides: the game's own names (Tank Chess White/Black, else
South/North), from the ruleset, and how ``--as`` words map to sides."""

from __future__ import annotations

from tankmap.rules.errors import TankmapError
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset


def side_name(ruleset: str, side: Side) -> str:
    """``"White"`` for Tank Chess's south, ``"South"`` elsewhere (the ruleset's names)."""
    return get_ruleset(ruleset).side_names()[side]


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
