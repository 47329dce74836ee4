"""A work-around for a PySide6 reference-count bug (see ``guard_none_refcount``).

Imported by ``editor/__init__.py`` and by ``editor.document`` (every editor path builds a
document), so it runs even when ``editor`` is imported as a namespace (tests/editor on
``sys.path`` shadows the package's ``__init__``).
"""

from __future__ import annotations

import sys


def guard_none_refcount() -> bool:
    """Protect ``None`` from PySide6's reference leak; True if the guard was needed.

    PySide6 6.12 wheels (stable ABI) release a reference to ``None`` on every call of a C++
    method that returns ``void`` (``setPen``, ``addRect``...) without having taken one, and
    to ``True``/``False`` when a ``bool`` signal reaches a Python slot. On Python 3.12+ those
    objects are immortal and nothing happens; on 3.11 their reference counts (a few
    thousand at start) fall to zero after that many calls and the interpreter aborts with
    "deallocating None". When a probe shows the leak, the counts of ``None``, ``True`` and
    ``False`` are raised once by 2**48 — more calls than any session can make. Nothing else
    is touched.
    """
    if sys.version_info >= (3, 12):
        return False
    import ctypes

    from PySide6.QtCore import QObject

    probe = QObject()
    before = sys.getrefcount(None)
    for _ in range(8):
        probe.setObjectName("probe")
    if sys.getrefcount(None) >= before:
        return False
    for singleton in (None, True, False):
        ctypes.c_ssize_t.from_address(id(singleton)).value += 1 << 48
    return True


GUARDED = guard_none_refcount()
