"""Candidate edits for the design assistant (``analysis.suggest``): every legal
single-piece terrain edit of a board — shift a piece by up to two cells, turn a straight
piece, move a minefield's lane; Tank Chess also removes an obstacle piece — and, on request,
every legal one-cell move of a unit's set-up position, each kept only when the ruleset
accepts it (``can_place`` on the board without the piece, and the edited board legal and
complete), optionally mirrored onto the other side's matching piece; with each edit its
terrain-only turns to goal per side (``race``), which the search steers by.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from tankmap.analysis.live import LOCK
from tankmap.analysis.reach import side_reach, turn_search_reach
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit
from tankmap.rules.sides import side_name
from tankmap.rules.violations import Severity

SHIFTS = [(dx, dy) for dx in range(-2, 3) for dy in range(-2, 3) if (dx, dy) != (0, 0)]


@dataclass(frozen=True)
class Edit:
    """One candidate: the edited board and the edit in words."""

    words: tuple[str, ...]
    scenario: Scenario
    race: tuple[int | None, int | None] = (None, None)  # turns to goal south, north
    rank: int = 0  # among the edits of its piece, in generation order


def race(scenario: Scenario) -> tuple[int | None, int | None]:
    """Terrain-only turns to goal of each side (``None``: cannot win by moving). The
    movement-table path holds ``analysis.live.LOCK`` (its caches are shared with the
    editor's overlays, which may run on another thread)."""
    if scenario.ruleset == "tank-chess":  # the rules' bitboard search: milliseconds
        both = turn_search_reach(scenario)
        return both[Side.SOUTH].turns_to_goal, both[Side.NORTH].turns_to_goal
    with LOCK:
        return (
            side_reach(scenario, Side.SOUTH).turns_to_goal,
            side_reach(scenario, Side.NORTH).turns_to_goal,
        )


def candidate_edits(
    scenario: Scenario, keep_symmetry: bool = False, units: bool = False
) -> Iterator[Edit]:
    """Every legal single-piece terrain edit (mirrored onto the other side's matching piece
    with ``keep_symmetry``), each with its race figures; with ``units`` also every legal
    one-cell move of a unit's set-up position (``unit_edits``)."""
    rs = get_ruleset(scenario.ruleset)
    if units:
        yield from unit_edits(scenario, keep_symmetry)
    seen: set[tuple[Terrain, ...]] = set()
    for k, piece in enumerate(scenario.terrain):
        rank = 0
        for new, words in _variants(scenario, piece):
            edited = _replace_piece(scenario, k, new)
            if edited is None:
                continue
            all_words = [words]
            if keep_symmetry:
                mirrored = _mirror_edit(scenario, edited, piece, new)
                if mirrored is None:
                    continue
                edited, more = mirrored
                all_words.append(more)
            key = tuple(sorted(edited.terrain, key=repr))
            if key in seen or not _legal_complete(rs, edited):
                continue
            seen.add(key)
            yield Edit(tuple(all_words), edited, race(edited), rank)
            rank += 1
    if scenario.ruleset == "tank-chess" and not keep_symmetry:
        for k, piece in enumerate(scenario.terrain):
            edited = scenario.with_terrain(t for i, t in enumerate(scenario.terrain) if i != k)
            if _legal_complete(rs, edited):
                yield Edit(
                    (f"remove the obstacle {_cells(scenario, piece)}",), edited, race(edited), 1
                )


def unit_edits(scenario: Scenario, keep_symmetry: bool = False) -> Iterator[Edit]:
    """Every legal move of one unit's set-up position to a neighbouring cell (facing kept;
    the unit keeps its place in the unit list, which the games' order depends on): the
    unit must pass ``can_place`` on the board without it and the board must stay legal and
    complete. With ``keep_symmetry`` the other side's unit of the same kind on the mirror
    cell makes the mirror move (edits whose unit has no such twin are left out)."""
    rs = get_ruleset(scenario.ruleset)
    b = scenario.board
    for k, unit in enumerate(scenario.units):
        rank = 0
        for dx, dy in SHIFTS:
            if max(abs(dx), abs(dy)) != 1:
                continue
            col, row = b.col_of(unit.cell) + dx, b.row_of(unit.cell) + dy
            if not (0 <= col < b.columns and 0 <= row < b.rows):
                continue
            moved = replace(unit, cell=b.cell(col, row))
            edited = _replace_unit(scenario, k, moved)
            if edited is None:
                continue
            here, there = b.cell_name(unit.cell), b.cell_name(moved.cell)
            words = [f"move {_unit_name(scenario, unit)} from {here} to {there}"]
            if keep_symmetry:
                twin = next(
                    (
                        i
                        for i, u in enumerate(scenario.units)
                        if u.side is not unit.side
                        and u.kind == unit.kind
                        and u.cell == b.mirror(unit.cell)
                    ),
                    None,
                )
                if twin is None:
                    continue
                other = scenario.units[twin]
                mirrored = _replace_unit(edited, twin, replace(other, cell=b.mirror(moved.cell)))
                if mirrored is None:
                    continue
                edited = mirrored
                words.append(
                    f"and mirror it: {_unit_name(scenario, other)} to "
                    f"{b.cell_name(b.mirror(moved.cell))}"
                )
            if not _legal_complete(rs, edited):
                continue
            yield Edit(tuple(words), edited, race(edited), rank)
            rank += 1


def _replace_unit(scenario: Scenario, k: int, new: Unit) -> Scenario | None:
    rs = get_ruleset(scenario.ruleset)
    without = scenario.with_units(u for i, u in enumerate(scenario.units) if i != k)
    if not rs.can_place(without, new).ok:
        return None
    units = list(scenario.units)
    units[k] = new
    return scenario.with_units(units)


def _unit_name(scenario: Scenario, unit: Unit) -> str:
    return f"the {side_name(scenario.ruleset, unit.side)} {unit.label}"


def _variants(scenario: Scenario, piece: Terrain) -> Iterator[tuple[Terrain, str]]:
    b = scenario.board
    name = _piece_name(scenario, piece)
    for dx, dy in SHIFTS:
        cells = []
        for c in piece.cells:
            col, row = b.col_of(c) + dx, b.row_of(c) + dy
            if not (0 <= col < b.columns and 0 <= row < b.rows):
                break
            cells.append(b.cell(col, row))
        else:
            lane = None
            if piece.lane is not None:
                lane = b.cell(b.col_of(piece.lane) + dx, b.row_of(piece.lane) + dy)
            new = replace(piece, cells=tuple(cells), lane=lane)
            yield new, f"move {name} {_cells(scenario, piece)} to {_cells(scenario, new)}"
    if len(piece.cells) >= 2 and piece.kind != "swamp":
        turned = _turned(scenario, piece)
        if turned is not None:
            yield turned, f"turn {name} {_cells(scenario, piece)} to {_cells(scenario, turned)}"
    if piece.lane is not None:
        for c in piece.cells:
            if c != piece.lane:
                new = replace(piece, lane=c)
                yield new, (f"put the lane of {name} {_cells(scenario, piece)} on {b.cell_name(c)}")


def _turned(scenario: Scenario, piece: Terrain) -> Terrain | None:
    """A straight piece turned a quarter around its middle cell (lane kept in place when it
    is the middle; the arrow turned with it)."""
    b = scenario.board
    mid = piece.cells[len(piece.cells) // 2]
    mc, mr = b.col_of(mid), b.row_of(mid)
    cells = []
    for c in piece.cells:
        dc, dr = b.col_of(c) - mc, b.row_of(c) - mr
        col, row = mc - dr, mr + dc
        if not (0 <= col < b.columns and 0 <= row < b.rows):
            return None
        cells.append(b.cell(col, row))
    lane = piece.lane
    if lane is not None:
        dc, dr = b.col_of(lane) - mc, b.row_of(lane) - mr
        lane = b.cell(mc - dr, mr + dc)
    arrow = piece.arrow
    if arrow is not None:
        arrow = Facing((int(arrow) + 6) % 8)  # a quarter turn counter-clockwise
    return replace(piece, cells=tuple(cells), lane=lane, arrow=arrow)


def _replace_piece(scenario: Scenario, k: int, new: Terrain) -> Scenario | None:
    rs = get_ruleset(scenario.ruleset)
    without = scenario.with_terrain(t for i, t in enumerate(scenario.terrain) if i != k)
    if not rs.can_place(without, new).ok:
        return None
    terrain = list(scenario.terrain)
    terrain[k] = new
    return scenario.with_terrain(terrain)


def _mirror_edit(
    scenario: Scenario, edited: Scenario, old: Terrain, new: Terrain
) -> tuple[Scenario, str] | None:
    """Apply the 180° mirror of ``old -> new`` to the piece that mirrors ``old``."""
    b = scenario.board
    mirror_cells = tuple(sorted(b.mirror(c) for c in old.cells))
    twin = next(
        (
            i
            for i, t in enumerate(edited.terrain)
            if t.kind == old.kind and t is not new and tuple(sorted(t.cells)) == mirror_cells
        ),
        None,
    )
    if twin is None:
        return None
    target = edited.terrain[twin]
    arrow = None if new.arrow is None else Facing((int(new.arrow) + 4) % 8)
    moved = replace(
        target,
        cells=tuple(b.mirror(c) for c in new.cells),
        lane=None if new.lane is None else b.mirror(new.lane),
        arrow=arrow if target.arrow is not None else None,
    )
    done = _replace_piece(edited, twin, moved)
    if done is None:
        return None
    words = f"and mirror it: {_piece_name(scenario, target)} to {_cells(scenario, moved)}"
    return done, words


def _legal_complete(rs: Any, scenario: Scenario) -> bool:
    return (
        not any(v.severity in (Severity.ERROR, Severity.INCOMPLETE) for v in rs.check(scenario))
        and rs.finished(scenario) is None
    )


def _piece_name(scenario: Scenario, piece: Terrain) -> str:
    kind = piece.kind.replace("-", " ")
    if kind.startswith("berm "):
        kind = f"{kind.split()[1]} berm"
    side = "" if piece.side is None else f"{side_name(scenario.ruleset, piece.side)} "
    return f"the {side}{kind}"


def _cells(scenario: Scenario, piece: Terrain) -> str:
    names = [scenario.board.cell_name(c) for c in piece.cells]
    if len(names) > 3:
        return " ".join(names)
    return "–".join(names)
