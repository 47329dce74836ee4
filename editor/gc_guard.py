"""Python's cyclic garbage collector runs on the GUI thread only while job threads run.

The collector runs in whichever thread allocates when a generation fills up. A worker
thread (``jobs.ThreadJob``) that collects can destroy GUI-thread QObjects caught in
reference cycles (lambda connections make many) from the wrong thread, and a collection
racing a running job can crash the GUI thread: the editor's tests met rare segmentation
faults "while garbage-collecting" with a job running. So while any job runs, automatic
collection is off and a timer on the GUI thread collects the generations that are due (the
pattern of pyqtgraph's and calibre's garbage collectors); when the last job has ended the
collector is switched back on if it was on.

``job_started()`` is called on the GUI thread before a job's thread starts;
``job_ended()`` from the job's thread as it ends (it only counts and flips the flag).
"""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QTimer

INTERVAL_MS = 500
"""How often the GUI thread looks for due generations while jobs run."""


class _State:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = 0
        self.was_enabled = False
        self.timer: QTimer | None = None


_STATE = _State()


def job_started() -> None:
    """A job thread is about to start (call on the GUI thread)."""
    with _STATE.lock:
        if _STATE.running == 0:
            _STATE.was_enabled = gc.isenabled()
            gc.disable()
        _STATE.running += 1
    if _STATE.timer is None:
        timer = QTimer()
        timer.setInterval(INTERVAL_MS)
        timer.timeout.connect(collect_due)
        _STATE.timer = timer
    if not _STATE.timer.isActive():
        _STATE.timer.start()


def job_ended() -> None:
    """A job thread has finished its work (any thread)."""
    with _STATE.lock:
        _STATE.running = max(0, _STATE.running - 1)
        if _STATE.running == 0 and _STATE.was_enabled:
            gc.enable()


def jobs_running() -> int:
    """How many job threads are counted as running."""
    return _STATE.running


def collect_due() -> int:
    """Collect, on this (the GUI) thread, the generations whose thresholds are passed
    (as the automatic collector would); stop the timer once no job runs. Returns the
    number of unreachable objects found."""
    found = 0
    counts, limits = gc.get_count(), gc.get_threshold()
    if counts[0] > limits[0]:
        generation = 0
        if counts[1] > limits[1]:
            generation = 2 if counts[2] > limits[2] else 1
        found = gc.collect(generation)
    timer = _STATE.timer
    if _STATE.running == 0 and timer is not None:
        timer.stop()
    return found
