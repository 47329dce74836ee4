"""How the main window looks when it opens: icon, first size, menus and the toolbar (built
from the ``editor.actions`` table), the status bar's first hint, file names from titles."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QAction, QIcon, QPixmap
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QToolBar

from tankmap.editor.actions import ACTIONS, MENUS

WELCOME = (
    "Pick a piece in the palette, then click the board to place it · Esc: select · "
    "F1: every shortcut"
)


def app_icon() -> QIcon:
    """The application icon (``resources/icons/tankmap.svg``; empty if missing)."""
    from importlib import resources

    try:
        data = resources.files("tankmap.resources").joinpath("icons", "tankmap.svg").read_bytes()
    except (OSError, ModuleNotFoundError):
        return QIcon()
    pix = QPixmap()
    pix.loadFromData(data, "SVG")
    return QIcon(pix)


def file_stem(title: str) -> str:
    """A file name for a scenario title: ``"Ring of Fire!"`` → ``ring-of-fire``
    (``scenario`` when the title has no letters or digits)."""
    import re

    stem = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return stem[:60] or "scenario"


def initial_geometry(available: QRect, share: float = 0.85) -> QRect:
    """Where the window opens the first time (no saved geometry): ``share`` of the screen's
    available area in each direction (at least 1024 × 700 where the screen allows), centred."""
    width = min(available.width(), max(1024, round(available.width() * share)))
    height = min(available.height(), max(700, round(available.height() * share)))
    rect = QRect(0, 0, width, height)
    rect.moveCenter(available.center())
    return rect


SEPARATORS_AFTER = frozenset(
    {
        "file.revert",
        "file.export_pdf",
        "edit.redo",
        "edit.select_all",
        "edit.mirror",
        "view.board_only",
        "view.unit_view",
        "view.previous_problem",
    }
)
"""Menu entries followed by a separator."""

TOOLBAR: tuple[str | None, ...] = (
    "file.new",
    "file.open",
    "file.save",
    None,
    "edit.undo",
    "edit.redo",
    None,
    "tools.select",
    "tools.place",
    "tools.erase",
    None,
    "edit.rotate",
    "edit.mirror",
    None,
    "symmetry.off",
    "symmetry.point",
    "symmetry.lr",
    None,
    "view.fit",
    None,
    "game.play",
)
"""The toolbar's actions (``None``: a separator), icons with their text underneath."""


def build_menus(
    window: QMainWindow, actions: dict[str, QAction], docks: list[QDockWidget]
) -> QMenu:
    """Fill the menu bar (every action of ``editor.actions``, the docks' show/hide entries
    under View) and add the toolbar; returns the (empty) File ▸ Open Recent menu."""
    bar = window.menuBar()
    menus = {name: bar.addMenu(name) for name in MENUS}
    recent: QMenu | None = None
    for s in ACTIONS:
        menus[s.menu].addAction(actions[s.id])
        if s.id == "file.open":
            recent = menus[s.menu].addMenu("Open &Recent")
        if s.id in SEPARATORS_AFTER:
            menus[s.menu].addSeparator()
    view_menu = menus["&View"]
    view_menu.addSeparator()
    for dock in docks:
        view_menu.addAction(dock.toggleViewAction())
    toolbar = QToolBar("Main", window)
    toolbar.setObjectName("toolbar-main")
    toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextUnderIcon)
    toolbar.setIconSize(QSize(24, 24))
    toolbar.setMovable(False)
    for action_id in TOOLBAR:
        if action_id is None:
            toolbar.addSeparator()
        else:
            toolbar.addAction(actions[action_id])
    window.addToolBar(toolbar)
    assert recent is not None
    return recent
