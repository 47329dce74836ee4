"""Board overlays computed from the rules and the analysis package.

- **Unit view**: with exactly one unit selected, its legal move destinations (dots) and its
  fire zone (orange cells), from ``ruleset.moves`` and ``ruleset.fire_zone``.
- **Analysis overlay** (View menu): a side's fire coverage (how many units fire at each cell)
  or reach (fewest turns to stand there), from ``analysis.live.live_overlays``; or its
  lanes, choke point and safest route (``analysis.lanes``: networkx flows of 0.1-0.4 s,
  computed by a background ``ThreadJob`` after the edits settle, one job at a time). Coverage is
  computed on the GUI thread (fast); reach tables that are not cached yet are built on a
  worker thread and the overlay appears when they are ready. Without ``analysis.live`` the
  coverage falls back to summing ``ruleset.fire_zone`` and reach is unavailable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal
from PySide6.QtGui import QColor

from tankmap.editor.context import EditorContext
from tankmap.editor.jobs import ThreadJob
from tankmap.editor.palette_data import piece_label
from tankmap.rules.geometry import Side
from tankmap.rules.ruleset import UnitMove
from tankmap.rules.scenario import Scenario, Unit
from tankmap.rules.steps import step_word


def unit_view_text(label: str, moves: Sequence[UnitMove], fire_cells: int) -> str:
    """The status line of the unit view: ``Tank 1: 10 legal moves to 5 cells (green dots),
    3 cells in its fire zone (orange)`` plus the escape note when it can leave the board."""
    cells = len({m.to for m in moves if m.to is not None})
    move_word = "legal move" if len(moves) == 1 else "legal moves"
    cell_word = "cell" if cells == 1 else "cells"
    escape = " · can escape off the board this turn" if any(m.to is None for m in moves) else ""
    return (
        f"{label}: {len(moves)} {move_word} to {cells} {cell_word} (green dots), "
        f"{fire_cells} cells in its fire zone (orange){escape}"
    )


class _Done(QObject):
    finished = Signal(object)


class _Warm(QRunnable):
    def __init__(self, scenario: Scenario, done: _Done) -> None:
        super().__init__()
        self.scenario, self.done = scenario, done

    def run(self) -> None:
        try:
            from tankmap.analysis.live import warm

            warm(self.scenario)
        finally:
            self.done.finished.emit(self.scenario)


COVERAGE_COLOURS = {Side.SOUTH: "#e65100", Side.NORTH: "#6a1b9a"}
REACH_COLOUR = "#00838f"


class OverlayController(QObject):
    """Keeps the scene's unit-view and heat-map overlays in line with the document.

    ``changed`` is emitted after every refresh (the legend follows it); ``unit_shown`` says
    whether the unit view is on the board, ``heat_range`` the lowest and highest number of
    the heat map shown (``None`` without one)."""

    changed = Signal()

    def __init__(self, ctx: EditorContext) -> None:
        super().__init__(ctx)
        self.ctx = ctx
        self.mode = ""
        self.unit_shown = False
        self.heat_range: tuple[int, int] | None = None
        self._done = _Done()
        self._done.finished.connect(self._warmed)
        self._warming: Scenario | None = None
        self.lanes_job: ThreadJob | None = None
        self.lanes_result: tuple[Scenario, Side, Any] | None = None

    # --- unit view --------------------------------------------------------------------------
    def refresh_unit_view(self) -> None:
        self._unit_view()
        self.changed.emit()

    def _unit_view(self) -> None:
        ctx = self.ctx
        sel = ctx.doc.selection
        self.unit_shown = False
        if not ctx.unit_view or len(sel) != 1 or not isinstance(sel[0], Unit) or sel[0].wreck:
            ctx.scene.set_unit_view((), ())
            return
        unit = sel[0]
        try:
            moves = ctx.doc.ruleset.moves(ctx.doc.scenario, unit)
            fire = ctx.doc.ruleset.fire_zone(ctx.doc.scenario, unit)
        except Exception as exc:  # noqa: BLE001 - an overlay must never break editing
            ctx.scene.set_unit_view((), ())
            ctx.say(f"No unit view for {piece_label(ctx.doc.palette, unit)}: {exc}")
            return
        targets = sorted({m.to for m in moves if m.to is not None})
        ctx.scene.set_unit_view(targets, fire)
        self.unit_shown = True
        ctx.say(unit_view_text(piece_label(ctx.doc.palette, unit), moves, len(fire)))

    # --- analysis overlay -------------------------------------------------------------------
    def set_mode(self, mode: str) -> None:
        """Show the analysis overlay ``mode`` (``coverage-south`` …; ``""``: none). Turning
        the overlay off says so, so the status line never keeps the overlay's words."""
        was, self.mode = self.mode, mode
        self.refresh()
        if was and not mode:
            self.ctx.say("Analysis overlay off")

    def refresh(self) -> None:
        """Recompute everything shown (called after each edit)."""
        self._unit_view()
        self.heat_range = None
        self._overlay()
        self.changed.emit()

    def _overlay(self) -> None:
        scene = self.ctx.scene
        if not self.mode.startswith("lanes"):
            scene.lanes.set_lanes(())
        if not self.mode:
            scene.heat.set_values({}, {}, QColor())
            return
        kind, side_name = self.mode.split("-")
        side = Side(side_name)
        scenario = self.ctx.doc.scenario
        if kind == "lanes":
            scene.heat.set_values({}, {}, QColor())
            self._lanes(scenario, side)
            return
        if kind == "coverage":
            grid = self._coverage(scenario, side)
            colour = QColor(COVERAGE_COLOURS[side])
            top = max((v for row in grid for v in row), default=0) or 1
            values = {c: grid[r][k] / top for c, (r, k) in self._cells(scenario) if grid[r][k]}
            labels = {c: str(grid[r][k]) for c, (r, k) in self._cells(scenario) if grid[r][k]}
            scene.heat.set_values(values, labels, colour)
            shown = [int(grid[r][k]) for _, (r, k) in self._cells(scenario) if grid[r][k]]
            self.heat_range = (min(shown), max(shown)) if shown else None
            self.ctx.say(f"Fire coverage of {self._name(side)}: {len(values)} cells under fire")
            return
        reach = self._reach(scenario, side)
        if reach is None:
            scene.heat.set_values({}, {}, QColor())
            return
        top = max((v for row in reach for v in row), default=0) or 1
        cells = self._cells(scenario)
        values = {c: 1 - reach[r][k] / (top + 1) for c, (r, k) in cells if reach[r][k] >= 0}
        labels = {c: str(reach[r][k]) for c, (r, k) in cells if reach[r][k] >= 0}
        scene.heat.set_values(values, labels, QColor(REACH_COLOUR))
        shown = [int(reach[r][k]) for _, (r, k) in cells if reach[r][k] >= 0]
        self.heat_range = (min(shown), max(shown)) if shown else None
        unit = step_word(scenario.ruleset) + "s"
        self.ctx.say(f"Reach of {self._name(side)}: {unit} to stand on each cell")

    def _name(self, side: Side) -> str:
        return self.ctx.doc.ruleset.side_names()[side]

    @staticmethod
    def _cells(scenario: Scenario) -> list[tuple[int, tuple[int, int]]]:
        b = scenario.board
        return [(c, (b.row_of(c), b.col_of(c))) for c in range(b.size)]

    def _coverage(self, scenario: Scenario, side: Side) -> Any:
        try:
            from tankmap.analysis.live import live_overlays
        except ImportError:
            b = scenario.board
            grid = [[0] * b.columns for _ in range(b.rows)]
            rs = self.ctx.doc.ruleset
            for u in scenario.units_of(side):
                if not u.wreck:
                    for c in rs.fire_zone(scenario, u):
                        grid[b.row_of(c)][b.col_of(c)] += 1
            return grid
        return live_overlays(scenario, reach=False).coverage[side].tolist()

    def _reach(self, scenario: Scenario, side: Side) -> Any:
        try:
            from tankmap.analysis.live import live_overlays, reach_ready
        except ImportError:
            self.ctx.say("Reach needs the analysis package")
            return None
        if not reach_ready(scenario):
            if self._warming != scenario:
                self._warming = scenario
                QThreadPool.globalInstance().start(_Warm(scenario, self._done))
            self.ctx.say("Computing reach…")
            return None
        return live_overlays(scenario).reach[side].tolist()

    # --- lanes (networkx flows: 0.1-0.4 s, so off the GUI thread) -------------------------
    def _lanes(self, scenario: Scenario, side: Side) -> None:
        """Show ``side``'s lanes, choke and safest route for ``scenario``: from the last
        result if it is for this board, else computed by a background job (one at a time;
        edits made meanwhile are picked up when it ends)."""
        done = self.lanes_result
        if done is not None and done[0] == scenario and done[1] is side:
            self._show_lanes(side, done[2])
            return
        self.ctx.scene.lanes.set_lanes(())
        if self.lanes_job is not None and self.lanes_job.running():
            self.ctx.say(f"Finding the lanes of {self._name(side)}…")
            return  # _lanes_done starts the next one for the board as it is then
        from tankmap.analysis.lanes import analyse_lanes
        from tankmap.analysis.live import LOCK, live_overlays

        enemy = live_overlays(scenario, reach=False, check=False).coverage[side.other]

        def work() -> tuple[Scenario, Side, Any]:
            with LOCK:  # movement-table caches are shared with the other analysis users
                return scenario, side, analyse_lanes(scenario, side, enemy.ravel())

        job = ThreadJob(work)
        job.finished.connect(self._lanes_done)
        job.failed.connect(self._lanes_failed)
        self.lanes_job = job
        self.ctx.say(f"Finding the lanes of {self._name(side)}…")
        job.start()

    def _lanes_done(self, result: object) -> None:
        if self.lanes_job is not None:
            self.lanes_job.wait()
        self.lanes_result = result  # type: ignore[assignment]
        if self.mode.startswith("lanes"):
            self.refresh()  # shows it, or starts the job for the board as it is now

    def _lanes_failed(self, message: str) -> None:
        if self.lanes_job is not None:
            self.lanes_job.wait()
        self.ctx.say(f"No lanes: {message}")

    def _show_lanes(self, side: Side, la: Any) -> None:
        safest = la.safest.cells if la.safest is not None else ()
        self.ctx.scene.lanes.set_lanes([lane.cells for lane in la.lanes], la.choke, safest)
        if not la.applicable:
            self.ctx.say("Lanes: no unit of this game wins by moving")
        elif not la.lanes:
            self.ctx.say(f"Lanes of {self._name(side)}: no way through to the goal")
        else:
            board = self.ctx.doc.scenario.board
            cells = " ".join(board.cell_name(c) for c in la.choke)
            self.ctx.say(
                f"Lanes of {self._name(side)}: {len(la.lanes)} cell-disjoint lanes (coloured), "
                f"choke width {len(la.choke)} ({cells}, black), safest route dashed"
            )

    def stop(self) -> None:
        """Wait for a lanes job still running (before the window goes away)."""
        if self.lanes_job is not None:
            self.lanes_job.wait()

    def _warmed(self, scenario: object) -> None:
        self._warming = None
        if scenario == self.ctx.doc.scenario and self.mode.startswith("reach"):
            self.refresh()
