"""Help ▸ Rules: the repository's rules document (``docs/rules.md``: the rules as tankmap
implements them, every option and default) in a window beside the editor, opened at the
section of the game being edited. An installed wheel has no ``docs/``; the window then says
where the document is."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import QDialog, QTextBrowser, QVBoxLayout, QWidget

SECTIONS = {
    "final-act": "1. Final Act",
    "tank-chess": "2. Tank Chess",
    "tank-wars": "3. Tank Wars",
}
"""The heading each game's rules start with in ``docs/rules.md``."""

MISSING = (
    "The rules document is <code>docs/rules.md</code> in tankmap's source repository; "
    "this installation does not include it."
)


def rules_path() -> Path | None:
    """``docs/rules.md`` of the checkout this editor runs from, or ``None``."""
    path = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
    return path if path.is_file() else None


class RulesWindow(QDialog):
    """A non-modal window with the rules document; ``show_game`` jumps to a game."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Rules — as tankmap implements them")
        self.resize(760, 820)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        path = rules_path()
        if path is None:
            self.browser.setHtml(f"<p>{MISSING}</p>")
        else:
            self.browser.setMarkdown(path.read_text("utf-8"))
        box = QVBoxLayout(self)
        box.addWidget(self.browser)

    def show_game(self, ruleset: str) -> bool:
        """Scroll to ``ruleset``'s section (its heading at the top); ``False`` if absent."""
        heading = SECTIONS.get(ruleset)
        doc = self.browser.document()
        if heading is None:
            return False
        found = doc.find(heading, 0, QTextDocument.FindFlag.FindCaseSensitively)
        if found.isNull():
            return False
        # scroll to the end first, so the heading lands at the top of the view
        self.browser.moveCursor(QTextCursor.MoveOperation.End)
        cursor = QTextCursor(found.block())
        self.browser.setTextCursor(cursor)
        self.browser.ensureCursorVisible()
        return True
