"""Game ▸ Play…: who plays each side — you, or an agent, with what it does and how strong
the last ``tankmap ladder`` of this board found it — and the agents' seed."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLayout,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from tankmap.analysis.play import HUMAN
from tankmap.analysis.play.agents import agent_line, agent_names
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario
from tankmap.rules.sides import side_name

YOU = "You"


@dataclass(frozen=True)
class PlayChoice:
    """Who plays south and north (``HUMAN`` or an agent name) and the agents' seed."""

    players: tuple[str, str]
    seed: int = 0


class PlaySetupDialog(QDialog):
    """Choose the players of a new game of ``scenario`` (``choice()`` reads the answer)."""

    def __init__(self, scenario: Scenario, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("play-setup")
        self.setWindowTitle("Play this board")
        self.scenario = scenario
        names = agent_names(scenario.ruleset)
        self.combos: dict[Side, QComboBox] = {}
        self.notes: dict[Side, QLabel] = {}
        form = QFormLayout()
        for side in Side:
            combo = QComboBox()
            combo.setObjectName(f"play-player-{side.value}")
            combo.addItem(YOU, HUMAN)
            for name in names:
                combo.addItem(name, name)
            if side is Side.NORTH:
                combo.setCurrentIndex(combo.findData("heuristic"))
            note = QLabel()
            note.setWordWrap(True)
            note.setFixedWidth(520)  # a known width: the wrapped text gets its full height
            note.setStyleSheet("color: #555")
            combo.currentIndexChanged.connect(lambda _i, s=side: self._describe(s))
            self.combos[side], self.notes[side] = combo, note
            form.addRow(f"{side_name(scenario.ruleset, side)}:", combo)
            form.addRow("", note)
            self._describe(side)
        self.seed = QSpinBox()
        self.seed.setObjectName("play-seed")
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setToolTip(
            "The agents' random numbers (and Tank Wars' dice): same seed, same game"
        )
        form.addRow("Seed:", self.seed)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("&Play")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(
            QLabel(
                "Who plays each side: a person or an agent? Two people share one screen (hot-seat)."
            )
        )
        box.addLayout(form)
        box.addWidget(buttons)
        box.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)  # notes never clipped

    def _describe(self, side: Side) -> None:
        spec = self.combos[side].currentData()
        text = (
            "A person at this screen." if spec == HUMAN else agent_line(self.scenario, spec, side)
        )
        self.notes[side].setText(text)
        self.notes[side].setMinimumHeight(self.notes[side].heightForWidth(520))

    def set_players(self, south: str, north: str) -> None:
        """Choose the players as a person would in the lists (``HUMAN`` or an agent)."""
        for side, spec in zip(Side, (south, north), strict=True):
            self.combos[side].setCurrentIndex(self.combos[side].findData(spec))

    def choice(self) -> PlayChoice:
        south, north = (str(self.combos[s].currentData()) for s in Side)
        return PlayChoice((south, north), self.seed.value())
