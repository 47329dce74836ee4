"""Analysis ▸ Open analysis report: the ``tankmap analyze --out`` report of the board being
edited, written off the GUI thread (a report is a few seconds of matplotlib drawing) into a
fresh temporary folder (nothing next to the user's file), then opened."""

from __future__ import annotations

import tempfile
from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal

from analysis.report import write_report
from analysis.summary import analyse
from rules.errors import TankmapError
from rules.scenario import Scenario


def write_analysis_report(scenario: Scenario, source: str = "") -> Path:
    """Analyse ``scenario`` and write its report; return the path of ``report.html``.
    Raises ``OSError`` if the temporary folder cannot be written and ``TankmapError`` if
    the analysis refuses the scenario."""
    out = Path(tempfile.mkdtemp(prefix="tankmap-analysis-"))
    return write_report(analyse(scenario), out, source=source)


class ReportJob(QObject):
    """``write_analysis_report`` in its own thread: ``finished(path)`` or ``failed(message)``."""

    finished = Signal(str)
    failed = Signal(str)

    def __init__(self, scenario: Scenario, source: str = "") -> None:
        super().__init__()
        self.scenario = scenario
        self.source = source
        self._thread = QThread()
        self.moveToThread(self._thread)
        self._thread.started.connect(self._run)

    def start(self) -> None:
        self._thread.start()

    def running(self) -> bool:
        return bool(self._thread.isRunning())

    def wait(self, ms: int = 120_000) -> bool:
        return bool(self._thread.wait(ms))

    def _run(self) -> None:
        try:
            path = write_analysis_report(self.scenario, self.source)
        except (TankmapError, OSError) as exc:
            self.failed.emit(str(exc))
        except Exception as exc:  # noqa: BLE001 - a bug must not kill the editor
            self.failed.emit(f"{type(exc).__name__}: {exc}")
        else:
            self.finished.emit(str(path))
        finally:
            self._thread.quit()
