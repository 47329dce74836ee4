"""Final Act game engine: simultaneous rounds (docs/rules.md §1.4–1.7).

Movement orders and fire zones come from ``rules.final_act.tables`` (the ruleset's own
tables); this module adds what happens when orders execute.

API::

    game = Game(scenario)                 # per scenario: tables, goal rows, options
    state = game.initial_state()          # mutable; state.copy() for search
    state.orders(u)                       # unit u's legal orders, staying put first
    state.fire_zone(u)                    # cells unit u may shell now (current cell/facing)
    state.can_fire(u, order)              # tanks always; an AT only if the order keeps its cell
    report = game.play_round(state, orders, shells)   # checked; IllegalMoveError
    report = game.apply_round(state, orders, shells)  # unchecked (playouts)
    report = game.apply_round(state, orders, shells, actions, respond)  # §1.8 tokens
    state.winner, state.over, state.end   # after each round

``orders`` has one ``(to, facing)`` per unit index (``None`` = stay; ignored for units out of
the game); ``shells`` maps a shooter's index to its target cell. Units are the scenario's
units in order (index = position in ``scenario.units``).

Round resolution, in order:

1. **Conflicts**, repeated until stable: two movers trading cells both stay; then for every
   cell the units that would end there (movers into it and units staying on it) must form
   an allowed group — one side, and the sharing limits of the data file (docs/rules.md §1.3: tank +
   AT, AT + AT, AT + R/M) — after removing enemy ATs that a *moving* tank enters onto; if
   the group is not allowed every mover into that cell stays instead. A bounced unit keeps
   its facing (its order is not executed); an AT that turns in place does turn.
2. **Moves**; ATs entered by a moving enemy tank are eliminated (credited to that tank).
3. **Hits**: every shell hits the enemy units on its cell after the moves (own units never
   take damage). A tank there takes the hit (damaged; at ``hits`` hits it is out and any ATs
   under it are out too); otherwise one AT is out per shell (the owner's choice:
   ``Actions.at_spared`` names the AT it keeps; else the lowest index first) and an R/M
   there is hit as well (an AT does not cover it). Several shells on one cell each count.
4. Knocked-out tanks become **wrecks** (option ``wrecks``) that block moves and fire; ATs
   and the R/M are removed (except an R/M knocked out during a declared R/M repair, which
   stays as a wreck with its tank: ``engine_advanced``).
5. **End**: a tank lands when it ends the round on the enemy's last line of defence and
   was not there at the end of the round before (``State.tie_base``); the side that landed
   more tanks wins, equal counts play on (option ``simultaneous_landing``: ``tie`` — any
   round both sides land in is a tie); otherwise a side with no tanks left loses (both:
   draw); after ``max_rounds`` a draw.

Advanced rules and action tokens (docs/rules.md §1.8, options off by default) live in
``engine_advanced`` (``Advanced`` on ``game.adv``, counters on ``state.adv``): both
``play_round`` and ``apply_round`` take an optional ``engine_actions.Actions`` (what the
sides declare that round). Start-of-round tokens (quick sand, mine clearing) are placed
first (``game.adv.begin``; drivers call it before the policies decide); R/M repair pairs
pass step 1; full throttle changes a tank's end cell before step 1; smoke is laid after
step 2 and stops the shells whose line of fire crosses it; extra shells (double/quick
shot, air strike) join step 3; the Red Cross, repairs, token bookkeeping and officer
losses follow step 4 (``Advanced.finish``). ``apply_round``'s ``respond`` answers the
mid-round decisions (smoke after the moves, Red Cross after the hits); ``play_round``
takes them from ``actions`` and checks them as the round is played (on a copy of the
state, so a refused round changes nothing). The round's declarations end up in
``RoundReport.actions``.

The basic-rule readings that are options (docs/rules.md §1.8a: rotations, AT turning and
firing, AT into a tank, tank and AT passing, arrival under fire) are in
``engine_readings`` (``game.readings``) and applied in steps 1, 2 and 5 (``repaired_pair``
in ``State.orders``). ``play_round``'s checks are ``engine_checks``, step 5 (the end of the
game) is ``engine_end``, the conflicts of step 1 are ``engine_conflicts``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.final_act.data import DATA
from tankmap.rules.final_act.engine_advanced import Actions, Advanced, AdvancedState
from tankmap.rules.final_act.engine_checks import check_round, plain_orders
from tankmap.rules.final_act.engine_conflicts import passing, resolve
from tankmap.rules.final_act.engine_end import (
    END_ANNIHILATION,
    END_GOAL,
    END_LIMIT,
    SIDES,
    check_end,
)
from tankmap.rules.final_act.engine_readings import Readings
from tankmap.rules.final_act.tables import FireTable, Order, Tables, tables_of
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Unit

__all__ = [
    "END_ANNIHILATION",
    "END_GOAL",
    "END_LIMIT",
    "SIDES",
    "Game",
    "Respond",
    "RoundReport",
    "State",
]


@dataclass
class RoundReport:
    """What happened in one round: units out ``(index, cell, by side, by unit)`` and the
    units hit (the shooter, or the tank that ran over an AT, is ``by unit``; -1 for an air
    strike's shell); ``stopped`` lists the ``(shooter, target)`` shells smoke stopped;
    ``actions`` is everything declared that round (with the answers of ``respond``)."""

    knocked_out: list[tuple[int, int, int, int]] = field(default_factory=list)
    hits: list[int] = field(default_factory=list)
    bounced: list[int] = field(default_factory=list)
    stopped: list[tuple[int, int]] = field(default_factory=list)
    actions: Actions = field(default_factory=Actions)
    # with smoke on: every unit's cell and facing when the shells were placed, and the
    # cells then blocking fire (``State.zone_at`` answers whether smoke stops a shell)
    start: tuple[list[int], list[Facing], int] = ([], [], 0)


Respond = Callable[[str, "State", dict[int, int], RoundReport], Actions]
"""Asked during ``apply_round`` for the decisions the rules take mid-round (docs/rules.md
§1.8): phase ``"moved"`` after the moves, before the shells are placed (smoke), and
``"hit"`` after the hits (Red Cross). Gets the state at that moment, the shells known then
and the report so far: in phase ``"moved"`` no shells, and the report's ``actions``
without the ones declared with the shells (``Actions.before_shells``); in phase ``"hit"``
the round's shells."""


class State:
    """A position during a game. Mutable; ``copy()`` for a cheap independent clone.

    Per unit index ``u``: ``kind[u]``, ``side[u]`` (0 south, 1 north), ``cell[u]``,
    ``facing[u]``, ``damage[u]``, ``alive[u]`` (still in the game and not a wreck),
    ``wreck[u]``. ``routes[u]`` lists the cells unit ``u`` stood on (start first).
    """

    __slots__ = (
        "game",
        "kind",
        "side",
        "cell",
        "facing",
        "damage",
        "alive",
        "wreck",
        "routes",
        "round",
        "winner",
        "end",
        "kills",
        "wreck_mask",
        "adv",
        "smoke",
        "no_entry",
        "tie_base",
    )

    def __init__(self, game: Game) -> None:
        self.game = game
        self.kind: list[str] = []
        self.side: list[int] = []
        self.cell: list[int] = []
        self.facing: list[Facing] = []
        self.damage: list[int] = []
        self.alive: list[bool] = []
        self.wreck: list[bool] = []
        self.routes: list[list[int]] = []
        self.round = 0
        self.winner: Side | None = None
        self.end: str | None = None
        self.kills = [0, 0]
        self.wreck_mask = 0
        self.adv = AdvancedState()  # docs/rules.md §1.8 counters (engine_advanced)
        self.smoke = 0  # cells whose smoke blocks fire this round
        self.no_entry = 0  # quick-sand cells no tank or R/M may enter
        # the tanks on the enemy's last line at the end of the round just played: they do
        # not land again (docs/rules.md §1.7); empty unless a tie was played on; None
        # before the start position is judged
        self.tie_base: frozenset[int] | None = None

    @property
    def over(self) -> bool:
        return self.end is not None

    def copy(self) -> State:
        s = State(self.game)
        s.kind = self.kind  # never changes
        s.side = self.side  # never changes
        s.cell = self.cell[:]
        s.facing = self.facing[:]
        s.damage = self.damage[:]
        s.alive = self.alive[:]
        s.wreck = self.wreck[:]
        s.routes = [r[:] for r in self.routes]
        s.round, s.winner, s.end = self.round, self.winner, self.end
        s.kills = self.kills[:]
        s.wreck_mask = self.wreck_mask
        s.adv = self.adv.copy()
        s.smoke, s.no_entry = self.smoke, self.no_entry
        s.tie_base = self.tie_base
        return s

    def live(self, side: int | None = None) -> list[int]:
        """Indices of units still in play (of ``side`` if given)."""
        return [
            u
            for u in range(len(self.kind))
            if self.alive[u] and (side is None or self.side[u] == side)
        ]

    def blockers(self) -> int:
        """Bitmask of cells whose units block fire: live tanks and R/M, wrecks, smoke."""
        mask = self.wreck_mask | self.smoke
        blocks = self.game.blocks_fire
        for u, a in enumerate(self.alive):
            if a and blocks[self.kind[u]]:
                mask |= 1 << self.cell[u]
        return mask

    def orders(self, u: int) -> tuple[Order, ...]:
        """Legal orders of unit ``u``: staying put unchanged first, then the ruleset's orders
        (wreck cells excluded, and quick-sand cells for tanks and the R/M). Empty for a unit
        out of the game; without the stay for an R/M that ``must_leave`` and has a move."""
        if not self.alive[u]:
            return ()
        g = self.game
        cell, facing = self.cell[u], self.facing[u]
        kind = self.kind[u]
        avoid = self.wreck_mask | (self.no_entry if kind != "at" else 0)
        tables = self.adv.tables[self.side[u]] or g.tables  # mine clearing (docs/rules.md §1.8)
        moves = tables.orders(kind, SIDES[self.side[u]], cell, facing, avoid)
        if moves and kind == "rm" and self.must_leave(u):  # §1.8a repaired_pair="rm-leaves"
            return tuple(moves)
        return ((cell, facing), *moves)

    def must_leave(self, u: int) -> bool:
        """Whether R/M ``u`` must leave its cell with this round's order (docs/rules.md
        §1.8a, ``repaired_pair="rm-leaves"``): it shares the cell with an own tank outside a
        repair — the tank undamaged (repaired) or the R/M without repairs left."""
        if (
            self.game.readings.repaired_pair != "rm-leaves"
            or self.kind[u] != "rm"
            or not self.alive[u]
        ):
            return False
        left = self.adv.rm_left.get(u, 0)
        for v, kind in enumerate(self.kind):
            if (
                v != u
                and kind == "tank"
                and self.alive[v]
                and self.side[v] == self.side[u]
                and self.cell[v] == self.cell[u]
            ):
                return not (self.damage[v] > 0 and left > 0)
        return False

    def fire_zone(self, u: int, blockers: int | None = None) -> list[int]:
        """Cells unit ``u`` may shell now (``blockers`` = ``self.blockers()`` if omitted)."""
        if not self.alive[u]:
            return []
        if blockers is None:
            blockers = self.blockers()
        return self.zone_at(u, self.cell[u], self.facing[u], blockers)

    def zone_at(self, u: int, cell: int, facing: Facing, blockers: int) -> list[int]:
        """Cells unit ``u``'s kind could shell from ``cell`` facing ``facing`` with fire
        blocked by ``blockers`` (berms added; ``cell`` itself never blocks)."""
        table = self.game.fire_tables[self.kind[u]]
        if table is None:
            return []
        g = self.game
        elevated = g.elevates[self.kind[u]] and bool(g.tables.elevating_mask >> cell & 1)
        return table.zone(cell, facing, (blockers & ~(1 << cell)) | g.berm_mask, elevated)

    def can_fire(self, u: int, order: Order | None) -> bool:
        """Whether unit ``u`` places a shell this round given its ``order`` (docs/rules.md §1.6)."""
        if not self.alive[u] or self.game.fire_tables[self.kind[u]] is None:
            return False
        if self.kind[u] == "at":
            if order is None:
                return True
            # docs/rules.md §1.8a at_turn_fires: may an AT that turns in place fire?
            turned = order[1] != self.facing[u]
            return order[0] == self.cell[u] and (self.game.readings.at_turn_fires or not turned)
        return True

    def to_units(self) -> tuple[Unit, ...]:
        """The position's units (wrecks flagged; removed units left out) for a scenario."""
        out = []
        for u, unit in enumerate(self.game.scenario.units):
            if self.alive[u] or self.wreck[u]:
                out.append(
                    Unit(
                        unit.kind,
                        unit.side,
                        self.cell[u],
                        self.facing[u],
                        unit.name,
                        self.damage[u],
                        unit.armour,
                        self.wreck[u],
                    )
                )
        return tuple(out)

    def to_scenario(self) -> Scenario:
        """This position as a scenario (same board, terrain and options)."""
        return self.game.scenario.with_units(self.to_units())


class Game:
    """Everything the rounds of one scenario share. A unit set up without a facing faces
    forward (docs/rules.md §1.2), so every legal scenario can be played."""

    def __init__(self, scenario: Scenario) -> None:
        rs = get_ruleset("final-act")
        opts = rs.options(scenario)
        self.scenario = scenario
        self.board = scenario.board
        self.tables: Tables = tables_of(scenario)
        self.berm_mask = self.tables.berm_mask
        self.sides = SIDES
        self.wrecks = bool(opts["wrecks"])
        self.readings = Readings.of(opts)  # docs/rules.md §1.8a (engine_readings)
        self.max_rounds = int(opts["max_rounds"])
        self.fire_tables: dict[str, FireTable | None] = {
            k: self.tables.fire_table(k) for k in DATA.units
        }
        self.hits_to_kill = {k: v.hits for k, v in DATA.units.items()}
        self.blocks_fire = {k: v.blocks_fire for k, v in DATA.units.items()}
        self.elevates = {k: self.tables.elevates(k) for k in DATA.units}
        self.wins_by_goal = {k: v.goal is not None for k, v in DATA.units.items()}
        sharing = DATA.sharing
        self._max_units = sharing.max_units
        self._max_kind = dict(sharing.max_per_kind)
        self._forbidden = {frozenset(p) for p in sharing.forbidden_pairs}
        self.goal_mask = [0, 0]
        # a side that has (or had: its wrecks) tanks loses when none is left (§1.7)
        self.had_tanks = [
            any(u.kind == "tank" and u.side is s for u in scenario.units) for s in SIDES
        ]
        for side in SIDES:
            probe = Unit("tank", side, 0, side.forward)
            goal = rs.goal_cells(scenario, probe) or frozenset()
            for c in goal:
                self.goal_mask[side.index] |= 1 << c
        self.adv = Advanced(self, opts)  # the docs/rules.md §1.8 options that are on
        # a unit set up without a facing faces forward (docs/rules.md §1.2), as in
        # ``initial_state``: legal means playable

    def initial_state(self) -> State:
        """The scenario's position before round 1 (wrecks in the scenario stay wrecks)."""
        s = State(self)
        for u in self.scenario.units:
            s.kind.append(u.kind)
            s.side.append(u.side.index)
            s.cell.append(u.cell)
            s.facing.append(u.facing if u.facing is not None else u.side.forward)
            s.damage.append(u.damage)
            s.alive.append(not u.wreck)
            s.wreck.append(u.wreck)
            s.routes.append([u.cell])
            if u.wreck and self.wrecks:
                s.wreck_mask |= 1 << u.cell
        s.adv = self.adv.initial(s)
        check_end(self, s)
        return s

    def group_allowed(self, kinds: list[str]) -> bool:
        """May these units (one side) end the round on one cell (docs/rules.md §1.3)?"""
        if len(kinds) <= 1:
            return True
        if len(kinds) > self._max_units:
            return False
        for k in set(kinds):
            if kinds.count(k) > self._max_kind.get(k, 1):
                return False
        for i, a in enumerate(kinds):
            for b in kinds[i + 1 :]:
                if frozenset((a, b)) in self._forbidden:
                    return False
        return True

    # --- playing ---------------------------------------------------------------------------
    def play_round(
        self,
        state: State,
        orders: list[Order | None],
        shells: dict[int, int],
        actions: Actions | None = None,
    ) -> RoundReport:
        """Check every order, shell and advanced action (``engine_advanced``) against the
        rules, then ``apply_round``.

        Raises ``IllegalMoveError`` naming the unit for an order it cannot be given, a shell
        from a unit that may not fire (out, R/M, moving AT) or outside its fire zone, an
        action the rules or options do not allow, or a finished game."""
        if state.over:
            raise IllegalMoveError("the game is over")
        if len(orders) != len(state.kind):
            raise IllegalMoveError(
                f"need {len(state.kind)} orders (one per unit), got {len(orders)}"
            )
        orders = plain_orders(self, state, orders)
        saved = (state.adv.copy(), state.smoke, state.no_entry)
        try:
            check_round(self, state, orders, shells, actions)
            if not self.adv:  # nothing is decided mid-round
                return self._round(state, orders, shells, actions, None, check=False)
            # the mid-round declarations (smoke after the moves, Red Cross after the hits)
            # are checked as the round is played: on a copy, kept only if all is legal
            trial = state.copy()
            report = self._round(trial, orders, shells, actions, None, check=True)
        except IllegalMoveError:
            state.adv, state.smoke, state.no_entry = saved  # tokens placed by the check
            raise
        for name in State.__slots__:
            setattr(state, name, getattr(trial, name))
        return report

    def apply_round(
        self,
        state: State,
        orders: list[Order | None],
        shells: dict[int, int],
        actions: Actions | None = None,
        respond: Respond | None = None,
    ) -> RoundReport:
        """Execute one round without checking legality (see the module docstring;
        ``actions`` and ``respond`` only matter when advanced options are on)."""
        return self._round(state, orders, shells, actions, respond, check=False)

    def _round(
        self,
        state: State,
        orders: list[Order | None],
        shells: dict[int, int],
        actions: Actions | None,
        respond: Respond | None,
        check: bool,
    ) -> RoundReport:
        orders = plain_orders(self, state, orders)
        adv = self.adv
        report = RoundReport()
        acts = report.actions
        if actions is not None:
            acts.absorb(actions)
        if adv:
            adv.begin(state, acts, check=False)
        n = len(state.kind)
        alive, cell, side, kind = state.alive, state.cell, state.side, state.kind
        smoky = bool(adv) and "smoke" in adv.on
        # where the shells were placed from (smoke laid after the moves may stop them)
        if smoky:
            report.start = (cell[:], state.facing[:], state.blockers())
        dest = cell[:]
        movers: list[int] = []
        turn: dict[int, Facing] = {}
        ahead = adv.throttle_ends(state, orders, acts) if adv else {}
        for u in range(n):
            o = orders[u]
            if o is not None and alive[u]:
                if o[0] != cell[u]:
                    dest[u] = ahead.get(u, o[0])
                    turn[u] = o[1]
                    movers.append(u)
                else:
                    state.facing[u] = o[1]  # an AT turning in place
        if ahead:  # full throttle: the conflicts judged where the tanks end (§1.8)
            adv.settle_throttle(
                state,
                orders,
                ahead,
                dest,
                movers,
                report.bounced,
                lambda d, m, b: resolve(state, d, m, b, self.readings, self._group_ok),
            )
        else:
            resolve(state, dest, movers, report.bounced, self.readings, self._group_ok)
        moved = set(movers)
        passed = passing(state, dest, movers, self.readings)  # tanks and enemy ATs trading
        # moves, and ATs run over by enemy tanks
        for u in movers:
            cell[u] = dest[u]
            state.facing[u] = turn[u]
            state.routes[u].append(dest[u])
        occupants: dict[int, list[int]] = {}
        for u in range(n):
            if alive[u]:
                occupants.setdefault(cell[u], []).append(u)
        walk_in = self.readings.at_into_tank == "eliminated"
        for u in movers:
            if not alive[u]:
                continue
            if kind[u] == "tank":
                for v in occupants[cell[u]]:
                    if alive[v] and side[v] != side[u] and kind[v] == "at":
                        self._knock_out(state, v, side[u], u, report)
            elif kind[u] == "at" and walk_in:  # §1.8a at_into_tank: walked into a tank
                for v in occupants[cell[u]]:
                    if alive[v] and side[v] != side[u] and kind[v] == "tank":
                        self._knock_out(state, u, side[v], v, report)
                        break
        for tank, at_unit in passed:
            self._knock_out(state, at_unit, side[tank], tank, report)
        # hits
        fired = [(u, t, side[u]) for u, t in shells.items()]
        repairing: frozenset[int] = frozenset()  # R/Ms that stay as wrecks when hit
        if adv:
            fired += adv.extra_shells(state, acts)
            repairing = adv.repair_wrecks(state, acts)
            if smoky:
                if respond is not None:  # decided blind: before shells are placed (§1.8)
                    blind = replace(report, actions=acts.before_shells())
                    acts.absorb(respond("moved", state, {}, blind))
                fired = adv.lay_smoke(state, acts, fired, report.start, report, check)
        for shooter, target, by in fired:
            found = occupants.get(target)
            if not found:
                continue
            here = [v for v in found if alive[v] and side[v] != by]
            if not here:
                continue
            tank = next((v for v in here if kind[v] == "tank"), -1)
            if tank >= 0:
                state.damage[tank] += 1
                report.hits.append(tank)
                if state.damage[tank] >= self.hits_to_kill["tank"]:
                    for v in here:
                        self._knock_out(state, v, by, shooter, report, v in repairing)
                continue
            # one AT out per shell: the owner's choice (``at_spared``), else the lowest
            # index; an R/M there is hit too (no tank covers it)
            ats = [v for v in here if kind[v] == "at"]
            exposed = [v for v in ats if v not in acts.at_spared]
            victims = (exposed or ats)[:1] + [v for v in here if kind[v] == "rm"]
            for victim in victims:
                report.hits.append(victim)
                state.damage[victim] += 1
                if state.damage[victim] >= self.hits_to_kill[kind[victim]]:
                    self._knock_out(state, victim, by, shooter, report)
        state.round += 1
        if adv:
            if respond is not None and "red_cross" in adv.on:
                acts.absorb(respond("hit", state, shells, report))
            adv.finish(state, acts, report, check)
        arrived = [u for u, *_ in report.knocked_out if kind[u] == "tank" and u in moved]
        check_end(self, state, arrived)
        return report

    def _knock_out(
        self,
        state: State,
        u: int,
        by: int,
        by_unit: int,
        report: RoundReport,
        wreck: bool = False,
    ) -> None:
        """Take unit ``u`` out; a tank (or, with ``wreck``, any unit: an R/M hit while
        repairing) stays as a wreck when the ``wrecks`` option is on."""
        if not state.alive[u]:
            return
        state.alive[u] = False
        state.kills[by] += 1
        report.knocked_out.append((u, state.cell[u], by, by_unit))
        if (wreck or state.kind[u] == "tank") and self.wrecks:
            state.wreck[u] = True
            state.wreck_mask |= 1 << state.cell[u]

    def _group_ok(self, state: State, members: list[int], entering: list[int]) -> bool:
        side, kind = state.side, state.kind
        tank_sides = {side[u] for u in entering if kind[u] == "tank"}
        # an AT walking into an enemy tank's cell is out there (§1.8a at_into_tank)
        walk_in = self.readings.at_into_tank == "eliminated"
        held = {side[u] for u in members if kind[u] == "tank"} if walk_in else set()
        kept = [
            u
            for u in members
            if not (
                kind[u] == "at"
                and (
                    any(s != side[u] for s in tank_sides)
                    or (u in entering and any(s != side[u] for s in held))
                )
            )
        ]
        if len({side[u] for u in kept}) > 1:
            return False
        return self.group_allowed([kind[u] for u in kept]) or (
            bool(self.adv) and self.adv.meet_ok(state, kept)
        )
