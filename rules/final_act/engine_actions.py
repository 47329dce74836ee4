"""What the sides declare in one round under the advanced rules (docs/rules.md §1.8) — and which
AT survives a shell on two (§1.6) — and its JSON form in game records. The rules themselves
are in ``engine_advanced`` (and ``engine`` for the ATs)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

SIDE_NAMES = ("south", "north")
UNIT_LISTS = ("rm_repair", "berm_repair", "full_throttle", "red_cross_repair", "at_spared")
"""The ``Actions`` fields that list unit indices."""


def unit_index(value: Any, units: int | None, key: bool = False) -> int:
    """``value`` as an index into a scenario's ``units`` units (any whole number from 0
    when ``units`` is ``None``); a ``key`` of a JSON object may be its decimal text.
    ``ValueError`` otherwise (JSON ``true`` is no index; the caller quotes the value)."""
    if key and isinstance(value, str) and value.isdecimal() and value.isascii():
        value = int(value)
    if type(value) is not int or value < 0:
        raise ValueError("a unit index is a whole number from 0")
    if units is not None and value >= units:
        raise ValueError(f"a unit index is below the scenario's {units} units")
    return value


@dataclass
class Actions:
    """What sides declare in one round (docs/rules.md §1.8). Units are indices into the scenario's
    units; ``quick_sand``/``smoke``/``mine_clearing`` map a side index (0 south, 1 north) to a cell,
    ``air_strike`` a side index to ``(token cell, [target cells])``; ``red_cross`` a side
    index to the cell where its token goes (at the end of the round, after the hits) and
    ``red_cross_repair`` lists the tanks repaired by a Red Cross at the end of the round
    (decided after its hits). ``smoke`` is laid after the moves, ``full_throttle`` lists
    tanks whose one-cell order is made twice (docs/rules.md §1.8). ``at_spared`` (Extra
    Forces, no option needed) lists ATs their owner keeps when one shell hits two of its
    ATs on one cell: the other one is out (docs/rules.md §1.6)."""

    rm_repair: list[int] = field(default_factory=list)
    berm_repair: list[int] = field(default_factory=list)
    double_shot: dict[int, int] = field(default_factory=dict)
    quick_shot: dict[int, int] = field(default_factory=dict)
    full_throttle: list[int] = field(default_factory=list)
    quick_sand: dict[int, int] = field(default_factory=dict)
    smoke: dict[int, int] = field(default_factory=dict)
    mine_clearing: dict[int, int] = field(default_factory=dict)
    red_cross: dict[int, int] = field(default_factory=dict)
    red_cross_repair: list[int] = field(default_factory=list)
    air_strike: dict[int, tuple[int, list[int]]] = field(default_factory=dict)
    at_spared: list[int] = field(default_factory=list)

    def empty(self) -> bool:
        return not (
            self.at_spared
            or self.rm_repair
            or self.berm_repair
            or self.double_shot
            or self.quick_shot
            or self.full_throttle
            or self.quick_sand
            or self.smoke
            or self.mine_clearing
            or self.red_cross
            or self.red_cross_repair
            or self.air_strike
        )

    def merge(self, other: Actions) -> Actions:
        """Both sides' declarations in one object."""
        return Actions(
            self.rm_repair + other.rm_repair,
            self.berm_repair + other.berm_repair,
            {**self.double_shot, **other.double_shot},
            {**self.quick_shot, **other.quick_shot},
            self.full_throttle + other.full_throttle,
            {**self.quick_sand, **other.quick_sand},
            {**self.smoke, **other.smoke},
            {**self.mine_clearing, **other.mine_clearing},
            {**self.red_cross, **other.red_cross},
            self.red_cross_repair + other.red_cross_repair,
            {**self.air_strike, **other.air_strike},
            self.at_spared + other.at_spared,
        )

    def absorb(self, other: Actions) -> None:
        """Add ``other``'s declarations to this object (in place)."""
        for key in UNIT_LISTS:
            getattr(self, key).extend(getattr(other, key))
        for key in (
            *("double_shot", "quick_shot", "quick_sand", "smoke", "mine_clearing"),
            *("red_cross", "air_strike"),
        ):
            getattr(self, key).update(getattr(other, key))

    def before_shells(self) -> Actions:
        """A copy without the declarations made with the shells (double and quick shot, air
        strike): what a decision taken before shells are placed may see (smoke, §1.8)."""
        out = Actions()
        out.absorb(self)
        out.double_shot.clear()
        out.quick_shot.clear()
        out.air_strike.clear()
        return out

    def to_json(self, name: Callable[[int], str]) -> dict[str, Any]:
        """JSON for a game record (``name`` turns a cell into its name); empty keys left out."""
        out: dict[str, Any] = {}
        for key in UNIT_LISTS:
            units: list[int] = getattr(self, key)
            if units:
                out[key] = sorted(units)
        for key in ("double_shot", "quick_shot"):
            shots: dict[int, int] = getattr(self, key)
            if shots:
                out[key] = {str(u): name(c) for u, c in sorted(shots.items())}
        for key in ("quick_sand", "smoke", "mine_clearing", "red_cross"):
            cells: dict[int, int] = getattr(self, key)
            if cells:
                out[key] = {SIDE_NAMES[s]: name(c) for s, c in sorted(cells.items())}
        if self.air_strike:
            out["air_strike"] = {
                SIDE_NAMES[s]: {"token": name(tok), "shells": [name(t) for t in targets]}
                for s, (tok, targets) in sorted(self.air_strike.items())
            }
        return out

    @staticmethod
    def from_json(
        raw: Any,
        parse: Callable[[str], int],
        fail: Callable[[str, str, Any], Any],
        units: int | None = None,
    ) -> Actions:
        """Parse ``to_json`` output; ``fail(path_suffix, message, value)`` must raise. With
        ``units`` (the scenario's unit count) a unit index must be one of its units."""

        def unit(u: Any, key: bool = False) -> int:
            return unit_index(u, units, key)

        if not isinstance(raw, dict):
            fail("", "must be an object", raw)
        known = (
            *("rm_repair", "berm_repair", "full_throttle", "double_shot", "quick_shot"),
            *("quick_sand", "smoke", "mine_clearing", "air_strike", "red_cross"),
            *("red_cross_repair", "at_spared"),
        )
        out = Actions()
        for key, value in raw.items():
            if key not in known:
                fail(f".{key}", f"unknown action (known: {', '.join(known)})", key)
            try:
                if key in UNIT_LISTS:
                    if not isinstance(value, list):
                        raise ValueError("must be a list of unit indices")
                    getattr(out, key).extend(unit(u) for u in value)
                elif key == "air_strike":
                    if not isinstance(value, dict) or not set(value) <= set(SIDE_NAMES):
                        raise ValueError("must map 'south'/'north' to {token, shells}")
                    for s, spec in value.items():
                        if not isinstance(spec, dict) or not isinstance(spec.get("shells"), list):
                            raise ValueError("needs 'token' (a cell) and 'shells' (cells)")
                        out.air_strike[SIDE_NAMES.index(s)] = (
                            parse(str(spec.get("token"))),
                            [parse(str(t)) for t in spec["shells"]],
                        )
                elif key in ("double_shot", "quick_shot"):
                    if not isinstance(value, dict):
                        raise ValueError("must map a unit index to a cell")
                    shots = {unit(u, key=True): parse(str(c)) for u, c in value.items()}
                    getattr(out, key).update(shots)
                else:
                    if not isinstance(value, dict) or not set(value) <= set(SIDE_NAMES):
                        raise ValueError("must map 'south'/'north' to a cell")
                    getattr(out, key).update(
                        {SIDE_NAMES.index(s): parse(str(c)) for s, c in value.items()}
                    )
            except (TypeError, ValueError) as exc:
                fail(f".{key}", str(exc), value)
        return out
