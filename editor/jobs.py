"""Work that takes seconds (reports, playouts) runs off the GUI thread (docs/architecture.md §5).

``ThreadJob(fn)`` calls ``fn()`` in its own ``QThread`` and signals ``finished(result)`` or
``failed(message)`` (a ``TankmapError``/``OSError`` message, or the name of an unexpected
exception: a bug in a job must not take the editor down), or ``cancelled()`` when ``fn``
raised ``JobCancelled``. Connect, then ``start()``;
``wait()`` before dropping a job that may still run.

The three signals are always delivered on the thread that made the job (the GUI thread):
``fn`` runs on a worker object that lives in the job's thread and reports through queued
connections to the job, which stays where it was made — so handlers may touch widgets, show
dialogs or ``wait()`` on the job.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from tankmap.analysis.simulation.executors import Executor, available_cpus, make_executor
from tankmap.editor import gc_guard
from tankmap.rules.errors import TankmapError


class JobCancelled(Exception):
    """Raised inside a job's function to stop it; the job then signals ``cancelled``."""


class _Worker(QObject):
    """Runs the function in the job's thread and reports what happened."""

    done = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, fn: Callable[[], Any], thread: QThread) -> None:
        super().__init__()
        self._fn = fn
        self._thread = thread

    @Slot()
    def run(self) -> None:
        try:
            result = self._fn()
        except JobCancelled:
            self.cancelled.emit()
        except (TankmapError, OSError) as exc:
            self.failed.emit(str(exc))
        except Exception as exc:  # noqa: BLE001 - see the module docstring
            self.failed.emit(f"{type(exc).__name__}: {exc}")
        else:
            self.done.emit(result)
        finally:
            gc_guard.job_ended()
            self._thread.quit()


class ThreadJob(QObject):
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, fn: Callable[[], Any]) -> None:
        super().__init__()
        self._thread = QThread()
        self._worker = _Worker(fn, self._thread)
        self._worker.moveToThread(self._thread)
        self._thread.started.connect(self._worker.run)
        queued = Qt.ConnectionType.QueuedConnection
        self._worker.done.connect(self._relay_finished, queued)
        self._worker.failed.connect(self._relay_failed, queued)
        self._worker.cancelled.connect(self._relay_cancelled, queued)
        self._stop = threading.Event()

    def cancel(self) -> None:
        """Ask the job to stop: its function stops at its next ``interrupt()`` call."""
        self._stop.set()

    def cancel_asked(self) -> bool:
        """Whether ``cancel`` was asked (for a function that stops by itself: it should
        then raise ``JobCancelled``)."""
        return self._stop.is_set()

    def interrupt(self) -> None:
        """Call from the job's function between steps: raises ``JobCancelled`` once
        ``cancel`` was asked (the job then signals ``cancelled``)."""
        if self._stop.is_set():
            raise JobCancelled

    @Slot(object)
    def _relay_finished(self, result: Any) -> None:
        self.finished.emit(result)

    @Slot(str)
    def _relay_failed(self, message: str) -> None:
        self.failed.emit(message)

    @Slot()
    def _relay_cancelled(self) -> None:
        self.cancelled.emit()

    def start(self) -> None:
        """Run the function in the job's thread (garbage collection stays on the GUI
        thread meanwhile: ``gc_guard``)."""
        gc_guard.job_started()
        self._thread.start()

    def running(self) -> bool:
        return bool(self._thread.isRunning())

    def wait(self, ms: int = 120_000) -> bool:
        """Wait up to ``ms`` for the thread to end; ``True`` if it has."""
        return bool(self._thread.wait(ms))


def gui_executor(workers: int | None = None, abortable: bool = False) -> Executor:
    """An executor for a job's runs of games on ``workers`` (default: every CPU) worker
    processes, started fresh (``spawn``: the editor's process, with its Qt window and
    threads, must not fork) and kept until it is closed (starting them takes about a
    second: one set serves a whole verdict climb or confirmation); with one worker,
    the job's own thread. ``abortable``: as ``make_executor``'s."""
    n = available_cpus() if workers is None else workers
    return make_executor(n, start_method="spawn", abortable=abortable)
