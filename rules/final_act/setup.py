"""Final Act setup legality (docs/rules.md §1.2–1.3): ``check_setup(scenario) -> list[Violation]``.

Codes (stable): ``missing-side``, ``bad-shape``, ``bad-lane``, ``bad-arrow``,
``<family>-outside-zone`` (``berm-``, ``swamp-``, ``minefield-``), ``overlap``, ``too-many``,
``missing`` (incomplete), ``extra-forces-off``, ``bad-name``, ``duplicate-name``,
``diagonal-facing``, ``unit-outside-zone``, ``unit-on-swamp``, ``unit-on-minefield``,
``wreck-at-setup``, ``bad-damage``, ``cell-shared``; warning ``option-not-modelled`` for an
advanced-rule option that is on although nothing implements it yet (data: ``"modelled":
false`` in the ruleset file).

``cells`` follow docs/cli-json.md: only the cells outside the zone; every cell of a malformed
piece; every cell of that side's pieces of that kind for ``too-many`` (of that name for
``duplicate-name``); the shared cells for ``overlap`` and ``cell-shared``; none for
``missing``. Violations come out in a stable order (terrain, then units, sides south first).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from functools import lru_cache

from tankmap.rules.board import Board
from tankmap.rules.errors import short
from tankmap.rules.final_act.data import DATA, TerrainKind, shape_variants
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import OptionValue, Scenario, Terrain, Unit
from tankmap.rules.sides import rows_text
from tankmap.rules.violations import Severity, Violation

ERROR, INCOMPLETE = Severity.ERROR, Severity.INCOMPLETE


def span(board: Board, cells: Sequence[int]) -> str:
    """``"c4-e4"`` for a piece (first and last cell in board order), ``"f1"`` for one cell."""
    ordered = sorted(cells)
    if len(ordered) == 1:
        return board.cell_name(ordered[0])
    return f"{board.cell_name(ordered[0])}-{board.cell_name(ordered[-1])}"


def _names(board: Board, cells: Sequence[int]) -> str:
    return " ".join(board.cell_name(c) for c in sorted(cells))


def _plural(label: str) -> str:
    return label if label.endswith("s") else label + "s"


def check_setup(scenario: Scenario, options: dict[str, OptionValue]) -> list[Violation]:
    """Every Final Act setup rule ``scenario`` breaks (error) or misses (incomplete)."""
    out: list[Violation] = []
    _check_terrain(scenario, options, out)
    _check_units(scenario, options, out)
    for name in DATA.unmodelled:
        if options.get(name):
            out.append(
                Violation(
                    "option-not-modelled",
                    Severity.WARNING,
                    f"option {name} is on, but tankmap does not model it yet:"
                    " moves, fire zones and simulations ignore it",
                )
            )
    return out


# --- terrain ------------------------------------------------------------------------------
def _piece_name(board: Board, tk: TerrainKind, piece: Terrain) -> str:
    return f"{tk.label} {span(board, piece.cells)}"


def _check_terrain(
    scenario: Scenario, options: dict[str, OptionValue], out: list[Violation]
) -> None:
    board = scenario.board
    by_side_kind: dict[tuple[Side, str], list[Terrain]] = defaultdict(list)
    seen = 0
    overlapping = False
    for piece in scenario.terrain:
        tk = DATA.terrain.get(piece.kind)
        if tk is None:  # the reader rejects unknown kinds; a hand-built scenario may not
            out.append(
                Violation(
                    "bad-kind", ERROR, f"unknown terrain kind {short(piece.kind)}", piece.cells
                )
            )
            continue
        if piece.side is not None:
            by_side_kind[(piece.side, piece.kind)].append(piece)
        shape = str(options[tk.shape_option]) if tk.shape_option else tk.shape
        orientation = str(options[tk.orientation_option]) if tk.orientation_option else "any"
        out.extend(_piece_violations(board, piece, shape, orientation))
        bits = 0
        for c in piece.cells:
            bits |= 1 << c
        if seen & bits:
            overlapping = True
        seen |= bits
    # overlaps between pieces
    pieces = scenario.terrain if overlapping else ()
    for i, a in enumerate(pieces):
        cells_a = set(a.cells)
        for b in pieces[i + 1 :]:
            shared = cells_a.intersection(b.cells)
            if shared:
                ta, tb = DATA.terrain.get(a.kind), DATA.terrain.get(b.kind)
                la = _piece_name(board, ta, a) if ta else a.kind
                lb = _piece_name(board, tb, b) if tb else b.kind
                out.append(
                    Violation(
                        "overlap",
                        ERROR,
                        f"{la} and {lb} overlap at {_names(board, list(shared))}:"
                        " terrain pieces never overlap",
                        tuple(sorted(shared)),
                        a.side if a.side is b.side else None,
                    )
                )
    # counts
    for side in Side:
        for kind, tk in DATA.terrain.items():
            have = by_side_kind.get((side, kind), [])
            if len(have) > tk.count:
                cells = tuple(sorted(c for p in have for c in p.cells))
                out.append(
                    Violation(
                        "too-many",
                        ERROR,
                        f"{side} has {len(have)} {_plural(tk.label)}; the rules allow {tk.count}",
                        cells,
                        side,
                    )
                )
            elif len(have) < tk.count:
                n = tk.count - len(have)
                out.append(
                    Violation(
                        "missing",
                        INCOMPLETE,
                        f"{side} still has {n} {tk.label if n == 1 else _plural(tk.label)}"
                        " to place",
                        (),
                        side,
                    )
                )


@lru_cache(maxsize=4096)
def _piece_violations(
    board: Board, piece: Terrain, shape: str, orientation: str
) -> tuple[Violation, ...]:
    """The rules one terrain piece breaks on its own: side, footprint, lane/arrow, zone
    (cached: terrain rarely changes between two checks)."""
    tk = DATA.terrain[piece.kind]
    out: list[Violation] = []
    name = _piece_name(board, tk, piece)
    side = piece.side
    if side is None:
        out.append(
            Violation("missing-side", ERROR, f"{name}: says no side (south or north)", piece.cells)
        )
    if not _fits(board, piece.cells, shape, orientation):
        how = "" if orientation == "any" else f", lying {orientation}"
        what = f"a straight {shape}" if shape.startswith("1x") else f"a {shape}"
        out.append(
            Violation(
                "bad-shape",
                ERROR,
                f"{name}: a {tk.label} must be {what} piece{how}",
                tuple(sorted(piece.cells)),
                side,
            )
        )
    _check_lane(board, tk, piece, name, out)
    if side is not None:
        outside = tuple(
            sorted(c for c in piece.cells if board.own_row(c, side.index) > tk.zone_rows)
        )
        if outside:
            out.append(
                Violation(
                    f"{tk.family}-outside-zone",
                    ERROR,
                    f"{name}: {_plural(tk.family)} must stay in "
                    f"{rows_text(board, side, 1, tk.zone_rows)}",
                    outside,
                    side,
                )
            )
    return tuple(out)


def _fits(board: Board, cells: tuple[int, ...], shape: str, orientation: str) -> bool:
    pts = [(board.col_of(c), board.row_of(c)) for c in cells]
    if len(set(pts)) != len(DATA.shapes[shape]):
        return False
    mx = min(x for x, _ in pts)
    my = min(y for _, y in pts)
    norm = frozenset((x - mx, y - my) for x, y in pts)
    return norm in shape_variants(shape, orientation)


def _check_lane(
    board: Board, tk: TerrainKind, piece: Terrain, name: str, out: list[Violation]
) -> None:
    cells = tuple(sorted(piece.cells))
    if not tk.lane:
        if piece.lane is not None:
            out.append(
                Violation(
                    "bad-lane", ERROR, f"{name}: only minefields have a lane", cells, piece.side
                )
            )
        if piece.arrow is not None:
            out.append(
                Violation(
                    "bad-arrow", ERROR, f"{name}: only minefields have an arrow", cells, piece.side
                )
            )
        return
    if piece.lane is None or piece.lane not in piece.cells:
        where = "" if piece.lane is None else f" ({board.cell_name(piece.lane)} is not one of them)"
        out.append(
            Violation(
                "bad-lane",
                ERROR,
                f"{name}: the lane must be one of the minefield's cells{where}",
                cells,
                piece.side,
            )
        )
    arrow = piece.arrow
    if arrow is None:
        out.append(
            Violation("bad-arrow", ERROR, f"{name}: the lane needs an arrow", cells, piece.side)
        )
        return
    if not arrow.is_orthogonal:
        out.append(
            Violation(
                "bad-arrow",
                ERROR,
                f"{name}: the arrow must be N, E, S or W, not {arrow}",
                cells,
                piece.side,
            )
        )
        return
    # the arrow must cross the strip: perpendicular to its long axis
    cols = {board.col_of(c) for c in piece.cells}
    rows = {board.row_of(c) for c in piece.cells}
    if len(piece.cells) > 1 and (len(rows) == 1 or len(cols) == 1):
        horizontal = len(rows) == 1
        if (arrow.dy == 0) == horizontal:
            out.append(
                Violation(
                    "bad-arrow",
                    ERROR,
                    f"{name}: the arrow ({arrow}) must cross the strip, not run along it",
                    cells,
                    piece.side,
                )
            )


# --- units --------------------------------------------------------------------------------
def _unit_name(board: Board, u: Unit) -> str:
    uk = DATA.units.get(u.kind)
    label = uk.label if uk else u.kind
    who = f"{label} {u.name}" if u.name else label
    return f"{u.side} {who} at {board.cell_name(u.cell)}"


@lru_cache(maxsize=8192)
def _unit_violations(board: Board, u: Unit, extra: bool) -> tuple[Violation, ...]:
    """The rules one unit breaks on its own: kind, expansion option, name, facing, wreck,
    damage, set-up zone (cached: most units do not change between two checks)."""
    out: list[Violation] = []
    uk = DATA.units.get(u.kind)
    name = _unit_name(board, u)
    cell = (u.cell,)
    if uk is None:
        return (Violation("bad-kind", ERROR, f"{name}: unknown unit kind", cell, u.side),)
    if uk.extra_forces and not extra:
        out.append(
            Violation(
                "extra-forces-off",
                ERROR,
                f"{name}: {uk.label} units need the extra_forces option",
                cell,
                u.side,
            )
        )
    if u.kind == "tank" and u.name not in DATA.tank_names:
        why = "has no name" if u.name is None else f"is named {u.name!r}"
        out.append(
            Violation(
                "bad-name",
                ERROR,
                f"{name} {why}; tanks are named {' '.join(DATA.tank_names)}",
                cell,
                u.side,
            )
        )
    if u.facing is not None and not u.facing.is_orthogonal:
        out.append(
            Violation(
                "diagonal-facing",
                ERROR,
                f"{name} faces {u.facing}: units face N, E, S or W",
                cell,
                u.side,
            )
        )
    if u.wreck:
        out.append(
            Violation(
                "wreck-at-setup", ERROR, f"{name} is a wreck: not allowed in a setup", cell, u.side
            )
        )
    if u.damage >= uk.hits:
        out.append(
            Violation(
                "bad-damage",
                ERROR,
                f"{name} has {u.damage} hits: a {uk.label} is out after {uk.hits}",
                cell,
                u.side,
            )
        )
    if board.own_row(u.cell, u.side.index) > uk.zone_rows:
        out.append(
            Violation(
                "unit-outside-zone",
                ERROR,
                f"{name}: units set up in {rows_text(board, u.side, 1, uk.zone_rows)}",
                cell,
                u.side,
            )
        )
    return tuple(out)


def _check_units(scenario: Scenario, options: dict[str, OptionValue], out: list[Violation]) -> None:
    board = scenario.board
    extra = bool(options["extra_forces"])
    swamp = mine = 0
    for piece in scenario.terrain:
        tk = DATA.terrain.get(piece.kind)
        if tk is None or not (tk.family == "swamp" or tk.lane):
            continue
        bits = 0
        for c in piece.cells:
            bits |= 1 << c
        if tk.family == "swamp":
            swamp |= bits
        else:
            mine |= bits
    by_side_kind: dict[tuple[Side, str], list[Unit]] = defaultdict(list)
    by_cell: dict[int, list[Unit]] = defaultdict(list)
    for u in scenario.units:
        out.extend(_unit_violations(board, u, extra))
        if u.kind not in DATA.units:
            continue
        by_side_kind[(u.side, u.kind)].append(u)
        by_cell[u.cell].append(u)
        if swamp >> u.cell & 1:
            out.append(
                Violation(
                    "unit-on-swamp",
                    ERROR,
                    f"{_unit_name(board, u)} stands on a swamp",
                    (u.cell,),
                    u.side,
                )
            )
        if mine >> u.cell & 1:
            out.append(
                Violation(
                    "unit-on-minefield",
                    ERROR,
                    f"{_unit_name(board, u)} stands on a minefield",
                    (u.cell,),
                    u.side,
                )
            )
    # names
    for side in Side:
        tanks = by_side_kind.get((side, "tank"), [])
        seen: dict[str, list[Unit]] = defaultdict(list)
        for t in tanks:
            if t.name is not None:
                seen[t.name].append(t)
        for tank_name, group in seen.items():
            if len(group) > 1:
                out.append(
                    Violation(
                        "duplicate-name",
                        ERROR,
                        f"{side} has {len(group)} tanks named {tank_name}"
                        f" ({_names(board, [t.cell for t in group])})",
                        tuple(sorted(t.cell for t in group)),
                        side,
                    )
                )
    # cell sharing
    _check_sharing(board, by_cell, out)
    # counts
    for side in Side:
        for kind, uk in DATA.units.items():
            have = by_side_kind.get((side, kind), [])
            allowed = uk.count if (extra or not uk.extra_forces) else 0
            if len(have) > allowed and allowed > 0:
                out.append(
                    Violation(
                        "too-many",
                        ERROR,
                        f"{side} has {len(have)} {uk.label} units; the rules allow {allowed}",
                        tuple(sorted(u.cell for u in have)),
                        side,
                    )
                )
            elif len(have) < allowed:
                if kind == "tank":
                    names = {u.name for u in have}
                    lacking = [n for n in DATA.panel_order if n not in names]
                    n = allowed - len(have)
                    if len(lacking) == n == 1:
                        msg = f"{side} still has tank {lacking[0]} to place"
                    elif len(lacking) == n:
                        msg = f"{side} still has {n} tanks {' '.join(lacking)} to place"
                    else:  # some placed tanks are unnamed: list the names still free
                        free = f" (names not used yet: {' '.join(lacking)})" if lacking else ""
                        msg = f"{side} still has {n} tank{'s' if n > 1 else ''} to place{free}"
                else:
                    n = allowed - len(have)
                    msg = f"{side} still has {n} {uk.label} unit{'s' if n > 1 else ''} to place"
                out.append(Violation("missing", INCOMPLETE, msg, (), side))


def _check_sharing(board: Board, by_cell: dict[int, list[Unit]], out: list[Violation]) -> None:
    rules = DATA.sharing
    caps = dict(rules.max_per_kind)
    for cell in sorted(by_cell):
        group = by_cell[cell]
        if len(group) < 2:
            continue
        kinds = [u.kind for u in group]
        reason = ""
        if rules.same_side_only and len({u.side for u in group}) > 1:
            reason = "units of both sides"
        elif len(group) > rules.max_units:
            reason = f"{len(group)} units (at most {rules.max_units} may share)"
        else:
            for kind, cap in caps.items():
                if kinds.count(kind) > cap:
                    label = DATA.units[kind].label
                    reason = f"{kinds.count(kind)} {label} units (at most {cap} per cell)"
                    break
            else:
                for a, b in rules.forbidden_pairs:
                    if a in kinds and b in kinds:
                        reason = f"a {DATA.units[a].label} and a {DATA.units[b].label}"
                        break
        if reason:
            names = [_unit_name(board, u) for u in group]  # two equal ATs: said once, ×2
            who = ", ".join(
                n if names.count(n) == 1 else f"{n} ×{names.count(n)}" for n in dict.fromkeys(names)
            )
            out.append(
                Violation(
                    "cell-shared",
                    ERROR,
                    f"{board.cell_name(cell)} holds {reason}: {who}",
                    (cell,),
                    group[0].side if len({u.side for u in group}) == 1 else None,
                )
            )
