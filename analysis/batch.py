"""Analyse many scenarios at once (``tankmap analyze a.json b.json ... --out DIR``), one
worker process per CPU: each job analyses one scenario and, given a folder, writes its
report there. A report is mostly matplotlib drawing (about 3–6 s a map), so the jobs run
in parallel; the results come back in the order of the jobs whatever the order they end.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from tankmap.analysis.report import write_report
from tankmap.analysis.summary import analyse
from tankmap.rules.fileformat import dumps_scenario, loads_scenario
from tankmap.rules.scenario import Scenario


@dataclass(frozen=True)
class Job:
    """One scenario to analyse; ``folder`` = where its report goes (``None``: no report);
    ``source`` = the file it came from (shown in the report)."""

    scenario: Scenario
    folder: str | None = None
    source: str = ""


@dataclass(frozen=True)
class Outcome:
    """The ``analyze --json`` document of a job, the report's path (if one was asked for),
    or ``error``: why the report could not be written (the folder is not writable)."""

    doc: dict[str, Any]
    report: str | None = None
    error: str | None = None


def run_job(text: str, folder: str | None, source: str) -> Outcome:
    """Analyse the scenario given as its JSON text (what travels to a worker) and write
    its report into ``folder``."""
    result = analyse(loads_scenario(text))
    doc = result.to_json()
    if folder is None:
        return Outcome(doc)
    try:
        return Outcome(doc, str(write_report(result, folder, source=source)))
    except OSError as exc:
        return Outcome(doc, error=f"cannot write the report into {folder!r}: {exc}")


def analyse_many(
    jobs: Sequence[Job], workers: int = 1, on_done: Callable[[int], None] | None = None
) -> list[Outcome]:
    """Run ``jobs`` on up to ``workers`` processes (in this process when one worker or one
    job is enough); ``on_done(n)`` after each finished job, ``n`` = how many are done."""
    tasks = [(dumps_scenario(j.scenario), j.folder, j.source) for j in jobs]
    if workers <= 1 or len(tasks) <= 1:
        out = []
        for n, task in enumerate(tasks, 1):
            out.append(run_job(*task))
            if on_done is not None:
                on_done(n)
        return out
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    results: list[Outcome | None] = [None] * len(tasks)
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks)), mp_context=context) as pool:
        futures: dict[Future[Outcome], int] = {
            pool.submit(run_job, *task): i for i, task in enumerate(tasks)
        }
        for n, fut in enumerate(as_completed(futures), 1):
            results[futures[fut]] = fut.result()
            if on_done is not None:
                on_done(n)
    return [r for r in results if r is not None]
