"""The editor's board (Qt) and the reports' board (matplotlib, ``tankmap render``) take their
colours and token shapes from one style module, ``tankmap.analysis.board_style`` (issue 18
item 5): the same spots of the same board come out in the same colours in both pictures,
and the style's colours are what both draw (a changed style colour shows in both)."""

from __future__ import annotations

import gc
from typing import Any

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QImage, QPainter

from tankmap.analysis import board_style as st
from tankmap.analysis.board_figure import board_figure
from tankmap.editor.export import _scene
from tankmap.editor.tokens import CELL
from tankmap.rules.board import Board
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Terrain, Unit

BOARD = Board.of(12, 12)
BERM = Terrain(
    "berm-large", (BOARD.parse_cell("d6"), BOARD.parse_cell("e6"), BOARD.parse_cell("f6"))
)
TANK = Unit("tank", Side.SOUTH, BOARD.parse_cell("h6"), Facing.N, "C")
AT = Unit("at", Side.NORTH, BOARD.parse_cell("b6"), Facing.S)
SCENARIO = Scenario("final-act", BOARD, terrain=(BERM,), units=(TANK, AT))

# spots clear of hatch lines, letters and barrels: (cell, dx, dy in cells, y up)
SPOTS = {
    "berm": ("e6", 0.25, 0.0),  # between the diagonal hatch lines
    "blank light cell": ("a6", 0.0, 0.0),  # col 0 + row 5 (0-based) odd: light
    "blank dark cell": ("a5", 0.0, 0.0),
    "tank token": ("h6", -0.2, -0.2),  # inside the rounded square, off its letter
    "AT token": ("b6", 0.0, 0.2),  # inside the triangle's upper part, above its letters
}


def _close(a: tuple[int, int, int], b: str, tol: int = 12) -> bool:
    c = QColor(b)
    return max(abs(a[0] - c.red()), abs(a[1] - c.green()), abs(a[2] - c.blue())) <= tol


Spots = dict[str, tuple[str, float, float]]


def _report_pixels(scenario: Scenario, spots: Spots = SPOTS) -> dict[str, tuple[int, int, int]]:
    fig = board_figure(scenario)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    image = np.asarray(canvas.buffer_rgba())
    ax = fig.axes[0]
    out = {}
    for name, (cell, dx, dy) in spots.items():
        c = scenario.board.parse_cell(cell)
        x, y = ax.transData.transform(
            (scenario.board.col_of(c) + dx, scenario.board.row_of(c) + dy)
        )
        px = image[image.shape[0] - int(round(y)), int(round(x))]
        out[name] = (int(px[0]), int(px[1]), int(px[2]))
    return out


def _editor_pixels(scenario: Scenario, spots: Spots = SPOTS) -> dict[str, tuple[int, int, int]]:
    scene, _doc = _scene(scenario)
    rect = scene.sceneRect()
    image = QImage(int(rect.width()), int(rect.height()), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    p = QPainter(image)
    scene.render(p, image.rect().toRectF(), rect)
    p.end()
    out = {}
    for name, (cell, dx, dy) in spots.items():
        point = scene.geo.centre(scenario.board.parse_cell(cell)) + QPointF(dx * CELL, -dy * CELL)
        point -= rect.topLeft()
        c = QColor(image.pixel(int(point.x()), int(point.y())))
        out[name] = (c.red(), c.green(), c.blue())
    del scene, _doc
    gc.collect()  # the scene and document go here, in the GUI thread (not in a later GC run
    # on a worker thread of another test, which Qt would abort on)
    return out


def _expected() -> dict[str, str]:
    return {
        "berm": st.terrain_look("berm-large").fill,
        "blank light cell": st.BOARD_LIGHT,
        "blank dark cell": st.BOARD_DARK,
        "tank token": st.side_look("final-act", Side.SOUTH)[0],
        "AT token": st.side_look("final-act", Side.NORTH)[0],
    }


def test_editor_and_report_draw_the_same_colours(make_window: Any) -> None:
    make_window()  # a QApplication
    report, editor = _report_pixels(SCENARIO), _editor_pixels(SCENARIO)
    for name, colour in _expected().items():
        assert _close(report[name], colour), (name, report[name], colour)
        assert _close(editor[name], colour), (name, editor[name], colour)


def test_a_changed_style_colour_shows_in_both(
    make_window: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_window()
    look = st.TERRAIN["berm-large"]
    monkeypatch.setitem(
        st.TERRAIN, "berm-large", st.TerrainLook("#00ff00", look.hatch, "#000000", "x")
    )
    monkeypatch.setattr(st, "BOARD_LIGHT", "#ff00ff")
    report, editor = _report_pixels(SCENARIO), _editor_pixels(SCENARIO)
    for pixels in (report, editor):
        assert _close(pixels["berm"], "#00ff00") and _close(pixels["blank light cell"], "#ff00ff")


def test_token_shapes_differ_per_kind() -> None:
    # Final Act: tank rounded square, AT triangle, R/M circle with a cross
    assert (st.token_look("tank").shape, st.token_look("at").shape) == ("rounded", "triangle")
    assert st.token_look("rm") == st.TokenLook("circle", True, "circle with a cross")
    # Tank Chess: six pieces, six shapes
    kinds = ("command", "light", "medium", "heavy", "destroyer", "mortar")
    assert len({st.token_look(k).shape for k in kinds}) == 6
    # the triangle's corners: apex up, base below the centre
    (ax, ay), (bx, by), (cx, cy) = st.token_polygon("triangle")
    assert ax == 0 and ay > 1 and by == cy < 0 and bx == -cx


def test_legend_dock_and_palette_name_the_token_shapes(make_window: Any) -> None:
    from tankmap import maps

    w = make_window(maps.ROOT / "final-act" / "extra-forces.json")
    texts = w.legend_dock.texts()
    for line in ("Rounded square: tank", "Triangle: AT", "Circle with a cross: R/M"):
        assert line in texts
    w = make_window(maps.ROOT / "tank-chess" / "basic-16.json")
    shapes = [t for t in w.legend_dock.texts() if ": " in t and t.endswith("tank")]
    assert len(shapes) == 4  # command, light, medium, heavy: one shape each
    assert w.doc.palette.entry("obstacle").colour == st.terrain_look("obstacle").fill


def test_a_built_in_tank_chess_board_matches_too(make_window: Any) -> None:
    from tankmap import maps
    from tankmap.rules.fileformat import read_scenario

    make_window()
    s = read_scenario(maps.ROOT / "tank-chess" / "basic-16.json")
    b = s.board
    obstacle = b.cell_name(s.terrain[0].cells[0])
    white = next(u for u in s.units if u.side is Side.SOUTH and u.kind == "heavy")
    black = next(u for u in s.units if u.side is Side.NORTH and u.kind == "heavy")
    spots: Spots = {
        "obstacle": (obstacle, 0.25, 0.25),  # clear of the brick lines
        "white heavy": (b.cell_name(white.cell), -0.25, -0.25),  # in the square, off the code
        "black heavy": (b.cell_name(black.cell), 0.25, 0.25),
    }
    expected = {
        "obstacle": st.terrain_look("obstacle").fill,
        "white heavy": st.side_look("tank-chess", Side.SOUTH)[0],
        "black heavy": st.side_look("tank-chess", Side.NORTH)[0],
    }
    report, editor = _report_pixels(s, spots), _editor_pixels(s, spots)
    for name, colour in expected.items():
        assert _close(report[name], colour), (name, report[name], colour)
        assert _close(editor[name], colour), (name, editor[name], colour)
