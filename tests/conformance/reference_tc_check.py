"""Reference Tank Chess set-up check, errors only (docs/rules.md §2.2 custom scheme checks).

``check(scenario)`` on a 16 × 16 or 20 × 20 board returns ``(error_cells, has_error,
incomplete)``: more pieces of a kind than the army (16 × 16: 1 CLT, 4 LT, 3 MT, 2 HT; 20 × 20
also 2 TD, 2 HM) is an error
naming all that side's pieces of the kind, fewer is incomplete; two pieces on one cell and a
piece on an obstacle are errors on that cell; an obstacle on one of the printed start cells
is an error on that cell, and so is a cell under two obstacle pieces. Everything else in
§2.2 is a warning and not compared here.
"""

from __future__ import annotations

from collections import Counter

from tankmap.rules.scenario import Scenario

ARMY_16 = {"command": 1, "light": 4, "medium": 3, "heavy": 2, "destroyer": 0, "mortar": 0}
# docs/rules.md §2.2: "20 × 20: the same plus 2 TD and 2 HM"
ARMY_20 = {**ARMY_16, "destroyer": 2, "mortar": 2}
# docs/rules.md §2.2 basic 16 × 16 setup: the pieces' cells
START_16 = ("c1 f1 h1 j1 m1 c3 f3 h3 j3 m3 d16 g16 i16 k16 n16 d14 g14 i14 k14 n14").split()


def check(sc: Scenario) -> tuple[set[int], bool, bool]:
    b = sc.board
    assert (b.columns, b.rows) in ((16, 16), (20, 20))
    army = ARMY_16 if b.columns == 16 else ARMY_20
    cells: set[int] = set()
    error = False
    incomplete = False
    for side in (0, 1):
        units = [u for u in sc.units if u.side.index == side]
        for kind, count in army.items():
            mine = [u.cell for u in units if u.kind == kind]
            if len(mine) > count:
                error = True
                cells.update(mine)
            elif len(mine) < count:
                incomplete = True
    obstacles = {c for t in sc.terrain for c in t.cells}
    per_cell = Counter(u.cell for u in sc.units)
    for c, k in per_cell.items():
        if k > 1 or c in obstacles:
            error = True
            cells.add(c)
    # two physical obstacle pieces cannot lie on one cell (docs/rules.md is silent; as on the table)
    use = Counter(c for t in sc.terrain for c in t.cells)
    for c, k in use.items():
        if k > 1:
            error = True
            cells.add(c)
    # the printed start cells exist only for 16 x 16 (the 20 x 20 layout is not known)
    start = {b.parse_cell(n) for n in START_16} if b.columns == 16 else set()
    if obstacles & start:
        error = True
        cells.update(obstacles & start)
    return cells, error, incomplete
