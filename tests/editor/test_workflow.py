"""The issue's "done when": build a complete legal Final Act setup for both sides with the
tools, save it, reopen it. Also the PySide6 reference-count guard.

Setup (docs/rules.md §1.2, base game, per side): 7 tanks in own rows 1-3, a 1x3 large berm and two
1x2 small berms in rows 1-3, a 2x2 swamp and a 1x3 minefield (lane + arrow across the strip)
in rows 1-6, no overlaps, no tank on a swamp or minefield. Chosen by hand for south: tanks
a1..g1; large berm c3-e3; small berms h3-i3 and j2-k2; swamp f5 g5 f6 g6; minefield a5-c5
with lane b5 and arrow N. North is copied as the 180° mirror, which keeps every rule.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from editor_helpers import click

from tankmap.rules.fileformat import canonical, read_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.violations import is_complete, is_legal


def test_build_a_complete_final_act_setup(make_window: Any, prompter: Any, tmp_path: Path) -> None:
    w = make_window()
    w.run_action("tools.place")
    w.ctx.set_choice(kind="tank")
    for col in "abcdefg":
        click(w, f"{col}1")
    for kind, anchor in (
        ("berm-large", "d3"),
        ("berm-small", "h3"),
        ("berm-small", "j2"),
        ("swamp", "f5"),
        ("minefield", "b5"),
    ):
        w.ctx.set_choice(kind=kind, shape=0, turns=0, mirrored=False)
        click(w, anchor)
    s = w.doc.scenario
    b = s.board
    assert len(s.units) == 7 and len(s.terrain) == 5, w.message.text()
    mine = next(t for t in s.terrain if t.kind == "minefield")
    assert (b.cell_name(mine.lane or 0), mine.arrow) == ("b5", Facing.N)
    assert sorted(u.name or "" for u in s.units) == sorted(["C", "1", "1A", "1B", "2", "2A", "2B"])
    assert is_legal(w.doc.violations) and not is_complete(w.doc.violations)
    w.run_action("edit.copy_south")
    assert is_legal(w.doc.violations) and is_complete(w.doc.violations)
    assert "Legal and complete" in w.problems_dock.summary.text()
    assert len(w.doc.scenario.units_of(Side.NORTH)) == 7
    prompter.save = str(tmp_path / "built.json")
    w.run_action("file.save_as")
    assert read_scenario(tmp_path / "built.json") == canonical(w.doc.scenario)  # as saved


def test_many_qt_calls_do_not_exhaust_none(make_window: Any) -> None:
    from tankmap.editor import qtguard

    w = make_window()
    for _ in range(30_000):  # each void call used to drop a reference to None
        w.message.setText("x")
    assert sys.getrefcount(None) > 1_000
    assert isinstance(qtguard.GUARDED, bool)
