"""Final Act move conflicts (docs/rules.md §1.5, and the readings of §1.8a): which movers
stay, and which ATs a tank runs over while passing. Used by ``engine.Game``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tankmap.rules.final_act.engine_readings import Readings

if TYPE_CHECKING:
    from tankmap.rules.final_act.engine import State

OBSTACLES = ("tank", "rm")  # units that block like a tank (docs/rules.md §1.5)

GroupCheck = Callable[["State", list[int], list[int]], bool]


def no_swap(a: str, b: str) -> bool:
    """May units of kinds ``a`` and ``b`` not trade cells? Two tanks or a tank and an R/M."""
    return a in OBSTACLES and b in OBSTACLES and "tank" in (a, b)


def resolve(
    state: State,
    dest: list[int],
    movers: list[int],
    bounced: list[int],
    readings: Readings,
    group_ok: GroupCheck,
) -> None:
    """Bounce movers (``dest`` back to their cell, appended to ``bounced``; ``movers``
    keeps the others) until every cell holds an allowed group (``group_ok(state, members,
    entering)``; the ``engine`` module docstring, step 1)."""
    if not movers:
        return
    cell, alive, kind, side = state.cell, state.alive, state.kind, state.side
    moving = set(movers)
    live = [u for u in range(len(cell)) if alive[u]]
    while True:
        bounce: set[int] = set()
        origin: dict[int, list[int]] = {}
        for u in movers:
            origin.setdefault(cell[u], []).append(u)
        for u in movers:
            for v in origin.get(dest[u], ()):
                # docs/rules.md §1.5: two tanks, or a tank and the R/M, may not swap
                # (both stay; v is found from its side too); units that may share a
                # cell may swap (the groups below judge where they end); §1.8a
                # tank_at_pass "bounce": nor may a tank and an enemy AT
                if dest[v] == cell[u] and (
                    no_swap(kind[u], kind[v])
                    or (
                        readings.tank_at_pass == "bounce"
                        and {kind[u], kind[v]} == {"tank", "at"}
                        and side[u] != side[v]
                    )
                ):
                    bounce.add(u)
        if not readings.tank_rotation:  # §1.8a: no cycles of three or more tanks
            heavy = [u for u in movers if kind[u] in OBSTACLES]
            for loop in cycles(cell, dest, heavy):
                if any(kind[u] == "tank" for u in loop):
                    bounce.update(loop)
        groups: dict[int, list[int]] = {}
        crowded = False
        for u in live:
            d = dest[u]
            if d in groups:
                groups[d].append(u)
                crowded = True
            else:
                groups[d] = [u]
        if crowded:
            for members in groups.values():
                if len(members) < 2:
                    continue
                entering = [u for u in members if u in moving]
                if entering and not group_ok(state, members, entering):
                    bounce.update(entering)
        if not bounce:
            return
        for u in bounce:
            moving.discard(u)
            dest[u] = cell[u]
            bounced.append(u)
        movers[:] = [u for u in movers if u in moving]


def passing(
    state: State, dest: list[int], movers: list[int], readings: Readings
) -> list[tuple[int, int]]:
    """``(tank, AT)`` enemy pairs that trade cells and are both still moving, under
    ``tank_at_pass = "run-over"`` (docs/rules.md §1.8a); empty otherwise."""
    if readings.tank_at_pass != "run-over":
        return []
    kind, side, cell = state.kind, state.side, state.cell
    out = []
    for u in movers:
        if kind[u] != "tank":
            continue
        for v in movers:
            if kind[v] == "at" and side[v] != side[u] and dest[v] == cell[u] and dest[u] == cell[v]:
                out.append((u, v))
    return out


def cycles(cell: list[int], dest: list[int], movers: list[int]) -> list[list[int]]:
    """Cycles of three or more movers, each ordered into the cell the next one leaves
    (``dest[a] == cell[b]``, ``dest[b] == cell[c]``, …, back to ``a``)."""
    leaving = {cell[u]: u for u in movers}
    seen: set[int] = set()
    out = []
    for start in movers:
        if start in seen:
            continue
        path: list[int] = []
        on_path: dict[int, int] = {}
        u: int | None = start
        while u is not None and u not in seen and u not in on_path:
            on_path[u] = len(path)
            path.append(u)
            u = leaving.get(dest[u])
        if u is not None and u in on_path:
            loop = path[on_path[u] :]
            if len(loop) >= 3:
                out.append(loop)
        seen.update(path)
    return out
