"""Tank Wars numbers: command tokens, option specs and the per-scenario ``TankWarsRules``.

Every number of docs/rules.md §3 is a ruleset option whose default comes from
``resources/rulesets/tank-wars.json``: per vehicle kind ``<kind>_count``, ``<kind>_armour``,
``<kind>_moves`` (movement pattern), ``<kind>_shells`` and ``<kind>_gunfire``; and per game
``gunfire_tokens``, ``long_range_shots``, ``supply_drops``, ``support_armour``, ``setup_rows``,
``gunfire_hits_stationary``, ``max_rounds``, and the readings ``shells_used_up``,
``stay_without_token``, ``tokens_per_kind``, ``hit_leaves_crater``.
``TankWarsRules.of(options)`` turns the effective option values of a scenario into the
plain numbers the checks and the engine use.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from tankmap.rules.errors import OptionError, short
from tankmap.rules.geometry import Facing
from tankmap.rules.ruleset import BoundedOption, OptionSpec, load_ruleset_data
from tankmap.rules.scenario import OptionValue

DATA: dict[str, Any] = load_ruleset_data("tank-wars")

COLUMNS: int = DATA["board"]["columns"]
ROWS: int = DATA["board"]["rows"]
HALF_ROWS: int = DATA["board"]["half_rows"]
"""Rows of one side's own board (south: rows 1..6, north: rows 7..12)."""

UNIT_KINDS: tuple[str, ...] = tuple(DATA["unit_kinds"])
TERRAIN_KINDS: tuple[str, ...] = tuple(DATA["terrain_kinds"])


