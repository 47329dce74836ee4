"""The scenario model: a ruleset name, options, a board, terrain pieces and units.

Scenarios are immutable values; edit them with the ``with_*`` helpers, which return a new
scenario. A scenario may be illegal or incomplete: legality is the ruleset's ``check``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing, Side

OptionValue = bool | int | float | str


@dataclass(frozen=True)
class Terrain:
    """One terrain piece: ``kind`` (ruleset vocabulary), its cells, and kind-specific data.

    ``side`` is the owner where the game has one (Final Act berms, swamps, minefields);
    ``lane``/``arrow`` belong to minefields; ``shape`` names a Tank Chess obstacle piece.
    """

    kind: str
    cells: tuple[int, ...]
    side: Side | None = None
    lane: int | None = None
    arrow: Facing | None = None
    shape: str | None = None

    def moved(self, mapping: dict[int, int]) -> Terrain:
        """The same piece with every cell (and the lane) sent through ``mapping``."""
        return replace(
            self,
            cells=tuple(mapping[c] for c in self.cells),
            lane=None if self.lane is None else mapping[self.lane],
        )


KIND_WORDS = {"at": "AT", "rm": "R/M"}
"""How messages write the unit kinds whose file names are not words (Final Act's Extra Forces)."""


@dataclass(frozen=True)
class Unit:
    """One unit (tank, infantry, vehicle...) on a cell with a facing.

    ``damage`` counts hits taken (Final Act: 1 = damaged), ``armour`` is Tank Wars armour
    points, ``wreck`` marks a knocked-out unit left on the board as an obstacle.
    """

    kind: str
    side: Side
    cell: int
    facing: Facing | None = None
    name: str | None = None
    damage: int = 0
    armour: int | None = None
    wreck: bool = False

    @property
    def label(self) -> str:
        """How messages refer to the unit: ``"tank C"``, ``"light"``, ``"AT"``, ``"R/M"``."""
        kind = KIND_WORDS.get(self.kind, self.kind)
        return f"{kind} {self.name}" if self.name else kind


@dataclass(frozen=True)
class Scenario:
    """A board set-up (or a position in the middle of a game) for one ruleset."""

    ruleset: str
    board: Board
    options: Mapping[str, OptionValue] = field(default_factory=lambda: MappingProxyType({}))
    terrain: tuple[Terrain, ...] = ()
    units: tuple[Unit, ...] = ()
    title: str = ""
    author: str = ""
    notes: str = ""
    to_move: Side = Side.SOUTH
    # the editor's settings saved with the file (``symmetry``); no rule reads them
    editor: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if not isinstance(self.options, MappingProxyType):
            object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        if not isinstance(self.editor, MappingProxyType):
            object.__setattr__(self, "editor", MappingProxyType(dict(self.editor)))
        object.__setattr__(self, "terrain", tuple(self.terrain))
        object.__setattr__(self, "units", tuple(self.units))

    def __hash__(self) -> int:
        return hash(
            (
                self.ruleset,
                self.board,
                tuple(sorted(self.options.items())),
                self.terrain,
                self.units,
                self.title,
                self.author,
                self.notes,
                self.to_move,
                tuple(sorted(self.editor.items())),
            )
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Scenario):
            return NotImplemented
        return (
            self.ruleset == other.ruleset
            and self.board == other.board
            and dict(self.options) == dict(other.options)
            and self.terrain == other.terrain
            and self.units == other.units
            and (self.title, self.author, self.notes, self.to_move)
            == (other.title, other.author, other.notes, other.to_move)
            and dict(self.editor) == dict(other.editor)
        )

    def __repr__(self) -> str:
        return (
            f"Scenario(ruleset={self.ruleset!r}, board={self.board!r}, "
            f"options={dict(self.options)!r}, terrain={self.terrain!r}, units={self.units!r}, "
            f"title={self.title!r}, author={self.author!r}, notes={self.notes!r}, "
            f"to_move={self.to_move!r}"
            + (f", editor={dict(self.editor)!r})" if self.editor else ")")
        )

    # --- editing helpers (each returns a new scenario) ---------------------------------
    def with_units(self, units: Iterable[Unit]) -> Scenario:
        return replace(self, units=tuple(units))

    def with_terrain(self, terrain: Iterable[Terrain]) -> Scenario:
        return replace(self, terrain=tuple(terrain))

    def with_options(self, **options: OptionValue) -> Scenario:
        merged = dict(self.options)
        merged.update(options)
        return replace(self, options=MappingProxyType(merged))

    def adding(self, piece: Terrain | Unit) -> Scenario:
        """This scenario with one more terrain piece or unit (appended last)."""
        if isinstance(piece, Unit):
            return replace(self, units=self.units + (piece,))
        return replace(self, terrain=self.terrain + (piece,))

    def removing(self, piece: Terrain | Unit) -> Scenario:
        """This scenario without the first piece equal to ``piece``; ``ValueError`` if absent."""
        if isinstance(piece, Unit):
            units = list(self.units)
            units.remove(piece)
            return replace(self, units=tuple(units))
        terrain = list(self.terrain)
        terrain.remove(piece)
        return replace(self, terrain=tuple(terrain))

    def replacing(self, old: Terrain | Unit, new: Terrain | Unit) -> Scenario:
        """Swap ``old`` for ``new`` in place (keeps the order of pieces)."""
        if isinstance(old, Unit) and isinstance(new, Unit):
            units = list(self.units)
            units[units.index(old)] = new
            return replace(self, units=tuple(units))
        if isinstance(old, Terrain) and isinstance(new, Terrain):
            terrain = list(self.terrain)
            terrain[terrain.index(old)] = new
            return replace(self, terrain=tuple(terrain))
        raise TypeError("replacing() needs two units or two terrain pieces")

    # --- queries ------------------------------------------------------------------------
    def units_of(self, side: Side) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.side is side)

    def live_units(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if not u.wreck)

    def option(self, name: str, default: Any = None) -> Any:
        return self.options.get(name, default)
