"""Start the editor: ``run([FILE])`` creates the ``QApplication`` and the main window."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from tankmap.rules.errors import TankmapError


def run(path: str | None = None, argv: list[str] | None = None) -> int:
    """Open ``path`` (or a new Final Act board) and run the event loop; returns the exit
    code. A file that cannot be read raises ``TankmapError`` before any window opens."""
    if path is not None and not Path(path).exists():
        raise TankmapError(f"{path}: no such file")
    if path is not None:
        from tankmap.rules.fileformat import read_scenario

        read_scenario(path)  # fail early with the file's own error message
    app = QApplication.instance() or QApplication(argv or sys.argv[:1])
    app.setApplicationName("tankmap")
    app.setOrganizationName("tankmap")
    from tankmap.editor.mainwindow import MainWindow

    window = MainWindow(path, offer_recovery=False)
    window.show()
    window.raise_()
    window.activateWindow()  # keyboard shortcuts work at once, even without a window manager
    # ask about crash leftovers over the shown window, not over an empty screen
    QTimer.singleShot(0, window.offer_recovery)
    return int(app.exec())
