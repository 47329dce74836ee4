"""The editor's document: one scenario, its file path, its undo stack and its selection.

Promises:
- ``scenario`` only changes through ``QUndoCommand``s pushed on ``undo_stack`` (see
  ``editor.commands``), which call ``_set_scenario``; every change emits ``changed`` once.
- ``modified`` is ``not undo_stack.isClean()``; saving marks the stack clean.
- ``violations`` is ``ruleset.check(scenario)``, computed once per scenario value.
- ``symmetry`` (symmetry mode) lives in the scenario's ``editor`` settings, so it is saved
  with the file and comes back on open; switching it is an undoable command.
- ``selection`` holds piece values (pieces are immutable values, equal iff identical); it
  is pruned to pieces still present after each change and emits ``selection_changed``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from tankmap.editor import qtguard
from tankmap.editor.palette_data import Palette, palette_for
from tankmap.editor.pieces import Piece, Symmetry
from tankmap.rules.fileformat import read_scenario, write_scenario
from tankmap.rules.registry import get_ruleset
from tankmap.rules.ruleset import Ruleset
from tankmap.rules.scenario import Scenario
from tankmap.rules.violations import Violation

CHECK_CACHE = 16
assert qtguard.GUARDED in (True, False)  # imported for its side effect


class Document(QObject):
    """A scenario being edited. Build with ``Document(scenario, path)`` or ``Document.open``."""

    changed = Signal()
    selection_changed = Signal()
    path_changed = Signal()
    modified_changed = Signal(bool)

    def __init__(
        self, scenario: Scenario, path: str | Path | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._scenario = scenario
        self._ruleset = get_ruleset(scenario.ruleset)
        self._palette = palette_for(self._ruleset)
        self._path: Path | None = None if path is None else Path(path)
        self._violations: list[Violation] | None = None
        self._checked: dict[Scenario, list[Violation]] = {}
        self._selection: tuple[Piece, ...] = ()
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)

    def _clean_changed(self, clean: bool) -> None:
        self.modified_changed.emit(not clean)

    @classmethod
    def open(cls, path: str | Path, parent: QObject | None = None) -> Document:
        """Read ``path`` (``ScenarioFormatError`` if it is not a valid scenario)."""
        return cls(read_scenario(path), path, parent)

    # --- state ----------------------------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        return self._scenario

    @property
    def symmetry(self) -> Symmetry:
        """Symmetry mode: part of the scenario (``editor.symmetry``), saved with the file."""
        return Symmetry(self._scenario.editor.get("symmetry", Symmetry.OFF.value))

    @symmetry.setter
    def symmetry(self, mode: Symmetry) -> None:
        """Switch symmetry mode: one undoable step (it is saved with the file)."""
        if mode is self.symmetry:
            return
        from tankmap.editor.commands import SetSymmetry

        self.undo_stack.push(SetSymmetry(self, mode))

    @property
    def ruleset(self) -> Ruleset:
        return self._ruleset

    @property
    def palette(self) -> Palette:
        return self._palette

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    @property
    def violations(self) -> list[Violation]:
        if self._violations is None:
            self._violations = self.check(self._scenario)
        return self._violations

    def check(self, scenario: Scenario) -> list[Violation]:
        """``ruleset.check(scenario)``, remembered for the last few scenarios (an edit is
        checked before it is pushed, then shown; undo returns to a checked scenario)."""
        found = self._checked.get(scenario)
        if found is None:
            found = self._ruleset.check(scenario)
            self._checked[scenario] = found
            while len(self._checked) > CHECK_CACHE:
                self._checked.pop(next(iter(self._checked)))
        else:
            self._checked[scenario] = self._checked.pop(scenario)  # most recent last
        return list(found)

    @property
    def display_name(self) -> str:
        if self._path is not None:
            return self._path.name
        return self._scenario.title or "untitled"

    # --- selection ------------------------------------------------------------------------
    @property
    def selection(self) -> tuple[Piece, ...]:
        return self._selection

    def select(self, pieces: Iterable[Piece]) -> None:
        """Select exactly ``pieces`` (those present in the scenario)."""
        present = set(self._scenario.units) | set(self._scenario.terrain)
        new = tuple(dict.fromkeys(p for p in pieces if p in present))
        if new != self._selection:
            self._selection = new
            self.selection_changed.emit()

    # --- changes (only commands call this) ------------------------------------------------
    def _set_scenario(self, scenario: Scenario, selection: Iterable[Piece] | None = None) -> None:
        self._scenario = scenario
        self._violations = None
        self.changed.emit()
        self.select(self._selection if selection is None else selection)

    # --- files ----------------------------------------------------------------------------
    def save(self, path: str | Path | None = None) -> None:
        """Write the scenario atomically to ``path`` (default: the current path) and mark the
        document clean. ``ValueError`` if there is no path; OSError as raised by the write."""
        target = Path(path) if path is not None else self._path
        if target is None:
            raise ValueError("the document has no file name yet")
        # the file the user opened or chose: a symbolic link is written through
        write_scenario(self._scenario, target, follow_symlinks=True)
        if target != self._path:
            self._path = target
            self.path_changed.emit()
        self.undo_stack.setClean()

    def set_path(self, path: str | Path | None) -> None:
        self._path = None if path is None else Path(path)
        self.path_changed.emit()
