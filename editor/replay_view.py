"""The replay view: a game record played back on the board, round by round (turn by turn in
Tank Chess), to see why a game went the way it did.

File ▸ Open game record… (``open_game_record``) reads a record written by ``tankmap
simulate --record`` — or one of the balance dialog's sample games — and replays it with
``analysis.replay``, the engine behind ``tankmap replay``. ``ReplayWindow`` shows the board
after the current step with what happened in it drawn on top (``ReplayOverlay``: orders as
arrows from start to end cell, shelled cells as rings, hits as orange bursts, units knocked
out crossed in red, tokens as labelled tags), the step's text exactly as ``tankmap replay``
prints it, the list of all steps, and the result at the end. First / back / play / forward
/ last, a slider and the keys ←/→, Home/End and Space step through the game. A record that
cannot be replayed gives one error message through the editor's prompter.

``editor/decided_view.py`` shows where the games of a balance run were decided as a heat map
on the board (``analysis.run_games.decided_maps``: each side's losses, and the cells where the
winning units ended).
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QKeyEvent, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QSlider,
    QSplitter,
    QStyle,
    QStyleOptionGraphicsItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tankmap.analysis.board_style import side_look
from tankmap.analysis.replay import Replay, ReplayStep, load_replay
from tankmap.editor.document import Document
from tankmap.editor.items import CELL, Z_TOP, Geometry
from tankmap.editor.palette_data import ruleset_title
from tankmap.editor.placement import place_window
from tankmap.editor.scene import BoardScene
from tankmap.rules.errors import TankmapError
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario
from tankmap.rules.violations import Violation

if TYPE_CHECKING:
    from tankmap.editor.mainwindow import MainWindow

PLAY_MS = 700
"""Time per step while playing."""
SHELL = QColor("#ff6f00")
HIT = QColor("#ffb300")
OUT = QColor("#d50000")
TOKEN_TEXT = {
    "quick-sand": "QS",
    "smoke": "SM",
    "mine-clearing": "MC",
    "red-cross": "RC",
    "air-strike": "AS",
    "support": "+",
}
LEGEND = (
    "Arrows: orders (start → end) · orange rings: cells shelled, dashed from the shooter · "
    "yellow burst: hit · red cross: knocked out · tags: tokens placed"
)


class ReplayDocument(Document):
    """A read-only document holding a replay position. Positions in mid-game are not
    set-ups, so nothing is checked and no problem is marked."""

    @property
    def violations(self) -> list[Violation]:
        return []

    def show(self, scenario: Scenario) -> None:
        """Show ``scenario`` (the scene redraws only what changed)."""
        if scenario != self.scenario:
            self._set_scenario(scenario, ())


def _colours(ruleset: str, side: Side) -> tuple[QColor, QColor]:
    """(line, halo) colours for what ``side`` did: its tokens' fill and outline."""
    fill, outline, _text = side_look(ruleset, side)
    return QColor(fill), QColor(outline)


