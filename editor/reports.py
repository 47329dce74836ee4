"""Analysis ▸ Open analysis report: the ``tankmap analyze --out`` report of the board being
edited, written off the GUI thread (a report is a few seconds of matplotlib drawing) into a
fresh temporary folder (nothing next to the user's file), then opened."""

from __future__ import annotations

import tempfile
from pathlib import Path

from tankmap.analysis.report import write_report
from tankmap.analysis.summary import analyse
from tankmap.editor.jobs import ThreadJob
from tankmap.rules.scenario import Scenario


def write_analysis_report(scenario: Scenario, source: str = "") -> Path:
    """Analyse ``scenario`` and write its report; return the path of ``report.html``.
    Raises ``OSError`` if the temporary folder cannot be written and ``TankmapError`` if
    the analysis refuses the scenario."""
    out = Path(tempfile.mkdtemp(prefix="tankmap-analysis-"))
    return write_report(analyse(scenario), out, source=source)


def report_job(scenario: Scenario, source: str = "") -> ThreadJob:
    """A job writing ``scenario``'s analysis report; ``finished`` carries the path."""
    return ThreadJob(lambda: write_analysis_report(scenario, source))
