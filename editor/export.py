"""Pictures of a board: PNG and SVG of the whole scenario, and a printable PDF setup sheet
per side that hides the other side's setup (for playtesting at the table).

Each export draws a fresh offscreen ``BoardScene`` of the scenario (never the live one, so
selection and previews never leak into a picture). Errors writing the file raise
``ExportError`` (a ``TankmapError``) naming the file.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from PySide6.QtCore import QMarginsF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter
from PySide6.QtSvg import QSvgGenerator

from tankmap.editor.document import Document
from tankmap.editor.palette_data import palette_for, ruleset_title
from tankmap.editor.scene import BoardScene
from tankmap.rules.errors import TankmapError
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario


class ExportError(TankmapError):
    """A picture or sheet could not be written."""


@contextlib.contextmanager
def atomically(path: str | Path) -> Iterator[str]:
    """A temp file beside ``path`` for Qt to write; renamed over ``path`` once the block
    ends, removed if it fails (a full disk or a crash leaves the old file, not a truncated
    one). The file the user chose is written through a symbolic link."""
    from tankmap.rules.safeio import temp_beside

    with temp_beside(Path(os.path.realpath(path)), ExportError, str(path)) as tmp:
        yield tmp
        if os.path.getsize(tmp) == 0:
            raise ExportError(f"{path}: nothing could be written (is the disk full?)")


def _scene(scenario: Scenario, flipped: bool = False) -> tuple[BoardScene, Document]:
    doc = Document(scenario)
    scene = BoardScene(doc, flipped=flipped)
    scene.errors.setVisible(False)  # pictures show the board, not the editor's markings
    scene.warnings.setVisible(False)
    return scene, doc


def export_png(scenario: Scenario, path: str | Path, scale: float = 2.0) -> None:
    """Write the board (with coordinates) as a PNG, ``scale`` pixels per scene unit.
    ``path`` must end in ``.png`` (``ExportError`` otherwise)."""
    if Path(path).suffix.lower() != ".png":
        raise ExportError(f"{path}: a PNG file name must end in .png")
    scene, _doc = _scene(scenario)
    rect = scene.sceneRect()
    image = QImage(
        QSize(int(rect.width() * scale), int(rect.height() * scale)), QImage.Format.Format_ARGB32
    )
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    scene.render(painter, QRectF(image.rect()), rect)
    painter.end()
    with atomically(path) as tmp:
        if not image.save(tmp, "PNG"):  # type: ignore[call-overload]  # the stub wants bytes, Qt a str
            raise ExportError(f"{path}: could not write the PNG image")


def export_svg(scenario: Scenario, path: str | Path) -> None:
    """Write the board as an SVG drawing."""
    scene, _doc = _scene(scenario)
    rect = scene.sceneRect()
    with atomically(path) as tmp:
        gen = QSvgGenerator()
        gen.setFileName(tmp)
        gen.setSize(QSize(int(rect.width()), int(rect.height())))
        gen.setViewBox(QRectF(0, 0, rect.width(), rect.height()))
        gen.setTitle(scenario.title or "tankmap board")
        gen.setDescription(f"{scenario.ruleset} {scenario.board.columns}x{scenario.board.rows}")
        painter = QPainter()
        if not painter.begin(gen):
            raise ExportError(f"{path}: could not write the SVG drawing")
        scene.render(painter, QRectF(0, 0, rect.width(), rect.height()), rect)
        painter.end()
        del gen  # closes the file


def side_only(scenario: Scenario, side: Side) -> Scenario:
    """``scenario`` without the other side's units and owned terrain (neutral terrain kept)."""
    return scenario.with_units(u for u in scenario.units if u.side is side).with_terrain(
        t for t in scenario.terrain if t.side is None or t.side is side
    )


def setup_lines(scenario: Scenario, side: Side) -> list[str]:
    """One line per piece of ``side`` for the sheet's table."""
    b = scenario.board
    palette = palette_for(get_ruleset(scenario.ruleset))

    def label(kind: str) -> str:
        try:
            return palette.entry(kind).label
        except KeyError:
            return kind

    lines = []
    for u in scenario.units_of(side):
        facing = f", facing {u.facing.name}" if u.facing is not None else ""
        name = f"{label(u.kind)} {u.name}" if u.name else label(u.kind)
        lines.append(f"{name} — {b.cell_name(u.cell)}{facing}")
    for t in scenario.terrain:
        if t.side is side:
            cells = " ".join(b.cell_name(c) for c in t.cells)
            extra = ""
            if t.lane is not None:
                arrow = t.arrow.name if t.arrow is not None else "?"
                extra = f" (lane {b.cell_name(t.lane)}, arrow {arrow})"
            lines.append(f"{label(t.kind)} — {cells}{extra}")
    return lines


