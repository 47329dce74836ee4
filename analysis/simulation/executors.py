"""Where batches of games run: in-process, local worker processes, or a Dask cluster.

An ``Executor`` runs ``fn(*task)`` for a list of tasks and returns the results **in task
order**, calling ``on_done(i, result)`` as each finishes (for progress bars). The order of
completion never changes the results: every task carries its own seeds.

- ``workers <= 1`` and no scheduler: in the calling process (no pickling at all).
- ``workers > 1``: the calling process and ``workers - 1`` processes of a
  ``concurrent.futures.ProcessPoolExecutor`` share the tasks, each taking the next one
  nobody has taken: ``fork`` on Linux (the workers inherit the prepared tables and
  plug-ins registered at run time), ``spawn`` elsewhere (``fork`` is unsafe on macOS); the
  numbers are the same either way. The caller plays its share without pickling anything
  and from the first moment, while its worker processes start (with 20,000 Final Act games
  taking 0.65 s on one core, starting a process and passing results are not negligible).
  A run that stops early (Ctrl-C, SIGTERM, a failed task) kills its worker processes
  before the exception goes on, and on Linux a worker process is killed when the process
  that started it ends, however it ends (``kill -9`` too): no worker outlives its run.
- ``scheduler="local"``: a ``dask.distributed.LocalCluster`` with ``workers`` processes,
  started and closed here. ``scheduler="tcp://host:port"``: an existing Dask scheduler.

**Aborting in the middle of a task.** ``map(..., abort=f)`` also asks ``f()`` about every
``ABORT_POLL`` seconds while tasks run, and when it answers true raises ``RunAborted`` at
once. An executor made for it with ``workers > 1`` (``make_executor(..., abortable=True)``)
runs every task in worker processes, ``workers`` of them, while the caller only waits and
asks; the workers are killed with their tasks unfinished, wherever they are (in a compiled
kernel too). (A single Tank Chess game at a verdict's high budgets can take two minutes.)
With one worker the tasks stay in the calling process; ``abort`` is asked after each task
and, through ``interrupt.abortable``, by the games' loops between two decisions. (A
process with a Qt window and its threads must not fork: the editor's verdict passes
``start_method="spawn"`` and keeps its executor for the whole climb.) On a
Dask cluster ``abort`` is asked as results arrive and every ``ABORT_POLL`` seconds between,
and the tasks left are cancelled.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures import process as futures_process
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import Any

from tankmap.analysis.simulation.interrupt import ABORT_POLL, RunAborted, abortable
from tankmap.rules.errors import TankmapError, import_extra

Task = tuple[Any, ...]
CONNECT_TIMEOUT = 10.0
"""Seconds to wait for a Dask scheduler given by address."""
OnDone = Callable[[int, Any], None]


class SchedulerError(TankmapError, ValueError):
    """A Dask scheduler address that cannot be reached."""


class WorkerLostError(TankmapError):
    """A local worker process ended in the middle of the run (killed from outside, or out
    of memory)."""


class Executor:
    """Base executor: runs tasks one after the other in this process."""

    workers = 1

    def map(
        self,
        fn: Callable[..., Any],
        tasks: Sequence[Task],
        on_done: OnDone | None,
        abort: Callable[[], bool] | None = None,
    ) -> list[Any]:
        """The tasks' results in task order (here: one after the other; ``abort`` is
        asked after each task and, by the games' loops, between two decisions:
        ``interrupt.abortable``)."""
        out = []
        with abortable(abort):
            for i, task in enumerate(tasks):
                result = fn(*task)
                out.append(result)
                if on_done is not None:
                    on_done(i, result)
                if abort is not None and abort():
                    raise RunAborted
        return out

    def close(self) -> None:
        """Release workers (no-op here)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def available_cpus() -> int:
    """CPUs this process may run on (its affinity where the platform tells it)."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        return max(1, len(affinity(0)))
    return max(1, os.cpu_count() or 1)


def default_start_method() -> str:
    """``fork`` where it is safe and available (Linux), else ``spawn``."""
    safe_fork = sys.platform.startswith("linux")
    return "fork" if safe_fork and "fork" in multiprocessing.get_all_start_methods() else "spawn"


PR_SET_PDEATHSIG = 1
"""Linux ``prctl`` option: the signal a process gets when the thread that started it ends."""


def _worker_start(parent: int) -> None:
    """First thing in each local worker process: SIGTERM back to its default action (a
    forked worker inherits the command line's handler, which turns it into an exception
    and one line of text: a worker must just end), and on Linux a SIGKILL as soon as the
    process that started it (``parent``) ends, so that no worker outlives its run."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL))
        if os.getppid() != parent:  # it ended before the line above
            os._exit(1)


