"""A task for worker processes that tells what they carry (no Qt imported here, so that a
spawned worker that unpickles it stays without Qt)."""

from __future__ import annotations

import sys


def qt_loaded() -> bool:
    """Whether Qt's widgets are imported in this process."""
    return "PySide6.QtWidgets" in sys.modules
