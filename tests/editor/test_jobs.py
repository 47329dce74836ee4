"""``editor.jobs.ThreadJob``: results and errors come back as signals, never as exceptions
in the GUI thread."""

from __future__ import annotations

import threading
from typing import Any

from tankmap.editor.jobs import ThreadJob
from tankmap.rules.errors import TankmapError


def test_result_comes_back_from_another_thread(qtbot: Any) -> None:
    where: list[int] = []

    def work() -> int:
        where.append(threading.get_ident())
        return 42

    job = ThreadJob(work)
    with qtbot.waitSignal(job.finished, timeout=60_000) as got:
        job.start()
    assert got.args == [42] and job.wait()
    assert where and where[0] != threading.get_ident()


def test_errors_become_messages(qtbot: Any) -> None:
    def user_error() -> None:
        raise TankmapError("maps/x.json: $.units[0]: bad")

    def bug() -> None:
        raise KeyError("oops")

    for fn, text in ((user_error, "maps/x.json: $.units[0]: bad"), (bug, "KeyError: 'oops'")):
        job = ThreadJob(fn)
        with qtbot.waitSignal(job.failed, timeout=60_000) as got:
            job.start()
        assert got.args == [text] and job.wait() and not job.running()


def test_handlers_run_on_the_thread_that_made_the_job(qtbot: Any) -> None:
    """Regression: handlers used to run on the worker thread (a crash when the report
    could not be written, 'QThread::wait: Thread tried to wait on itself' after each)."""
    import threading

    from tankmap.editor.jobs import ThreadJob

    gui = threading.get_ident()
    seen: list[tuple[str, int]] = []

    def boom() -> None:
        raise OSError("the temp folder vanished")

    for fn, signal in ((lambda: 42, "finished"), (boom, "failed")):
        job = ThreadJob(fn)
        getattr(job, signal).connect(
            lambda *_a, s=signal, j=job: (seen.append((s, threading.get_ident())), j.wait())
        )
        with qtbot.waitSignal(getattr(job, signal), timeout=60_000):
            job.start()
        job.wait()
    assert [s for s, _ in seen] == ["finished", "failed"]
    assert all(tid == gui for _, tid in seen)