class _ManagerThread(futures_process._ExecutorManagerThread):
    """The pool's thread, which on a broken pool (a worker killed: ``stop_pool`` kills them)
    fails every task still pending; Python 3.11 then raises ``InvalidStateError`` in this
    thread, and prints it as "Exception in thread …" after the command's last line, for a
    task whose future was cancelled already (``ProcessExecutor`` cancels the tasks it runs
    itself). Those are dropped first, as Python 3.12 ignores them."""

    def terminate_broken(self, cause: Any) -> None:
        items = self.pending_work_items
        for work_id in [w for w, item in list(items.items()) if item.future.done()]:
            items.pop(work_id, None)
        super().terminate_broken(cause)


class _Pool(ProcessPoolExecutor):
    """A ``ProcessPoolExecutor`` whose thread is a ``_ManagerThread`` (Python 3.11's
    ``_start_executor_manager_thread`` with that one change)."""

    def _start_executor_manager_thread(self) -> None:
        pool: Any = self  # (the private state of concurrent.futures, untyped)
        if pool._executor_manager_thread is None:
            if not pool._safe_to_dynamically_spawn_children:  # (fork: start them now)
                pool._launch_processes()
            pool._executor_manager_thread = _ManagerThread(self)
            pool._executor_manager_thread.start()
            futures_process._threads_wakeups[pool._executor_manager_thread] = (
                pool._executor_manager_thread_wakeup
            )


