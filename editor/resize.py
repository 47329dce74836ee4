"""Edit ▸ Resize board…: a new width and height, with an anchor saying which part of the
board stays put (as in Tiled's Resize Map).

``resize_scenario`` is the pure part: every piece moves with the anchor's offset; a piece
with a cell off the new board is dropped, never cut. ``resize_board`` asks for the size
(``Prompter.resize_board``), refuses a size the ruleset cannot use (its reason in the
status bar), asks before dropping pieces (``Prompter.confirm``, listing them), and pushes
one undoable ``ResizeBoard`` command. Setup zones follow the new size, so pieces that stay
may now break rules: the Problems dock lists them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from tankmap.editor.commands import ScenarioCommand
from tankmap.editor.document import Document
from tankmap.editor.editing import Outcome
from tankmap.editor.palette_data import piece_label
from tankmap.editor.pieces import Piece
from tankmap.rules.board import MAX_COLUMNS, MAX_ROWS, Board
from tankmap.rules.scenario import Scenario, Terrain, Unit

if TYPE_CHECKING:
    from tankmap.editor.mainwindow import MainWindow

# anchors: (column part, row part) with 0 = left / bottom, 1 = centre, 2 = right / top
ANCHOR_NAMES = {
    (0, 2): "top left",
    (1, 2): "top",
    (2, 2): "top right",
    (0, 1): "left",
    (1, 1): "centre",
    (2, 1): "right",
    (0, 0): "bottom left",
    (1, 0): "bottom",
    (2, 0): "bottom right",
}


@dataclass(frozen=True)
class ResizeRequest:
    """A new board size and the anchor: the part of the old board kept in place."""

    columns: int
    rows: int
    anchor: tuple[int, int] = (1, 1)


def offset(old: Board, columns: int, rows: int, anchor: tuple[int, int]) -> tuple[int, int]:
    """How far (columns, rows) every cell moves: 0 anchored left/bottom, the whole growth
    anchored right/top, half of it (rounded down) anchored in the centre."""
    grow_x, grow_y = columns - old.columns, rows - old.rows
    ax, ay = anchor
    return (0, grow_x // 2, grow_x)[ax], (0, grow_y // 2, grow_y)[ay]


def resize_scenario(scenario: Scenario, request: ResizeRequest) -> tuple[Scenario, list[Piece]]:
    """``scenario`` on the new board with every piece shifted, and the pieces dropped
    because a cell of theirs is off it (in the scenario's order). ``ValueError`` for a board
    size outside the limits."""
    old = scenario.board
    new = Board.of(request.columns, request.rows)
    dx, dy = offset(old, request.columns, request.rows, request.anchor)

    def moved(cell: int) -> int | None:
        col, row = old.col_of(cell) + dx, old.row_of(cell) + dy
        return new.cell(col, row) if new.on_board(col, row) else None

    dropped: list[Piece] = []
    terrain: list[Terrain] = []
    for t in scenario.terrain:
        mapping = {c: moved(c) for c in t.cells}
        if any(m is None for m in mapping.values()):
            dropped.append(t)
        else:
            terrain.append(t.moved({c: m for c, m in mapping.items() if m is not None}))
    units: list[Unit] = []
    for u in scenario.units:
        m = moved(u.cell)
        if m is None:
            dropped.append(u)
        else:
            units.append(replace(u, cell=m))
    return replace(scenario, board=new, terrain=tuple(terrain), units=tuple(units)), dropped


class ResizeBoard(ScenarioCommand):
    """Install the resized scenario (one undo step; undo restores the old board and every
    dropped piece)."""

    def __init__(self, doc: Document, after: Scenario) -> None:
        b = after.board
        super().__init__(doc, f"Resize board to {b.columns} × {b.rows}", after, ())


def dropped_text(doc: Document, dropped: list[Piece]) -> str:
    """``"Tank C on a1, Large berm on c3 d3 e3"`` (the first eight, then a count)."""
    board = doc.scenario.board
    parts = []
    for p in dropped[:8]:
        where = (
            board.cell_name(p.cell)
            if isinstance(p, Unit)
            else " ".join(board.cell_name(c) for c in p.cells)
        )
        parts.append(f"{piece_label(doc.palette, p)} on {where}")
    if len(dropped) > 8:
        parts.append(f"and {len(dropped) - 8} more")
    return ", ".join(parts)


def size_problem(doc: Document, columns: int, rows: int) -> str | None:
    """Why the document's game cannot have a ``columns`` × ``rows`` board (``None``: it
    can)."""
    problem = doc.ruleset.board_problem(columns, rows)
    if problem is None and not (1 <= columns <= MAX_COLUMNS and 1 <= rows <= MAX_ROWS):
        problem = f"boards go from 1 × 1 to {MAX_COLUMNS} × {MAX_ROWS}"
    return problem


def resize_board(w: MainWindow, request: ResizeRequest | None = None) -> Outcome:
    """Resize the window's board (asking for the size unless ``request`` is given)."""
    doc = w.doc
    b = doc.scenario.board
    if request is None:
        request = w.prompter.resize_board(
            b.columns, b.rows, problem=lambda c, r: size_problem(doc, c, r)
        )
        if request is None:
            return Outcome(False, "resize cancelled")
    if (request.columns, request.rows) == (b.columns, b.rows):
        return Outcome(False, f"the board is already {b.columns} × {b.rows}")
    problem = size_problem(doc, request.columns, request.rows)
    if problem is not None:
        outcome = Outcome(False, f"cannot resize to {request.columns} × {request.rows}: {problem}")
        w.report(outcome)
        return outcome
    after, dropped = resize_scenario(doc.scenario, request)
    if dropped:
        n = len(dropped)
        what = "1 piece is" if n == 1 else f"{n} pieces are"
        text = (
            f"{what} off the {request.columns} × {request.rows} board "
            f"(anchored {ANCHOR_NAMES[request.anchor]}): {dropped_text(doc, dropped)}. "
            "Resize and remove them? (Undo brings them back.)"
        )
        if not w.prompter.confirm("Resize board", text):
            outcome = Outcome(False, "resize cancelled: the board keeps its size")
            w.ctx.say("Resize cancelled: the board keeps its size")
            return outcome
    doc.undo_stack.push(ResizeBoard(doc, after))
    w.view.fit()
    gone = f"; {len(dropped)} removed" if dropped else ""
    w.ctx.say(f"Board resized to {request.columns} × {request.rows}{gone}")
    return Outcome(True)


