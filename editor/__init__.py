"""The PySide6 desktop editor (``tankmap edit``).

Importing the package applies ``editor.qtguard.guard_none_refcount``: a work-around for a
PySide6 bug that otherwise crashes a GUI session after a few thousand Qt calls.
"""

from __future__ import annotations

from tankmap.editor.qtguard import GUARDED

__all__ = ["GUARDED"]
