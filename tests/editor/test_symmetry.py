"""Symmetry mode, "copy south setup to north" and "swap sides" (docs/rules.md §0: the mirror is the
180° point rotation (c, r, d) -> (C+1-c, R+1-r, opposite d); a 12x12 board maps column b (2)
to k (11) and row 2 to row 11)."""

from __future__ import annotations

from typing import Any

from editor_helpers import click, drag

from tankmap.editor import editing
from tankmap.editor.pieces import Symmetry
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Unit
from tankmap.rules.violations import is_legal


def names(w: Any) -> set[tuple[str, str, str | None, Facing | None]]:
    b = w.doc.scenario.board
    return {(b.cell_name(u.cell), u.side.value, u.name, u.facing) for u in w.doc.scenario.units}


def test_point_symmetry_places_moves_and_erases_both(make_window: Any) -> None:
    w = make_window()
    w.run_action("symmetry.point")
    assert w.doc.symmetry is Symmetry.POINT
    w.ctx.set_choice(kind="tank")
    w.run_action("tools.place")
    click(w, "b2")
    assert names(w) == {("b2", "south", "C", Facing.N), ("k11", "north", "C", Facing.S)}
    # switching symmetry (saved with the file) and the mirrored placement (one macro)
    assert w.doc.undo_stack.count() == 2
    w.run_action("tools.select")
    drag(w, "b2", "c3")
    # c3 -> column 12+1-3 = 10 (j), row 10
    assert names(w) == {("c3", "south", "C", Facing.N), ("j10", "north", "C", Facing.S)}
    w.run_action("edit.delete")
    assert w.doc.scenario.units == ()
    w.run_action("edit.undo")
    w.run_action("edit.undo")
    assert names(w) == {("b2", "south", "C", Facing.N), ("k11", "north", "C", Facing.S)}
    w.run_action("edit.undo")
    assert w.doc.scenario.units == ()


def test_left_right_symmetry_names_the_image(make_window: Any) -> None:
    w = make_window()
    w.run_action("symmetry.lr")
    w.ctx.set_choice(kind="tank")
    w.run_action("tools.place")
    click(w, "b2")
    # same side, column 2 -> 11 (k); the image needs its own name: the next free one is 1.
    assert names(w) == {("b2", "south", "C", Facing.N), ("k2", "south", "1", Facing.N)}


def test_symmetric_edit_refused_when_the_image_is_illegal(make_window: Any) -> None:
    w = make_window()
    b = w.doc.scenario.board
    editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("k2"), Facing.N, "C"))
    w.set_symmetry(Symmetry.LEFT_RIGHT)
    outcome = editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("b2"), Facing.N, "1"))
    assert not outcome.ok  # the image would share k2 with tank C: one tank per cell
    assert len(w.doc.scenario.units) == 1


def test_copy_south_to_north_and_swap_sides(make_window: Any, repo_root: Any) -> None:
    w = make_window(repo_root / "maps" / "final-act" / "flanks-vs-centre.json")
    b = w.doc.scenario.board
    south = w.doc.scenario.units_of(Side.SOUTH)
    w.run_action("edit.copy_south")
    assert w.ctx.last_status.endswith("(Ctrl+Z to undo)"), w.ctx.last_status
    north = w.doc.scenario.units_of(Side.NORTH)
    assert sorted((b.mirror(u.cell), u.name) for u in south) == sorted(
        (u.cell, u.name) for u in north
    )
    assert all(u.facing is Facing.S for u in north if u.facing is not None) or north
    assert is_legal(w.doc.violations)
    before = w.doc.scenario
    w.run_action("edit.swap_sides")
    assert w.ctx.last_status.endswith("(Ctrl+Z to undo)"), w.ctx.last_status
    assert {(b.mirror(u.cell), u.side.other) for u in before.units} == {
        (u.cell, u.side) for u in w.doc.scenario.units
    }
    w.run_action("edit.undo")
    assert w.doc.scenario == before


def test_inspector_edit_is_mirrored_in_symmetry_mode(make_window: Any) -> None:
    w = make_window()
    w.set_symmetry(Symmetry.POINT)
    b = w.doc.scenario.board
    assert editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("b2"), Facing.N, "C")).ok
    south = w.doc.scenario.units[0]
    assert editing.set_property(w.doc, south, facing=Facing.E).ok
    # E turned 180° is W on the image at k11
    assert names(w) == {("b2", "south", "C", Facing.E), ("k11", "north", "C", Facing.W)}