def export_setup_sheets(scenario: Scenario, path: str | Path) -> int:
    """Write a PDF with one A4 page per side: that side's setup only, plus a list of its
    pieces. Returns the number of pages."""
    with atomically(path) as tmp:
        pages = _sheets(scenario, tmp, path)  # the writer is gone (file closed) on return
    return pages


def _sheets(scenario: Scenario, tmp: str, path: str | Path) -> int:
    writer = QPdfWriter(tmp)
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter)
    writer.setResolution(150)
    writer.setTitle(f"{scenario.title or 'tankmap'} — setup sheets")
    painter = QPainter()
    if not painter.begin(writer):
        raise ExportError(f"{path}: could not write the PDF")
    page = writer.pageLayout().paintRectPixels(writer.resolution())
    pages = 0
    for side in Side:
        if pages:
            writer.newPage()
        pages += 1
        paint_sheet(painter, scenario, side, page.width(), page.height())
    painter.end()
    return pages


def sheet_title(scenario: Scenario, side: Side) -> str:
    """The first line of ``side``'s setup sheet: ``"Basic 16×16: White's setup"``."""
    name = get_ruleset(scenario.ruleset).side_names()[side]
    return f"{scenario.title or 'Untitled scenario'}: {name}'s setup"


def paint_sheet(
    painter: QPainter, scenario: Scenario, side: Side, width: float, height: float
) -> None:
    """Draw ``side``'s setup sheet into a ``width`` × ``height`` area: title, the board
    with only that side's pieces (and neutral terrain), and the list of its pieces. The
    board is drawn from that player's seat: south's sheet as usual (row 1 at the bottom),
    north's turned 180° (north's own row 1, the top row, at the bottom; labels upright)."""
    rs = get_ruleset(scenario.ruleset)
    names = rs.side_names()
    font = QFont()
    font.setPixelSize(int(height * 0.025))
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(QColor("black"))
    # the title and the line under it wrap onto more lines when wider than the page (they
    # were cut off at the page edge); the board starts below whatever they take
    wrap = Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap
    y = _wrapped(painter, sheet_title(scenario, side), width, 0.0, wrap)
    font.setBold(False)
    font.setPixelSize(int(height * 0.015))
    painter.setFont(font)
    y = _wrapped(
        painter,
        f"{ruleset_title(rs, ' — provisional rules')} · {scenario.board.columns}×"
        f"{scenario.board.rows} · the other side's setup is hidden · seen from "
        f"{names[side]}'s seat",
        width,
        y + height * 0.005,
        wrap,
    )
    scene, _doc = _scene(side_only(scenario, side), flipped=side is Side.NORTH)
    rect = scene.sceneRect()
    top = max(height * 0.09, y + height * 0.01)
    scale = min(width / rect.width(), (height * 0.69 - top) / rect.height())
    target = QRectF(
        (width - rect.width() * scale) / 2,
        top,
        rect.width() * scale,
        rect.height() * scale,
    )
    scene.render(painter, target, rect)
    y = target.bottom() + height * 0.02
    line_h = height * 0.02
    columns = 2
    lines = setup_lines(scenario, side) or ["(no pieces)"]
    per_col = max(1, -(-len(lines) // columns))
    for i, line in enumerate(lines):
        col, row = divmod(i, per_col)
        painter.drawText(
            QRectF(col * width / columns, y + row * line_h, width / columns, line_h),
            Qt.AlignmentFlag.AlignLeft,
            line,
        )


def _wrapped(painter: QPainter, text: str, width: float, top: float, flags: object) -> float:
    """Draw ``text`` word-wrapped to ``width`` from ``top``; return the y under it."""
    box = painter.boundingRect(QRectF(0, top, width, 10_000), flags, text)  # type: ignore[call-overload]
    painter.drawText(QRectF(0, top, width, box.height()), flags, text)  # type: ignore[call-overload]
    return top + float(box.height())


def sheet_image(scenario: Scenario, side: Side, width: int = 827, height: int = 1169) -> QImage:
    """One setup sheet as an image (what a PDF page shows; used for previews and tests)."""
    image = QImage(QSize(width, height), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    paint_sheet(painter, scenario, side, width, height)
    painter.end()
    return image
