"""Tank Chess numbers, read once from ``resources/rulesets/tank-chess.json``.

Everything a house rule might change lives in that file: piece stats (speed, gun, armour,
fire mode), the armies per board size, the obstacle-piece catalogue, the obstacle budget
and the printed start cells of the 16 × 16 board. This module turns it into small frozen
values and integer tables for the game state.

Kind codes (used by the fast game state): ``command`` 0, ``light`` 1, ``medium`` 2,
``heavy`` 3, ``destroyer`` 4, ``mortar`` 5 (``KINDS[code]`` is the kind name).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from tankmap.rules.ruleset import BoundedOption, OptionSpec, load_ruleset_data

KINDS: tuple[str, ...] = ("command", "light", "medium", "heavy", "destroyer", "mortar")
KIND_CODE: dict[str, int] = {k: i for i, k in enumerate(KINDS)}
COMMAND = 0

FIRE_TURRET = 0
FIRE_FIXED = 1
FIRE_MORTAR = 2
_FIRE_MODES = {"turret": FIRE_TURRET, "fixed": FIRE_FIXED, "mortar": FIRE_MORTAR}

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "strict_corners",
        False,
        "a diagonal step is forbidden when both cells beside it are blocked (docs/rules.md §2.3)",
    ),
    OptionSpec(
        "diagonal_escape",
        True,
        "a command tank may escape by a diagonal step across the enemy edge (never through "
        "the board's corner point); false: only by a straight step (docs/rules.md §2.5)",
    ),
    OptionSpec(
        "backward_escape",
        False,
        "a command tank may also escape by the backward step off the enemy edge "
        "(docs/rules.md §2.5)",
    ),
    BoundedOption(
        "max_turns",
        300,
        "the game is a draw once this many plies are played (0 or less: no limit)",
        (),
        -100_000,
        100_000,
    ),
)


@dataclass(frozen=True)
class PieceStats:
    """One piece kind's numbers (docs/rules.md §2.1). ``armour`` is (front, side, rear)."""

    kind: str
    code: str
    name: str
    speed: int
    gun: int
    armour: tuple[int, int, int]
    fire: str

    @property
    def fire_mode(self) -> int:
        return _FIRE_MODES[self.fire]

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "speed": self.speed,
            "gun": self.gun,
            "armour": dict(zip(("front", "side", "rear"), self.armour, strict=True)),
            "fire": self.fire,
        }


@dataclass(frozen=True)
class TankChessData:
    """The parsed data file."""

    pieces: dict[str, PieceStats]
    mortar_range: tuple[int, int]
    board_min: int
    board_max: int
    default_board: tuple[int, int]
    armies: tuple[tuple[int, str, dict[str, int]], ...]
    setup_rows: int
    obstacle_budget: int
    obstacle_pieces: dict[str, tuple[tuple[int, int], ...]]
    start_cells: dict[str, tuple[str, ...]]

    def army(self, columns: int, rows: int) -> tuple[str, dict[str, int]]:
        """The (label, kind → count) army of one side for a board size: the last entry
        whose ``min_size`` is at most the board's shorter side."""
        size = min(columns, rows)
        chosen = self.armies[0]
        for entry in self.armies:
            if entry[0] <= size:
                chosen = entry
        return chosen[1], chosen[2]

    def stats(self, code: int) -> PieceStats:
        return self.pieces[KINDS[code]]


@cache
def tank_chess_data() -> TankChessData:
    """The shared parsed data (``KeyError``/``ValueError`` if the shipped file is broken)."""
    raw = load_ruleset_data("tank-chess")
    pieces = {}
    for kind in KINDS:
        p = raw["pieces"][kind]
        a = p["armour"]
        fire = str(p["fire"])
        if fire not in _FIRE_MODES:
            raise ValueError(f"tank-chess.json: piece {kind}: unknown fire mode {fire!r}")
        pieces[kind] = PieceStats(
            kind=kind,
            code=str(p["code"]),
            name=str(p["name"]),
            speed=int(p["speed"]),
            gun=int(p["gun"]),
            armour=(int(a["front"]), int(a["side"]), int(a["rear"])),
            fire=fire,
        )
    armies = tuple(
        (int(e["min_size"]), str(e["label"]), {k: int(v) for k, v in e["pieces"].items()})
        for e in sorted(raw["armies"], key=lambda e: int(e["min_size"]))
    )
    lo, hi = raw["mortar_range"]
    return TankChessData(
        pieces=pieces,
        mortar_range=(int(lo), int(hi)),
        board_min=int(raw["boards"]["min"]),
        board_max=int(raw["boards"]["max"]),
        default_board=(int(raw["boards"]["default"][0]), int(raw["boards"]["default"][1])),
        armies=armies,
        setup_rows=int(raw["setup_rows"]),
        obstacle_budget=int(raw["obstacle_budget"]),
        obstacle_pieces={
            name: tuple((int(x), int(y)) for x, y in cells)
            for name, cells in raw["obstacle_pieces"].items()
        },
        start_cells={k: tuple(v) for k, v in raw["start_cells"].items()},
    )


@cache
def kind_facts() -> dict[str, tuple[int, int, int, int, tuple[int, int, int]]]:
    """kind name → (code, speed, gun, fire mode, armour) for the fast game state."""
    data = tank_chess_data()
    return {
        k: (KIND_CODE[k], st.speed, st.gun, st.fire_mode, st.armour)
        for k, st in data.pieces.items()
    }
