"""Session-3 polish: full palette names, readable unit stats, the first window size,
the recovery prompt's wording, the north setup sheet drawn from north's seat, toolbar icons.

Rule facts used (RULES.md): §1.2/1.6 a Final Act tank takes 2 hits, fires, blocks fire and
moves forward/back/diagonally (never sideways); §1.3 the AT does not block fire;
§2.1 Tank Chess heavy tank: speed 3, gun 3, armour 3/2/1; §3 Tank Wars heavy tank: 3 armour
points, moves straight 1 or 2 (provisional).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QRect, QSettings

from editor.autosave import Autosave
from editor.mainwindow import MainWindow, initial_geometry
from editor.stats import stat_rows
from rules.registry import get_ruleset

MAPS = Path(__file__).resolve().parents[2] / "maps"


def test_palette_shows_full_tank_chess_names(make_window: Any) -> None:
    w = make_window(MAPS / "tank-chess" / "sample-20.json")
    tree = w.palette_dock.list
    w.palette_dock.resize(120, 400)  # a narrow dock must not squeeze the names
    assert tree.minimumWidth() > 0
    header = tree.header()
    fm = tree.fontMetrics()
    names = [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())]
    assert "Tank destroyer" in names and "Command tank" in names
    widest = max(fm.horizontalAdvance(n) for n in names)
    w.palette_dock.resize(w.palette_dock.minimumSizeHint().width(), 400)
    # the icon (22 px) + the longest name fit in the piece column
    assert header.sectionSize(0) >= widest + 22
    row = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())][-1]
    assert row.text(0) == "Obstacle"
    # sample-20 has 16 obstacle pieces of the box's 26 (RULES §2.2): 10 left, shared
    assert (row.text(1), row.text(2)) == ("10/26", "shared")
    assert "16 placed" in row.toolTip(1)


def test_stats_are_readable_per_ruleset() -> None:
    fa = dict(stat_rows(get_ruleset("final-act"), "tank"))
    assert fa["Hits to knock out"] == "2"
    assert (fa["Fires"], fa["Blocks fire"]) == ("yes", "yes")
    assert "not sideways" in fa["Movement"]
    assert dict(stat_rows(get_ruleset("final-act"), "at"))["Blocks fire"] == "no"
    tc = dict(stat_rows(get_ruleset("tank-chess"), "heavy"))
    assert tc["Speed"].startswith("3")
    assert tc["Gun"] == "3"
    assert tc["Armour"] == "3 front / 2 side / 1 rear"
    tw = dict(stat_rows(get_ruleset("tank-wars"), "heavy"))
    assert tw["Armour points"] == "3"
    assert tw["Moves"] == "straight 1 or straight 2"


def test_inspector_shows_readable_stats_not_a_dict(make_window: Any) -> None:
    w = make_window(MAPS / "tank-chess" / "basic-16.json")
    heavy = next(u for u in w.doc.scenario.units if u.kind == "heavy")
    w.doc.select([heavy])
    f = w.inspector_dock.fields
    assert f["kind"].text() == "Heavy tank"  # type: ignore[attr-defined]
    assert f["side"].text() in ("White (south)", "Black (north)")  # type: ignore[attr-defined]
    text = f["stats"].text()  # type: ignore[attr-defined]
    assert "Armour" in text and "3 front / 2 side / 1 rear" in text
    assert "{" not in text and "_" not in text


def test_first_window_geometry_is_a_share_of_the_screen() -> None:
    rect = initial_geometry(QRect(0, 0, 1600, 1000))
    assert (rect.width(), rect.height()) == (1360, 850)
    assert rect.center() == QRect(0, 0, 1600, 1000).center()
    small = initial_geometry(QRect(0, 0, 1024, 600))
    assert small.width() <= 1024 and small.height() <= 600


def test_window_restores_saved_geometry(qtbot: Any, tmp_path: Path, prompter: Any) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)

    def window() -> MainWindow:
        w = MainWindow(
            prompter=prompter,
            settings=settings,
            autosave=Autosave(tmp_path / "autosave"),
            offer_recovery=False,
        )
        qtbot.addWidget(w)
        return w

    first = window()
    avail = first.screen().availableGeometry()
    assert first.size() == initial_geometry(avail).size()  # nothing saved yet
    first.show()
    qtbot.waitExposed(first)
    first.resize(700, 500)
    first.close()
    second = window()
    assert (second.width(), second.height()) == (700, 500)
