"""Analyse many scenarios at once (``tankmap analyze a.json b.json ... --out DIR``), one
worker process per CPU: each job analyses one scenario and, given a folder, writes its
report there. A report is mostly matplotlib drawing (about 3–6 s a map), so the jobs run
in parallel; the results come back in the order of the jobs whatever the order they end.
A run that stops early (Ctrl-C, SIGTERM, an error) kills its worker processes at once
(``executors.stopped_on_error``) instead of waiting for every job left.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, as_completed
from dataclasses import dataclass
from typing import Any

from tankmap.analysis.report import REPORT_STEPS, write_report
from tankmap.analysis.simulation.executors import local_pool, stopped_on_error
from tankmap.analysis.summary import analyse
from tankmap.rules.fileformat import dumps_scenario, loads_scenario
from tankmap.rules.scenario import Scenario


@dataclass(frozen=True)
class Job:
    """One scenario to analyse; ``folder`` = where its report goes (``None``: no report);
    ``source`` = the file it came from (shown in the report); ``shown`` = the folder's
    name in messages (default ``folder``: the caller may write into a temp folder that
    takes the place of another)."""

    scenario: Scenario
    folder: str | None = None
    source: str = ""
    shown: str | None = None


@dataclass(frozen=True)
class Outcome:
    """The ``analyze --json`` document of a job, the report's path (if one was asked for),
    or ``error``: why the report could not be written (the folder is not writable)."""

    doc: dict[str, Any]
    report: str | None = None
    error: str | None = None


def job_steps(job: Job) -> int:
    """The steps ``run_job`` reports for ``job``: the analysis, then the report's."""
    return 1 + (REPORT_STEPS if job.folder is not None else 0)


def run_job(
    text: str,
    folder: str | None,
    source: str,
    shown: str | None = None,
    on_step: Callable[[], None] | None = None,
) -> Outcome:
    """Analyse the scenario given as its JSON text (what travels to a worker) and write
    its report into ``folder``; ``on_step()`` after each of its ``job_steps``."""
    result = analyse(loads_scenario(text))
    if on_step is not None:
        on_step()
    doc = result.to_json()
    if folder is None:
        return Outcome(doc)
    try:
        return Outcome(doc, str(write_report(result, folder, source=source, on_step=on_step)))
    except OSError as exc:
        where = folder if shown is None else shown
        return Outcome(doc, error=f"cannot write the report into {where!r}: {exc}")


Progress = Callable[[int, int], None]


def analyse_many(
    jobs: Sequence[Job], workers: int = 1, progress: Progress | None = None
) -> list[Outcome]:
    """Run ``jobs`` on up to ``workers`` processes (in this process when one worker or one
    job is enough). ``progress(done, total)`` as they go: in this process by steps (the
    analysis and each figure of a report: ``job_steps``), on worker processes by jobs."""
    tasks = [(dumps_scenario(j.scenario), j.folder, j.source, j.shown) for j in jobs]
    if workers <= 1 or len(tasks) <= 1:
        total = sum(job_steps(j) for j in jobs)
        done = [0]

        def step() -> None:
            done[0] += 1
            if progress is not None:
                progress(done[0], total)

        return [run_job(*task, on_step=step) for task in tasks]
    results: list[Outcome | None] = [None] * len(tasks)
    with stopped_on_error(local_pool(min(workers, len(tasks)))) as pool:
        futures: dict[Future[Outcome], int] = {
            pool.submit(run_job, *task): i for i, task in enumerate(tasks)
        }
        for n, fut in enumerate(as_completed(futures), 1):
            results[futures[fut]] = fut.result()
            if progress is not None:
                progress(n, len(tasks))
    pool.shutdown()
    return [r for r in results if r is not None]
