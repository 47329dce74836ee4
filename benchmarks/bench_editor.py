"""Editor latency: from an edit to the scene, problems dock, inspector and unit view updated
(events processed), on a full 20×20 Tank Chess scenario (maps/tank-chess/sample-20.json).
Target: under 16 ms (one frame at 60 Hz)."""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "maps" / "tank-chess" / "sample-20.json"


def _times(fn: Callable[[], object], after: Callable[[], object], n: int) -> dict[str, float]:
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
        after()
    samples.sort()
    return {
        "median_ms": round(statistics.median(samples), 3),
        "p95_ms": round(samples[int(0.95 * (len(samples) - 1))], 3),
    }


def run() -> dict[str, Any]:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from tankmap.editor import editing
    from tankmap.editor.autosave import Autosave
    from tankmap.editor.mainwindow import MainWindow
    from tankmap.rules.fileformat import read_scenario

    app = QApplication.instance() or QApplication([])
    tmp = Path(tempfile.mkdtemp(prefix="tankmap-bench-"))

    class _Never:
        def __getattr__(self, name: str) -> Any:
            raise RuntimeError(f"benchmark asked the user: {name}")

    scenario = read_scenario(MAP)
    window = MainWindow(
        scenario=scenario,
        prompter=_Never(),  # type: ignore[arg-type]
        settings=QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat),
        autosave=Autosave(tmp / "autosave", 3_600_000),
        offer_recovery=False,
    )
    window.resize(1400, 900)
    window.show()
    app.processEvents()
    doc = window.doc
    rs = doc.ruleset
    unit = next(u for u in scenario.units if u.kind == "light")
    assert editing.erase(doc, [unit]).ok
    app.processEvents()
    taken = {u.cell for u in doc.scenario.units}
    taken |= {c for t in doc.scenario.terrain for c in t.cells}
    free = sorted(rs.setup_cells(doc.scenario, unit.side) - taken)
    spots = [replace(unit, cell=c) for c in free]
    legal = [p for p in spots if editing.preview(doc, p).ok]
    cycle = iter(range(10**9))

    def place(paint: bool) -> Callable[[], None]:
        def go() -> None:
            doc._checked.clear()  # a new cell: the rules check it afresh
            piece = legal[next(cycle) % len(legal)]
            assert editing.place(doc, piece).ok
            if paint:
                app.processEvents()

        return go

    def undo() -> None:
        doc.undo_stack.undo()
        app.processEvents()

    update = _times(place(False), undo, 60)
    painted = _times(place(True), undo, 60)
    check = _times(lambda: rs.check(doc.scenario), lambda: None, 30)
    preview = _times(
        lambda: (doc._checked.clear(), editing.preview(doc, legal[0])), lambda: None, 30
    )
    assert editing.place(doc, unit).ok  # back to the full scenario
    doc.select([unit])
    app.processEvents()

    def move() -> None:
        doc._checked.clear()
        outcome = editing.move(doc, doc.selection, 0, 1)
        if not outcome.ok:
            editing.move(doc, doc.selection, 0, -1)
        app.processEvents()

    moved = _times(move, undo, 40)
    window.doc.undo_stack.setClean()
    window.close()
    return {
        "map": str(MAP.relative_to(ROOT)),
        "pieces": len(scenario.units) + len(scenario.terrain),
        "legal_cells_tried": len(legal),
        "place_to_scene_and_docks_updated_ms": update,
        "place_to_updated_and_painted_offscreen_ms": painted,
        "ruleset_check_ms": check,
        "hover_preview_ms": preview,
        "move_selected_unit_with_unit_view_painted_ms": moved,
        "target_ms": 16,
    }
