"""Seeded random edit sessions on every built-in map: whatever the tools are asked to do,
no edit adds an ``error`` violation the board did not already have, a refused edit changes
nothing, the document's cached check equals a fresh ``ruleset.check``, and undoing every
step gives back the file as opened (redoing them, the final board).

The promise is the editor's own (issue 7: "nothing illegal is ever written into the scenario
by a tool"); the positions are random, the invariants are the rules' ``check``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tankmap import maps
from tankmap.editor import editing
from tankmap.editor.document import Document
from tankmap.editor.palette_data import shapes_for
from tankmap.editor.pieces import (
    Symmetry,
    all_pieces,
    footprint_cells,
    mirror_offsets,
    rotate_offsets,
)
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Unit
from tankmap.rules.violations import Severity

STEPS = 120
OPS = ("place", "place", "place", "erase", "move", "rotate", "mirror", "facing", "swap",
       "copy", "symmetry", "undo", "redo")  # fmt: skip


def errors(doc: Document, scenario: Scenario) -> set[Any]:
    return {v for v in doc.ruleset.check(scenario) if v.severity is Severity.ERROR}


def random_piece(doc: Document, rng: np.random.Generator) -> Any:
    palette = doc.palette
    entry = palette.entries[int(rng.integers(len(palette.entries)))]
    side = Side.SOUTH if rng.random() < 0.5 else Side.NORTH
    board = doc.scenario.board
    anchor = int(rng.integers(board.size))
    if entry.is_unit:
        piece = editing.make_piece(doc, entry.kind, side, (anchor,))
        if palette.facings and rng.random() < 0.3:
            step = 1 if palette.facings == 8 else 2
            piece = Unit(
                piece.kind, piece.side, piece.cell, Facing(int(rng.integers(8)) // step * step),
                name=piece.name,
            )  # fmt: skip
        return piece
    shapes = shapes_for(palette, entry.kind, doc.ruleset, doc.scenario)
    shape = shapes[int(rng.integers(len(shapes)))]
    offsets = rotate_offsets(shape.offsets, int(rng.integers(4)))
    if rng.random() < 0.5:
        offsets = mirror_offsets(offsets)
    cells = footprint_cells(board, anchor, offsets)
    if cells is None:
        return None
    lane = cells[shape.lane] if shape.lane is not None else None
    arrow = side.forward if entry.arrow else None
    return editing.make_piece(
        doc, entry.kind, side, cells, shape=shape.name, lane=lane, arrow=arrow
    )


def step(doc: Document, rng: np.random.Generator, op: str) -> editing.Outcome | None:
    """Do one random edit; ``None`` for undo/redo/symmetry (not tool edits)."""
    pieces = all_pieces(doc.scenario)
    some = [pieces[int(i)] for i in rng.permutation(len(pieces))[: int(rng.integers(1, 3))]]
    if op == "place":
        piece = random_piece(doc, rng)
        return editing.Outcome(False) if piece is None else editing.place(doc, piece)
    if op == "erase":
        return editing.erase(doc, some) if some else editing.Outcome(False)
    if op == "move":
        dx, dy = (int(v) for v in rng.integers(-2, 3, size=2))
        return editing.move(doc, some, dx, dy)
    if op == "rotate":
        return editing.rotate_pieces(doc, some, bool(rng.random() < 0.5))
    if op == "mirror":
        return editing.mirror_pieces(doc, some)
    if op == "facing":
        units = [p for p in some if isinstance(p, Unit)]
        if not units or not doc.palette.facings:
            return editing.Outcome(False)
        return editing.set_property(doc, units[0], facing=Facing(int(rng.integers(8))))
    if op == "swap":
        return editing.swap(doc)
    if op == "copy":
        return editing.copy_setup(doc, Side.SOUTH if rng.random() < 0.5 else Side.NORTH)
    if op == "symmetry":
        doc.symmetry = (Symmetry.OFF, Symmetry.POINT, Symmetry.LEFT_RIGHT)[int(rng.integers(3))]
    elif op == "undo":
        doc.undo_stack.undo()
    elif op == "redo":
        doc.undo_stack.redo()
    return None


@pytest.mark.parametrize("path", maps.builtin_maps(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_random_edit_sessions_never_add_an_error(path: Any, qtbot: Any) -> None:
    original = read_scenario(path)
    rng = np.random.default_rng([sum(map(ord, path.parent.name + path.name)), 2026])
    doc = Document(original)
    accepted = refused = 0
    for _ in range(STEPS):
        op = OPS[int(rng.integers(len(OPS)))]
        before = doc.scenario
        before_errors = errors(doc, before)
        outcome = step(doc, rng, op)
        after = doc.scenario
        if outcome is not None:
            if outcome.ok:
                accepted += after != before
                assert errors(doc, after) <= before_errors, (op, outcome)
            else:
                refused += 1
                assert after == before, (op, outcome.reason)
        assert doc.violations == doc.ruleset.check(after)  # the cache is never stale
    assert accepted >= 10 and refused >= 5  # the session did exercise both paths
    # the session may end on an undo: redo back to where it stood, not past it
    final, index = doc.scenario, doc.undo_stack.index()
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.scenario == original
    for _ in range(index):
        doc.undo_stack.redo()
    assert doc.scenario == final
