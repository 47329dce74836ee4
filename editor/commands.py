"""Undoable edits: small ``QUndoCommand``s that each call the model once.

Every command computes its resulting scenario when it is built (from the document's
scenario at that moment) and keeps the scenario before it: ``redo`` installs the result,
``undo`` the previous value, so undo restores the model exactly (piece order included).
Commands never check legality: ``editor.editing`` does that before pushing them, so nothing
illegal reaches the undo stack through a tool.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QUndoCommand

from tankmap.editor.palette_data import piece_label
from tankmap.editor.pieces import Piece, Symmetry, copy_side, swap_sides
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario

if TYPE_CHECKING:  # (the document pushes commands: a type only, no import at run time)
    from tankmap.editor.document import Document


class ScenarioCommand(QUndoCommand):
    """Replace the document's scenario by ``after`` (and select ``selection``)."""

    def __init__(
        self,
        doc: Document,
        text: str,
        after: Scenario,
        selection: Iterable[Piece] = (),
    ) -> None:
        super().__init__(text)
        self.doc = doc
        self.before = doc.scenario
        self.before_selection = doc.selection
        self.after = after
        self.after_selection = tuple(selection)

    stroke = 0  # commands of one mouse stroke (drag-painting, drag-erasing) merge

    def id(self) -> int:
        return STROKE_ID if self.stroke else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt override
        """Fold the next command of the same stroke into this one (one undo step)."""
        if not isinstance(other, ScenarioCommand) or other.stroke != self.stroke:
            return False
        if other.before != self.after:
            return False
        self.after = other.after
        self.after_selection = other.after_selection
        return True

    def redo(self) -> None:
        self.doc._set_scenario(self.after, self.after_selection)

    def undo(self) -> None:
        self.doc._set_scenario(self.before, self.before_selection)


STROKE_ID = 7001
_strokes = iter(range(1, 2**62))


def new_stroke() -> int:
    """A fresh stroke number for a drag that pushes several commands."""
    return next(_strokes)


def _label(doc: Document, piece: Piece) -> str:
    return piece_label(doc.palette, piece)


class AddPieces(ScenarioCommand):
    """Add pieces (appended last, in order); the new pieces become the selection."""

    def __init__(self, doc: Document, pieces: Sequence[Piece], text: str | None = None) -> None:
        after = doc.scenario
        for p in pieces:
            after = after.adding(p)
        if text is None:
            text = (
                f"Place {_label(doc, pieces[0])}"
                if len(pieces) == 1
                else f"Add {len(pieces)} pieces"
            )
        super().__init__(doc, text, after, pieces)


class RemovePieces(ScenarioCommand):
    """Remove pieces (each must be present)."""

    def __init__(self, doc: Document, pieces: Sequence[Piece], text: str | None = None) -> None:
        after = doc.scenario
        for p in pieces:
            after = after.removing(p)
        if text is None:
            text = (
                f"Erase {_label(doc, pieces[0])}"
                if len(pieces) == 1
                else f"Erase {len(pieces)} pieces"
            )
        super().__init__(doc, text, after, ())


class ReplacePieces(ScenarioCommand):
    """Swap pieces for edited copies in place: the base of move, rotate, mirror and
    property edits. The new pieces become the selection."""

    verb = "Edit"

    def __init__(
        self, doc: Document, pairs: Sequence[tuple[Piece, Piece]], text: str | None = None
    ) -> None:
        after = doc.scenario
        for old, new in pairs:
            after = after.replacing(old, new)
        if text is None:
            what = _label(doc, pairs[0][0]) if len(pairs) == 1 else f"{len(pairs)} pieces"
            text = f"{self.verb} {what}"
        super().__init__(doc, text, after, [new for _, new in pairs])


class MovePieces(ReplacePieces):
    verb = "Move"


class RotatePieces(ReplacePieces):
    verb = "Rotate"


class MirrorPieces(ReplacePieces):
    verb = "Mirror"


class SetProperties(ReplacePieces):
    verb = "Edit"


class SetPieceProperty(ReplacePieces):
    """Change fields of one piece (``name``, ``facing``, ``damage``, ``lane``, ``arrow``...)."""

    def __init__(self, doc: Document, piece: Piece, **changes: Any) -> None:
        new = replace(piece, **changes)
        names = ", ".join(changes)
        super().__init__(doc, [(piece, new)], f"Set {names} of {_label(doc, piece)}")


class SwapSides(ScenarioCommand):
    """South's pieces become north's and the other way round (180° rotation)."""

    def __init__(self, doc: Document) -> None:
        super().__init__(doc, "Swap sides", swap_sides(doc.scenario))


class CopySide(ScenarioCommand):
    """Replace the other side's pieces by the 180° mirror of ``source``'s."""

    def __init__(self, doc: Document, source: Side = Side.SOUTH) -> None:
        names = doc.ruleset.side_names()
        text = f"Copy {names[source]} setup to {names[source.other]}"
        super().__init__(doc, text, copy_side(doc.scenario, source))


class SetSymmetry(ScenarioCommand):
    """Switch symmetry mode (kept in the scenario's ``editor`` settings, saved with it)."""

    def __init__(self, doc: Document, mode: Symmetry) -> None:
        editor = dict(doc.scenario.editor)
        if mode is Symmetry.OFF:
            editor.pop("symmetry", None)
        else:
            editor["symmetry"] = mode.value
        after = replace(doc.scenario, editor=editor)
        super().__init__(doc, f"Symmetry: {mode.value}", after, doc.selection)


class SetScenarioInfo(ScenarioCommand):
    """Change title, author, notes or options of the scenario."""

    def __init__(self, doc: Document, text: str = "Edit scenario", **changes: Any) -> None:
        options = changes.pop("options", None)
        after = replace(doc.scenario, **changes)
        if options is not None:
            after = replace(after, options=options)
        super().__init__(doc, text, after, doc.selection)