def local_pool(processes: int, start_method: str | None = None) -> ProcessPoolExecutor:
    """A pool of ``processes`` local worker processes that end with the process starting
    them (see ``_worker_start``); stop it early with ``stop_pool``."""
    context = multiprocessing.get_context(start_method or default_start_method())
    return _Pool(
        max_workers=processes,
        mp_context=context,
        initializer=_worker_start,
        initargs=(os.getpid(),),
    )


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` now: drop the tasks not started and kill its worker processes in the
    middle of theirs (what a stopped or failed run wants; ``shutdown`` would let each
    finish its task, which may take minutes). Returns within seconds (at most about 10 s,
    waiting for the killed workers and the pool's thread)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    # (taken before ``shutdown``, which drops the pool's references to them)
    manager = getattr(pool, "_executor_manager_thread", None)
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    for process in processes:
        with contextlib.suppress(Exception):
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    # A worker killed while it sent a result leaves half a message in the result pipe, on
    # which the pool's thread would wait forever (and this interpreter, at exit, for that
    # thread). Once the workers are gone, this process's own copy of the pipe's writing
    # end is the only one left: closing it lets that thread read the end of the pipe.
    sentinels = [p.sentinel for p in processes if p.exitcode is None]
    if sentinels:
        multiprocessing.connection.wait(sentinels, timeout=5.0)
    if writer is not None:
        with contextlib.suppress(OSError):
            writer.close()
    _join_manager(manager)


def _join_manager(manager: threading.Thread | None) -> None:
    """Let a shut-down pool's thread (``manager``) finish now (within 5 s): left running,
    it closes its wake-up pipe while the interpreter's exit handler writes to it (Python
    3.11's concurrent.futures race), and "Exception ignored ... handle is closed" follows
    the command's last line."""
    if manager is not None and manager is not threading.current_thread():
        manager.join(timeout=5.0)


@contextlib.contextmanager
def stopped_on_error(pool: ProcessPoolExecutor) -> Iterator[ProcessPoolExecutor]:
    """Use ``pool`` in a block that, if anything stops it (Ctrl-C, SIGTERM, a task's
    error), stops the pool at once (``stop_pool``) before the exception goes on; a worker
    process killed from outside becomes a ``WorkerLostError`` (one line, not a
    traceback)."""
    try:
        yield pool
    except BrokenProcessPool:
        stop_pool(pool)
        raise WorkerLostError(
            "a worker process ended in the middle of the run (killed, or out of memory?)"
        ) from None
    except BaseException:
        stop_pool(pool)
        raise


class ProcessExecutor(Executor):
    """The calling process and ``workers - 1`` (at least one) local worker processes
    (``concurrent.futures``), taking tasks in order as each gets free; with
    ``caller_plays`` false, ``workers`` (at least one) worker processes alone, so that a
    run can be aborted in the middle of any task (module docstring). One executor serves
    several runs (``map`` calls): a run that stops early kills the worker processes, and
    the next run starts new ones (with ``spawn``, about a second: a caller with many runs,
    such as the editor's verdict, keeps one executor for all of them)."""

    def __init__(
        self, workers: int, start_method: str | None = None, caller_plays: bool = True
    ) -> None:
        self.workers = max(1, workers)
        self.caller_plays = caller_plays
        self._processes = max(1, workers - 1 if caller_plays else workers)
        self._start_method = start_method
        self._pool = local_pool(self._processes, start_method)
        self._stopped = False

    def map(
        self,
        fn: Callable[..., Any],
        tasks: Sequence[Task],
        on_done: OnDone | None,
        abort: Callable[[], bool] | None = None,
    ) -> list[Any]:
        """Every task goes to the pool, which hands each worker process one task to run and
        one to start next; the caller takes, in order, every task still waiting (cancelling
        it in the pool) and runs it here, and reports the workers' results between its own
        tasks. With ``abort`` (or without ``caller_plays``) the caller runs none: it
        reports results as they come and asks ``abort()`` every ``ABORT_POLL`` seconds,
        raising ``RunAborted`` when it answers true. Whatever stops the run (Ctrl-C,
        SIGTERM, a task's error, ``abort``) kills the worker processes before it goes on;
        a worker process killed from outside is a ``WorkerLostError``."""
        if self._stopped:  # an earlier run stopped early: its processes are gone
            self._pool = local_pool(self._processes, self._start_method)
            self._stopped = False
        try:
            with stopped_on_error(self._pool):
                return self._map(fn, tasks, on_done, abort)
        except BaseException:
            self._stopped = True
            raise

    def _map(
        self,
        fn: Callable[..., Any],
        tasks: Sequence[Task],
        on_done: OnDone | None,
        abort: Callable[[], bool] | None,
    ) -> list[Any]:
        futures = [self._pool.submit(fn, *t) for t in tasks]
        index = {fut: i for i, fut in enumerate(futures)}
        out: list[Any] = [None] * len(tasks)
        theirs: set[Future[Any]] = set()

        def report(fut: Future[Any]) -> None:
            theirs.discard(fut)
            i = index[fut]
            out[i] = fut.result()
            if on_done is not None:
                on_done(i, out[i])

        if abort is not None or not self.caller_plays:
            theirs.update(futures)
            while theirs:
                if abort is not None and abort():
                    raise RunAborted
                finished_set, _ = wait(theirs, timeout=ABORT_POLL, return_when=FIRST_COMPLETED)
                for finished in sorted(finished_set, key=index.__getitem__):
                    report(finished)
            return out
        for i, fut in enumerate(futures):
            if fut.cancel():  # still waiting in the pool: run it here
                out[i] = fn(*tasks[i])
                if on_done is not None:
                    on_done(i, out[i])
            else:
                theirs.add(fut)
            for finished in [f for f in theirs if f.done()]:
                report(finished)
        while theirs:
            finished_set, _ = wait(theirs, return_when=FIRST_COMPLETED)
            for finished in finished_set:
                report(finished)
        return out

    def close(self) -> None:
        """Let the (idle) worker processes end: the pool's thread joins them (well under a
        millisecond), and this waits for that thread, so that a command ending right after
        (SIGTERM between two runs) does not meet it at exit (``_join_manager``). A stopped
        run killed them already (``map``)."""
        manager = getattr(self._pool, "_executor_manager_thread", None)  # (shutdown drops it)
        self._pool.shutdown(wait=False, cancel_futures=True)
        _join_manager(manager)


class DaskExecutor(Executor):
    """Tasks on a Dask distributed cluster: ``"local"`` starts a ``LocalCluster``."""

    def __init__(self, scheduler: str, workers: int) -> None:
        dist: Any = import_extra("distributed", "dask", "--scheduler (running on a Dask cluster)")
        Client, LocalCluster = dist.Client, dist.LocalCluster
        self._cluster: Any = None
        self._interrupted = False
        if scheduler == "local":
            # The worker processes ignore Ctrl-C (SIGINT goes to the whole process group):
            # this process alone stops them, without a traceback from each worker.
            with _sigint_ignored():
                self._cluster = LocalCluster(
                    n_workers=max(1, workers),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    # the scheduler's HTTP server (health routes) runs even without the
                    # dashboard, by default on port 8787: a free port instead, so a second
                    # cluster on the machine prints no "Port 8787 is already in use" warning
                    scheduler_kwargs={"dashboard_address": ":0"},
                    # workers' own log lines (e.g. a heartbeat that finds the scheduler
                    # gone while a long batch of search games ends after Ctrl-C) would be
                    # tracebacks on the user's terminal; task failures still reach us as
                    # exceptions of their futures
                    silence_logs=logging.CRITICAL,
                )
            self._client: Any = Client(self._cluster)
        else:
            try:
                self._client = Client(scheduler, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as exc:
                raise SchedulerError(f"cannot reach Dask scheduler {scheduler!r}: {exc}") from None
        self.workers = max(1, len(self._client.scheduler_info().get("workers", {})) or workers)

    def map(
        self,
        fn: Callable[..., Any],
        tasks: Sequence[Task],
        on_done: OnDone | None,
        abort: Callable[[], bool] | None = None,
    ) -> list[Any]:
        """The tasks' results in task order; ``abort`` is asked as results arrive and
        every ``ABORT_POLL`` seconds between, and the tasks left are cancelled when it
        answers true (``RunAborted``)."""
        dist: Any = importlib.import_module("distributed")

        out: list[Any] = [None] * len(tasks)

        def report(fut: Any, index: dict[Any, int]) -> None:
            i = index[fut.key]
            out[i] = fut.result()
            if on_done is not None:
                on_done(i, out[i])

        try:
            futures = [self._client.submit(fn, *t, pure=False) for t in tasks]
            index = {f.key: i for i, f in enumerate(futures)}
            if abort is None:
                for fut in dist.as_completed(futures):
                    report(fut, index)
                return out
            pending = set(futures)
            while pending:
                if abort():
                    self._client.cancel(list(pending))
                    raise RunAborted
                try:
                    done = dist.wait(
                        list(pending), timeout=ABORT_POLL, return_when="FIRST_COMPLETED"
                    ).done
                except TimeoutError:  # (distributed's, a subclass of the built-in one)
                    continue
                for fut in sorted(done, key=lambda f: index[f.key]):
                    pending.discard(fut)
                    report(fut, index)
        except KeyboardInterrupt:
            self._interrupted = True
            raise
        return out

    def close(self) -> None:
        if not self._interrupted:
            self._client.close()
            if self._cluster is not None:
                self._cluster.close()
            return
        # Stopping in the middle (Ctrl-C): the scheduler and workers would log pages of
        # tracebacks about the tasks and connections they lose; the user asked to stop.
        loggers = [logging.getLogger(name) for name in ("distributed", "tornado")]
        levels = [log.level for log in loggers]
        for log in loggers:
            log.setLevel(logging.CRITICAL + 1)
        try:
            if self._cluster is not None:
                # Workers busy in a batch would be given seconds to finish it: stop them now.
                with contextlib.suppress(Exception):
                    self._cluster.sync(_stop_now, list(self._cluster.workers.values()))
            self._client.close()
            if self._cluster is not None:
                self._cluster.close()
        finally:
            for log, level in zip(loggers, levels, strict=True):
                log.setLevel(level)


async def _stop_now(nannies: list[Any]) -> None:
    """Close a LocalCluster's worker processes at once (killed after half a second)."""
    import asyncio

    await asyncio.gather(*(n.close(timeout=0.5) for n in nannies), return_exceptions=True)


class _sigint_ignored:
    """Ignore SIGINT while processes are started (they inherit it), then restore it; a
    no-op outside the main thread (only it may set signal handlers)."""

    def __enter__(self) -> None:
        self._old: Any = None
        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, signal.SIG_IGN)

    def __exit__(self, *exc: object) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)


def make_executor(
    workers: int = 1,
    scheduler: str | None = None,
    abortable: bool = False,
    start_method: str | None = None,
) -> Executor:
    """The executor for these settings (see the module docstring); ``abortable``: with
    ``workers > 1``, one whose ``map(abort=...)`` can leave a task in the middle;
    ``start_method`` of local worker processes (default ``default_start_method()``)."""
    if scheduler:
        return DaskExecutor(scheduler, workers)
    if abortable and workers > 1:
        return ProcessExecutor(workers, start_method, caller_plays=False)
    if workers > 1:
        return ProcessExecutor(workers, start_method)
    return Executor()
