"""Saved files are canonical (docs/formats.md): the same board built in two different edit
orders — pieces placed in another order, a berm placed upright, turned and moved, north's half made
by symmetry mode or by hand — is saved as the same bytes (issue 18 item 8)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tankmap.editor import editing
from tankmap.editor.document import Document
from tankmap.editor.pieces import Symmetry
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Terrain, Unit


def _doc() -> Document:
    return Document(get_ruleset("final-act").new_scenario())


def _cells(doc: Document, *names: str) -> tuple[int, ...]:
    return tuple(doc.scenario.board.parse_cell(n) for n in names)


def _place(doc: Document, kind: str, side: Side, *cells: str, **kw: Any) -> Terrain:
    piece = Terrain(kind, _cells(doc, *cells), side, **kw)
    assert editing.place(doc, piece).ok, editing.preview(doc, piece).reason
    return piece


def _units(doc: Document) -> None:
    b = doc.scenario.board
    for cell, name in (("f2", "C"), ("b2", "1")):
        unit = Unit("tank", Side.SOUTH, b.parse_cell(cell), Facing.N, name)
        assert editing.place(doc, unit).ok
    for cell, name in (("g11", "C"), ("k11", "1")):
        unit = Unit("tank", Side.NORTH, b.parse_cell(cell), Facing.S, name)
        assert editing.place(doc, unit).ok


def _south_first_with_symmetry() -> Document:
    """South's terrain in the usual order; north's appears as symmetry mode's images."""
    doc = _doc()
    doc.symmetry = Symmetry.POINT
    _place(doc, "berm-large", Side.SOUTH, "c3", "d3", "e3")
    _place(doc, "swamp", Side.SOUTH, "b5", "c5", "b6", "c6")
    mine = _cells(doc, "g5")[0]
    _place(doc, "minefield", Side.SOUTH, "f5", "g5", "h5", lane=mine, arrow=Facing.N)
    doc.symmetry = Symmetry.OFF
    _units(doc)
    return doc


def _north_first_by_hand() -> Document:
    """North's terrain first, cells listed in another order; south's berm placed upright on
    d1-d3, turned a quarter about its middle cell and moved a row up onto c3-e3."""
    doc = _doc()
    b = doc.scenario.board
    _place(doc, "minefield", Side.NORTH, "g8", "e8", "f8", lane=b.parse_cell("f8"), arrow=Facing.S)
    _place(doc, "swamp", Side.NORTH, "k8", "j8", "k7", "j7")
    _place(doc, "berm-large", Side.NORTH, "j10", "h10", "i10")
    _place(doc, "minefield", Side.SOUTH, "h5", "g5", "f5", lane=b.parse_cell("g5"), arrow=Facing.N)
    _place(doc, "berm-large", Side.SOUTH, "d3", "d2", "d1")
    assert editing.rotate_pieces(doc, [doc.scenario.terrain[-1]]).ok
    assert editing.move(doc, [doc.scenario.terrain[-1]], 0, 1).ok
    _place(doc, "swamp", Side.SOUTH, "c6", "b6", "c5", "b5")
    _units(doc)
    return doc


def test_same_board_built_in_two_orders_saves_the_same_bytes(qtbot: Any, tmp_path: Path) -> None:
    one, two = _south_first_with_symmetry(), _north_first_by_hand()
    b = one.scenario.board
    shape = {
        (t.kind, t.side, frozenset(b.cell_name(c) for c in t.cells), t.lane, t.arrow)
        for t in one.scenario.terrain
    }
    assert shape == {
        (t.kind, t.side, frozenset(b.cell_name(c) for c in t.cells), t.lane, t.arrow)
        for t in two.scenario.terrain
    }
    assert one.scenario.units == two.scenario.units
    assert one.scenario.terrain != two.scenario.terrain  # the edit orders really differ
    one.save(tmp_path / "one.json")
    two.save(tmp_path / "two.json")
    text = (tmp_path / "one.json").read_bytes()
    assert text == (tmp_path / "two.json").read_bytes()
    # the canonical order: owner, then kind, cells in board order
    lines = [line.strip() for line in text.decode().splitlines() if '"kind"' in line]
    assert lines[:3] == [
        '{"kind": "berm-large", "side": "south", "cells": ["c3", "d3", "e3"]},',
        '{"kind": "swamp", "side": "south", "cells": ["b5", "c5", "b6", "c6"]},',
        '{"kind": "minefield", "side": "south", "cells": ["f5", "g5", "h5"], '
        '"lane": "g5", "arrow": "N"},',
    ]
    assert lines[3].startswith('{"kind": "berm-large", "side": "north", "cells": ["h10"')
