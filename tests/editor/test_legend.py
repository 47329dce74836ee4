"""The Legend dock explains what the board shows now (issue 18 item 1): the sides' tokens,
setup areas and Final Act range-marker bars always; error cells while there are errors; the
unit view while a unit is selected; the analysis overlay's colour scale and numbers, or its
lanes, choke cells and safest route, while one is on."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel, QWidget

from tankmap import maps
from tankmap.editor.docks.legend import Entry, swatch
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Unit

MIRROR = maps.ROOT / "final-act" / "mirror.json"
BARS = "Bars beside the rows: the printed board's range markers (rows r and r + 6 share a colour)"


def test_board_entries_and_the_overlay_key_first(make_window: Any) -> None:
    w = make_window(MIRROR)
    legend = w.legend_dock
    assert legend.isVisible() and w.docks["legend"].isVisible()
    texts = legend.texts()
    assert texts[0] == "Board"
    assert "South unit (the barrel points where it faces)" in texts
    assert "North's setup area" in texts and BARS in texts
    w.run_action("view.overlay_cov_south")
    texts = legend.texts()
    assert texts[:2] == [
        "Fire coverage of South",
        "Number in a cell: South units that can fire at it (1 to 3 on this board); "
        "darker = more; no colour: none",
    ]
    assert BARS in texts  # the board's entries stay below
    w.run_action("view.overlay_lanes_north")
    assert legend.texts()[0] == "Lanes of North"
    assert "Choke cell: the fewest cells that close every lane" in legend.texts()
    w.run_action("view.overlay_none")
    assert legend.texts()[0] == "Board"


def test_unit_view_and_error_entries_come_and_go(make_window: Any) -> None:
    s = read_scenario(MIRROR)
    w = make_window(
        scenario=s.with_units([*s.units, Unit("tank", Side.SOUTH, s.units[0].cell, Facing.N, "X")])
    )
    texts = w.legend_dock.texts()
    assert "A cell of an error (Problems dock)" in texts and "Selected unit" not in texts
    w.doc.select([w.doc.scenario.units[3]])
    texts = w.legend_dock.texts()
    assert texts[texts.index("Selected unit") + 1] == "Where a legal move can end"
    w.doc.select([])
    assert "Selected unit" not in w.legend_dock.texts()


def test_tank_chess_sides_are_white_and_black_without_range_bars(make_window: Any) -> None:
    w = make_window(maps.ROOT / "tank-chess" / "basic-16.json")
    texts = w.legend_dock.texts()
    assert "White unit (the barrel points where it faces)" in texts
    assert "Black unit (the barrel points where it faces)" in texts
    assert "White's setup area" in texts and "Black's setup area" in texts
    assert not any("south" in t.lower() or "north" in t.lower() for t in texts)
    assert not any(t.startswith("Bars beside") for t in texts)


def test_swatches_draw_the_marks(qtbot: Any) -> None:
    ramp = swatch(Entry("ramp", ("#e65100",), "")).toImage()
    light, dark = ramp.pixelColor(3, 8), ramp.pixelColor(ramp.width() - 4, 8)
    assert light.alpha() < dark.alpha()  # darker = more, as on the board
    disc = swatch(Entry("disc", ("#f7f6f2", "#1a1a1a"), "")).toImage()
    centre = disc.pixelColor(disc.width() // 2, disc.height() // 2)
    assert centre == QColor("#f7f6f2")


def _on_screen(legend: Any) -> list[str]:
    """The texts of the legend's shown labels, top to bottom (headings without markup)."""
    column = legend.column
    pages = [column.itemAt(i).widget() for i in range(column.count())]
    pages += [p for p in legend.scroll_area.widget().findChildren(QWidget) if p not in pages]
    out = []
    for page in pages:
        if page is None or page.isHidden() or page.parent() is not legend.scroll_area.widget():
            continue
        labels = [w for w in page.findChildren(QLabel) if w.text()]
        labels.sort(key=lambda w: w.y())
        out.extend(w.text().removeprefix("<b>").removesuffix("</b>") for w in labels)
    return out


def test_kept_sections_show_what_the_board_shows_now(make_window: Any) -> None:
    """Sections are kept and shown again (not rebuilt); the page never shows a stale one."""
    s = read_scenario(MIRROR)
    w = make_window(
        scenario=s.with_units([*s.units, Unit("tank", Side.SOUTH, s.units[0].cell, Facing.N, "X")])
    )
    legend = w.legend_dock
    assert _on_screen(legend) == legend.texts()
    w.doc.select([w.doc.scenario.units[3]])
    page = _page(legend, "Selected unit")
    assert _on_screen(legend) == legend.texts()
    w.doc.select([])
    assert "Selected unit" not in _on_screen(legend)
    w.run_action("view.overlay_cov_south")
    assert _on_screen(legend) == legend.texts()
    assert _on_screen(legend)[0] == "Fire coverage of South"
    w.run_action("view.overlay_none")
    w.doc.select([w.doc.scenario.units[3]])
    assert _on_screen(legend) == legend.texts()
    assert _page(legend, "Selected unit") is page


def _page(legend: Any, heading: str) -> Any:
    return next(p for (h, _), p in legend._pages.items() if h == heading)


def test_tank_wars_units_have_no_barrel_in_the_legend(make_window: Any) -> None:
    # (Tank Wars vehicles face nowhere: their tokens are drawn without a barrel)
    w = make_window(maps.ROOT / "tank-wars" / "default.json")
    texts = w.legend_dock.texts()
    assert "South unit" in texts
    assert not any("barrel" in t for t in texts)


def test_the_board_s_terrain_kinds_are_in_the_legend(make_window: Any, qtbot: Any) -> None:
    """Berms, swamps and minefields (and Tank Chess obstacles) on the board are explained
    too, with a swatch drawn as the board draws them; kinds not on the board are not."""
    w = make_window(MIRROR)
    labels = {e.kind: e.label for e in w.doc.palette.entries if not e.is_unit}
    texts = w.legend_dock.texts()
    for kind in ("berm-large", "berm-small", "swamp", "minefield"):
        assert labels[kind] in texts
    w2 = make_window(maps.ROOT / "tank-chess" / "basic-16.json")
    tc = {e.kind: e.label for e in w2.doc.palette.entries if not e.is_unit}
    assert tc["obstacle"] in w2.legend_dock.texts()
    blank = make_window(maps.ROOT / "tank-chess" / "blank-16.json")
    assert tc["obstacle"] not in blank.legend_dock.texts()
    pix = swatch(Entry("terrain", ("#8d6e63", "swamp"), "Swamp"))
    assert not pix.isNull() and pix.toImage().pixelColor(17, 8).alpha() > 0
