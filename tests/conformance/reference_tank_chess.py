"""A deliberately slow, plain reference for Tank Chess (rules §2.3-2.5, cli-json.md moves/perft).

Written from the rule text only (never from ``rules/tank_chess``): positions are plain
``(column, row)`` tuples, moves are a breadth-first search over ``(column, row, facing)``,
shots are ray walks, and perft applies turns to copied positions. Only ``rules.board`` /
``rules.scenario`` are used, to read scenarios and name cells and facings.

Facings are numbered clockwise from north: 0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW.
Side 0 is south (moves first, enemy edge = the top row), side 1 is north.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from tankmap.rules.scenario import Scenario

# docs/rules.md §2.1 table, transcribed by hand: speed, gun, armour (front, side, rear), fire mode.
SPEED = {"command": 5, "light": 5, "medium": 4, "heavy": 3, "destroyer": 4, "mortar": 3}
GUN = {"command": 1, "light": 1, "medium": 2, "heavy": 3, "destroyer": 4, "mortar": 5}
ARMOUR = {
    "command": (1, 0, 0),
    "light": (1, 0, 0),
    "medium": (2, 1, 0),
    "heavy": (3, 2, 1),
    "destroyer": (2, 1, 0),
    "mortar": (1, 0, 0),
}
DX = (0, 1, 1, 1, 0, -1, -1, -1)
DY = (1, 1, 0, -1, -1, -1, 0, 1)
FACING_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")

Cell = tuple[int, int]
ESCAPE = "escape"
End = tuple[int, int, int] | str  # (col, row, facing) or ESCAPE


@dataclass(frozen=True)
class Piece:
    kind: str
    side: int
    col: int
    row: int
    facing: int
    wreck: bool = False


@dataclass(frozen=True)
class Pos:
    columns: int
    rows: int
    obstacles: frozenset[Cell]
    pieces: tuple[Piece, ...]
    to_move: int
    strict_corners: bool = False


@dataclass(frozen=True)
class Turn:
    piece: int  # index into Pos.pieces
    end: End
    target: int | None  # index into Pos.pieces, or None for no shot


def from_scenario(sc: Scenario) -> Pos:
    b = sc.board
    obstacles = frozenset((b.col_of(c), b.row_of(c)) for t in sc.terrain for c in t.cells)
    pieces = []
    for u in sc.units:
        assert u.facing is not None
        pieces.append(
            Piece(u.kind, u.side.index, b.col_of(u.cell), b.row_of(u.cell), int(u.facing), u.wreck)
        )
    return Pos(
        b.columns,
        b.rows,
        obstacles,
        tuple(pieces),
        sc.to_move.index,
        bool(sc.options.get("strict_corners", False)),
    )


def on_board(pos: Pos, col: int, row: int) -> bool:
    return 0 <= col < pos.columns and 0 <= row < pos.rows


def blocked_cells(pos: Pos, skip: int | None = None) -> set[Cell]:
    """Cells that are not empty: obstacles, wrecks and pieces (except piece ``skip``)."""
    out = set(pos.obstacles)
    for i, p in enumerate(pos.pieces):
        if i != skip:
            out.add((p.col, p.row))
    return out


def _step_ok(pos: Pos, full: set[Cell], col: int, row: int, f: int) -> bool:
    """May a piece on (col, row) step one cell in direction f (staying on the board)?"""
    nc, nr = col + DX[f], row + DY[f]
    if not on_board(pos, nc, nr) or (nc, nr) in full:
        return False
    if pos.strict_corners and f % 2 == 1:
        # diagonal step forbidden when BOTH cells beside it are blocked (off-board is no cell)
        if (col + DX[f], row) in full and (col, row + DY[f]) in full:
            return False
    return True


def _escapes(pos: Pos, p: Piece, col: int, row: int, f: int) -> bool:
    """Is one forward step from (col, row) in direction f an escape of command tank p?"""
    if p.kind != "command":
        return False
    nc, nr = col + DX[f], row + DY[f]
    enemy_row = pos.rows if p.side == 0 else -1  # the row just past the enemy edge
    # leaves across the enemy edge only: the column must stay on the board (not the corner)
    return nr == enemy_row and 0 <= nc < pos.columns


def end_states(pos: Pos, index: int) -> set[End]:
    """Every distinct end of a move of piece ``index`` (docs/rules.md §2.3, §2.5)."""
    p = pos.pieces[index]
    if p.wreck:
        return set()
    full = blocked_cells(pos, skip=index)
    start = (p.col, p.row, p.facing)
    seen = {start}
    frontier = [start]
    ends: set[End] = set()
    for _ in range(SPEED[p.kind]):
        nxt = []
        for col, row, f in frontier:
            for g in ((f + 1) % 8, (f + 7) % 8):
                s = (col, row, g)
                if s not in seen:
                    seen.add(s)
                    nxt.append(s)
            if _escapes(pos, p, col, row, f):
                ends.add(ESCAPE)
            elif _step_ok(pos, full, col, row, f):
                s = (col + DX[f], row + DY[f], f)
                if s not in seen:
                    seen.add(s)
                    nxt.append(s)
        frontier = nxt
    ends.update(s for s in seen if s != start)
    back = (p.facing + 4) % 8
    if _step_ok(pos, full, p.col, p.row, back):
        ends.add((p.col + DX[back], p.row + DY[back], p.facing))
    return ends


def targets(pos: Pos, index: int, col: int, row: int, f: int) -> list[int]:
    """Indices of the pieces piece ``index`` may shoot from (col, row) facing f."""
    at = {(q.col, q.row): i for i, q in enumerate(pos.pieces) if i != index}
    return _targets(pos, pos.pieces[index], at, col, row, f)


def _targets(pos: Pos, p: Piece, at: dict[Cell, int], col: int, row: int, f: int) -> list[int]:
    """Shot targets of piece ``p`` from (col, row) facing f; ``at`` maps the OTHER pieces."""
    out: list[int] = []
    if p.kind == "mortar":
        for k in (3, 4, 5):
            i = at.get((col + k * DX[f], row + k * DY[f]))
            if i is not None and not pos.pieces[i].wreck and pos.pieces[i].side != p.side:
                out.append(i)
        return out
    rays = (f,) if p.kind == "destroyer" else ((f + 7) % 8, f, (f + 1) % 8)
    columns, rows, obstacles = pos.columns, pos.rows, pos.obstacles
    for g in rays:
        dx, dy = DX[g], DY[g]
        c, r, k = col + dx, row + dy, 1
        while 0 <= c < columns and 0 <= r < rows and (c, r) not in obstacles:
            i = at.get((c, r))
            if i is not None:  # the first piece (or wreck) on the ray ends it
                q = pos.pieces[i]
                if not q.wreck and q.side != p.side and k >= 2:
                    out.append(i)
                break
            c, r, k = c + dx, r + dy, k + 1
    return out


def legal_turns(pos: Pos) -> list[Turn]:
    """Every turn of the side to move: (piece, end state or escape, target or none)."""
    turns: list[Turn] = []
    for i, p in enumerate(pos.pieces):
        if p.wreck or p.side != pos.to_move:
            continue
        at = {(q.col, q.row): j for j, q in enumerate(pos.pieces) if j != i}
        for end in end_states(pos, i):
            turns.append(Turn(i, end, None))
            if end == ESCAPE:
                continue
            assert isinstance(end, tuple)
            for t in _targets(pos, p, at, *end):
                turns.append(Turn(i, end, t))
    return turns


def _with(pieces: tuple[Piece, ...], i: int, p: Piece) -> tuple[Piece, ...]:
    return pieces[:i] + (p,) + pieces[i + 1 :]


def armour_hit(shooter_facing_ray: int, target: Piece) -> int:
    """Armour the shot meets: d = direction target -> shooter = opposite of the ray."""
    d = (shooter_facing_ray + 4) % 8
    front, side, rear = ARMOUR[target.kind]
    if d == target.facing:
        return front
    if d == (target.facing + 4) % 8:
        return rear
    return side


def apply(pos: Pos, turn: Turn) -> tuple[Pos, bool]:
    """The position after ``turn`` and whether the turn ended the game."""
    p = pos.pieces[turn.piece]
    if turn.end == ESCAPE:
        return pos, True
    assert isinstance(turn.end, tuple)
    col, row, f = turn.end
    pieces = _with(pos.pieces, turn.piece, replace(p, col=col, row=row, facing=f))
    over = False
    if turn.target is not None:
        q = pieces[turn.target]
        dc, dr = q.col - col, q.row - row
        n = max(abs(dc), abs(dr))
        ray = _dir_of(dc // n, dr // n)
        if GUN[p.kind] > armour_hit(ray, q):
            pieces = _with(pieces, turn.target, replace(q, wreck=True))
            over = q.kind == "command"
    return replace(pos, pieces=pieces, to_move=1 - pos.to_move), over


def _dir_of(dx: int, dy: int) -> int:
    for f in range(8):
        if DX[f] == dx and DY[f] == dy:
            return f
    raise ValueError((dx, dy))


def perft(pos: Pos, depth: int) -> int:
    """docs/cli-json.md perft: distinct turn sequences; game-ending turns are leaves."""
    if depth == 0:
        return 1
    turns = legal_turns(pos)
    if depth == 1:
        return len(turns)
    total = 0
    for t in turns:
        child, over = apply(pos, t)
        total += 1 if over else perft(child, depth - 1)
    return total


def fire_zone(pos: Pos, index: int) -> set[Cell]:
    """docs/cli-json.md fire_zone for Tank Chess, from where the piece stands."""
    p = pos.pieces[index]
    if p.wreck:
        return set()
    wrecks = {(q.col, q.row) for q in pos.pieces if q.wreck}
    hard = pos.obstacles | wrecks
    others = blocked_cells(pos, skip=index)
    out: set[Cell] = set()
    if p.kind == "mortar":
        for k in (3, 4, 5):
            c = (p.col + k * DX[p.facing], p.row + k * DY[p.facing])
            if on_board(pos, *c) and c not in hard:
                out.add(c)
        return out
    rays = (
        (p.facing,) if p.kind == "destroyer" else ((p.facing + 7) % 8, p.facing, (p.facing + 1) % 8)
    )
    for g in rays:
        adj = (p.col + DX[g], p.row + DY[g])
        if not on_board(pos, *adj) or adj in others:
            continue  # distance >= 2 needs the adjacent cell empty
        k = 2
        while True:
            c = (p.col + k * DX[g], p.row + k * DY[g])
            if not on_board(pos, *c) or c in hard:
                break
            out.add(c)
            if c in others:
                break
            k += 1
    return out


def moves_json(
    pos: Pos, index: int, cell_name: Callable[[int, int], str]
) -> set[tuple[str, str | None]]:
    """The end states as docs/cli-json.md ``moves`` pairs ``(to, facing)``."""
    out: set[tuple[str, str | None]] = set()
    for e in end_states(pos, index):
        if e == ESCAPE:
            out.add(("escape", None))
        else:
            assert isinstance(e, tuple)
            out.add((cell_name(e[0], e[1]), FACING_NAMES[e[2]]))
    return out
