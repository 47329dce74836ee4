"""Problems, inspector and palette docks, and the unit view.

Rule facts (docs/rules.md §1): tanks set up in own rows 1-3 and are named C 1 1A 1B 2 2A 2B (a name
used twice is an error); a minefield's arrow must cross the strip; Extra Forces adds 2 AT
per side. §4: a tank on f1 facing N on an empty 12x12 board has a 24-cell fire zone.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tankmap.editor import commands as cmd
from tankmap.editor import editing
from tankmap.editor.docks.palette import counts_text
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Terrain, Unit
from tankmap.rules.violations import Severity


def test_problems_dock_lists_and_shows_cells(make_window: Any) -> None:
    rs = get_ruleset("final-act")
    s = rs.new_scenario()
    b = s.board
    bad = Unit("tank", Side.SOUTH, b.parse_cell("f5"), Facing.N, "C")
    w = make_window(scenario=s.adding(bad))
    dock = w.problems_dock
    assert dock.violations[0].severity is Severity.ERROR  # errors first
    assert dock.tree.count() == len(w.doc.violations)
    assert "Illegal" in dock.summary.text()
    item = dock.tree.item(0)
    rect = dock.tree.visualItemRect(item)
    QTest.mouseClick(
        dock.tree.viewport(),
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
        rect.center(),
    )
    assert w.doc.selection == (bad,)
    assert w.ctx.scene.problems.cells == (b.parse_cell("f5"),)
    # fixing it updates the list live
    assert editing.move(w.doc, [bad], 0, -3).ok
    assert all(v.severity is not Severity.ERROR for v in w.doc.violations)
    assert "Legal" in dock.summary.text()


def test_inspector_edits_are_undoable_and_checked(make_window: Any) -> None:
    w = make_window()
    b = w.doc.scenario.board
    editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("b1"), Facing.N, "C"))
    editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("c1"), Facing.N, "1"))
    first = w.doc.scenario.units[0]
    w.doc.select([first])
    facing = w.inspector_dock.fields["facing"]
    facing.activated.emit(facing.findData(Facing.E))  # type: ignore[attr-defined]
    assert w.doc.scenario.units[0].facing is Facing.E
    assert facing.findData(Facing.NE) == -1  # Final Act offers orthogonal facings only
    name = w.inspector_dock.fields["name"]
    name.setText("1")  # type: ignore[attr-defined]
    name.editingFinished.emit()  # type: ignore[attr-defined]
    assert w.doc.scenario.units[0].name == "C"  # a name used twice is refused
    assert "Refused" in w.message.text()
    w.run_action("edit.undo")
    assert w.doc.scenario.units[0] == first


def test_inspector_keeps_its_forms_but_never_shows_stale_values(make_window: Any) -> None:
    """The scenario and unit forms are kept while hidden (placing and undoing swaps them on
    every edit) and shown again only while what they show is unchanged."""
    w = make_window()
    dock = w.inspector_dock
    b = w.doc.scenario.board
    tank = Unit("tank", Side.SOUTH, b.parse_cell("b1"), Facing.N, "C")
    editing.place(w.doc, tank)
    w.doc.select([])
    scenario_form = dock.scroll_area.widget()
    title = w.doc.scenario.title
    assert dock.fields["title"].text() == title  # type: ignore[attr-defined]
    w.doc.select([tank])
    unit_form = dock.scroll_area.widget()
    assert dock.fields["facing"].currentData() is Facing.N  # type: ignore[attr-defined]
    w.doc.select([])
    assert dock.scroll_area.widget() is scenario_form  # kept, not built anew
    assert scenario_form.isAncestorOf(dock.fields["title"])  # the fields of the form shown
    w.doc.select([tank])
    assert dock.scroll_area.widget() is unit_form
    w.doc.undo_stack.push(cmd.SetScenarioInfo(w.doc, "Set title", title="Renamed"))
    w.doc.select([])
    assert dock.scroll_area.widget() is not scenario_form  # the title changed: made anew
    assert dock.fields["title"].text() == "Renamed"  # type: ignore[attr-defined]
    turned = replace(tank, facing=Facing.E)
    assert editing.set_property(w.doc, tank, facing=Facing.E).ok
    w.doc.select([turned])
    assert dock.fields["facing"].currentData() is Facing.E  # type: ignore[attr-defined]
    editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("c1"), Facing.N, "1"))
    w.doc.select([turned])
    name = dock.fields["name"]
    name.setText("1")  # type: ignore[attr-defined]
    name.editingFinished.emit()  # type: ignore[attr-defined]
    assert "Refused" in w.message.text()  # a name used twice
    assert dock.fields["name"].text() == "C"  # type: ignore[attr-defined]


def test_inspector_minefield_arrow_and_lane(make_window: Any) -> None:
    w = make_window()
    b = w.doc.scenario.board
    cells = tuple(b.parse_cell(x) for x in ("f5", "g5", "h5"))
    mine = Terrain("minefield", cells, Side.SOUTH, b.parse_cell("g5"), Facing.N)
    assert editing.place(w.doc, mine).ok
    w.doc.select([mine])
    arrow = w.inspector_dock.fields["arrow"]
    arrow.activated.emit(arrow.findData(Facing.E))  # type: ignore[attr-defined]
    assert w.doc.scenario.terrain[0].arrow is Facing.N  # E runs along the strip: refused
    lane = w.inspector_dock.fields["lane"]
    lane.activated.emit(lane.findData(b.parse_cell("h5")))  # type: ignore[attr-defined]
    assert w.doc.scenario.terrain[0].lane == b.parse_cell("h5")


def test_option_change_updates_palette_counts(make_window: Any) -> None:
    w = make_window()
    assert counts_text(w.ctx, "at") == "S 0/0 · N 0/0"
    assert w.inspector_dock.set_option("extra_forces", True).ok
    assert counts_text(w.ctx, "at") == "S 2/2 · N 2/2"
    b = w.doc.scenario.board
    editing.place(w.doc, Unit("tank", Side.SOUTH, b.parse_cell("b1"), Facing.N, "C"))
    assert counts_text(w.ctx, "tank") == "S 6/7 · N 7/7"
    tree = w.palette_dock.list
    rows = [
        [tree.topLevelItem(i).text(c) for c in range(3)] for i in range(tree.topLevelItemCount())
    ]
    assert ["Tank", "6/7", "7/7"] in rows
    w.run_action("edit.undo")
    w.run_action("edit.undo")
    assert w.doc.scenario.options == {}


def test_unit_view_shows_moves_and_fire_zone(make_window: Any) -> None:
    w = make_window()
    b = w.doc.scenario.board
    tank = Unit("tank", Side.SOUTH, b.parse_cell("f1"), Facing.N, "C")
    editing.place(w.doc, tank)
    w.doc.select([tank])
    assert len(w.ctx.scene.fire.cells) == 24
    # forward, forward-left, forward-right; the back moves would leave the board
    assert sorted(b.cell_name(c) for c in w.ctx.scene.moves.cells) == ["e2", "f2", "g2"]
    w.run_action("view.unit_view")  # toggled off
    assert w.ctx.scene.fire.cells == ()


def test_tank_chess_scheme_with_shapes(make_window: Any) -> None:
    w = make_window(scenario=get_ruleset("tank-chess").new_scenario())
    tool = w.ctx.tools["place"]
    w.ctx.set_choice(kind="obstacle", shape=4)  # L-tromino
    w.run_action("tools.place")
    b = w.doc.scenario.board
    assert tool.place_at(b.parse_cell("h8")).ok  # type: ignore[attr-defined]
    (t,) = w.doc.scenario.terrain
    assert t.shape == "L-tromino" and len(t.cells) == 3
    w.ctx.set_choice(kind="command", turns=1)  # turned one eighth: NE
    assert tool.place_at(b.parse_cell("h1")).ok  # type: ignore[attr-defined]
    assert w.doc.scenario.units[0].facing is Facing.NE
    assert not any(v.severity is Severity.ERROR for v in w.doc.violations)


def test_unit_view_reports_a_command_tank_escape(make_window: Any) -> None:
    # docs/rules.md §2.5: a command tank stepping forward off the enemy's edge escapes; on h16
    # facing N (south's command tank) one forward step does it.
    s = get_ruleset("tank-chess").new_scenario()
    clt = Unit("command", Side.SOUTH, s.board.parse_cell("h16"), Facing.N)
    w = make_window(scenario=s.adding(clt))
    w.doc.select([clt])
    assert "escape" in w.ctx.last_status


def test_any_registered_ruleset_gets_a_generic_palette(make_window: Any) -> None:
    from tankmap.rules.registry import register
    from tankmap.rules.ruleset import Ruleset, UnitMove
    from tankmap.rules.scenario import Scenario

    class Sketch(Ruleset):
        """Units may not share a cell (the only rule)."""

        name = "editor-sketch"
        title = "Sketch"
        terrain_kinds = ("rock",)
        unit_kinds = ("pawn",)
        default_board = (6, 6)

        def check(self, scenario: Scenario) -> list[Any]:
            from tankmap.rules.violations import Violation

            seen: set[int] = set()
            out = []
            for u in scenario.units:
                if u.cell in seen:
                    out.append(Violation("shared", Severity.ERROR, "cell taken", (u.cell,)))
                seen.add(u.cell)
            return out

        def moves(self, scenario: Scenario, unit: Unit) -> list[UnitMove]:
            return []

        def fire_zone(self, scenario: Scenario, unit: Unit) -> list[int]:
            return []

    register(Sketch())
    w = make_window(scenario=get_ruleset("editor-sketch").new_scenario())
    assert [e.kind for e in w.doc.palette.entries] == ["pawn", "rock"]
    tool = w.ctx.tools["place"]
    w.ctx.set_choice(kind="pawn")
    assert tool.place_at(0).ok  # type: ignore[attr-defined]
    assert not tool.place_at(0).ok  # type: ignore[attr-defined]  # "cell taken"
    assert "cell taken" in w.message.text()
    w.ctx.set_choice(kind="rock")
    assert tool.place_at(7).ok  # type: ignore[attr-defined]
    assert counts_text(w.ctx, "pawn") == "S 1 · N 0"
