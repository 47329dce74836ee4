"""Seeded random positions and the comparisons shared by the conformance tests.

Randomness only through ``numpy.random.default_rng(seed)``. Positions need not be legal
set-ups (a game in progress never is): they only respect what the rules can produce — one
piece per cell in Tank Chess, no unit on a swamp or a mined (non-lane) cell in Final Act.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import reference_final_act as RF
import reference_tank_chess as RT

from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit

TC_KINDS = ("command", "light", "medium", "heavy", "destroyer", "mortar")
TANK_NAMES = ("C", "1", "1A", "1B", "2", "2A", "2B")
SIDES = (Side.SOUTH, Side.NORTH)


# --- Tank Chess ----------------------------------------------------------------------------
def random_tank_chess(seed: int, *, max_size: int = 12, crowd: int = 6) -> Scenario:
    """A random Tank Chess position: obstacles, one command tank per side, up to ``crowd``
    more pieces per side, a few wrecks, random facings, ``strict_corners`` and side to move.
    Command tanks are often put near the enemy edge and the corners, to exercise escapes."""
    rng = np.random.default_rng(seed)
    cols = int(rng.integers(8, max_size + 1))
    rows = int(rng.integers(8, max_size + 1))
    b = Board.of(cols, rows)
    density = float(rng.uniform(0.0, 0.25))
    obstacles = [c for c in range(b.size) if rng.random() < density]
    free = [c for c in range(b.size) if c not in set(obstacles)]
    rng.shuffle(free)
    units: list[Unit] = []

    def take(preferred: list[int] | None = None) -> int:
        if preferred:
            pick = [c for c in preferred if c in free]
            if pick:
                c = pick[int(rng.integers(len(pick)))]
                free.remove(c)
                return c
        return free.pop()

    for side in SIDES:
        enemy_rows = (rows - 1, rows - 2) if side is Side.SOUTH else (0, 1)
        near = [b.cell(c, r) for r in enemy_rows for c in range(cols)]
        cell = take(near if rng.random() < 0.4 else None)
        units.append(Unit("command", side, cell, Facing(int(rng.integers(8)))))
        for _ in range(int(rng.integers(0, crowd + 1))):
            kind = TC_KINDS[1 + int(rng.integers(5))]
            units.append(Unit(kind, side, take(), Facing(int(rng.integers(8)))))
    for _ in range(int(rng.integers(0, 4))):
        kind = TC_KINDS[1 + int(rng.integers(5))]
        side = SIDES[int(rng.integers(2))]
        units.append(Unit(kind, side, take(), Facing(int(rng.integers(8))), wreck=True))
    order = rng.permutation(len(units))
    return Scenario(
        ruleset="tank-chess",
        board=b,
        options={"strict_corners": bool(rng.random() < 0.4)},
        terrain=tuple(Terrain("obstacle", (c,)) for c in obstacles),
        units=tuple(units[int(i)] for i in order),
        to_move=SIDES[int(rng.integers(2))],
    )


def tank_chess_mismatches(sc: Scenario) -> list[str]:
    """Every unit whose project moves / fire zone differ from the reference (as text)."""
    rs = get_ruleset("tank-chess")
    pos = RT.from_scenario(sc)
    b = sc.board
    out: list[str] = []
    for i, u in enumerate(sc.units):
        got_list = [] if u.wreck else rs.moves(sc, u)
        got = {(m.to_json(b)["to"], m.to_json(b)["facing"]) for m in got_list}
        want = RT.moves_json(pos, i, lambda c, r: b.cell_name(b.cell(c, r)))
        label = f"{u.side} {u.kind}{' wreck' if u.wreck else ''} {b.cell_name(u.cell)} {u.facing}"
        if len(got_list) != len(got):
            out.append(f"{label}: duplicate moves")
        if got != want:
            missing, extra = sorted(want - got, key=str), sorted(got - want, key=str)
            out.append(f"{label}: moves missing {missing} extra {extra}")
        zone_list = [] if u.wreck else rs.fire_zone(sc, u)
        zone = {b.cell_name(c) for c in zone_list}
        want_zone = {b.cell_name(b.cell(c, r)) for c, r in RT.fire_zone(pos, i)}
        if zone != want_zone or len(zone_list) != len(zone):
            missing_z, extra_z = sorted(want_zone - zone), sorted(zone - want_zone)
            out.append(f"{label}: fire zone missing {missing_z} extra {extra_z}")
    return out


def project_perft(sc: Scenario, depth: int) -> int:
    from tankmap.rules.tank_chess.state import initial_state, perft

    n: int = perft(initial_state(sc), depth)
    return n


# --- Final Act -----------------------------------------------------------------------------
def random_final_act(seed: int) -> Scenario:
    """A random Final Act position (terrain pieces anywhere, units anywhere a unit may be)."""
    rng = np.random.default_rng(seed)
    cols, rows = (12, 12) if rng.random() < 0.8 else (int(rng.integers(6, 15)), 14)
    b = Board.of(cols, rows)
    used: set[int] = set()
    terrain: list[Terrain] = []

    def strip(length: int) -> tuple[list[int], bool] | None:
        horizontal = bool(rng.random() < 0.5)
        dx, dy = (1, 0) if horizontal else (0, 1)
        c0 = int(rng.integers(cols - dx * (length - 1)))
        r0 = int(rng.integers(rows - dy * (length - 1)))
        cells = [b.cell(c0 + k * dx, r0 + k * dy) for k in range(length)]
        if used & set(cells):
            return None
        return cells, horizontal

    for _ in range(int(rng.integers(0, 6))):
        got = strip(2 + int(rng.integers(2)))
        if got:
            used.update(got[0])
            kind = "berm-large" if len(got[0]) == 3 else "berm-small"
            terrain.append(Terrain(kind, tuple(got[0]), SIDES[int(rng.integers(2))]))
    for _ in range(int(rng.integers(0, 3))):
        c0, r0 = int(rng.integers(cols - 1)), int(rng.integers(rows - 1))
        cells = [b.cell(c0 + a, r0 + d) for d in (0, 1) for a in (0, 1)]
        if not used & set(cells):
            used.update(cells)
            terrain.append(Terrain("swamp", tuple(cells), SIDES[int(rng.integers(2))]))
    lanes: list[int] = []
    for _ in range(int(rng.integers(0, 4))):
        got = strip(3)
        if got:
            cells, horizontal = got
            used.update(cells)
            lane = cells[int(rng.integers(3))]
            lanes.append(lane)
            arrow = (Facing.N, Facing.S) if horizontal else (Facing.E, Facing.W)
            terrain.append(
                Terrain(
                    "minefield",
                    tuple(cells),
                    SIDES[int(rng.integers(2))],
                    lane=lane,
                    arrow=arrow[int(rng.integers(2))],
                )
            )
    forbidden = {c for t in terrain if t.kind in ("swamp", "minefield") for c in t.cells}
    allowed = [c for c in range(b.size) if c not in forbidden or c in lanes]
    taken: set[int] = set()
    units: list[Unit] = []
    orth = (Facing.N, Facing.E, Facing.S, Facing.W)
    for _ in range(int(rng.integers(1, 16))):
        x = rng.random()
        kind = "tank" if x < 0.65 else ("at" if x < 0.9 else "rm")
        wreck = kind == "tank" and rng.random() < 0.12
        # ATs may share a cell (never block anything); other units get a cell of their own
        pool = allowed if kind == "at" else [c for c in allowed if c not in taken]
        # bias toward lanes so lane entry and exit get exercised
        if lanes and rng.random() < 0.25:
            near = [
                c
                for c in pool
                if any(
                    abs(b.col_of(c) - b.col_of(ln)) + abs(b.row_of(c) - b.row_of(ln)) <= 1
                    for ln in lanes
                )
            ]
            pool = near or pool
        if not pool:
            continue
        cell = pool[int(rng.integers(len(pool)))]
        if kind != "at":
            taken.add(cell)
        side = SIDES[int(rng.integers(2))]
        damage = int(kind == "tank" and not wreck and rng.random() < 0.3)  # changes nothing here
        units.append(Unit(kind, side, cell, orth[int(rng.integers(4))], damage=damage, wreck=wreck))
    return Scenario(
        ruleset="final-act",
        board=b,
        options={
            "extra_forces": True,
            "wrecks": True,
            "reverse_turn": bool(rng.random() < 0.4),
            "lane_owner_only": bool(rng.random() < 0.4),
            "strict_line_of_fire": bool(rng.random() < 0.4),
        },
        terrain=tuple(terrain),
        units=tuple(units),
    )


def random_cones(seed: int) -> Scenario:
    """``random_final_act(seed)`` with random tank and AT cone options."""
    rng = np.random.default_rng(seed + 99)
    names = ("diamond-3", "diamond-2", "wide-4")
    return random_final_act(seed).with_options(
        tank_cone=names[int(rng.integers(3))], at_cone=names[int(rng.integers(3))]
    )


def random_final_act_melee(seed: int) -> Scenario:
    """Units packed into a 6 × 6 area with only the cell sharing docs/rules.md §1.3 allows (tank +
    own AT, two own ATs), damaged tanks and wrecks: for shelling rounds."""
    rng = np.random.default_rng(seed)
    base = random_final_act(seed)
    b = base.board
    mined = {c for t in base.terrain if t.kind in ("swamp", "minefield") for c in t.cells}
    lanes = {t.lane for t in base.terrain if t.kind == "minefield"}
    cells = [
        c
        for c in range(b.size)
        if (c not in mined or c in lanes) and 2 <= b.col_of(c) < 8 and 3 <= b.row_of(c) < 9
    ]
    rng.shuffle(cells)
    orth = (Facing.N, Facing.E, Facing.S, Facing.W)
    units: list[Unit] = []
    for _ in range(int(rng.integers(4, 14))):
        if not cells:
            break
        c = cells.pop()
        side = SIDES[int(rng.integers(2))]
        x = rng.random()

        def face() -> Facing:
            return orth[int(rng.integers(4))]

        if x < 0.45:
            units.append(Unit("tank", side, c, face(), damage=int(rng.random() < 0.3)))
        elif x < 0.6:
            units.append(Unit("tank", side, c, face(), damage=int(rng.random() < 0.3)))
            units.append(Unit("at", side, c, face()))
        elif x < 0.7:
            units += [Unit("at", side, c, face()), Unit("at", side, c, face())]
        elif x < 0.8:
            units.append(Unit("at", side, c, face()))
        elif x < 0.9:
            units.append(Unit("rm", side, c, face()))
        else:
            units.append(Unit("tank", side, c, face(), wreck=True))
    wrecks = bool(rng.random() < 0.7) or any(u.wreck for u in units)
    return base.with_units(units).with_options(wrecks=wrecks)


def final_act_mismatches(sc: Scenario) -> list[str]:
    """Every unit whose project orders / fire zone differ from the reference (as text)."""
    rs = get_ruleset("final-act")
    pos = RF.from_scenario(sc)
    b = sc.board
    out: list[str] = []
    for i, u in enumerate(sc.units):
        label = f"{u.side} {u.kind}{' wreck' if u.wreck else ''} {b.cell_name(u.cell)} {u.facing}"
        got_list = [] if u.wreck else rs.moves(sc, u)
        got = {(m.to_json(b)["to"], m.to_json(b)["facing"]) for m in got_list}
        want = {(b.cell_name(b.cell(*c)), RF.FACING_NAMES[f]) for c, f in RF.orders(pos, i)}
        if len(got_list) != len(got):
            out.append(f"{label}: duplicate moves")
        if got != want:
            out.append(f"{label}: moves missing {sorted(want - got)} extra {sorted(got - want)}")
        zone_list = [] if u.wreck else rs.fire_zone(sc, u)
        zone = {b.cell_name(c) for c in zone_list}
        want_zone = {b.cell_name(b.cell(*c)) for c in RF.fire_zone(pos, i)}
        if zone != want_zone or len(zone_list) != len(zone):
            missing_z, extra_z = sorted(want_zone - zone), sorted(zone - want_zone)
            out.append(f"{label}: fire zone missing {missing_z} extra {extra_z}")
    return out


def describe(sc: Scenario) -> dict[str, Any]:
    """The scenario as its file JSON (for failure messages)."""
    from tankmap.rules.fileformat import scenario_to_json

    data: dict[str, Any] = scenario_to_json(sc)
    return data


# --- set-up checks: legal maps with a few random edits ---------------------------------
def mutate_final_act(sc: Scenario, rng: np.random.Generator) -> Scenario:
    """Up to 3 random edits of a Final Act set-up (moves, copies, removals, facings,
    wrecks, names, bent pieces, lanes and arrows, options, sides)."""
    b = sc.board
    units = list(sc.units)
    terrain = list(sc.terrain)
    opts: dict[str, bool | str] = {}
    for _ in range(int(rng.integers(0, 4))):
        m = int(rng.integers(14))
        if m == 0 and units:
            i = int(rng.integers(len(units)))
            units[i] = dataclasses.replace(units[i], cell=int(rng.integers(b.size)))
        elif m == 1 and terrain:
            i = int(rng.integers(len(terrain)))
            t = terrain[i]
            dx, dy = int(rng.integers(-3, 4)), int(rng.integers(-3, 4))
            new = [b.offset(c, dx, dy) for c in t.cells]
            if -1 not in new:
                terrain[i] = t.moved(dict(zip(t.cells, new, strict=True)))
        elif m == 2 and units:
            units.pop(int(rng.integers(len(units))))
        elif m == 3 and terrain:
            terrain.pop(int(rng.integers(len(terrain))))
        elif m == 4 and units:
            u = units[int(rng.integers(len(units)))]
            units.append(dataclasses.replace(u, cell=int(rng.integers(b.size))))
        elif m == 5 and terrain:
            t = terrain[int(rng.integers(len(terrain)))]
            dx, dy = int(rng.integers(-4, 5)), int(rng.integers(-4, 5))
            new = [b.offset(c, dx, dy) for c in t.cells]
            if -1 not in new:
                terrain.append(t.moved(dict(zip(t.cells, new, strict=True))))
        elif m == 6 and units:
            i = int(rng.integers(len(units)))
            units[i] = dataclasses.replace(units[i], facing=Facing(int(rng.integers(8))))
        elif m == 7 and units:
            i = int(rng.integers(len(units)))
            units[i] = dataclasses.replace(units[i], wreck=True)
        elif m == 8 and units:
            i = int(rng.integers(len(units)))
            if units[i].kind == "tank":
                units[i] = dataclasses.replace(units[i], name=TANK_NAMES[int(rng.integers(7))])
        elif m == 9 and terrain:
            i = int(rng.integers(len(terrain)))
            t = terrain[i]
            last = t.cells[-1]
            nb = b.offset(last, int(rng.integers(-1, 2)), int(rng.integers(-1, 2)))
            if nb >= 0 and nb not in t.cells and t.kind != "minefield":
                terrain[i] = dataclasses.replace(t, cells=t.cells[:-1] + (nb,))
        elif m == 10:
            mf = [i for i, t in enumerate(terrain) if t.kind == "minefield"]
            if mf:
                i = mf[int(rng.integers(len(mf)))]
                t = terrain[i]
                if rng.random() < 0.5:
                    terrain[i] = dataclasses.replace(t, arrow=Facing(int(rng.integers(8))))
                else:
                    terrain[i] = dataclasses.replace(
                        t, lane=t.cells[int(rng.integers(len(t.cells)))]
                    )
        elif m == 11:
            opts["extra_forces"] = bool(rng.random() < 0.5)
        elif m == 12:
            k = ["large_berm_orientation", "small_berm_orientation", "minefield_orientation"][
                int(rng.integers(3))
            ]
            opts[k] = ["any", "across", "along"][int(rng.integers(3))]
        elif m == 13 and units:
            i = int(rng.integers(len(units)))
            units[i] = dataclasses.replace(units[i], side=units[i].side.other)
    return sc.with_units(units).with_terrain(terrain).with_options(**opts)


def mutate_tank_chess(sc: Scenario, rng: np.random.Generator) -> Scenario:
    """Up to 3 random edits of a Tank Chess set-up (moves, copies, removals, kinds,
    single obstacles, sides)."""
    b = sc.board
    units = list(sc.units)
    terrain = list(sc.terrain)
    for _ in range(int(rng.integers(0, 4))):
        m = int(rng.integers(7))
        if m == 0 and units:
            i = int(rng.integers(len(units)))
            units[i] = dataclasses.replace(units[i], cell=int(rng.integers(b.size)))
        elif m == 1 and units:
            units.pop(int(rng.integers(len(units))))
        elif m == 2 and units:
            u = units[int(rng.integers(len(units)))]
            units.append(dataclasses.replace(u, cell=int(rng.integers(b.size))))
        elif m == 3 and units:
            i = int(rng.integers(len(units)))
            units[i] = dataclasses.replace(
                units[i], kind=TC_KINDS[int(rng.integers(len(TC_KINDS)))]
            )
        elif m == 4:
            terrain.append(Terrain("obstacle", (int(rng.integers(b.size)),), shape="monomino"))
        elif m == 5 and terrain:
            terrain.pop(int(rng.integers(len(terrain))))
        elif m == 6 and units:
            i = int(rng.integers(len(units)))
            units[i] = dataclasses.replace(units[i], side=units[i].side.other)
    return sc.with_units(units).with_terrain(terrain)
