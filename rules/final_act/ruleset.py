"""The ``FinalAct`` ruleset: Final Act (Tyto Games) with the Extra Forces expansion.

Numbers and options come from ``resources/rulesets/final-act.json`` (``rules.final_act.data``);
setup legality is ``rules.final_act.setup``; movement and fire use the cached tables of
``rules.final_act.tables`` (shared with the simulation engine and analysis).

Choices where docs/rules.md is silent (docs/rules.md wins over this list):

* Boards: 12 × 12 by default; any board with at least 6 columns and an even number of rows
  of at least 12 is accepted (each half keeps its own rows 1–6).
* A unit without a facing faces forward (the setup default).
* A tank or R/M with a diagonal facing (illegal at setup) has no orders; an AT turns in
  steps of 90° from whatever facing it has.
* Wrecks (units marked ``wreck``) block moves and fire only while the ``wrecks`` option is
  on; with it off they count as removed. Only kinds that block fire (tanks, R/M) block as
  wrecks.
* A damaged unit with as many hits as its kind takes (tank 2, AT/R-M 1) is ``bad-damage``.
* Terrain overlapping in an illegal setup: swamp beats minefield beats berm for movement.
* Footprint variants: every rotation and reflection of the data shape, filtered by the
  ``*_orientation`` option (``across`` = lying along a row, ``along`` = toward the enemy).
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from tankmap.rules.final_act.data import DATA
from tankmap.rules.final_act.setup import check_setup
from tankmap.rules.final_act.tables import Tables, tables_of, unit_blockers, wreck_mask
from tankmap.rules.geometry import Side
from tankmap.rules.ruleset import OptionSpec, Ruleset, UnitMove
from tankmap.rules.scenario import Scenario, Unit
from tankmap.rules.violations import Finished, Violation


class _Context(NamedTuple):
    tables: Tables
    wrecks: int  # cells holding a wreck (0 when the wrecks option is off)
    blockers: int  # cells holding a tank, wreck or R/M (fire blockers besides berms)


class FinalAct(Ruleset):
    """Final Act + Extra Forces (docs/rules.md §1). Stateless apart from a one-entry cache of the
    last scenario's tables and masks (scenarios are immutable, so it never goes stale)."""

    def __init__(self) -> None:
        self._last: tuple[Scenario, _Context] | None = None

    name: ClassVar[str] = "final-act"
    title: ClassVar[str] = "Final Act"
    terrain_kinds: ClassVar[tuple[str, ...]] = tuple(DATA.terrain)
    unit_kinds: ClassVar[tuple[str, ...]] = tuple(DATA.units)
    option_specs: ClassVar[tuple[OptionSpec, ...]] = DATA.options
    default_board: ClassVar[tuple[int, int]] = (DATA.columns, DATA.rows)

    def board_problem(self, columns: int, rows: int) -> str | None:
        half = DATA.half_rows
        if columns < 6 or rows < 2 * half or rows % 2:
            return (
                f"Final Act needs at least 6 columns and an even number of rows, at least "
                f"{2 * half} (the standard board is {DATA.columns}x{DATA.rows})"
            )
        return None

    def unit_stats(self, kind: str) -> dict[str, Any]:
        uk = DATA.units.get(kind)
        if uk is None:
            return {}
        return {
            "label": uk.label,
            "per_side": uk.count,
            "hits": uk.hits,
            "movement": uk.movement,
            "fires": uk.cone_option is not None,
            "blocks_fire": uk.blocks_fire,
            "extra_forces": uk.extra_forces,
        }

    # --- legality -------------------------------------------------------------------------
    def check(self, scenario: Scenario) -> list[Violation]:
        """Every setup rule of docs/rules.md §1.2–1.3 the scenario breaks (``error``) or still
        misses (``incomplete``); see ``rules.final_act.setup`` for the codes."""
        return check_setup(scenario, self.options(scenario))

    def finished(self, scenario: Scenario) -> Finished | None:
        """The end rules of docs/rules.md §1.7 applied to the position as it stands, every
        live tank on the enemy's last line counting as landed: the side with more tanks
        there wins (``goal``; equal numbers are a tie that play decides; option
        ``simultaneous_landing`` ``tie``: only a side alone there wins); else a side whose
        tanks are all wrecks loses (``annihilation``; both: a draw). A setup never is
        finished (tanks start in rows 1–3; wrecks are not allowed)."""
        on_goal = [0, 0]
        live = [0, 0]
        wrecks = [0, 0]
        for u in scenario.units:
            if u.kind != "tank":
                continue
            s = u.side.index
            if u.wreck:
                wrecks[s] += 1
                continue
            live[s] += 1
            goal = self.goal_cells(scenario, u)
            if goal is not None and u.cell in goal:
                on_goal[s] += 1
        if self.options(scenario)["simultaneous_landing"] == "tie":
            decided = (on_goal[0] > 0) != (on_goal[1] > 0)
        else:
            decided = on_goal[0] != on_goal[1]
        if decided:
            return Finished(Side.SOUTH if on_goal[0] > on_goal[1] else Side.NORTH, "goal")
        lost = [live[s] == 0 and wrecks[s] > 0 for s in (0, 1)]
        if lost[0] and lost[1]:
            return Finished(None, "annihilation")
        if lost[0] or lost[1]:
            return Finished(Side.NORTH if lost[0] else Side.SOUTH, "annihilation")
        return None

    # --- movement and fire ----------------------------------------------------------------
    def _context(self, scenario: Scenario) -> _Context:
        """Per-scenario values shared by ``moves`` and ``fire_zone`` (options, tables,
        wreck and blocker masks), cached for the last scenario object asked about."""
        last = self._last
        if last is not None and last[0] is scenario:
            return last[1]
        opts = self.options(scenario)
        wrecks = bool(opts["wrecks"])
        ctx = _Context(
            tables_of(scenario),
            wreck_mask(scenario.units, wrecks),
            unit_blockers(scenario.units, None, wrecks),
        )
        self._last = (scenario, ctx)
        return ctx

    def moves(self, scenario: Scenario, unit: Unit) -> list[UnitMove]:
        """Every distinct (to, facing) one round's order of ``unit`` can end in, except
        staying unchanged, from terrain, wrecks, edges and lanes alone (docs/rules.md §1.5); sorted
        by cell then facing. A wreck has none."""
        if unit.wreck:
            return []
        ctx = self._context(scenario)
        facing = unit.facing if unit.facing is not None else unit.side.forward
        orders = ctx.tables.orders(unit.kind, unit.side, unit.cell, facing, ctx.wrecks)
        return [UnitMove(to, f) for to, f in sorted(orders)]

    def fire_zone(self, scenario: Scenario, unit: Unit) -> list[int]:
        """Sorted cells where ``unit`` may place a shell now (rules §1.6): its cone cells with
        a clear line of fire past tanks, wrecks, R/M and berms (all of the cone, plus the
        elevated extra cell, for a tank on a berm). R/M and wrecks have none."""
        if unit.wreck:
            return []
        ctx = self._context(scenario)
        facing = unit.facing if unit.facing is not None else unit.side.forward
        # the shooter's own cell is never between it and a target, so it may stay in the mask
        return ctx.tables.fire_zone(unit.kind, unit.cell, facing, ctx.blockers)

    # --- zones and goals ------------------------------------------------------------------
    def setup_cells(self, scenario: Scenario, side: Side) -> frozenset[int]:
        """Own rows 1–3 (the tanks' set-up zone from the data)."""
        rows = DATA.units["tank"].zone_rows
        b = scenario.board
        return frozenset(c for c in range(b.size) if b.own_row(c, side.index) <= rows)

    def goal_cells(self, scenario: Scenario, unit: Unit) -> frozenset[int] | None:
        """For a tank: the enemy's last line of defence (the enemy's own row 1); ``None``
        for AT and R/M, which cannot win by moving."""
        uk = DATA.units.get(unit.kind)
        if uk is None or uk.goal != "enemy-row-1":
            return None
        b = scenario.board
        enemy = unit.side.other.index
        return frozenset(c for c in range(b.size) if b.own_row(c, enemy) == 1)