class ReplayOverlay(QGraphicsItem):
    """What happened in one step, drawn over the position after it."""

    def __init__(self, geo: Geometry, ruleset: str) -> None:
        super().__init__()
        self.geo, self.ruleset = geo, ruleset
        self.step: ReplayStep | None = None
        self.setZValue(Z_TOP + 2)

    def set_step(self, step: ReplayStep | None) -> None:
        self.prepareGeometryChange()
        self.step = step
        self.update()

    def boundingRect(self) -> QRectF:
        if self.step is None:
            return QRectF()
        return self.geo.board_rect().adjusted(-CELL, -CELL, CELL, CELL)

    def paint(
        self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        step = self.step
        if step is None:
            return
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        for s in step.shells:
            if s.origin is not None and s.origin != s.cell:
                fill, outline = _colours(self.ruleset, s.side)
                line = fill if fill.lightness() < 170 else outline  # reads on the board
                line.setAlpha(150)
                pen = QPen(line, 1.6, Qt.PenStyle.DashLine)
                p.setPen(pen)
                p.drawLine(self.geo.centre(s.origin), self.geo.centre(s.cell))
        for m in step.moves:
            self._arrow(p, m.side, m.start, m.end)
        shelled: dict[int, int] = {}
        for s in step.shells:
            shelled[s.cell] = shelled.get(s.cell, 0) + 1
        for cell, n in shelled.items():
            self._reticle(p, cell, n)
        for h in step.hits:
            if h not in step.out:
                self._burst(p, h.cell)
        for o in step.out:
            self._cross(p, o.cell)
        for t in step.tokens:
            self._token(p, t.kind, t.side, t.cell)

    # --- pieces of the picture ---------------------------------------------------------------
    def _arrow(self, p: QPainter, side: Side, start: int, end: int | None) -> None:
        a = self.geo.centre(start)
        if end is None:  # off the board: toward the enemy's edge
            dx, dy = self.geo.vector(side.forward)
            b = QPointF(a.x() + dx * CELL * 1.3, a.y() + dy * CELL * 1.3)
        else:
            b = self.geo.centre(end)
        vx, vy = b.x() - a.x(), b.y() - a.y()
        length = (vx * vx + vy * vy) ** 0.5
        if length < 1:
            return
        ux, uy = vx / length, vy / length
        stop = max(length - CELL * 0.3, length * 0.5) if end is not None else length
        tip = QPointF(a.x() + ux * stop, a.y() + uy * stop)
        head = CELL * 0.26
        base = QPointF(tip.x() - ux * head, tip.y() - uy * head)
        wing = head * 0.6
        left = QPointF(base.x() - uy * wing, base.y() + ux * wing)
        right = QPointF(base.x() + uy * wing, base.y() - ux * wing)
        line, halo = _colours(self.ruleset, side)
        halo.setAlpha(220)
        for colour, width in ((halo, 8.0), (line, 4.5)):
            pen = QPen(colour, width)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            p.setPen(pen)
            p.setBrush(colour)
            p.drawLine(a, base)
            p.drawPolygon(QPolygonF([tip, left, right]))
        p.setPen(QPen(halo, 1.5))
        p.setBrush(line)
        p.drawEllipse(a, 4.5, 4.5)

    def _reticle(self, p: QPainter, cell: int, n: int) -> None:
        c = self.geo.centre(cell)
        r = CELL * 0.44
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(QColor(255, 255, 255, 200), 5))
        p.drawEllipse(c, r, r)
        p.setPen(QPen(SHELL, 2.6))
        p.drawEllipse(c, r, r)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            p.drawLine(
                QPointF(c.x() + dx * r * 0.82, c.y() + dy * r * 0.82),
                QPointF(c.x() + dx * r * 1.18, c.y() + dy * r * 1.18),
            )
        if n > 1:  # several shells on one cell
            font = QFont()
            font.setBold(True)
            font.setPixelSize(11)
            p.setFont(font)
            box = QRectF(c.x() + r - 12, c.y() + r * 0.35, 14, 14)  # bottom right
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(SHELL)
            p.drawEllipse(box)
            p.setPen(QColor("white"))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, str(n))

    def _burst(self, p: QPainter, cell: int) -> None:
        r = self.geo.rect(cell)
        c = QPointF(r.right() - CELL * 0.2, r.top() + CELL * 0.2)
        points = []
        for k in range(16):
            rad = CELL * (0.2 if k % 2 == 0 else 0.09)
            angle = k * math.pi / 8
            points.append(QPointF(c.x() + rad * math.cos(angle), c.y() + rad * math.sin(angle)))
        p.setPen(QPen(QColor("#bf360c"), 1.5))
        p.setBrush(HIT)
        p.drawPolygon(QPolygonF(points))

    def _cross(self, p: QPainter, cell: int) -> None:
        r = self.geo.rect(cell).adjusted(7, 7, -7, -7)
        for colour, width in ((QColor(255, 255, 255, 220), 9.0), (OUT, 5.0)):
            pen = QPen(colour, width)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            p.setPen(pen)
            p.drawLine(r.topLeft(), r.bottomRight())
            p.drawLine(r.topRight(), r.bottomLeft())

    def _token(self, p: QPainter, kind: str, side: Side | None, cell: int) -> None:
        r = self.geo.rect(cell)
        box = QRectF(r.left() + 2, r.bottom() - 17, 24, 15)
        fill, outline = (
            _colours(self.ruleset, side) if side is not None else (QColor("#555"), QColor("white"))
        )
        p.setPen(QPen(outline, 1.5))
        p.setBrush(fill)
        p.drawRoundedRect(box, 4, 4)
        font = QFont()
        font.setBold(True)
        font.setPixelSize(10)
        p.setFont(font)
        p.setPen(outline)
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, TOKEN_TEXT.get(kind, kind[:2].upper()))


