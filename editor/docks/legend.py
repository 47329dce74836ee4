"""The legend dock: what the board's colours, marks and numbers mean, for what is on it now.

First the key of the analysis overlay shown, if any (coverage and reach: the colour scale
and what a cell's number counts, from its lowest to its highest number; lanes: lanes, choke
cells and the safest route); then
error and warning cells while there are any, the unit view's dots and fire zone while a unit
is selected; last the sides' unit tokens, the terrain on the board and the setup areas (and,
in Final Act, the coloured range-marker bars beside the rows).
``legend_sections`` computes the entries (tested without drawing); ``LegendDock`` shows them
and is refreshed by the overlay controller's ``changed`` signal.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QGridLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from tankmap.analysis import board_style as st
from tankmap.analysis.board_style import side_look
from tankmap.editor.context import EditorContext
from tankmap.editor.items import LANE_COLOURS, SIDE_COLOURS
from tankmap.editor.overlays import COVERAGE_COLOURS, REACH_COLOUR, OverlayController
from tankmap.editor.tokens import CELL, paint_hatch, paint_token
from tankmap.rules.geometry import Side
from tankmap.rules.steps import step_word
from tankmap.rules.violations import Severity

SWATCH_W, SWATCH_H = 34, 16


@dataclass(frozen=True)
class Entry:
    """One legend line: a swatch (``kind`` drawn in ``colours``) and what it means.

    Kinds: ``disc`` (a side's tokens: fill, outline), ``token`` (a unit kind's token
    shape; the colour slot holds the kind), ``terrain`` (a cell of a terrain kind: its
    colour, then the kind), ``tint`` (a translucent cell), ``fill``,
    ``outline``, ``dashed`` (a dashed cell outline), ``dot``, ``line``, ``dashline``,
    ``bars`` (the range-marker bars), ``ramp`` (a heat-map scale, light to dark)."""

    kind: str
    colours: tuple[str, ...]
    text: str


Section = tuple[str, list[Entry]]


def legend_sections(ctx: EditorContext, overlays: OverlayController) -> list[Section]:
    """The legend for the board as the editor shows it now (headings with their entries)."""
    doc = ctx.doc
    scenario = doc.scenario
    names = doc.ruleset.side_names()
    board: list[Entry] = []
    for side in Side:
        fill, outline, _ = side_look(scenario.ruleset, side)
        text = f"{names[side]} unit"
        if any(u.facing is not None for u in scenario.units):  # (Tank Wars units face nowhere)
            text += " (the barrel points where it faces)"
        board.append(Entry("disc", (fill, outline), text))
    for kind in doc.ruleset.unit_kinds:
        if any(u.kind == kind for u in scenario.units):
            look = st.token_look(kind)
            text = f"{look.name.capitalize()}: {st.kind_name(scenario.ruleset, kind)}"
            board.append(Entry("token", (kind,), text))
    for entry in doc.palette.entries:
        if not entry.is_unit and any(t.kind == entry.kind for t in scenario.terrain):
            board.append(Entry("terrain", (entry.colour, entry.kind), entry.label))
    for side in Side:
        colour = SIDE_COLOURS[side].name()
        board.append(Entry("tint", (colour,), f"{names[side]}'s setup area"))
    if doc.palette.range_colours:
        board.append(
            Entry(
                "bars",
                tuple(doc.palette.range_colours),
                "Bars beside the rows: the printed board's range markers "
                "(rows r and r + 6 share a colour)",
            )
        )
    sections: list[Section] = []
    problems: list[Entry] = []
    severities = {v.severity for v in doc.violations}
    if Severity.ERROR in severities:
        problems.append(Entry("fill", ("#e53935",), "A cell of an error (Problems dock)"))
    if Severity.WARNING in severities:
        problems.append(Entry("dashed", ("#ef6c00",), "A cell worth a look (a warning)"))
    if problems:
        sections.append(("Problems", problems))
    if overlays.unit_shown:
        sections.append(
            (
                "Selected unit",
                [
                    Entry("dot", ("#2e7d32",), "Where a legal move can end"),
                    Entry("fill", ("#ff6f00",), "Its fire zone: cells it can fire at"),
                ],
            )
        )
    overlay = _overlay_section(ctx, overlays)
    if overlay is not None:
        sections.insert(0, overlay)  # what was just switched on comes first
    return [*sections, ("Board", board)]


def _overlay_section(ctx: EditorContext, overlays: OverlayController) -> Section | None:
    mode = overlays.mode
    if not mode:
        return None
    kind, side_name = mode.split("-")
    side = Side(side_name)
    who = ctx.doc.ruleset.side_names()[side]
    low, high = overlays.heat_range or (None, None)
    numbers = "" if low is None else f" ({low} to {high} on this board)"
    if kind == "coverage":
        colour = COVERAGE_COLOURS[side]
        return (
            f"Fire coverage of {who}",
            [
                Entry(
                    "ramp",
                    (colour,),
                    f"Number in a cell: {who} units that can fire at it"
                    f"{numbers}; darker = more; no colour: none",
                ),
            ],
        )
    if kind == "reach":
        unit = step_word(ctx.doc.scenario.ruleset) + "s"
        return (
            f"Reach of {who}",
            [
                Entry(
                    "ramp",
                    (REACH_COLOUR,),
                    f"Number in a cell: fewest {unit} for a {who} "
                    f"unit to stand there{numbers}; darker = sooner; no colour: never",
                ),
            ],
        )
    return (
        f"Lanes of {who}",
        [
            Entry(
                "line",
                LANE_COLOURS[:3],
                "A lane to the goal (one colour each; "
                "lanes share no cell; the dot is where it starts)",
            ),
            Entry("outline", ("#111111",), "Choke cell: the fewest cells that close every lane"),
            Entry("dashline", ("#212121",), "Safest route: the least exposed to enemy fire"),
        ],
    )


@functools.lru_cache(maxsize=256)
def swatch(entry: Entry) -> QPixmap:
    """A small picture of an entry's mark, as the board draws it (made once per entry:
    the legend is rebuilt whenever the selection or an overlay changes)."""
    pix = QPixmap(SWATCH_W, SWATCH_H)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    box = QRectF(1, 1, SWATCH_W - 2, SWATCH_H - 2)
    colours = [QColor(c) for c in entry.colours]
    kind = entry.kind
    if kind == "token":  # a unit kind's token shape, in grey
        p.scale(SWATCH_H / CELL, SWATCH_H / CELL)
        p.translate((SWATCH_W - SWATCH_H) / 2 * CELL / SWATCH_H, 0)
        grey = ("#d0d0d0", "#333333", "#333333")
        paint_token(p, entry.colours[0], QPointF(CELL / 2, CELL / 2), CELL * 0.4, grey, "")
    elif kind == "terrain":  # a cell of a terrain kind as the board draws it
        p.scale(SWATCH_H / CELL, SWATCH_H / CELL)
        p.translate((SWATCH_W - SWATCH_H) / 2 * CELL / SWATCH_H, 0)
        p.setPen(QPen(QColor(st.TERRAIN_EDGE), 2))
        p.setBrush(colours[0])
        p.drawRect(QRectF(1, 1, CELL - 2, CELL - 2))
        paint_hatch(p, entry.colours[1], QPointF(CELL / 2, CELL / 2))
    elif kind == "disc":
        p.setBrush(colours[0])
        p.setPen(QPen(colours[1] if len(colours) > 1 else colours[0].darker(170), 1.5))
        r = SWATCH_H / 2 - 1.5
        p.drawEllipse(QPointF(SWATCH_W / 2, SWATCH_H / 2), r, r)
    elif kind in ("tint", "fill"):
        c = QColor(colours[0])
        c.setAlpha(60 if kind == "tint" else 110)
        p.setBrush(c)
        p.setPen(QPen(colours[0], 1) if kind == "fill" else Qt.PenStyle.NoPen)
        p.drawRect(box)
    elif kind in ("outline", "dashed"):
        style = Qt.PenStyle.DashLine if kind == "dashed" else Qt.PenStyle.SolidLine
        p.setPen(QPen(colours[0], 2.5, style))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(box.adjusted(1, 1, -1, -1))
    elif kind == "dot":
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(colours[0])
        p.drawEllipse(QPointF(SWATCH_W / 2, SWATCH_H / 2), 4, 4)
    elif kind in ("line", "dashline"):
        step = SWATCH_H / (len(colours) + 1)
        for i, c in enumerate(colours):
            pen = QPen(c, 3 if kind == "line" else 2)
            if kind == "dashline":
                pen.setStyle(Qt.PenStyle.DashLine)
            p.setPen(pen)
            y = step * (i + 1)
            p.drawLine(QPointF(2, y), QPointF(SWATCH_W - 2, y))
    elif kind == "bars":
        width = (SWATCH_W - 2) / len(colours)
        p.setPen(Qt.PenStyle.NoPen)
        for i, c in enumerate(colours):
            p.setBrush(c)
            p.drawRect(QRectF(1 + i * width, 1, width - 1, SWATCH_H - 2))
    elif kind == "ramp":
        steps = 6
        width = (SWATCH_W - 2) / steps
        p.setPen(Qt.PenStyle.NoPen)
        for i in range(steps):
            c = QColor(colours[0])
            c.setAlpha(int(40 + 150 * i / (steps - 1)))  # the heat overlay's alpha range
            p.setBrush(c)
            p.drawRect(QRectF(1 + i * width, 1, width, SWATCH_H - 2))
    p.end()
    return pix


class LegendDock(QWidget):
    """Shows ``legend_sections``; call ``refresh`` (connected to ``overlays.changed``).

    Each section is a widget made once and kept (``KEPT`` of them): a refresh shows the
    wanted ones in order and hides the rest. Selecting a unit or making an error adds or
    removes a section on nearly every edit; building the whole page anew each time cost
    about 4 ms of the 16 ms an edit may take."""

    KEPT = 16

    def __init__(
        self, ctx: EditorContext, overlays: OverlayController, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.ctx, self.overlays = ctx, overlays
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QScrollArea.Shape.NoFrame)
        outer.addWidget(self.scroll_area)
        body = QWidget()
        body.setObjectName("legend-body")
        self.column = QVBoxLayout(body)
        self.column.setContentsMargins(6, 4, 6, 4)
        self.column.setSpacing(3)
        self.column.addStretch(1)
        self.scroll_area.setWidget(body)
        self.setMinimumWidth(250)
        self._shown: list[Section] | None = None
        self._pages: dict[tuple[str, tuple[Entry, ...]], QWidget] = {}
        overlays.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        sections = legend_sections(self.ctx, self.overlays)
        if sections == self._shown:
            return
        self._shown = sections
        keys = [(heading, tuple(entries)) for heading, entries in sections]
        wanted = [self._page(key) for key in keys]
        while self.column.count() > 1:  # all but the stretch at the bottom
            item = self.column.takeAt(0)
            page = item.widget() if item is not None else None
            if page is not None and page not in wanted:
                page.hide()
        for i, page in enumerate(wanted):
            self.column.insertWidget(i, page)
            page.show()
        for key in [k for k in self._pages if k not in keys][: -self.KEPT or None]:
            self._pages.pop(key).deleteLater()  # the oldest unseen pages

    def _page(self, key: tuple[str, tuple[Entry, ...]]) -> QWidget:
        """The widget of one section (a heading over its swatches and texts)."""
        page = self._pages.pop(key, None)
        if page is None:
            page = QWidget()
            grid = QGridLayout(page)
            grid.setContentsMargins(0, 0, 0, 0)
            grid.setHorizontalSpacing(8)
            grid.setVerticalSpacing(3)
            grid.setColumnStretch(1, 1)
            heading, entries = key
            grid.addWidget(QLabel(f"<b>{heading}</b>"), 0, 0, 1, 2)
            for row, entry in enumerate(entries, 1):
                mark = QLabel()
                mark.setPixmap(swatch(entry))
                mark.setAlignment(Qt.AlignmentFlag.AlignTop)
                text = QLabel(entry.text)
                text.setWordWrap(True)
                grid.addWidget(mark, row, 0)
                grid.addWidget(text, row, 1)
        self._pages[key] = page  # the most recently used last
        return page

    def texts(self) -> list[str]:
        """Every line shown (headings and entries), top to bottom (for tests)."""
        out: list[str] = []
        for heading, entries in self._shown or []:
            out.append(heading)
            out.extend(e.text for e in entries)
        return out
