"""Property tests: fire zones against an independent line-of-fire oracle, and ``check`` /
``moves`` / ``fire_zone`` / ``can_place`` never crashing on arbitrary (even illegal) scenarios.

The oracle follows docs/rules.md §1.6 with its own geometry: the infinite line through the two cell
centres crosses the *open* interior of a square exactly when two of the square's corners lie
strictly on opposite sides of it (``strict``: when the corners are not all strictly on one
side, i.e. the closed square is touched). For a cell inside the shooter-target bounding box,
other than the two end cells, any such crossing lies between the two centres.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit

B = Board.of(12, 12)
RS = get_ruleset("final-act")
ORTHO = [Facing.N, Facing.E, Facing.S, Facing.W]


def blocked(dx: int, dy: int, cx: int, cy: int, strict: bool) -> bool:
    """Does the segment (0,0)->(dx,dy) cross cell (cx,cy)'s open square (closed if strict)?"""
    signs = []  # corners (cx +- 1/2, cy +- 1/2), all coordinates doubled to stay integral
    for x in (2 * cx - 1, 2 * cx + 1):
        for y in (2 * cy - 1, 2 * cy + 1):
            signs.append(dx * y - dy * x)  # cross product: side of the line
    if strict:
        return not (all(s > 0 for s in signs) or all(s < 0 for s in signs))
    return any(s > 0 for s in signs) and any(s < 0 for s in signs)


def oracle_zone(
    cell: int, facing: Facing, blockers: set[int], strict: bool, elevated: bool
) -> set[int]:
    """Tank fire zone by the rule text: cone |s| + |f-3| <= 3, f >= 1 (+ (0, 7) elevated)."""
    col, row = B.col_of(cell), B.row_of(cell)
    right = facing.turned(2)
    cone = [(f, s) for f in range(1, 7) for s in range(-3, 4) if abs(s) + abs(f - 3) <= 3]
    if elevated:
        cone.append((7, 0))
    zone = set()
    for f, s in cone:
        dx = facing.dx * f + right.dx * s
        dy = facing.dy * f + right.dy * s
        if not B.on_board(col + dx, row + dy):
            continue
        target = B.cell(col + dx, row + dy)
        hidden = False
        if not elevated:
            for cx in range(min(0, dx), max(0, dx) + 1):
                for cy in range(min(0, dy), max(0, dy) + 1):
                    if (cx, cy) in ((0, 0), (dx, dy)):
                        continue
                    if B.cell(col + cx, row + cy) in blockers and blocked(dx, dy, cx, cy, strict):
                        hidden = True
        if not hidden:
            zone.add(target)
    return zone


@settings(max_examples=400, deadline=None)
@given(
    shooter=st.integers(0, 143),
    facing=st.sampled_from(ORTHO),
    others=st.lists(st.integers(0, 143), max_size=12),
    berm=st.lists(st.integers(0, 143), max_size=4),
    strict=st.booleans(),
)
def test_fire_zone_matches_the_oracle(
    shooter: int, facing: Facing, others: list[int], berm: list[int], strict: bool
) -> None:
    units = [Unit("tank", Side.SOUTH, shooter, facing, "C")]
    units += [Unit("tank", Side.NORTH, c, Facing.S, "1") for c in others if c != shooter]
    berm_cells = tuple(sorted(set(berm) - {shooter}))
    terrain = (Terrain("berm-small", berm_cells, Side.SOUTH),) if berm_cells else ()
    sc = Scenario("final-act", B, {"strict_line_of_fire": strict}, terrain, tuple(units))
    blockers = (set(others) | set(berm_cells)) - {shooter}
    got = set(RS.fire_zone(sc, units[0]))
    assert got == oracle_zone(shooter, facing, blockers, strict, elevated=False)
    # the same tank standing on a berm: the whole cone plus (0, 7), no line-of-fire limits
    on_berm = (Terrain("berm-small", (shooter,), Side.SOUTH), *terrain)
    sc2 = Scenario("final-act", B, {"strict_line_of_fire": strict}, on_berm, tuple(units))
    assert set(RS.fire_zone(sc2, units[0])) == oracle_zone(shooter, facing, set(), strict, True)


KINDS_T = ["berm-large", "berm-small", "swamp", "minefield"]
KINDS_U = ["tank", "at", "rm"]
NAMES = [None, "C", "1", "1A", "1B", "2", "2A", "2B", "X"]


@st.composite
def scenarios(draw: Any) -> Scenario:
    terrain = []
    for _ in range(draw(st.integers(0, 8))):
        cells = tuple(draw(st.lists(st.integers(0, 143), min_size=1, max_size=5, unique=True)))
        terrain.append(
            Terrain(
                draw(st.sampled_from(KINDS_T)),
                cells,
                draw(st.sampled_from([Side.SOUTH, Side.NORTH, None])),
                draw(st.one_of(st.none(), st.integers(0, 143))),
                draw(st.one_of(st.none(), st.sampled_from(list(Facing)))),
            )
        )
    units = []
    for _ in range(draw(st.integers(0, 12))):
        units.append(
            Unit(
                draw(st.sampled_from(KINDS_U)),
                draw(st.sampled_from(list(Side))),
                draw(st.integers(0, 143)),
                draw(st.one_of(st.none(), st.sampled_from(list(Facing)))),
                draw(st.sampled_from(NAMES)),
                damage=draw(st.integers(0, 3)),
                wreck=draw(st.booleans()),
            )
        )
    options = {
        "extra_forces": draw(st.booleans()),
        "reverse_turn": draw(st.booleans()),
        "lane_owner_only": draw(st.booleans()),
        "strict_line_of_fire": draw(st.booleans()),
        "wrecks": draw(st.booleans()),
    }
    return Scenario("final-act", B, options, tuple(terrain), tuple(units))


@settings(max_examples=120, deadline=None)
@given(sc=scenarios())
def test_arbitrary_scenarios_never_crash(sc: Scenario) -> None:
    violations = RS.check(sc)
    for v in violations:
        assert v.code and v.message and all(0 <= c < B.size for c in v.cells)
        v.to_json(B)
    for u in sc.units:
        moves = RS.moves(sc, u)
        assert len({(m.to, m.facing) for m in moves}) == len(moves)
        for m in moves:
            assert m.to is not None and 0 <= m.to < B.size
            facing = u.facing if u.facing is not None else u.side.forward
            assert (m.to, m.facing) != (u.cell, facing)
        zone = RS.fire_zone(sc, u)
        assert zone == sorted(set(zone)) and all(0 <= c < B.size for c in zone)
        if u.wreck:
            assert moves == [] and zone == []
    if sc.units:
        last = sc.units[-1]
        placement = RS.can_place(sc.removing(last), last)
        assert placement.ok == (not placement.reasons)
