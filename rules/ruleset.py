"""The ``Ruleset`` base class: what every game (Final Act, Tank Chess, Tank Wars) provides.

A ruleset is stateless: every method takes the scenario it answers about. Its numbers (counts,
footprints, cones, stats) and its options live in data (``OptionSpec`` tuples and the JSON
files under ``resources/rulesets/``), so a house rule is a data change.
"""

from __future__ import annotations

import difflib
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, ClassVar

from tankmap.rules.board import Board
from tankmap.rules.errors import OptionError, _as_json, short
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import OptionValue, Scenario, Terrain, Unit
from tankmap.rules.violations import Finished, Placement, Severity, Violation


@dataclass(frozen=True)
class OptionSpec:
    """A named ruleset option with its type, default and one-line help."""

    name: str
    default: OptionValue
    help: str
    choices: tuple[OptionValue, ...] = ()

    @property
    def type(self) -> type:
        return type(self.default)

    @property
    def type_name(self) -> str:
        """How messages name the option's type: "true/false", "whole number"..."""
        return _TYPE_NAMES.get(self.type, self.type.__name__)

    def validate(self, value: Any) -> OptionValue:
        """``value`` if it has this option's type (ints pass for floats), else ``OptionError``."""
        kind = self.type
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            raise OptionError(
                f"option {self.name!r} takes a {self.type_name} value, not {_as_json(value)}"
            )
        lo, hi = self.int_range()
        if kind is int and not lo <= value <= hi:
            raise OptionError(
                f"option {self.name!r} must be between {lo} and {hi}, not {_as_json(value)}"
            )
        if kind is float and not (isinstance(value, float) and abs(value) <= MAX_OPTION_INT):
            raise OptionError(
                f"option {self.name!r} must be a number of modest size, not {_as_json(value)}"
            )
        if self.choices and value not in self.choices:
            words = [str(c) for c in self.choices]
            listed = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
            raise OptionError(f"option {self.name!r} must be {listed}, not {_as_json(value)}")
        return value  # type: ignore[no-any-return]

    def int_range(self) -> tuple[int, int]:
        """The values a whole-number option accepts (any option: at most a million)."""
        return (-MAX_OPTION_INT, MAX_OPTION_INT)

    def parse(self, text: str) -> OptionValue:
        """Parse a command-line value (``true``/``false``, numbers, words). A whole number
        is plain ASCII digits, with a leading ``-`` only where the option takes negative
        values (no ``+``, spaces, ``_`` or other scripts' digits, which ``int`` would take);
        a number is written as in JSON.

        >>> BoundedOption("max_rounds", 100, "", minimum=1, maximum=500).parse("50")
        50
        """
        kind = self.type
        refused = OptionError(
            f"option {self.name!r} takes a {self.type_name} value, not {short(text)}"
        )
        if not isinstance(text, str):
            raise refused
        if kind is bool:
            low = text.strip().lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise refused
        value: OptionValue = text
        if kind is int:
            if not _INT_TEXT.fullmatch(text):
                raise refused
            lo, hi = self.int_range()
            if (text.startswith("-") and lo >= 0) or len(text) > 30:  # (-0 too; int's limit)
                shown = text if len(text) <= 30 else short(text)
                raise OptionError(
                    f"option {self.name!r} must be between {lo} and {hi}, not {shown}"
                )
            value = int(text)
        elif kind is float:
            if not _NUMBER_TEXT.fullmatch(text):
                raise refused
            value = float(text)
        return self.validate(value)  # its own message: out of range, not a choice...


@dataclass(frozen=True)
class BoundedOption(OptionSpec):
    """An integer option with an inclusive range (``max_rounds``, vehicle counts …)."""

    minimum: int = 0
    maximum: int = 99

    def int_range(self) -> tuple[int, int]:
        return (self.minimum, self.maximum)


MAX_OPTION_INT = 1_000_000  # no whole-number option means anything beyond this
# what ``OptionSpec.parse`` takes for a whole number and for a number: ASCII digits, as
# JSON writes them (``int`` and ``float`` would also take ``+5``, `` 5``, ``1_0``, ``٥``)
_INT_TEXT = re.compile(r"-?[0-9]+")
_NUMBER_TEXT = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")


_TYPE_NAMES: dict[type, str] = {
    bool: "true/false",
    int: "whole-number",
    float: "numeric",
    str: "text",
}


@dataclass(frozen=True)
class UnitMove:
    """One distinct end state of a unit's move: destination cell and facing.

    ``to is None`` means the unit leaves the board (a Tank Chess command tank's escape).
    """

    to: int | None
    facing: Facing | None

    def to_json(self, board: Board) -> dict[str, Any]:
        return {
            "to": "escape" if self.to is None else board.cell_name(self.to),
            "facing": None if self.facing is None else self.facing.name,
        }


