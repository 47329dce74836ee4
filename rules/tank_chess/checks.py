"""Setup legality and custom-scheme checks for Tank Chess (docs/rules.md §2.2).

Codes and severities (``cells`` as docs/cli-json.md asks):

| code | severity | cells |
|---|---|---|
| ``army-too-many`` | error | all that side's pieces of that kind |
| ``army-incomplete`` | incomplete | none |
| ``cell-shared`` | error | the shared cell |
| ``piece-on-obstacle`` | error | the piece's cell |
| ``obstacle-overlap`` | error | the cells two obstacle pieces share |
| ``obstacle-shape`` | error | all cells of an obstacle whose cells do not form its ``shape`` |
| ``obstacle-on-start-cell`` | error | obstacle cells on a printed start cell (16 × 16) |
| ``outside-setup-rows`` | warning | the piece's cell (live pieces outside own rows 1-3) |
| ``obstacles-asymmetric`` | warning | obstacle cells whose 180° mirror is not an obstacle |
| ``obstacle-budget`` | warning | every obstacle cell (more pieces than the set's 26) |
| ``command-cannot-escape`` | warning | the command tank's cell |

Armies (data): boards whose shorter side is below 20 use the 16 × 16 army (2 HT, 3 MT,
4 LT, 1 CLT), from 20 up the 20 × 20 army (plus 2 TD, 2 HM). Wrecks count as pieces of
the army (a position in the middle of a game is still complete). "Start cells" are the
cells printed on the physical board: known for 16 × 16 (the basic setup's 20 cells); the
20 × 20 board's marks are not known, so that check does not apply there.
``command-cannot-escape`` moves the command tank over terrain only (obstacles and wrecks;
other pieces ignored, since they move).
"""

from __future__ import annotations

from collections import defaultdict

from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario
from tankmap.rules.sides import rows_text, side_name
from tankmap.rules.tank_chess.data import tank_chess_data
from tankmap.rules.tank_chess.shapes import matches_shape
from tankmap.rules.violations import Severity, Violation

_NAMES = {
    "command": "command tank",
    "light": "light tank",
    "medium": "medium tank",
    "heavy": "heavy tank",
    "destroyer": "tank destroyer",
    "mortar": "heavy mortar",
}


def _side(side: Side) -> str:
    """White or Black (the ruleset data's display names, ``rules.sides``)."""
    return side_name("tank-chess", side)


def check_scenario(scenario: Scenario) -> list[Violation]:
    """Every violation of docs/rules.md §2.2 in ``scenario`` (see the module table)."""
    data = tank_chess_data()
    board = scenario.board
    name = board.cell_name
    out: list[Violation] = []

    # --- armies -------------------------------------------------------------------------
    label, army = data.army(board.columns, board.rows)
    for side in Side:
        by_kind: dict[str, list[int]] = defaultdict(list)
        for u in scenario.units:
            if u.side is side:
                by_kind[u.kind].append(u.cell)
        for kind, wanted in army.items():
            have = by_kind.get(kind, [])
            what = _NAMES.get(kind, kind)
            if len(have) > wanted:
                out.append(
                    Violation(
                        "army-too-many",
                        Severity.ERROR,
                        f"{_side(side)} has {_count(len(have), what)}; the {label} has "
                        f"{wanted or 'none'}",
                        tuple(have),
                        side,
                    )
                )
            elif len(have) < wanted:
                out.append(
                    Violation(
                        "army-incomplete",
                        Severity.INCOMPLETE,
                        f"{_side(side)} has {len(have)} of {wanted} {what}s ({label})",
                        (),
                        side,
                    )
                )

    # --- obstacles ----------------------------------------------------------------------
    owner: dict[int, int] = {}
    shared: set[int] = set()
    for i, t in enumerate(scenario.terrain):
        for c in t.cells:
            if c in owner:
                shared.add(c)
            else:
                owner[c] = i
        if t.shape is not None and not matches_shape(board, t.cells, t.shape):
            cells = " ".join(name(c) for c in t.cells)
            out.append(
                Violation(
                    "obstacle-shape",
                    Severity.ERROR,
                    f"obstacle {cells} is not a {t.shape} (rotations and mirrors allowed)",
                    tuple(t.cells),
                )
            )
    for c in sorted(shared):
        out.append(
            Violation(
                "obstacle-overlap",
                Severity.ERROR,
                f"two obstacle pieces overlap on {name(c)}",
                (c,),
            )
        )
    starts = data.start_cells.get(f"{board.columns}x{board.rows}", ())
    start_cells = {board.parse_cell(s) for s in starts}
    on_start = sorted(c for c in owner if c in start_cells)
    if on_start:
        out.append(
            Violation(
                "obstacle-on-start-cell",
                Severity.ERROR,
                "obstacles cover printed start cells: " + " ".join(name(c) for c in on_start),
                tuple(on_start),
            )
        )
    asym = sorted(c for c in owner if board.mirror(c) not in owner)
    if asym:
        out.append(
            Violation(
                "obstacles-asymmetric",
                Severity.WARNING,
                f"{_count(len(asym), 'obstacle cell')} "
                f"{'has' if len(asym) == 1 else 'have'} no obstacle at the 180° mirror cell",
                tuple(asym),
            )
        )
    if len(scenario.terrain) > data.obstacle_budget:
        out.append(
            Violation(
                "obstacle-budget",
                Severity.WARNING,
                f"{len(scenario.terrain)} obstacle pieces; the set has {data.obstacle_budget}",
                tuple(sorted(owner)),
            )
        )

    # --- pieces -------------------------------------------------------------------------
    count: dict[int, int] = defaultdict(int)
    for u in scenario.units:
        count[u.cell] += 1
    for c in sorted(c for c, n in count.items() if n > 1):
        out.append(
            Violation(
                "cell-shared",
                Severity.ERROR,
                f"{count[c]} pieces share {name(c)}",
                (c,),
            )
        )
    for u in scenario.units:
        what = _NAMES.get(u.kind, u.kind)
        if u.cell in owner:
            out.append(
                Violation(
                    "piece-on-obstacle",
                    Severity.ERROR,
                    f"{_side(u.side)} {what} on {name(u.cell)} stands on an obstacle",
                    (u.cell,),
                    u.side,
                )
            )
        if not u.wreck and board.own_row(u.cell, u.side.index) > data.setup_rows:
            out.append(
                Violation(
                    "outside-setup-rows",
                    Severity.WARNING,
                    f"{_side(u.side)} {what} on {name(u.cell)} starts outside "
                    f"{rows_text(board, u.side, 1, data.setup_rows, _side(u.side))}",
                    (u.cell,),
                    u.side,
                )
            )
    out.extend(_escape_warnings(scenario))
    out.extend(_first_turn_win(scenario))
    return out


