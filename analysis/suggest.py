"""The design assistant: legal terrain edits that bring a board's balance toward even.

``suggest`` works in three stages, each cheaper than the next is expensive:

1. **Generate** candidate edits of one terrain piece — shift it by up to two cells, turn a
   straight piece across/along, move a minefield's lane, and for Tank Chess also remove an
   obstacle piece; with ``units``, also move one unit's set-up position to a neighbouring
   cell — keeping only those the ruleset accepts: the
   piece must pass ``can_place`` on the board without it, and the edited board must stay
   legal and complete (``check``). With ``keep_symmetry`` the 180° mirror image of each
   edit is applied to the other side's matching piece too.
2. **Steer** with static analysis: each candidate's terrain-only turns to goal per side
   (``analysis.reach``). The side the playouts favour should get slower, or the other side
   faster; candidates are ranked by how much they move the race that way.
3. **Confirm** the best-steered candidates with playouts of the chosen agent (the same
   seeds for every candidate, so differences are the board's), then **re-measure** the best
   few on fresh seeds that the search never used, with 95 % intervals.

Everything is seeded; the time budget stops stage 3 early (the note says how many
candidates were played). Balance = 1 − |win rate south − win rate north|.

``interrupt`` (optional) is called between steps — after each generated edit and each batch
of games — so a caller can stop a search by raising from it (the editor's Suggest dock
does; the exception propagates and nothing is returned). It never changes the results.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from tankmap.analysis.ladder import SelfPlay, self_play_stats
from tankmap.analysis.live import LOCK
from tankmap.analysis.reach import side_reach, turn_search_reach
from tankmap.analysis.simulation.runner import require_legal, simulate
from tankmap.rules.fileformat import scenario_to_json
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


@dataclass
class Measured:
    """A board measured by playouts: its balance figures."""

    stats: SelfPlay

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.stats.balance_ci95()
        n = self.stats.games
        return {
            "balance": round(self.stats.balance, 6),
            "ci95": [round(lo, 6), round(hi, 6)],
            "games": n,
            "win_rate": {
                "south": round(self.stats.wins_south / n, 6),
                "north": round(self.stats.wins_north / n, 6),
            },
            "favoured": self.stats.favoured(),
        }


@dataclass
class SuggestResult:
    """``suggest``'s answer; ``to_json`` is the ``tankmap suggest --json`` document."""

    before: Measured
    before_race: tuple[int | None, int | None]
    suggestions: list[tuple[Edit, Measured]]
    agent: str
    seconds: float
    candidates: int
    played: int
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "before": {**self.before.to_json(), "turns_to_goal": _race_json(self.before_race)},
            "suggestions": [
                {
                    "edits": list(edit.words),
                    "scenario": scenario_to_json(edit.scenario),
                    **measured.to_json(),
                    "turns_to_goal": _race_json(edit.race),
                }
                for edit, measured in self.suggestions
            ],
            "candidates": self.candidates,
            "played": self.played,
            "seconds": round(self.seconds, 1),
            "notes": self.notes,
        }


def _race_json(race: tuple[int | None, int | None]) -> dict[str, int | None]:
    return {"south": race[0], "north": race[1]}


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


def measure(
    scenario: Scenario,
    agent: str,
    games: int,
    seed: int,
    workers: int,
    interrupt: Callable[[], None] | None = None,
) -> Measured:
    """Self-play of ``agent`` on ``scenario``: the balance figures. ``interrupt`` is called
    after each batch of games (see the module docstring)."""
    tick = None if interrupt is None else (lambda _done, _total: interrupt())
    df = simulate(scenario, games, agent, seed=seed, workers=workers, progress=tick)
    return Measured(self_play_stats(agent, df))


def suggest(
    scenario: Scenario,
    agent: str = "heuristic",
    games: int = 400,
    budget: float = 240.0,
    seed: int = 0,
    keep_symmetry: bool = False,
    workers: int = 1,
    top: int = 3,
    progress: Callable[[int, int], None] | None = None,
    max_candidates: int = 24,
    units: bool = False,
    interrupt: Callable[[], None] | None = None,
) -> SuggestResult:
    """Suggest up to ``top`` single-piece terrain edits that even the balance (see the module
    docstring). Raises ``IllegalScenarioError`` for an illegal or finished board, and
    whatever ``interrupt`` raises."""
    require_legal(scenario)
    start = time.monotonic()
    search_seed, check_seed = np.random.SeedSequence(seed).generate_state(2, dtype=np.uint32)
    before = measure(scenario, agent, games, int(check_seed), workers, interrupt)
    base_race = race(scenario)
    notes: list[str] = []
    favoured = before.stats.favoured() or (
        "south" if before.stats.wins_south >= before.stats.wins_north else "north"
    )
    edits = []
    for edit in candidate_edits(scenario, keep_symmetry, units):
        if interrupt is not None:
            interrupt()
        edits.append(edit)
        if time.monotonic() - start > budget * 0.35:
            notes.append(f"time budget: generated {len(edits)} legal edits before playing")
            break
    # best steered first; among equals, one edit of each piece in turn (so a flat race
    # figure still spreads the playouts over every piece)
    ranked = sorted(edits, key=lambda e: (-_steer(e.race, base_race, favoured), e.rank))
    ranked = [e for e in ranked if _steer(e.race, base_race, favoured) > 0] or ranked
    confirmed: list[tuple[float, Edit]] = []
    played = 0
    limit = min(len(ranked), max_candidates)
    for i, edit in enumerate(ranked[:limit]):
        if time.monotonic() - start > budget * 0.7:
            notes.append(f"time budget: played {i} of {limit} steered candidates")
            break
        m = measure(edit.scenario, agent, games, int(search_seed), workers, interrupt)
        confirmed.append((m.stats.balance, edit))
        played += 1
        if progress is not None:
            progress(i + 1, limit)
    confirmed.sort(key=lambda x: -x[0])
    out: list[tuple[Edit, Measured]] = []
    for _score, edit in confirmed[:top]:
        fresh = measure(edit.scenario, agent, games, int(check_seed) + 1, workers, interrupt)
        out.append((edit, fresh))
    out.sort(key=lambda x: -x[1].stats.balance)
    return SuggestResult(
        before, base_race, out, agent, time.monotonic() - start, len(edits), played, notes
    )


def _steer(
    after: tuple[int | None, int | None], base: tuple[int | None, int | None], favoured: str
) -> float:
    """How much an edit slows the favoured side's race (or speeds the other's)."""
    s0, n0 = base
    s1, n1 = after
    if s0 is None or n0 is None or s1 is None or n1 is None:
        return 0.0
    gap0 = (n0 - s0) if favoured == "south" else (s0 - n0)  # favoured side's lead
    gap1 = (n1 - s1) if favoured == "south" else (s1 - n1)
    return float(gap0 - gap1)


# --- candidate edits ------------------------------------------------------------------------


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