class CommandKind(Enum):
    """The four command tokens: a distance (1 or 2 fields) and a straight or diagonal arrow."""

    STRAIGHT1 = "straight1"
    STRAIGHT2 = "straight2"
    DIAGONAL1 = "diagonal1"
    DIAGONAL2 = "diagonal2"

    def __init__(self, value: str) -> None:
        self.distance: int = int(value[-1])
        """Fields moved: 1 or 2."""
        self.diagonal: bool = value.startswith("diagonal")
        """True for a diagonal arrow (NE/SE/SW/NW), False for a straight one (N/E/S/W)."""

    @property
    def directions(self) -> tuple[Facing, ...]:
        """The absolute arrow directions this token may point in (board compass)."""
        return DIAGONALS if self.diagonal else STRAIGHTS

    @classmethod
    def parse(cls, text: str) -> CommandKind:
        """``CommandKind.parse("straight2")``; ``OptionError`` on an unknown token name."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            known = ", ".join(k.value for k in cls)
            raise OptionError(f"unknown command token {short(text)} (known: {known})") from None


STRAIGHTS = (Facing.N, Facing.E, Facing.S, Facing.W)
DIAGONALS = (Facing.NE, Facing.SE, Facing.SW, Facing.NW)


_TOKEN = "(?:" + "|".join(k.value for k in CommandKind) + ")"
PATTERN_RE = f"[ ,]*(?:{_TOKEN}(?:[ ,]+{_TOKEN})*)?[ ,]*"
"""What a movement pattern option may hold: token names (lower case) separated by commas
or spaces (the scenario schema uses the same expression)."""


def parse_pattern(text: str) -> frozenset[CommandKind]:
    """A movement pattern option value (``"straight1,straight2"``; empty = never moves) as a
    set of command kinds. Raises ``OptionError`` on an unknown token name."""
    parts = [p for p in text.replace(" ", ",").split(",") if p.strip()]
    return frozenset(CommandKind.parse(p) for p in parts)


@dataclass(frozen=True)
class PatternOption(OptionSpec):
    """A movement pattern: a comma list of command token names."""

    def validate(self, value: Any) -> OptionValue:
        checked = super().validate(value)
        assert isinstance(checked, str)
        try:
            parse_pattern(checked)
        except OptionError as exc:
            raise OptionError(f"option {self.name!r}: {exc}") from None
        if re.fullmatch(PATTERN_RE, checked) is None:  # e.g. upper case, tabs, line breaks
            raise OptionError(
                f"option {self.name!r}: command token names in lower case, separated by "
                f"commas, not {short(checked)}"
            )
        return checked


def _option_specs() -> tuple[OptionSpec, ...]:
    specs: list[OptionSpec] = []
    helps: dict[str, str] = DATA["vehicle_option_help"]
    for kind in UNIT_KINDS:
        v = DATA["vehicles"][kind]
        fmt = {"display": v["display"]}
        specs.append(BoundedOption(f"{kind}_count", v["count"], helps["count"].format(**fmt)))
        specs.append(
            BoundedOption(f"{kind}_armour", v["armour"], helps["armour"].format(**fmt), minimum=1)
        )
        specs.append(PatternOption(f"{kind}_moves", v["moves"], helps["moves"].format(**fmt)))
        specs.append(BoundedOption(f"{kind}_shells", v["shells"], helps["shells"].format(**fmt)))
        specs.append(BoundedOption(f"{kind}_gunfire", v["gunfire"], helps["gunfire"].format(**fmt)))
    for o in DATA["options"]:
        if isinstance(o["default"], bool):
            specs.append(OptionSpec(o["name"], o["default"], o["help"]))
        else:
            specs.append(
                BoundedOption(o["name"], o["default"], o["help"], (), o["minimum"], o["maximum"])
            )
    return tuple(specs)


OPTION_SPECS: tuple[OptionSpec, ...] = _option_specs()


@dataclass(frozen=True)
class KindRules:
    """The numbers of one vehicle kind."""

    kind: str
    display: str
    count: int
    armour: int
    moves: frozenset[CommandKind]
    shells: int
    gunfire: int


@dataclass(frozen=True)
class TankWarsRules:
    """Every Tank Wars number for one scenario (its options over the defaults)."""

    kinds: tuple[KindRules, ...]
    gunfire_tokens: int
    long_range_shots: int
    supply_drops: int
    support_armour: int
    setup_rows: int
    gunfire_hits_stationary: bool
    max_rounds: int
    shells_used_up: bool = False
    stay_without_token: bool = True
    tokens_per_kind: int = 0
    hit_leaves_crater: bool = False

    @staticmethod
    def of(options: Mapping[str, OptionValue]) -> TankWarsRules:
        """Rules from effective option values (every option present, e.g. from
        ``TankWars().options(scenario)``). Raises ``OptionError`` on a bad pattern."""
        kinds = tuple(
            KindRules(
                kind=k,
                display=DATA["vehicles"][k]["display"],
                count=int(options[f"{k}_count"]),
                armour=int(options[f"{k}_armour"]),
                moves=parse_pattern(str(options[f"{k}_moves"])),
                shells=int(options[f"{k}_shells"]),
                gunfire=int(options[f"{k}_gunfire"]),
            )
            for k in UNIT_KINDS
        )
        return TankWarsRules(
            kinds=kinds,
            gunfire_tokens=int(options["gunfire_tokens"]),
            long_range_shots=int(options["long_range_shots"]),
            supply_drops=int(options["supply_drops"]),
            support_armour=int(options["support_armour"]),
            setup_rows=int(options["setup_rows"]),
            gunfire_hits_stationary=bool(options["gunfire_hits_stationary"]),
            max_rounds=int(options["max_rounds"]),
            shells_used_up=bool(options["shells_used_up"]),
            stay_without_token=bool(options["stay_without_token"]),
            tokens_per_kind=int(options["tokens_per_kind"]),
            hit_leaves_crater=bool(options["hit_leaves_crater"]),
        )

    def kind(self, name: str) -> KindRules:
        """The numbers of vehicle kind ``name``; ``KeyError`` if there is no such kind."""
        for k in self.kinds:
            if k.kind == name:
                return k
        raise KeyError(name)

    @staticmethod
    def defaults() -> TankWarsRules:
        """The docs/rules.md §3 defaults."""
        return TankWarsRules.of({s.name: s.default for s in OPTION_SPECS})