class Ruleset(ABC):
    """Base of every game's rules. Subclasses fill the class attributes and the abstract
    methods, then are registered with ``rules.registry.register``."""

    name: ClassVar[str]
    title: ClassVar[str]
    provisional: ClassVar[bool] = False
    terrain_kinds: ClassVar[tuple[str, ...]] = ()
    unit_kinds: ClassVar[tuple[str, ...]] = ()
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    default_board: ClassVar[tuple[int, int]] = (12, 12)

    # --- options ------------------------------------------------------------------------
    def option_spec(self, name: str) -> OptionSpec:
        """The option called ``name``; ``OptionError`` naming the closest ones if there is
        none (or ``name`` is not text)."""
        if not isinstance(name, str):
            raise OptionError(f"{self.name} option names are text, not {_as_json(name)}")
        for spec in self.option_specs:
            if spec.name == name:
                return spec
        names = [s.name for s in self.option_specs]
        if not names:
            raise OptionError(f"{self.name} has no option {name!r} (it has none)")
        # the whole list no longer fits one line of an error: the names closest to the
        # one given, and where the list is
        close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise OptionError(
            f"{self.name} has no option {short(name)} ({hint}'tankmap rulesets' lists "
            f"its {len(names)} options)"
        )

    def validate_options(self, options: Mapping[str, Any]) -> dict[str, OptionValue]:
        """Check names and types; return them unchanged. Raises ``OptionError``."""
        return {k: self.option_spec(k).validate(v) for k, v in options.items()}

    def options(self, scenario: Scenario) -> dict[str, OptionValue]:
        """Every option's effective value: the scenario's, else the default."""
        values = {s.name: s.default for s in self.option_specs}
        values.update(scenario.options)
        return values

    # --- boards and pieces --------------------------------------------------------------
    def board_problem(self, columns: int, rows: int) -> str | None:
        """Why this ruleset cannot use a board of this size, or ``None`` if it can."""
        return None

    def piece_problem(self, piece: Terrain | Unit) -> str | None:
        """Why a piece is malformed for this ruleset regardless of position (unknown kind,
        missing name...), or ``None``. The file reader turns it into a format error."""
        if isinstance(piece, Unit):
            if piece.kind not in self.unit_kinds:
                return (
                    f"unknown unit kind {short(piece.kind)} (known: {', '.join(self.unit_kinds)})"
                )
        elif piece.kind not in self.terrain_kinds:
            return (
                f"unknown terrain kind {short(piece.kind)} (known: {', '.join(self.terrain_kinds)})"
            )
        return None

    def new_scenario(
        self, board: Board | None = None, options: Mapping[str, OptionValue] | None = None
    ) -> Scenario:
        """An empty scenario (no pieces) on ``board`` or the default board."""
        if board is None:
            board = Board.of(*self.default_board)
        return Scenario(
            ruleset=self.name, board=board, options=self.validate_options(options or {})
        )

    def unit_stats(self, kind: str) -> dict[str, Any]:
        """Display facts about a unit kind (speed, armour...) for the inspector."""
        return {}

    # --- legality -----------------------------------------------------------------------
    @abstractmethod
    def check(self, scenario: Scenario) -> list[Violation]:
        """Every rule the scenario breaks (errors), misses (incomplete) or strains (warnings)."""

    def finished(self, scenario: Scenario) -> Finished | None:
        """``Finished`` when the position's game is already over (a destroyed command
        tank, a tank on the enemy's last line …), ``None`` while it goes on. The base
        rules know no finished position; each game's ruleset says what its rules make one."""
        return None

    def can_place(self, scenario: Scenario, piece: Terrain | Unit) -> Placement:
        """May ``piece`` be added to ``scenario``? Refused iff adding it creates an ``error``
        violation the scenario did not already have; the reasons say which rules."""
        before = set(self.check(scenario))
        after = self.check(scenario.adding(piece))
        new = [v for v in after if v not in before]
        errors = tuple(v for v in new if v.severity is Severity.ERROR)
        warnings = tuple(v for v in new if v.severity is Severity.WARNING)
        return Placement(ok=not errors, reasons=errors, warnings=warnings)

    # --- movement and fire --------------------------------------------------------------
    @abstractmethod
    def moves(self, scenario: Scenario, unit: Unit) -> list[UnitMove]:
        """Every distinct end state of a legal move of ``unit`` now (docs/cli-json.md ``moves``)."""

    @abstractmethod
    def fire_zone(self, scenario: Scenario, unit: Unit) -> list[int]:
        """Cells ``unit`` may fire at now, sorted (docs/cli-json.md ``moves``)."""

    # --- zones and goals (used by analysis) ---------------------------------------------
    def setup_cells(self, scenario: Scenario, side: Side) -> frozenset[int]:
        """Cells where ``side`` may set units up (default: own rows 1-3)."""
        b = scenario.board
        return frozenset(c for c in range(b.size) if b.own_row(c, side.index) <= 3)

    def goal_cells(self, scenario: Scenario, unit: Unit) -> frozenset[int] | None:
        """Cells where ``unit`` wins by standing (Final Act tank: the enemy's last line of
        defence), ``None`` if this unit cannot win by moving. A move with ``to is None``
        (Tank Chess escape) always counts as reaching the goal; a ruleset whose goal is only
        an escape returns an empty set."""
        return None

    def side_names(self) -> dict[Side, str]:
        """Display names of the sides: the ruleset data's ``"side_names"``
        (``{"south": "White", "north": "Black"}``), else South and North. Every text a
        person reads names sides through this (``rules.sides``); files keep ``south`` and
        ``north``."""
        return dict(_display_names(self.name))


@cache
def _display_names(name: str) -> tuple[tuple[Side, str], ...]:
    try:
        names = load_ruleset_data(name).get("side_names", {})
    except OSError:  # a ruleset registered from code, without a data file
        names = {}
    return tuple((side, str(names.get(side.value, side.value.capitalize()))) for side in Side)


def load_ruleset_data(name: str) -> dict[str, Any]:
    """The JSON data file ``resources/rulesets/<name>.json`` as a dict."""
    data_file = resources.files("tankmap.resources").joinpath("rulesets", f"{name}.json")
    text = data_file.read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data
