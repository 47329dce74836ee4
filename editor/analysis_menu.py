"""The Analysis menu of a main window: the balance dialog (seeded playouts) and the
analysis report, both off the GUI thread. ``AnalysisMenu(window)`` owns them; ``stop``
before the window closes. ``open_url`` opens a written report (tests replace it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from tankmap.editor.balance import BalanceDialog
from tankmap.editor.jobs import ThreadJob
from tankmap.editor.reports import report_job

if TYPE_CHECKING:
    from tankmap.editor.mainwindow import MainWindow


class AnalysisMenu:
    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.balance_dialog: BalanceDialog | None = None
        self.report_job: ThreadJob | None = None
        self.open_url: Callable[[QUrl], object] = QDesktopServices.openUrl

    def show_balance(self) -> BalanceDialog:
        """Analysis ▸ Simulate balance (one dialog per window, non-modal)."""
        w = self.window
        if self.balance_dialog is None:
            self.balance_dialog = BalanceDialog(
                lambda: w.doc.scenario, w, open_url=lambda url: self.open_url(url)
            )
        dialog = self.balance_dialog
        dialog.refresh_policies()
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def document_replaced(self) -> None:
        if self.balance_dialog is not None:
            self.balance_dialog.refresh_policies()  # another game may have other policies

    def open_report(self) -> ThreadJob | None:
        """Analysis ▸ Open analysis report: reach, coverage, lanes and chokes of the board as
        it stands, as the HTML report of ``tankmap analyze``, written in the background and
        opened in the browser when done. ``None`` while a report is still being written."""
        w = self.window
        if self.report_job is not None and self.report_job.running():
            w.ctx.say("Still writing the analysis report…")
            return None
        job = report_job(w.doc.scenario, str(w.doc.path or ""))
        job.finished.connect(self._report_written)
        job.failed.connect(self._report_failed)
        self.report_job = job
        w.ctx.say("Writing the analysis report…")
        job.start()
        return job

    def _report_written(self, path: object) -> None:
        if self.report_job is not None:
            self.report_job.wait()
        self.open_url(QUrl.fromLocalFile(str(path)))
        self.window.ctx.say(f"Analysis report written to {path}")

    def _report_failed(self, message: str) -> None:
        if self.report_job is not None:
            self.report_job.wait()
        self.window.prompter.error(f"Cannot write the analysis report: {message}")

    def stop(self) -> None:
        """Cancel a balance run and let a report being written finish (a few seconds)."""
        if self.balance_dialog is not None:
            self.balance_dialog.stop()
        if self.report_job is not None:
            self.report_job.wait()
