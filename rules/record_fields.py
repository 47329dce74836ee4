"""Fields that the game records of several games share, read once for all of them: the
format ``version`` and the ``result`` ``{"winner", "end", "rounds"}`` (Final Act and Tank
Wars records; Tank Chess keeps ``{"winner", "reason"}``). Each takes the reader's
``fail(path, message, value)``, which raises the reader's ``ScenarioFormatError``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Fail = Callable[[str, str, Any], Any]


def is_version(value: Any, expected: int) -> bool:
    """Whether a record's ``version`` is the number ``expected`` (JSON ``true`` is not
    ``1``, though Python's ``True == 1``)."""
    return type(value) is int and value == expected


def read_result(raw: Any, fail: Fail, *, undecided_end: bool) -> dict[str, Any] | None:
    """A record's ``result``: ``None`` (not kept), or ``{"winner": "south" | "north" |
    null, "end": a word, "rounds": N}``; ``end`` may also be ``null`` when
    ``undecided_end`` (a Tank Wars game stopped undecided). ``fail`` for anything else."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != {"winner", "end", "rounds"}:
        fail("$.result", "must be null or {winner, end, rounds}", raw)
    if raw["winner"] not in (None, "south", "north"):
        fail("$.result.winner", "must be 'south', 'north' or null", raw["winner"])
    if not (isinstance(raw["end"], str) or (undecided_end and raw["end"] is None)):
        or_null = " or null" if undecided_end else ""
        fail("$.result.end", f"must be how the game ended (a word){or_null}", raw["end"])
    rounds = raw["rounds"]
    if type(rounds) is not int or rounds < 0:
        fail("$.result.rounds", "must be a whole number of rounds, 0 or more", rounds)
    return {"winner": raw["winner"], "end": raw["end"], "rounds": rounds}
