"""Seeded random Tank Wars positions, set-ups, orders and dice for the conformance tests,
and the bridge between ``rules.scenario`` / the engine's public values and
``reference_tank_wars`` (whose cells are ``(column, row)`` tuples).

Randomness only through ``numpy.random.default_rng(seed)``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import reference_tank_wars as RW

from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit
from tankmap.rules.tank_wars.data import CommandKind
from tankmap.rules.tank_wars.engine import Command, Orders, outcome

TW = get_ruleset("tank-wars")
BOARD = Board.of(6, 12)
SIDES = (Side.SOUTH, Side.NORTH)
TOKEN_NAMES = tuple(RW.TOKENS)


def xy(cell: int) -> RW.Cell:
    return (BOARD.col_of(cell), BOARD.row_of(cell))


def to_cell(c: RW.Cell) -> int:
    return BOARD.cell(*c)


def name(c: RW.Cell) -> str:
    return BOARD.cell_name(to_cell(c))


def own_fields(side: int) -> list[RW.Cell]:
    return [(c, r) for r in range(RW.ROWS) for c in range(RW.COLS) if RW.side_of((c, r)) == side]


def roll_for(c: RW.Cell) -> int:
    """The dice roll (project encoding) landing on ``c`` of its board."""
    side = RW.side_of(c)
    return 6 * (RW.own_row(side, c) - 1) + c[0]


class Dice:
    """A scripted stand-in for the engine's Generator: ``integers(0, 36**m)`` returns the
    next ``m`` scripted rolls as base-36 digits, lowest first (``engine.draw_rolls``)."""

    def __init__(self, rolls: list[int]) -> None:
        self.rolls = rolls
        self.used = 0

    def integers(self, low: int, high: int | None = None, size: Any = None) -> int:
        assert low == 0 and high is not None and size is None
        m = 0
        while 36**m < high:
            m += 1
        assert 36**m == high, f"not a dice draw: integers(0, {high})"
        out = self.rolls[self.used : self.used + m]
        assert len(out) == m, "scripted too few rolls"
        self.used += m
        return sum(r * 36**i for i, r in enumerate(out))


# --- random positions (a game in progress: vehicles anywhere on their own boards) ----------
def random_options(rng: np.random.Generator, *, rounds: bool) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    if rng.random() < 0.5:
        for kind in RW.KINDS:
            if rng.random() < 0.6:
                pick = [t for t in TOKEN_NAMES if rng.random() < 0.5]
                opts[f"{kind}_moves"] = ",".join(pick)
    if rng.random() < 0.3:
        for kind in RW.KINDS:
            opts[f"{kind}_armour"] = int(rng.integers(1, 6))
    if rounds:
        if rng.random() < 0.5:
            opts["supply_drops"] = int(rng.integers(0, 3))
        if rng.random() < 0.4:
            opts["support_armour"] = int(rng.integers(0, 3))
        if rng.random() < 0.4:
            opts["gunfire_tokens"] = int(rng.integers(0, 6))
        if rng.random() < 0.4:
            opts["long_range_shots"] = int(rng.integers(0, 3))
        if rng.random() < 0.4:
            opts["artillery_shells"] = int(rng.integers(0, 6))
        if rng.random() < 0.3:
            opts["medium_shells"] = int(rng.integers(0, 3))
        if rng.random() < 0.3:
            opts["heavy_gunfire"] = int(rng.integers(0, 3))
        if rng.random() < 0.4:
            opts["gunfire_hits_stationary"] = bool(rng.random() < 0.5)
        if rng.random() < 0.3:
            opts["max_rounds"] = int(rng.integers(1, 5))
    if rng.random() < 0.4:
        for kind in RW.KINDS:
            opts[f"{kind}_count"] = int(rng.integers(0, 3))
        if not any(opts[f"{kind}_count"] for kind in RW.KINDS):
            opts["heavy_count"] = 1
    return opts


def random_position(seed: int, *, rounds: bool = False) -> Scenario:
    """1-4 vehicles per side anywhere on their own boards (often bunched), AP 1..start,
    craters and support tokens on free fields, random patterns and numbers."""
    rng = np.random.default_rng(seed)
    opts = random_options(rng, rounds=rounds)
    rules = RW.Rules.of(opts)
    units: list[Unit] = []
    taken: set[RW.Cell] = set()
    for side in (0, 1):
        pool = own_fields(side)
        if rng.random() < 0.5:  # bunch them so that occupied end fields matter
            c0, r0 = pool[int(rng.integers(len(pool)))]
            pool = [c for c in pool if abs(c[0] - c0) <= 2 and abs(c[1] - r0) <= 2]
        # a playable position never has more of a kind than its count
        kinds = [k for k in RW.KINDS for _ in range(int(rules.kinds[k]["count"]))]
        rng.shuffle(kinds)
        for kind in kinds[: int(rng.integers(1, 5))]:
            free = [c for c in pool if c not in taken]
            if not free:
                break
            c = free[int(rng.integers(len(free)))]
            taken.add(c)
            start = int(rules.kinds[kind]["armour"])
            armour = None if rng.random() < 0.3 else int(rng.integers(1, start + 1))
            units.append(Unit(kind, SIDES[side], to_cell(c), armour=armour))
    order = rng.permutation(len(units))
    units = [units[int(i)] for i in order]
    terrain: list[Terrain] = []
    crater_p, support_p = float(rng.uniform(0, 0.35)), float(rng.uniform(0, 0.15))
    for c in own_fields(0) + own_fields(1):
        if c in taken:
            continue
        x = rng.random()
        if x < crater_p:
            terrain.append(Terrain("crater", (to_cell(c),)))
        elif x < crater_p + support_p:
            terrain.append(Terrain("support", (to_cell(c),)))
    return TW.new_scenario(options=opts).with_units(units).with_terrain(terrain)


def ref_vehicles(sc: Scenario) -> list[tuple[str, int, RW.Cell, int]]:
    rules = RW.Rules.of(sc.options)
    return [
        (
            u.kind,
            u.side.index,
            xy(u.cell),
            u.armour if u.armour is not None else int(rules.kinds[u.kind]["armour"]),
        )
        for u in sc.units
    ]


def moves_mismatches(sc: Scenario) -> list[str]:
    """Every vehicle whose project moves / fire zone differ from the reference."""
    rules = RW.Rules.of(sc.options)
    vehicles = ref_vehicles(sc)
    out: list[str] = []
    for i, u in enumerate(sc.units):
        label = f"{u.side} {u.kind} {BOARD.cell_name(u.cell)} AP {vehicles[i][3]}"
        got_list = TW.moves(sc, u)
        got = {BOARD.cell_name(m.to) for m in got_list if m.to is not None}
        want = {name(c) for c in RW.moves(vehicles, i, rules)}
        if len(got) != len(got_list) or any(m.facing is not None for m in got_list):
            out.append(f"{label}: duplicate, off-board or faced moves {got_list}")
        if got != want:
            out.append(f"{label}: moves missing {sorted(want - got)} extra {sorted(got - want)}")
        zone = TW.fire_zone(sc, u)
        if {BOARD.cell_name(c) for c in zone} != {name(c) for c in RW.fire_zone(u.side.index)}:
            out.append(f"{label}: fire zone {sorted(BOARD.cell_name(c) for c in zone)}")
        if len(zone) != 36:
            out.append(f"{label}: fire zone has {len(zone)} fields")
    return out


# --- set-ups --------------------------------------------------------------------------------
def random_setup(seed: int) -> Scenario:
    """A legal set-up (per-kind counts on own rows 1..setup_rows) with 0-3 random edits."""
    rng = np.random.default_rng(seed)
    opts: dict[str, Any] = {}
    if rng.random() < 0.3:
        opts["setup_rows"] = int(rng.integers(1, 4))
    if rng.random() < 0.3:
        opts[f"{RW.KINDS[int(rng.integers(3))]}_count"] = int(rng.integers(0, 3))
    if rng.random() < 0.2:
        opts[f"{RW.KINDS[int(rng.integers(3))]}_armour"] = int(rng.integers(1, 5))
    rules = RW.Rules.of(opts)
    rows = int(rules.game["setup_rows"])
    units: list[Unit] = []
    for side in (0, 1):
        zone = [c for c in own_fields(side) if RW.own_row(side, c) <= rows]
        rng.shuffle(zone)
        for kind in RW.KINDS:
            for _ in range(int(rules.kinds[kind]["count"])):
                units.append(Unit(kind, SIDES[side], to_cell(zone.pop())))
    if units and rng.random() < 0.15:  # one vehicle still to be placed
        units.pop(int(rng.integers(len(units))))
    terrain: list[Terrain] = []
    for _ in range(int(rng.integers(0, 4))):
        kind = "crater" if rng.random() < 0.6 else "support"
        terrain.append(Terrain(kind, (int(rng.integers(72)),)))
    for _ in range(int(rng.integers(0, 4))):
        m = int(rng.integers(10))
        if m == 0 and units:  # move a vehicle anywhere
            i = int(rng.integers(len(units)))
            units[i] = dataclasses.replace(units[i], cell=int(rng.integers(72)))
        elif m == 1 and units:  # a copy somewhere
            u = units[int(rng.integers(len(units)))]
            units.append(dataclasses.replace(u, cell=int(rng.integers(72))))
        elif m == 2 and units:
            units.pop(int(rng.integers(len(units))))
        elif m == 3 and units:
            i = int(rng.integers(len(units)))
            units[i] = dataclasses.replace(units[i], armour=int(rng.integers(0, 6)))
        elif m == 4 and units:
            i = int(rng.integers(len(units)))
            units[i] = dataclasses.replace(units[i], wreck=True)
        elif m == 5 and units:  # a token under a vehicle
            kind = "crater" if rng.random() < 0.5 else "support"
            terrain.append(Terrain(kind, (units[int(rng.integers(len(units)))].cell,)))
        elif m == 6:  # a two-field token piece, maybe marked for a side
            a, b = int(rng.integers(72)), int(rng.integers(72))
            if a != b:
                side = None if rng.random() < 0.4 else SIDES[int(rng.integers(2))]
                terrain.append(Terrain("crater", (a, b), side=side))
        elif m == 7 and units:
            i = int(rng.integers(len(units)))
            units[i] = dataclasses.replace(units[i], side=units[i].side.other)
        elif m == 8 and units:
            i = int(rng.integers(len(units)))
            units[i] = dataclasses.replace(units[i], kind=RW.KINDS[int(rng.integers(3))])
        elif m == 9 and units:
            i = int(rng.integers(len(units)))
            units[i] = dataclasses.replace(units[i], facing=Facing(int(rng.integers(8))))
    return TW.new_scenario(options=opts).with_units(units).with_terrain(terrain)


def ref_check(sc: Scenario) -> tuple[bool, bool, set[str]]:
    units = [RW.SetupUnit(u.kind, u.side.index, xy(u.cell), u.armour, u.wreck) for u in sc.units]
    tokens = [
        RW.SetupToken(
            t.kind, tuple(xy(c) for c in t.cells), None if t.side is None else t.side.index
        )
        for t in sc.terrain
    ]
    legal, complete, bad = RW.check(units, tokens, RW.Rules.of(sc.options))
    return legal, complete, {name(c) for c in bad}


def project_check(sc: Scenario) -> tuple[bool, bool, set[str]]:
    vs = TW.check(sc)
    errors = [v for v in vs if v.severity.value == "error"]
    complete = not any(v.severity.value == "incomplete" for v in vs)
    return not errors, complete, {BOARD.cell_name(c) for v in errors for c in v.cells}


# --- rounds ---------------------------------------------------------------------------------
def ref_game(sc: Scenario) -> RW.Game:
    rules = RW.Rules.of(sc.options)
    vehicles = [
        RW.Vehicle(i, kind, side, cell, ap)
        for i, (kind, side, cell, ap) in enumerate(ref_vehicles(sc))
    ]
    craters = {xy(c) for t in sc.terrain if t.kind == "crater" for c in t.cells}
    supports = {xy(c) for t in sc.terrain if t.kind == "support" for c in t.cells}
    return RW.Game(rules, vehicles, craters, supports)


def snapshot_engine(st: Any) -> dict[str, Any]:
    res = outcome(st)
    return {
        "vehicles": sorted(
            (v.ident, v.kind, v.side.index, xy(v.cell), v.armour) for v in st.vehicles
        ),
        "craters": sorted(xy(c) for c in st.craters),
        "supports": sorted(xy(c) for c in st.supports),
        "gunfire": [st.gunfire_available(s) for s in SIDES],
        "round": st.round,
        "in_round": st.in_round,
        "outcome": None
        if res is None
        else (None if res.winner is None else res.winner.index, res.reason),
    }


def snapshot_ref(g: RW.Game) -> dict[str, Any]:
    return {
        "vehicles": sorted((v.ident, v.kind, v.side, v.cell, v.ap) for v in g.vehicles),
        "craters": sorted(g.craters),
        "supports": sorted(g.supports),
        "gunfire": [g.gunfire_available(s) for s in (0, 1)],
        "round": g.round,
        "in_round": g.in_round,
        "outcome": g.result,
    }


def random_rolls(g: RW.Game, rng: np.random.Generator, n: int = 48) -> list[int]:
    """Rolls, half of them aimed at a vehicle, crater or support token (to make things happen)."""
    hot = [v.cell for v in g.vehicles] + sorted(g.craters) + sorted(g.supports)
    out = []
    for _ in range(n):
        if hot and rng.random() < 0.5:
            out.append(roll_for(hot[int(rng.integers(len(hot)))]))
        else:
            out.append(int(rng.integers(36)))
    return out


def random_orders(g: RW.Game, side: int, rng: np.random.Generator) -> RW.Orders:
    """Any token for most live vehicles (outside the pattern too), and gunfire tokens on
    enemy vehicles' fields, near them, anywhere on the enemy board, or on own craters."""
    o = RW.Orders()
    for v in g.of_side(side):
        if rng.random() < 0.8:
            token = TOKEN_NAMES[int(rng.integers(4))]
            dirs = RW.TOKENS[token][0]
            o.commands[v.ident] = (token, dirs[int(rng.integers(4))])
    enemy = [v.cell for v in g.of_side(1 - side)]
    own_craters = sorted(c for c in g.craters if RW.side_of(c) == side)
    board = own_fields(1 - side)
    n = max(0, g.gunfire_available(side) + int(rng.integers(-1, 2)))
    for _ in range(n):
        x = rng.random()
        if enemy and x < 0.5:
            c0 = enemy[int(rng.integers(len(enemy)))]
            c = (c0[0] + int(rng.integers(-1, 2)), c0[1] + int(rng.integers(-1, 2)))
            o.gunfire.append(c if c in board else c0)
        elif own_craters and x < 0.65:
            o.gunfire.append(own_craters[int(rng.integers(len(own_craters)))])
        else:
            o.gunfire.append(board[int(rng.integers(len(board)))])
    return o


def engine_orders(o: RW.Orders) -> Orders:
    commands = {i: Command(CommandKind(t), Facing[d]) for i, (t, d) in o.commands.items()}
    return Orders(commands, tuple(to_cell(c) for c in o.gunfire))
