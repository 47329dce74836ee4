"""Final Act readings of the basic rules that are ruleset options (docs/rules.md §1.8a).

The rule texts leave these cases open (or, for ``simultaneous_landing``, tankmap read them
differently before); each reading is an option whose default is the rule book's
(``DEFAULTS``). ``Readings.of(options)`` holds a game's values;
``Readings.changed`` names the options set away from the default — the compiled
simulation kernel plays the defaults only, so a game with any of them changed is
played by the reference engine (``FinalActDriver.batched``).

- ``tank_rotation`` (default true): three or more tanks (or tanks and the R/M) ordered
  round a cycle of cells — each into the cell the next one leaves — all move; false: the
  whole cycle stays, like two tanks that may not swap.
- ``at_turn_fires`` (default true): an AT that turns in place still places a shell; false:
  turning counts as moving ("an AT unit cannot move and shoot at the same turn").
- ``at_into_tank`` (default ``"stays"``): an AT ordered into the cell where an enemy tank
  ends the round without having moved stays (the cell is held); ``"eliminated"``: it walks
  in and is out, credited to that tank ("in any situation where a tank and a rival anti
  tank unit move to the same square, the tank has the upper hand").
- ``tank_at_pass`` (default ``"pass"``): an enemy tank and AT that trade cells both move
  and nothing happens; ``"run-over"``: both move and the AT is out (the tank drove over
  it); ``"bounce"``: both stay, like two tanks.
- ``arrival_hit_wins`` (default false): a tank that moves onto the enemy's last line and
  is knocked out there in the same round has not reached it; true: it counts as landed
  (docs/rules.md §1.7).
- ``repaired_pair`` (default ``"share"``): a tank and its R/M on one cell outside a repair
  (after the repair, or when the R/M has no repairs left or the tank is undamaged) may
  stay together until one of them leaves; ``"rm-leaves"``: sharing is only for a repair
  ("never with a tank, except while repairing"), so such an R/M must leave the cell with
  its next order (``State.must_leave``; staying is no legal order while it has another).
  A move that bounces keeps it there for one more round.
- ``simultaneous_landing`` (default ``"count"``): when both sides land tanks on the enemy's
  last line in one round, the side that landed more wins at once; equal counts are a tie
  and play goes on (docs/rules.md §1.7); ``"tie"``: any such round is a tie, whatever the
  counts (the reading tankmap played before). The compiled kernel plays ``count`` only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

AT_INTO_TANK = ("stays", "eliminated")
TANK_AT_PASS = ("pass", "run-over", "bounce")
REPAIRED_PAIR = ("share", "rm-leaves")
SIMULTANEOUS_LANDING = ("count", "tie")


@dataclass(frozen=True)
class Readings:
    """One game's values of the basic-rule reading options (module docstring)."""

    tank_rotation: bool = True
    at_turn_fires: bool = True
    at_into_tank: str = "stays"
    tank_at_pass: str = "pass"
    arrival_hit_wins: bool = False
    repaired_pair: str = "share"
    simultaneous_landing: str = "count"

    @staticmethod
    def of(options: Mapping[str, Any]) -> Readings:
        """The readings in effective ``options`` (missing names keep their default)."""
        d = DEFAULTS
        return Readings(
            tank_rotation=bool(options.get("tank_rotation", d.tank_rotation)),
            at_turn_fires=bool(options.get("at_turn_fires", d.at_turn_fires)),
            at_into_tank=str(options.get("at_into_tank", d.at_into_tank)),
            tank_at_pass=str(options.get("tank_at_pass", d.tank_at_pass)),
            arrival_hit_wins=bool(options.get("arrival_hit_wins", d.arrival_hit_wins)),
            repaired_pair=str(options.get("repaired_pair", d.repaired_pair)),
            simultaneous_landing=str(options.get("simultaneous_landing", d.simultaneous_landing)),
        )

    @property
    def changed(self) -> tuple[str, ...]:
        """Names of the options whose value differs from the default, in field order."""
        return tuple(
            f.name for f in fields(self) if getattr(self, f.name) != getattr(DEFAULTS, f.name)
        )


DEFAULTS = Readings()
NAMES: tuple[str, ...] = tuple(f.name for f in fields(Readings))
