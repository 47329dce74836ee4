"""The Analysis menu of a main window: the balance dialog (seeded playouts), the analysis
report and the Suggestions dock (the design assistant), all off the GUI thread.
``AnalysisMenu(window)`` owns them; ``stop`` before the window closes. ``open_url`` opens a
written report (tests replace it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QDockWidget, QLabel

from tankmap.editor.balance import BalanceDialog
from tankmap.editor.jobs import ThreadJob
from tankmap.editor.live_balance import LiveBalance
from tankmap.editor.reports import report_job

if TYPE_CHECKING:
    from tankmap.editor.docks.suggestions import SuggestionsDock
    from tankmap.editor.mainwindow import MainWindow


class AnalysisMenu:
    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.balance_dialog: BalanceDialog | None = None
        self.report_job: ThreadJob | None = None
        self.open_url: Callable[[QUrl], object] = QDesktopServices.openUrl
        self.suggestions: SuggestionsDock | None = None
        self.suggestions_dock: QDockWidget | None = None
        self.live_balance: LiveBalance | None = None

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

    def show_suggestions(self) -> SuggestionsDock:
        """Analysis ▸ Suggest edits: the Suggestions dock (made on first use, on the right in
        a tab beside History and the Legend)."""
        from tankmap.editor.docks.suggestions import SuggestionsDock  # loads the search

        w = self.window
        if self.suggestions is None or self.suggestions_dock is None:
            panel = SuggestionsDock(w.ctx)
            dock = QDockWidget("Suggestions", w)
            dock.setObjectName("dock-suggestions")
            dock.setWidget(panel)
            dock.visibilityChanged.connect(panel.set_previewing)
            w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
            # the list wants the height: in one tab group with History and the Legend
            # (still a tab away), under Problems
            shown = [d for d in (w.docks["legend"], w.docks["history"]) if d.isVisible()]
            if shown:
                w.tabifyDockWidget(shown[0], dock)
                for other in shown[1:]:
                    w.tabifyDockWidget(shown[0], other)
                w.resizeDocks([w.docks["problems"], dock], [1, 5], Qt.Orientation.Vertical)
            self.suggestions, self.suggestions_dock = panel, dock
        self.suggestions_dock.show()
        self.suggestions_dock.raise_()
        return self.suggestions

    def toggle_live_balance(self) -> LiveBalance:
        """The View ▸ Live balance meter action was toggled: follow its check mark."""
        return self.set_live_balance(self.window.actions_by_id["view.live_balance"].isChecked())

    def set_live_balance(self, on: bool) -> LiveBalance:
        """View ▸ Live balance meter: a quick balance figure in the status bar after each
        edit (``editor.live_balance``; its label is made on first use)."""
        if self.live_balance is None:
            label = QLabel()
            label.setObjectName("status-balance")
            self.window.statusBar().insertPermanentWidget(1, label)  # left of the others
            self.live_balance = LiveBalance(self.window.ctx, label)
        self.live_balance.set_enabled(on)
        return self.live_balance

    def document_replaced(self) -> None:
        if self.balance_dialog is not None:
            self.balance_dialog.board_replaced()  # its last run was the old board's
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
        opened = self.open_url(QUrl.fromLocalFile(str(path))) is not False
        self.window.ctx.say(f"Analysis report written to {path}")
        if not opened:  # the status bar is easy to miss: say where it is
            self.window.prompter.info(
                "Analysis report", f"No browser could be started; the report is {path}"
            )

    def _report_failed(self, message: str) -> None:
        if self.report_job is not None:
            self.report_job.wait()
        self.window.prompter.error(f"Cannot write the analysis report: {message}")

    def stop(self) -> None:
        """Cancel a balance, suggest or live-balance run and let a report being written
        finish (a few seconds)."""
        if self.balance_dialog is not None:
            self.balance_dialog.stop()
        if self.suggestions is not None:
            self.suggestions.stop()
        if self.live_balance is not None:
            self.live_balance.stop()
        if self.report_job is not None:
            self.report_job.wait()
