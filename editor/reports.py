"""Analysis ▸ Open analysis report: the ``tankmap analyze --out`` report of the board being
edited, written off the GUI thread (a report is a few seconds of matplotlib drawing) into a
temporary folder (nothing next to the user's file; one per editor, reused), then opened."""

from __future__ import annotations

from pathlib import Path

from tankmap.analysis.report import write_report
from tankmap.analysis.summary import analyse
from tankmap.editor.jobs import ThreadJob
from tankmap.editor.report_dirs import report_dir
from tankmap.rules.scenario import Scenario


def write_analysis_report(scenario: Scenario, source: str = "") -> Path:
    """Analyse ``scenario`` and write its report; return the path of ``report.html``.
    Raises ``OSError`` if the temporary folder cannot be written and ``TankmapError`` if
    the analysis refuses the scenario. The folder is this editor's analysis report folder
    (``editor.report_dirs``): the previous report there is replaced."""
    return write_report(analyse(scenario), report_dir("analysis"), source=source)


def report_job(scenario: Scenario, source: str = "") -> ThreadJob:
    """A job writing ``scenario``'s analysis report; ``finished`` carries the path."""
    return ThreadJob(lambda: write_analysis_report(scenario, source))
