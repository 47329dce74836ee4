"""Work that takes seconds (reports, playouts) runs off the GUI thread (docs/architecture.md §5).

``ThreadJob(fn)`` calls ``fn()`` in its own ``QThread`` and signals ``finished(result)`` or
``failed(message)`` (a ``TankmapError``/``OSError`` message, or the name of an unexpected
exception: a bug in a job must not take the editor down), or ``cancelled()`` when ``fn``
raised ``JobCancelled``. Connect, then ``start()``;
``wait()`` before dropping a job that may still run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from tankmap.rules.errors import TankmapError


class JobCancelled(Exception):
    """Raised inside a job's function to stop it; the job then signals ``cancelled``."""


class ThreadJob(QObject):
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, fn: Callable[[], Any]) -> None:
        super().__init__()
        self._fn = fn
        self._thread = QThread()
        self.moveToThread(self._thread)
        self._thread.started.connect(self._run)

    def start(self) -> None:
        self._thread.start()

    def running(self) -> bool:
        return bool(self._thread.isRunning())

    def wait(self, ms: int = 120_000) -> bool:
        """Wait up to ``ms`` for the thread to end; ``True`` if it has."""
        return bool(self._thread.wait(ms))

    def _run(self) -> None:
        try:
            result = self._fn()
        except JobCancelled:
            self.cancelled.emit()
        except (TankmapError, OSError) as exc:
            self.failed.emit(str(exc))
        except Exception as exc:  # noqa: BLE001 - see the module docstring
            self.failed.emit(f"{type(exc).__name__}: {exc}")
        else:
            self.finished.emit(result)
        finally:
            self._thread.quit()