STEP_KEYS = (Qt.Key.Key_Right, Qt.Key.Key_Left, Qt.Key.Key_Home, Qt.Key.Key_End, Qt.Key.Key_Space)


class _FitView(QGraphicsView):
    """A board view that always shows the whole board (and leaves the stepping keys to
    the replay window)."""

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() in STEP_KEYS:
            event.ignore()
            return
        super().keyPressEvent(event)

    def resizeEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)  # type: ignore[arg-type]
        self.fit()

    def fit(self) -> None:
        scene = self.scene()
        if scene is not None:
            self.fitInView(scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)


class ReplayWindow(QWidget):
    """A window stepping through ``replay``; ``on_edit(position)`` (when given) opens the
    position shown in the editor ("Edit this position")."""

    def __init__(
        self,
        replay: Replay,
        parent: QWidget | None = None,
        title: str | None = None,
        on_edit: Callable[[Scenario], object] | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("replay-window")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.replay = replay
        self.on_edit = on_edit
        rs = get_ruleset(replay.game)
        self.side_names = rs.side_names()
        name = title or Path(replay.source).name
        self.setWindowTitle(f"Replay: {name} — {ruleset_title(rs)} — tankmap")
        self.k = 0

        self.doc = ReplayDocument(replay.start, parent=self)
        self.scene = BoardScene(self.doc)
        self.scene.setParent(self)
        self.overlay = ReplayOverlay(self.scene.geo, replay.game)
        self.scene.addItem(self.overlay)
        self.view = _FitView(self.scene)
        self.view.setRenderHints(
            QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
        )
        self.view.setMinimumSize(360, 360)

        self.heading = QLabel()
        self.heading.setObjectName("replay-heading")
        self.now = QLabel()
        self.now.setObjectName("replay-text")
        self.now.setWordWrap(True)
        self.now.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.now.setTextFormat(Qt.TextFormat.PlainText)
        self.result = QLabel(replay.result_line())
        self.result.setObjectName("replay-result")
        self.result.setStyleSheet("font-weight: bold; color: #1b5e20")
        self.result.setWordWrap(True)
        self.steps = QListWidget()
        self.steps.setObjectName("replay-steps")
        self.steps.addItem(f"start: {len(replay.steps)} {replay.step_word}s recorded")
        for step in replay.steps:
            self.steps.addItem(step.line)
            self.steps.item(step.number).setToolTip(step.line)
        self.steps.setWordWrap(False)
        self.steps.currentRowChanged.connect(self._row_chosen)
        legend = QLabel(LEGEND)
        legend.setWordWrap(True)
        legend.setStyleSheet("color: #555")
        right = QWidget()
        panel = QVBoxLayout(right)
        panel.setContentsMargins(6, 0, 0, 0)
        panel.addWidget(self.heading)
        panel.addWidget(self.now)
        panel.addWidget(self.result)
        panel.addWidget(self.steps, 1)
        panel.addWidget(legend)
        self.edit_button: QPushButton | None = None
        if on_edit is not None:
            self.edit_button = QPushButton("&Edit this position")
            self.edit_button.setToolTip("Open the position shown as a new scenario in the editor")
            self.edit_button.clicked.connect(lambda: on_edit(self.position()))
            panel.addWidget(self.edit_button)
        split = QSplitter()
        split.addWidget(self.view)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)

        style = self.style()
        icons = QStyle.StandardPixmap
        self.first_button = self._button(icons.SP_MediaSkipBackward, "First (Home)", self.first)
        self.back_button = self._button(icons.SP_MediaSeekBackward, "Back (←)", self.back)
        self.play_button = self._button(icons.SP_MediaPlay, "Play / pause (Space)", self.toggle)
        self.forward_button = self._button(icons.SP_MediaSeekForward, "Forward (→)", self.forward)
        self.last_button = self._button(icons.SP_MediaSkipForward, "Last (End)", self.last)
        self._play_icon = style.standardIcon(icons.SP_MediaPlay)
        self._pause_icon = style.standardIcon(icons.SP_MediaPause)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("replay-slider")
        self.slider.setRange(0, len(replay.steps))
        self.slider.setPageStep(max(1, len(replay.steps) // 10))
        self.slider.valueChanged.connect(self.go)
        self.counter = QLabel()
        self.counter.setMinimumWidth(70)
        controls = QHBoxLayout()
        for b in (
            self.first_button,
            self.back_button,
            self.play_button,
            self.forward_button,
            self.last_button,
        ):
            controls.addWidget(b)
        controls.addWidget(self.slider, 1)
        controls.addWidget(self.counter)

        box = QVBoxLayout(self)
        box.addWidget(split, 1)
        box.addLayout(controls)

        self.timer = QTimer(self)
        self.timer.setInterval(PLAY_MS)
        self.timer.timeout.connect(self._tick)
        place_window(self, 1100, 720, parent)  # never partly off a small screen
        # the step list as wide as its longest line (up to 45 % of the window), so no
        # round or turn is cut off; the board takes the rest
        steps = self.steps
        needed = steps.sizeHintForColumn(0) + steps.verticalScrollBar().sizeHint().width() + 24
        right_width = min(max(needed, 300), int(self.width() * 0.45))
        split.setSizes([self.width() - right_width, right_width])
        self._show(0)

    def _button(
        self, icon: QStyle.StandardPixmap, tip: str, slot: Callable[[], object]
    ) -> QToolButton:
        b = QToolButton()
        b.setIcon(self.style().standardIcon(icon))
        b.setToolTip(tip)
        b.setAutoRaise(True)
        b.clicked.connect(lambda: slot())
        return b

    # --- stepping ----------------------------------------------------------------------------
    @property
    def count(self) -> int:
        """The number of steps (the last position is ``count``)."""
        return len(self.replay.steps)

    def position(self) -> Scenario:
        """The position shown (after step ``k``)."""
        return self.doc.scenario

    def go(self, k: int) -> None:
        """Show the position after step ``k`` (clamped to 0…count)."""
        k = max(0, min(self.count, k))
        if k != self.k:
            self._show(k)

    def forward(self) -> None:
        self.go(self.k + 1)

    def back(self) -> None:
        self.go(self.k - 1)

    def first(self) -> None:
        self.go(0)

    def last(self) -> None:
        self.go(self.count)

    def toggle(self) -> None:
        """Play (one step every ``PLAY_MS``) or pause; playing at the end starts over."""
        if self.timer.isActive():
            self.pause()
            return
        if self.k >= self.count:
            self.go(0)
        self.timer.start()
        self.play_button.setIcon(self._pause_icon)

    def pause(self) -> None:
        self.timer.stop()
        self.play_button.setIcon(self._play_icon)

    def _tick(self) -> None:
        self.forward()
        if self.k >= self.count:
            self.pause()

    def _row_chosen(self, row: int) -> None:
        if row >= 0:
            self.go(row)

    def _show(self, k: int) -> None:
        self.k = k
        replay = self.replay
        step = replay.steps[k - 1] if k > 0 else None
        self.doc.show(replay.position(k))
        self.overlay.set_step(step)
        word = replay.step_word
        if step is None:
            self.heading.setText(f"<b>Start</b> — {self.count} {word}s recorded")
            self.now.setText("The position before the first " + word + ".")
        else:
            said = "".join(
                f" <span style='color:#c62828'><b>{html.escape(a)}</b></span>"
                for a in step.announcements
            )
            self.heading.setText(f"<b>{word.capitalize()} {k}</b> of {self.count}{said}")
            self.now.setText(step.line)
        self.result.setVisible(k == self.count)
        self.slider.blockSignals(True)
        self.slider.setValue(k)
        self.slider.blockSignals(False)
        self.steps.blockSignals(True)
        self.steps.setCurrentRow(k)
        self.steps.blockSignals(False)
        self.counter.setText(f"{k} / {self.count}")
        self.first_button.setEnabled(k > 0)
        self.back_button.setEnabled(k > 0)
        self.forward_button.setEnabled(k < self.count)
        self.last_button.setEnabled(k < self.count)

    def text(self) -> str:
        """What the panel says about the step shown (its line, and the result at the end)."""
        lines = [self.now.text()]
        if self.k == self.count:
            lines.append(self.result.text())
        return "\n".join(lines)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        """←/→ a step, Home/End the start and the end, Space play or pause (the slider and
        the list of steps do the same with the keys they take themselves)."""
        actions = {
            Qt.Key.Key_Right: self.forward,
            Qt.Key.Key_Left: self.back,
            Qt.Key.Key_Home: self.first,
            Qt.Key.Key_End: self.last,
            Qt.Key.Key_Space: self.toggle,
        }
        act = actions.get(Qt.Key(event.key()))
        if act is None or event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            super().keyPressEvent(event)
            return
        act()
        event.accept()

    def closeEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        self.timer.stop()
        super().closeEvent(event)  # type: ignore[arg-type]


def show_replay(
    replay: Replay,
    parent: QWidget | None = None,
    title: str | None = None,
    on_edit: Callable[[Scenario], object] | None = None,
) -> ReplayWindow:
    """Open a replay window on ``replay`` (shown and raised)."""
    window = ReplayWindow(replay, parent, title, on_edit)
    window.show()
    window.raise_()
    window.activateWindow()
    return window


def one_line(text: str) -> str:
    """An error message on one line (a dialog shows one sentence, not a trace)."""
    return " ".join(text.split())


def open_game_record(window: MainWindow, path: str | Path | None = None) -> ReplayWindow | None:
    """File ▸ Open game record…: ask for a record (unless ``path`` is given), replay it and
    show it; a record that cannot be replayed is one error message, ``None``."""
    from tankmap.editor.dialogs import default_dir

    if path is None:
        path = window.prompter.open_file(
            default_dir(window.doc.path),
            "Open game record",
            "Game records (*.json);;All files (*)",
        )
        if path is None:
            return None
    try:
        replay = load_replay(path)
    except TankmapError as exc:
        window.prompter.error(one_line(str(exc)))
        return None
    except Exception as exc:  # noqa: BLE001 - a bad file must never take the editor down
        window.prompter.error(
            one_line(f"{path}: cannot replay this record ({type(exc).__name__}: {exc})")
        )
        return None
    window.ctx.say(f"Replaying {path}: {replay.result_line()}")
    return show_replay(replay, window, on_edit=window.new_file)


def windows_of(parent: QWidget) -> Iterable[ReplayWindow]:
    """The replay windows open over ``parent``."""
    return parent.findChildren(ReplayWindow)
