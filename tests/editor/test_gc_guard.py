"""While job threads run, the cyclic garbage collector runs on the GUI thread only
(editor/gc_guard.py): a collection in a worker thread could destroy GUI-thread QObjects
from the wrong thread."""

from __future__ import annotations

import gc
import threading
import weakref
from typing import Any

from tankmap.editor import gc_guard
from tankmap.editor.jobs import ThreadJob


class _Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the cyclic collector frees it


def test_automatic_collection_is_off_while_a_job_runs_and_back_after(qtbot: Any) -> None:
    assert gc.isenabled() and gc_guard.jobs_running() == 0
    seen: list[bool] = []
    release = threading.Event()

    def work() -> int:
        seen.append(gc.isenabled())  # in the job's thread
        release.wait(300)
        return 1

    job = ThreadJob(work)
    try:
        with qtbot.waitSignal(job.finished, timeout=120_000):
            job.start()
            assert not gc.isenabled() and gc_guard.jobs_running() == 1
            release.set()
    finally:
        release.set()  # a failed check must not leave the job waiting
    assert job.wait()
    assert seen == [False]
    assert gc.isenabled() and gc_guard.jobs_running() == 0


def test_garbage_made_while_a_job_runs_is_collected_on_the_gui_thread(qtbot: Any) -> None:
    freed_on: list[str] = []
    release = threading.Event()

    def work() -> int:
        # make the worker allocate well past the collector's first threshold, with a
        # cycle among the garbage: the automatic collector would run here
        for _ in range(20):
            node = _Node()
            weakref.finalize(node, lambda: freed_on.append(threading.current_thread().name))
            del node
            _ = [[i] for i in range(gc.get_threshold()[0] * 2)]
        release.wait(300)
        return 1

    job = ThreadJob(work)
    try:
        with qtbot.waitSignal(job.finished, timeout=120_000):
            job.start()
            qtbot.waitUntil(lambda: len(freed_on) == 20, timeout=120_000)  # the GUI timer
            release.set()
    finally:
        release.set()
    assert job.wait()
    assert set(freed_on) == {threading.main_thread().name}