class ResizeDialog(QDialog):
    """Width, height and a 3 × 3 grid of anchor buttons (the part of the board kept)."""

    def __init__(
        self,
        columns: int,
        rows: int,
        parent: QWidget | None = None,
        problem: Callable[[int, int], str | None] | None = None,
    ) -> None:
        """``problem(columns, rows)``: why the game cannot have that size (``None``: it
        can), said under the size while it is chosen, with OK off."""
        super().__init__(parent)
        self._problem = problem
        self.setWindowTitle("Resize board")
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.columns = QSpinBox()
        self.columns.setRange(1, MAX_COLUMNS)
        self.columns.setValue(columns)
        self.rows = QSpinBox()
        self.rows.setRange(1, MAX_ROWS)
        self.rows.setValue(rows)
        form.addRow("Columns (width):", self.columns)
        form.addRow("Rows (height):", self.rows)
        layout.addLayout(form)
        self.problem = QLabel()
        self.problem.setObjectName("resize-problem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #b71c1c")
        layout.addWidget(self.problem)
        layout.addWidget(QLabel("Anchor — the part of the board that stays in place:"))
        grid = QGridLayout()
        self.anchors: dict[tuple[int, int], QRadioButton] = {}
        for (ax, ay), name in ANCHOR_NAMES.items():
            button = QRadioButton()
            button.setToolTip(name)
            button.setObjectName(f"anchor-{name.replace(' ', '-')}")
            grid.addWidget(button, 2 - ay, ax)
            self.anchors[(ax, ay)] = button
            button.toggled.connect(lambda on, name=name: self._show_anchor(name) if on else None)
        self.anchor_name = QLabel()
        self.anchor_name.setObjectName("anchor-name")
        grid.addWidget(self.anchor_name, 0, 3, 3, 1)
        grid.setColumnStretch(3, 1)
        self.anchors[(1, 1)].setChecked(True)
        layout.addLayout(grid)
        layout.addWidget(
            QLabel("Pieces off the new board are listed and removed only if you agree.")
        )
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.columns.valueChanged.connect(self._check)
        self.rows.valueChanged.connect(self._check)
        self._check()

    def _check(self) -> None:
        """Say why the size chosen cannot be, and allow OK only when it can."""
        why = (
            None
            if self._problem is None
            else self._problem(self.columns.value(), self.rows.value())
        )
        self.problem.setText("" if why is None else f"Not this size: {why}")
        self.problem.setVisible(why is not None)
        self.ok.setEnabled(why is None)

    def _show_anchor(self, name: str) -> None:
        """Say in words which part the chosen button keeps in place."""
        self.anchor_name.setText(f"  Keeps the {name} in place")

    def request(self) -> ResizeRequest:
        anchor = next((a for a, b in self.anchors.items() if b.isChecked()), (1, 1))
        return ResizeRequest(self.columns.value(), self.rows.value(), anchor)