def _first_turn_win(scenario: Scenario) -> list[Violation]:
    """``first-turn-win``: the side to move can destroy the enemy command tank or escape
    with its first turn (docs/rules.md §2.4 Check/Escape before any move) — the worst set-up
    a designer can ship. Only while both command tanks stand and no two things overlap."""
    from tankmap.rules.tank_chess.announce import side_status
    from tankmap.rules.tank_chess.state import GameState, PositionError

    live = {u.side for u in scenario.units if u.kind == "command" and not u.wreck}
    if len(live) < 2:
        return []
    try:
        state = GameState(scenario)
    except PositionError:
        return []
    mover = scenario.to_move
    status = side_status(state, mover.index)
    if not (status.check or status.escape):
        return []
    turns = status.check_turns or status.escape_turns
    words = status.notation[0] or status.notation[1]
    p, _c, _f, target = turns[0]
    what = "destroy the enemy command tank" if status.check else "escape off the board"
    cells = (state.cell[p],) + ((state.cell[target],) if target >= 0 else ())
    more = f" (and {len(turns) - 1} more turns)" if len(turns) > 1 else ""
    return [
        Violation(
            "first-turn-win",
            Severity.WARNING,
            f"{_side(mover)} moves first and can {what} at once: {words[0]}{more}",
            cells,
            mover,
        )
    ]


def _escape_warnings(scenario: Scenario) -> list[Violation]:
    from tankmap.rules.tank_chess.reach import escape_region
    from tankmap.rules.tank_chess.state import GameState

    commanders = [p for p, u in enumerate(scenario.units) if u.kind == "command" and not u.wreck]
    if not commanders:
        return []
    state = GameState(scenario, lenient=True)
    regions: dict[int, set[int]] = {}
    out = []
    for p in commanders:
        u = scenario.units[p]
        side = u.side.index
        if side not in regions:
            regions[side] = escape_region(state, side)
        if u.cell not in regions[side]:
            out.append(
                Violation(
                    "command-cannot-escape",
                    Severity.WARNING,
                    f"{_side(u.side)} command tank on {scenario.board.cell_name(u.cell)} can "
                    "never reach the enemy edge (obstacles and wrecks block every way)",
                    (u.cell,),
                    u.side,
                )
            )
    return out


def _count(n: int, what: str) -> str:
    """``"1 light tank"``, ``"2 light tanks"``."""
    return f"{n} {what}" if n == 1 else f"{n} {what}s"
