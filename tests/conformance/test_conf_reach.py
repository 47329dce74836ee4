"""``analyze`` conformance: reach, turns to goal and coverage against the reference BFS.

Compared: ``tankmap analyze --json`` on the Final Act mirror map (units' turns_to_goal, each
side's reach map, turns_to_goal and coverage map), ``analysis.reach.unit_reach`` on the other
built-in maps' goal units and on 12 random Final Act and 8 random Tank Chess positions, and
docs/rules.md §4's two worked examples.
"""

from __future__ import annotations

import json
from pathlib import Path

import conformance_support as S
import pytest
import reference_final_act as RF
import reference_reach as RR
import reference_tank_chess as RT

from tankmap.analysis.reach import unit_reach
from tankmap.cli import main
from tankmap.rules.board import Board
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Unit

ROOT = Path(__file__).resolve().parents[2]


def reference(sc: Scenario, i: int) -> tuple[dict[str, int], int | None]:
    b = sc.board
    if sc.ruleset == "final-act":
        cells, goal = RR.final_act(RF.from_scenario(sc), i)
    else:
        cells, goal = RR.tank_chess(RT.from_scenario(sc), i)
    return {b.cell_name(b.cell(*c)): d for c, d in cells.items()}, goal


def mismatches(sc: Scenario, which: list[int] | None = None) -> list[str]:
    b = sc.board
    out = []
    for i, u in enumerate(sc.units):
        if u.wreck or (which is not None and i not in which):
            continue
        cells, goal = reference(sc, i)
        r = unit_reach(sc, u)
        got = {b.cell_name(c): int(d) for c, d in enumerate(r.cells) if d >= 0}
        if got != cells or r.turns_to_goal != goal:
            diff = {k: (got.get(k), cells.get(k)) for k in set(got) | set(cells)}
            diff = {k: v for k, v in diff.items() if v[0] != v[1]}
            out.append(
                f"{u.side} {u.kind} {b.cell_name(u.cell)} {u.facing}: goal {r.turns_to_goal} "
                f"want {goal}; cells (got, want) {dict(list(diff.items())[:6])}"
            )
    return out


def test_final_act_mirror_map_through_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "maps" / "final-act" / "mirror.json"
    sc = read_scenario(path)
    b = sc.board
    pos = RF.from_scenario(sc)
    capsys.readouterr()
    assert main(["analyze", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    per_unit = [reference(sc, i) for i in range(len(sc.units))]
    for u, row, (_, goal) in zip(sc.units, doc["units"], per_unit, strict=True):
        assert row["cell"] == b.cell_name(u.cell)
        assert row["turns_to_goal"] == goal, row
    for side in (Side.SOUTH, Side.NORTH):
        mine = [i for i, u in enumerate(sc.units) if u.side is side and not u.wreck]
        reach: list[list[int | None]] = [[None] * b.columns for _ in range(b.rows)]
        cover = [[0] * b.columns for _ in range(b.rows)]
        for i in mine:
            for name, d in per_unit[i][0].items():
                c = b.parse_cell(name)
                old = reach[b.row_of(c)][b.col_of(c)]
                reach[b.row_of(c)][b.col_of(c)] = d if old is None else min(old, d)
            for col, row in RF.fire_zone(pos, i):
                cover[row][col] += 1
        goals = [per_unit[i][1] for i in mine if per_unit[i][1] is not None]
        got = doc["sides"][side.value]
        assert got["reach"] == reach
        assert got["coverage"] == cover
        assert got["turns_to_goal"] == (min(goals) if goals else None)


@pytest.mark.parametrize(
    "name", ["final-act/flanks-vs-centre", "final-act/extra-forces", "tank-chess/basic-16"]
)
def test_builtin_map_goal_units(name: str) -> None:
    sc = read_scenario(ROOT / "maps" / f"{name}.json")
    goal_kind = "tank" if sc.ruleset == "final-act" else "command"
    which = [i for i, u in enumerate(sc.units) if u.kind == goal_kind]
    assert not mismatches(sc, which)


def test_random_final_act_positions() -> None:
    bad = []
    for seed in range(6000, 6012):
        bad += [f"seed {seed}: {m}" for m in mismatches(S.random_final_act(seed))]
    assert not bad, "\n".join(bad[:10])


def test_random_tank_chess_positions() -> None:
    bad = []
    for seed in range(7000, 7008):
        sc = S.random_tank_chess(seed, max_size=9, crowd=3)
        which = [i for i, u in enumerate(sc.units) if u.kind == "command"][:2] + [len(sc.units) - 1]
        bad += [f"seed {seed}: {m}" for m in mismatches(sc, which)]
    assert not bad, "\n".join(bad[:10])


def test_rules_section_4_goal_examples() -> None:
    # Final Act: a tank on row 1 facing N on an empty 12 × 12 board needs 11 rounds to reach
    # row 12 (one row per round). Tank Chess: a lone command tank h1 facing N escapes in 4
    # turns (15 steps to h16 in 5 + 5 + 5, then one step off the edge).
    fa = Scenario(
        ruleset="final-act",
        board=Board.of(12, 12),
        units=(Unit("tank", Side.SOUTH, Board.of(12, 12).parse_cell("f1"), Facing.N),),
    )
    assert unit_reach(fa, fa.units[0]).turns_to_goal == 11 == reference(fa, 0)[1]
    b16 = Board.of(16, 16)
    tc = Scenario(
        ruleset="tank-chess",
        board=b16,
        units=(Unit("command", Side.SOUTH, b16.parse_cell("h1"), Facing.N),),
    )
    assert unit_reach(tc, tc.units[0]).turns_to_goal == 4 == reference(tc, 0)[1]
