"""Reference Final Act set-up check (rules §1.1-1.3, cli-json.md ``check``), from the text only.

``check(scenario)`` returns ``(error_cells, has_error, incomplete)``: the union of the cells
that error violations must name (docs/cli-json.md: only a piece's cells outside its zone; all cells
of a malformed piece; all that side's pieces of a kind (or name) when there are too many;
the shared cells of an overlap or a forbidden sharing; the unit's cell for a wreck, a
diagonal facing or a unit on a swamp or minefield), whether any error exists, and whether
any piece is still missing. Only the base game and Extra Forces; 1 × 3 / 1 × 2 berms,
2 × 2 swamps, 1 × 3 minefields (the defaults), with the orientation options.
"""

from __future__ import annotations

from collections import Counter

from tankmap.rules.scenario import Scenario

TANK_NAMES = ("C", "1", "1A", "1B", "2", "2A", "2B")
TERRAIN_COUNT = {"berm-large": 1, "berm-small": 2, "swamp": 1, "minefield": 1}
TERRAIN_ROWS = {"berm-large": 3, "berm-small": 3, "swamp": 6, "minefield": 6}
LENGTH = {"berm-large": 3, "berm-small": 2, "minefield": 3}
ORIENTATION_OPTION = {
    "berm-large": "large_berm_orientation",
    "berm-small": "small_berm_orientation",
    "minefield": "minefield_orientation",
}


def check(sc: Scenario) -> tuple[set[int], bool, bool]:
    b = sc.board
    extra = bool(sc.options.get("extra_forces", False))
    cells: set[int] = set()
    error = False
    incomplete = False

    def own_row(cell: int, side_index: int) -> int:
        row = b.row_of(cell)
        return row + 1 if side_index == 0 else b.rows - row

    def fail(where: set[int] | list[int] | tuple[int, ...]) -> None:
        nonlocal error
        error = True
        cells.update(where)

    for side in (0, 1):
        units = [u for u in sc.units if u.side.index == side]
        wanted = {"tank": 7, "at": 2 if extra else 0, "rm": 1 if extra else 0}
        for kind, count in wanted.items():
            mine = [u for u in units if u.kind == kind]
            if len(mine) > count:
                fail([u.cell for u in mine])
            elif len(mine) < count:
                incomplete = True
        names = Counter(u.name for u in units if u.kind == "tank")
        for name, k in names.items():
            if k > 1:
                fail([u.cell for u in units if u.kind == "tank" and u.name == name])
        for u in units:
            if own_row(u.cell, side) > 3:
                fail([u.cell])
        pieces = [t for t in sc.terrain if t.side is not None and t.side.index == side]
        for kind, count in TERRAIN_COUNT.items():
            mine_t = [t for t in pieces if t.kind == kind]
            if len(mine_t) > count:
                fail([c for t in mine_t for c in t.cells])
            elif len(mine_t) < count:
                incomplete = True
        for t in pieces:
            outside = [c for c in t.cells if own_row(c, side) > TERRAIN_ROWS[t.kind]]
            if outside:
                fail(outside)
            if not well_formed(sc, t):
                fail(t.cells)
    # terrain never overlaps
    use = Counter(c for t in sc.terrain for c in t.cells)
    fail_cells = {c for c, k in use.items() if k > 1}
    if fail_cells:
        fail(fail_cells)
    blocked = {c for t in sc.terrain if t.kind in ("swamp", "minefield") for c in t.cells}
    for u in sc.units:
        if u.cell in blocked or u.wreck or (u.facing is not None and not u.facing.is_orthogonal):
            fail([u.cell])
    groups: dict[int, list[tuple[int, str]]] = {}
    for u in sc.units:
        groups.setdefault(u.cell, []).append((u.side.index, u.kind))
    for cell, group in groups.items():
        if len(group) > 1:
            kinds = sorted(k for _, k in group)
            same_side = len({s for s, _ in group}) == 1
            if not same_side or kinds not in (["at", "tank"], ["at", "at"], ["at", "rm"]):
                fail([cell])
    return cells, error, incomplete


def well_formed(sc: Scenario, t: object) -> bool:
    """Shape, orientation, lane and arrow of one terrain piece."""
    from tankmap.rules.scenario import Terrain

    assert isinstance(t, Terrain)
    b = sc.board
    cols = sorted({b.col_of(c) for c in t.cells})
    rows = sorted({b.row_of(c) for c in t.cells})
    if len(set(t.cells)) != len(t.cells):
        return False
    if t.kind == "swamp":
        return len(t.cells) == 4 and len(cols) == 2 and len(rows) == 2 and _runs(cols, rows)
    n = LENGTH[t.kind]
    if len(t.cells) != n:
        return False
    horizontal = len(rows) == 1 and len(cols) == n and cols[-1] - cols[0] == n - 1
    vertical = len(cols) == 1 and len(rows) == n and rows[-1] - rows[0] == n - 1
    if not (horizontal or vertical):
        return False
    orientation = sc.options.get(ORIENTATION_OPTION[t.kind], "any")
    if orientation == "across" and not horizontal:
        return False
    if orientation == "along" and not vertical:
        return False
    if t.kind == "minefield":
        if t.lane is None or t.lane not in t.cells or t.arrow is None:
            return False
        if not t.arrow.is_orthogonal:
            return False
        # the arrow must cross the strip: N/S for a horizontal strip, E/W for a vertical one
        return (t.arrow.dx == 0) == horizontal
    return True


def _runs(cols: list[int], rows: list[int]) -> bool:
    return cols[1] - cols[0] == 1 and rows[1] - rows[0] == 1
