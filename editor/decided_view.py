"""Where the games of a balance run were decided: heat maps on the board (each side's
losses, the cells where each side's wins were decided) from ``analysis.run_games.decided_maps``,
opened from the balance dialog's "Where decided" button."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from tankmap.analysis.run_games import decided_maps
from tankmap.editor.palette_data import ruleset_title
from tankmap.editor.placement import place_window
from tankmap.editor.replay_view import ReplayDocument, _FitView
from tankmap.editor.scene import BoardScene
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario

if TYPE_CHECKING:
    import pandas as pd


DECIDED = (
    ("losses-south", "Losses of {south}", "#c62828"),
    ("losses-north", "Losses of {north}", "#c62828"),
    ("won-south", "Where {south}'s wins were decided", "#2e7d32"),
    ("won-north", "Where {north}'s wins were decided", "#2e7d32"),
)
"""The maps of ``DecidedWindow``: key of ``decided_maps``, title, colour."""


class DecidedWindow(QWidget):
    """Where the games of a run (a ``runner.simulate`` table of ``scenario``) were decided,
    one heat map at a time on the board: cells labelled with their counts."""

    def __init__(
        self,
        scenario: Scenario,
        table: pd.DataFrame,
        parent: QWidget | None = None,
        title: str = "",
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("decided-window")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        rs = get_ruleset(scenario.ruleset)
        names = rs.side_names()
        self.setWindowTitle(f"Where games were decided{title} — {ruleset_title(rs)} — tankmap")
        self.maps = decided_maps(table, scenario.board)
        self.games = len(table)
        self.doc = ReplayDocument(scenario, parent=self)
        self.scene = BoardScene(self.doc)
        self.scene.setParent(self)
        self.view = _FitView(self.scene)
        self.view.setRenderHints(
            QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
        )
        self.view.setMinimumSize(360, 360)
        self.choice = QComboBox()
        self.choice.setObjectName("decided-choice")
        for key, text, _colour in DECIDED:
            label = text.format(south=names[Side.SOUTH], north=names[Side.NORTH])
            self.choice.addItem(f"{label} ({int(self.maps[key].sum())})", key)
        self.choice.currentIndexChanged.connect(lambda _i: self.show_map(self.key()))
        self.note = QLabel()
        self.note.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.choice, 1)
        box = QVBoxLayout(self)
        box.addLayout(top)
        box.addWidget(self.view, 1)
        box.addWidget(self.note)
        place_window(self, 760, 820, parent)  # never partly off a small screen
        self.show_map(self.key())

    def key(self) -> str:
        return str(self.choice.currentData())

    def show_map(self, key: str) -> None:
        """Show the ``decided_maps`` map ``key`` (``losses-south``...)."""
        index = self.choice.findData(key)
        if index != self.choice.currentIndex():
            self.choice.setCurrentIndex(index)  # calls back here
            return
        grid = self.maps[key]
        board = self.doc.scenario.board
        top = int(grid.max()) or 1
        values: dict[int, float] = {}
        labels: dict[int, str] = {}
        for row in range(board.rows):
            for col in range(board.columns):
                n = int(grid[row, col])
                if n:
                    cell = board.cell(col, row)
                    values[cell] = n / top
                    labels[cell] = str(n)
        colour = next(c for k, _t, c in DECIDED if k == key)
        self.scene.heat.set_values(values, labels, QColor(colour))
        what = "units knocked out" if key.startswith("losses") else "games won"
        self.note.setText(
            f"{int(grid.sum())} {what} in {self.games} games; each cell shows how many "
            "(darker: more)."
        )
