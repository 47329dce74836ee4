"""View ▸ Lanes and choke point: the overlay shows ``analysis.lanes`` of the board as it is
(computed in the background), follows edits, and clears when another overlay is chosen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tankmap import maps
from tankmap.analysis.lanes import analyse_lanes
from tankmap.analysis.live import live_overlays
from tankmap.editor.mainwindow import MainWindow
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario

FLANKS = maps.builtin_maps("final-act")[1]
BASIC = maps.builtin_maps("tank-chess")[0]
TW = maps.builtin_maps("tank-wars")[0]


def expected(scenario: Scenario, side: Side) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
    enemy = live_overlays(scenario, reach=False, check=False).coverage[side.other].ravel()
    la = analyse_lanes(scenario, side, enemy)
    return [lane.cells for lane in la.lanes], la.choke


def shown(w: MainWindow) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
    return list(w.ctx.scene.lanes.lanes), w.ctx.scene.lanes.choke


def test_paths() -> None:
    assert (FLANKS.name, BASIC.name, TW.name) == (
        "flanks-vs-centre.json",
        "basic-16.json",
        "default.json",
    )


def test_lanes_overlay_shows_the_analysis_and_follows_edits(
    make_window: Callable[..., MainWindow], qtbot: Any
) -> None:
    w = make_window(FLANKS)
    w.run_action("view.overlay_lanes_south")
    assert "Finding the lanes of South" in w.message.text()
    qtbot.waitUntil(lambda: bool(w.ctx.scene.lanes.lanes), timeout=60_000)
    lanes, choke = shown(w)
    assert (lanes, choke) == expected(w.doc.scenario, Side.SOUTH)
    assert len(lanes) == 5 and len(choke) == 5  # flanks-vs-centre: 5 lanes, choke width 5
    assert "5 cell-disjoint lanes" in w.message.text()
    assert w.ctx.scene.lanes.safest  # the dashed least-exposed route
    # an edit: swapping the sides gives south north's set-up and terrain to go through
    before = w.doc.scenario
    assert w.swap_sides().ok and w.doc.scenario != before
    qtbot.waitUntil(
        lambda: shown(w) == expected(w.doc.scenario, Side.SOUTH) and bool(shown(w)[0]),
        timeout=60_000,
    )
    w.run_action("view.overlay_cov_south")
    assert w.ctx.scene.lanes.lanes == () and w.ctx.scene.lanes.choke == ()
    w.run_action("view.overlay_lanes_north")
    qtbot.waitUntil(lambda: bool(w.ctx.scene.lanes.lanes), timeout=60_000)
    assert shown(w) == expected(w.doc.scenario, Side.NORTH)


def test_lanes_overlay_on_tank_chess_and_a_game_without_lanes(
    make_window: Callable[..., MainWindow], qtbot: Any
) -> None:
    w = make_window(BASIC)
    w.run_action("view.overlay_lanes_north")
    qtbot.waitUntil(lambda: bool(w.ctx.scene.lanes.lanes), timeout=60_000)
    assert shown(w) == expected(w.doc.scenario, Side.NORTH)
    w.open_file(TW)
    w.run_action("view.overlay_lanes_south")
    qtbot.waitUntil(lambda: "wins by moving" in w.message.text(), timeout=60_000)
    assert shown(w) == ([], ())
