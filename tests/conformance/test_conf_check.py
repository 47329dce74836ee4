"""``check`` conformance: legality, completeness and the cells errors name (docs/cli-json.md check).

Compared with ``reference_fa_check`` / ``reference_tc_check`` (written from docs/rules.md §1.1-1.3
and §2.2): the built-in maps, 800 Final Act and 600 Tank Chess (16 × 16 and 20 × 20) set-ups
made by up to three random edits of a built-in map (API), 40 of them end to end through
``tankmap check --json``, and hand-made set-ups whose offending cells are derived in the
comments.
"""

from __future__ import annotations

import json
from pathlib import Path

import conformance_support as S
import numpy as np
import pytest
import reference_fa_check as RFC
import reference_tc_check as RTC

from tankmap.cli import main
from tankmap.rules.fileformat import read_scenario, write_scenario
from tankmap.rules.geometry import Facing
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit
from tankmap.rules.violations import Severity

ROOT = Path(__file__).resolve().parents[2]
FA_BASES = [
    read_scenario(ROOT / "maps" / "final-act" / f"{n}.json")
    for n in ("mirror", "flanks-vs-centre", "extra-forces")
]
TC_BASES = [
    read_scenario(ROOT / "maps" / "tank-chess" / f"{n}.json")
    for n in ("basic-16", "blank-16", "sample-20", "blank-20")
]


def project(sc: Scenario) -> tuple[set[int], bool, bool]:
    vs = get_ruleset(sc.ruleset).check(sc)
    cells = {c for v in vs if v.severity == Severity.ERROR for c in v.cells}
    return (
        cells,
        any(v.severity == Severity.ERROR for v in vs),
        any(v.severity == Severity.INCOMPLETE for v in vs),
    )


def reference(sc: Scenario) -> tuple[set[int], bool, bool]:
    return RFC.check(sc) if sc.ruleset == "final-act" else RTC.check(sc)


def fa_case(seed: int) -> Scenario:
    return S.mutate_final_act(FA_BASES[seed % 3], np.random.default_rng(seed))


def tc_case(seed: int) -> Scenario:
    return S.mutate_tank_chess(TC_BASES[seed % 4], np.random.default_rng(seed))


def describe(
    sc: Scenario, got: tuple[set[int], bool, bool], want: tuple[set[int], bool, bool]
) -> str:
    b = sc.board
    extra = sorted(b.cell_name(c) for c in got[0] - want[0])
    missing = sorted(b.cell_name(c) for c in want[0] - got[0])
    flags = f"error {got[1]}/{want[1]} incomplete {got[2]}/{want[2]}"
    return f"{flags} cells extra {extra} missing {missing}"


def test_builtin_maps_are_legal_for_the_reference_too() -> None:
    for sc in FA_BASES + TC_BASES[:1] + TC_BASES[2:3]:
        assert reference(sc) == project(sc) == (set(), False, False), sc.title


@pytest.mark.parametrize("chunk", range(2))
def test_random_final_act_setups(chunk: int) -> None:
    bad = []
    for seed in range(chunk * 400, chunk * 400 + 400):
        sc = fa_case(seed)
        got, want = project(sc), reference(sc)
        if got != want:
            bad.append(f"seed {seed}: {describe(sc, got, want)}")
    assert not bad, "\n".join(bad[:10])


def test_random_tank_chess_setups() -> None:
    bad = []
    for seed in range(600):
        sc = tc_case(seed)
        got, want = project(sc), reference(sc)
        if got != want:
            bad.append(f"seed {seed}: {describe(sc, got, want)}")
    assert not bad, "\n".join(bad[:10])


def test_check_json_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = [fa_case(s) for s in range(1000, 1020)] + [tc_case(s) for s in range(1000, 1020)]
    paths = []
    for i, sc in enumerate(cases):
        paths.append(tmp_path / f"case{i}.json")
        write_scenario(sc, paths[-1])
    capsys.readouterr()
    code = main(["check", *map(str, paths), "--json"])
    doc = json.loads(capsys.readouterr().out)
    wants = [reference(sc) for sc in cases]
    assert code == (1 if any(w[1] for w in wants) else 0)
    for sc, want, entry in zip(cases, wants, doc["files"], strict=True):
        b = sc.board
        assert entry["legal"] is not want[1], entry
        assert entry["complete"] is not want[2], entry
        cells = {c for v in entry["violations"] if v["severity"] == "error" for c in v["cells"]}
        assert cells == {b.cell_name(c) for c in want[0]}, entry
        for v in entry["violations"]:
            if v["severity"] == "incomplete":
                assert v["cells"] == []


def edit(sc: Scenario, old: Terrain | Unit, new: Terrain | Unit) -> Scenario:
    return sc.replacing(old, new)


def test_hand_made_final_act_errors() -> None:
    base = FA_BASES[0]  # mirror.json: legal and complete
    b = base.board
    names = lambda cells: {b.cell_name(c) for c in cells}  # noqa: E731
    large = next(t for t in base.terrain if t.kind == "berm-large" and t.side.index == 0)
    # the south large berm pushed up 2 rows: only its cells beyond own row 3 are named
    up = large.moved({c: c + 2 * b.columns for c in large.cells})
    sc = edit(base, large, up)
    outside = {c for c in up.cells if b.row_of(c) >= 3}
    got, want = project(sc), reference(sc)
    assert got == want and got[1] and names(got[0]) >= names(outside)
    # a bent large berm: all its cells
    bent = Terrain(large.kind, large.cells[:2] + (large.cells[1] + b.columns,), large.side)
    sc = edit(base, large, bent)
    got = project(sc)
    assert got == reference(sc) and got[1] and set(bent.cells) <= got[0]
    # a diagonal facing: that unit's cell only
    tank = next(u for u in base.units if u.kind == "tank")
    sc = edit(base, tank, Unit(tank.kind, tank.side, tank.cell, Facing.NE, tank.name))
    assert project(sc) == reference(sc) == ({tank.cell}, True, False)
    # a wreck in a set-up: that unit's cell only
    sc = edit(base, tank, Unit(tank.kind, tank.side, tank.cell, tank.facing, tank.name, wreck=True))
    assert project(sc) == reference(sc) == ({tank.cell}, True, False)
    # one tank removed: incomplete, still legal
    sc = base.removing(tank)
    assert project(sc) == reference(sc) == (set(), False, True)


def test_hand_made_tank_chess_errors() -> None:
    base = TC_BASES[0]  # basic-16: legal and complete
    b = base.board
    cell = b.parse_cell
    heavy = next(u for u in base.units if u.cell == cell("c1"))
    # a third south heavy on h2: too many heavies, so all south heavies are named (c1 m1 h2)
    sc = base.adding(Unit("heavy", heavy.side, cell("h2"), Facing.N))
    want = ({cell("c1"), cell("m1"), cell("h2")}, True, False)
    assert project(sc) == reference(sc) == want
    # the heavy moved onto the obstacle d3: an error on d3 only
    sc = edit(base, heavy, Unit("heavy", heavy.side, cell("d3"), Facing.N))
    assert project(sc) == reference(sc) == ({cell("d3")}, True, False)
    # the heavy removed and an obstacle put on its start cell c1: error on c1, incomplete
    sc = base.removing(heavy).adding(Terrain("obstacle", (cell("c1"),), shape="monomino"))
    assert project(sc) == reference(sc) == ({cell("c1")}, True, True)
