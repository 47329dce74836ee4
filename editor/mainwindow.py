"""The main window: board canvas, docks, menus from ``editor.actions``, autosave; the File
menu's work is ``editor.file_menu``.

Construct with injectable pieces so tests never block: ``MainWindow(path, prompter=...,
settings=QSettings(ini, IniFormat), autosave=Autosave(tmpdir, interval))``.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer
from PySide6.QtGui import QActionGroup, QCloseEvent
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QUndoView, QWidget

from tankmap.editor import clipboard, editing
from tankmap.editor.actions import build_actions, name_sides, shortcuts_html
from tankmap.editor.analysis_menu import AnalysisMenu
from tankmap.editor.autosave import Autosave
from tankmap.editor.board_only import BoardOnly
from tankmap.editor.context import EditorContext
from tankmap.editor.dialogs import Prompter, QtPrompter
from tankmap.editor.docks.inspector import InspectorDock
from tankmap.editor.docks.legend import LegendDock
from tankmap.editor.docks.palette import PaletteDock
from tankmap.editor.docks.problems import ProblemsDock
from tankmap.editor.document import Document
from tankmap.editor.elided_label import ElidedLabel
from tankmap.editor.file_menu import FileMenu
from tankmap.editor.overlays import OverlayController
from tankmap.editor.palette_data import piece_label, ruleset_title
from tankmap.editor.pieces import Symmetry, pieces_at
from tankmap.editor.rules_view import RulesWindow
from tankmap.editor.tools.select import describe
from tankmap.editor.undo_words import history_said
from tankmap.editor.view import BoardView
from tankmap.editor.window_setup import (
    WELCOME,
    app_icon,
    build_menus,
    initial_geometry,
)
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario


class MainWindow(QMainWindow, FileMenu):
    """The editor window (see module docstring)."""

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        scenario: Scenario | None = None,
        prompter: Prompter | None = None,
        settings: QSettings | None = None,
        autosave: Autosave | None = None,
        offer_recovery: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.prompter: Prompter = prompter or QtPrompter(self)
        self.settings = settings or QSettings("tankmap", "tankmap-editor")
        self.autosave = autosave or Autosave(parent=self)
        self.autosave.failed.connect(lambda why: self.ctx.say(f"Autosave is not working: {why}"))
        if self.autosave.parent() is None:
            self.autosave.setParent(self)
        if path is not None:
            doc = Document.open(path)
        else:
            doc = Document(scenario or get_ruleset("final-act").new_scenario())
        self.ctx: EditorContext = EditorContext(doc, self)
        self.analysis: AnalysisMenu = AnalysisMenu(self)
        self.rules_window: RulesWindow | None = None
        self.view: BoardView = BoardView(self.ctx)
        self.setCentralWidget(self.view)
        self.overlays = OverlayController(self.ctx)
        self._build_docks()
        self.board_only = BoardOnly(self._all_docks, lambda: QTimer.singleShot(0, self.view.fit))
        self.actions_by_id = build_actions(self)
        self._build_menus()
        self.ctx.context_actions = [
            self.actions_by_id[a]
            for a in (
                "edit.rotate",
                "edit.rotate_back",
                "edit.mirror",
                "edit.copy",
                "edit.cut",
                "edit.delete",
            )
        ]
        self._build_status()
        self.ctx.status.connect(self._status)
        self.ctx.tool_changed.connect(self._tool_changed)
        self.ctx.hover_changed.connect(self._hover)
        self.ctx.document_replaced.connect(self._document_replaced)
        self.actions_by_id["symmetry.off"].setChecked(True)
        self.actions_by_id["view.unit_view"].setChecked(True)
        self.actions_by_id["view.overlay_none"].setChecked(True)
        self._document_replaced()
        self._tool_changed(self.ctx.tool_id)
        self.ctx.say(WELCOME)
        self.setWindowIcon(app_icon())
        geometry = self.settings.value("window/geometry")
        if not (isinstance(geometry, QByteArray) and self.restoreGeometry(geometry)):
            self.setGeometry(initial_geometry(self.screen().availableGeometry()))
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)
        if path is not None:
            self._add_recent(Path(path))
        if offer_recovery:
            self.offer_recovery()

    # --- building -------------------------------------------------------------------------
    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock-{title.lower()}")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self.palette_dock = PaletteDock(self.ctx)
        self.problems_dock = ProblemsDock(self.ctx)
        self.inspector_dock = InspectorDock(self.ctx)
        self.history = QUndoView(self.ctx.doc.undo_stack)
        self.history.setEmptyLabel("Opened (no edits yet)")
        self.history.clicked.connect(lambda _index: history_said(self.ctx))
        self.legend_dock = LegendDock(self.ctx, self.overlays)
        self.docks = {
            "palette": self._dock("Palette", self.palette_dock, left),
            "inspector": self._dock("Inspector", self.inspector_dock, left),
            "problems": self._dock("Problems", self.problems_dock, right),
            "legend": self._dock("Legend", self.legend_dock, right),
            "history": self._dock("History", self.history, right),
        }
        self.resizeDocks(
            [self.docks[k] for k in ("problems", "legend", "history")],
            [3, 3, 2],
            Qt.Orientation.Vertical,
        )
        self.problems_dock.shown.connect(self._show_cells)

    def _build_menus(self) -> None:
        self.recent_menu = build_menus(self, self.actions_by_id, list(self.docks.values()))
        self._rebuild_recent()

    def _build_status(self) -> None:
        bar = self.statusBar()
        self.message = ElidedLabel()  # a long refusal ends in "…", whole in its tooltip
        self.message.setObjectName("status-message")
        self.hover_label = QLabel()
        self.ruleset_label = QLabel()
        self.game_label = QLabel()  # game over / Check! / Escape!
        self.game_label.setObjectName("status-game")
        self.game_label.setStyleSheet("font-weight: bold")
        bar.addWidget(self.message, 1)
        bar.addPermanentWidget(self.game_label)
        bar.addPermanentWidget(self.hover_label)
        bar.addPermanentWidget(self.ruleset_label)

    # --- document -------------------------------------------------------------------------
    @property
    def doc(self) -> Document:
        return self.ctx.doc

    def _document_replaced(self) -> None:
        doc = self.doc
        self.history.setStack(doc.undo_stack)
        self.autosave.attach(doc)
        doc.modified_changed.connect(self._update_title)
        doc.path_changed.connect(self._update_title)
        doc.selection_changed.connect(self.overlays.refresh_unit_view)
        doc.changed.connect(self.overlays.refresh)
        doc.changed.connect(self._refresh_hover)  # an edit under the cursor changes its text
        doc.changed.connect(self._update_game_status)
        undo, redo = self.actions_by_id["edit.undo"], self.actions_by_id["edit.redo"]
        undo.setEnabled(doc.undo_stack.canUndo())
        redo.setEnabled(doc.undo_stack.canRedo())
        doc.undo_stack.canUndoChanged.connect(undo.setEnabled)
        doc.undo_stack.canRedoChanged.connect(redo.setEnabled)
        doc.undo_stack.undoTextChanged.connect(self._undo_text)
        doc.undo_stack.redoTextChanged.connect(self._redo_text)
        doc.changed.connect(self._show_symmetry)  # undo and redo switch it too
        self._show_symmetry()
        rs = doc.ruleset
        name_sides(self.actions_by_id, self.side_words())
        text = ruleset_title(rs) + (" — rules not final" if rs.provisional else "")
        self.ruleset_label.setText(text)
        self.ruleset_label.setStyleSheet(
            "color: #b71c1c; font-weight: bold" if rs.provisional else ""
        )
        self.overlays.refresh()
        self._update_title()
        self._update_game_status()
        self.analysis.document_replaced()

    def _update_game_status(self, *args: object) -> None:
        from tankmap.editor.game_status import game_status_text

        self.game_label.setText(game_status_text(self.doc.scenario))

    def _undo_text(self, text: str) -> None:
        self.actions_by_id["edit.undo"].setText(f"&Undo {text}".strip())

    def _redo_text(self, text: str) -> None:
        self.actions_by_id["edit.redo"].setText(f"&Redo {text}".strip())

    def _update_title(self, *args: object) -> None:
        doc = self.doc
        rs = doc.ruleset
        builtin = " (built-in map)" if self.opened_builtin() else ""
        self.setWindowTitle(f"{doc.display_name}[*]{builtin} — {ruleset_title(rs)} — tankmap")
        self.setWindowModified(doc.modified)

    def replace_document(self, doc: Document) -> None:
        self.ctx.set_document(doc)

    # --- editing commands -----------------------------------------------------------------
    def run_action(self, action_id: str) -> None:
        """Trigger a declared action (what a menu click or shortcut does)."""
        self.actions_by_id[action_id].trigger()

    def report(self, outcome: object) -> None:
        if isinstance(outcome, editing.Outcome) and not outcome.ok:
            self.ctx.say(f"Refused: {outcome.reason}")

    def set_symmetry(self, mode: Symmetry) -> None:
        """Switch symmetry mode (an undoable edit of the scenario: saved with the file)."""
        self.doc.symmetry = mode
        self._show_symmetry()
        self.ctx.say(f"Symmetry: {mode.value}")
        if self.ctx.tool_id == "place":
            self.ctx.tool.activate()

    def _show_symmetry(self) -> None:
        """Check the toolbar button of the document's symmetry mode."""
        ids = {
            Symmetry.OFF: "symmetry.off",
            Symmetry.POINT: "symmetry.point",
            Symmetry.LEFT_RIGHT: "symmetry.lr",
        }
        self.actions_by_id[ids[self.doc.symmetry]].setChecked(True)

    def cycle_shape(self, step: int) -> str | None:
        """Choose the next (``step`` 1) or previous (-1) footprint shape of the palette's
        terrain piece and switch to the place tool; returns the shape's label (``None``
        when the chosen piece has a single shape or is a unit)."""
        from tankmap.editor.palette_data import shapes_for

        kind = self.ctx.choice.kind
        doc = self.doc
        if kind is None or doc.palette.entry(kind).is_unit:
            self.ctx.say("Pick a terrain piece in the palette first")
            return None
        shapes = shapes_for(doc.palette, kind, doc.ruleset, doc.scenario)
        if len(shapes) < 2:
            self.ctx.say(f"{doc.palette.entry(kind).label} has only one shape")
            return None
        index = (self.ctx.choice.shape + step) % len(shapes)
        self.ctx.set_choice(shape=index, turns=0, mirrored=False)
        self.ctx.set_tool("place")
        if self.ctx.tool_id == "place":
            self.ctx.tool.activate()
        label = shapes[index].label
        self.ctx.say(f"Shape: {label} ({index + 1} of {len(shapes)}) — ] next, [ previous")
        return label

    def step_problem(self, delta: int) -> int | None:
        """Show the next / previous problem (F8, Shift+F8)."""
        return self.problems_dock.step(delta)

    def swap_sides(self) -> editing.Outcome:
        return self._said(editing.swap(self.doc))

    def copy_setup(self, source: Side) -> editing.Outcome:
        return self._said(editing.copy_setup(self.doc, source))

    def _said(self, outcome: editing.Outcome) -> editing.Outcome:
        """Say what a whole-board edit did when it was made (a refusal is ``report``'s)."""
        if outcome.ok:
            self.ctx.say(f"{self.doc.undo_stack.undoText()}: done (Ctrl+Z to undo)")
        return outcome

    def nudge(self, dx: int, dy: int) -> editing.Outcome:
        """Move the selection one cell (arrow keys on the board)."""
        return self.ctx.nudge(dx, dy)

    def delete_selection(self) -> editing.Outcome:
        sel = self.doc.selection
        if not sel:
            self.ctx.say("Nothing selected to delete")
            return editing.Outcome(False, "nothing selected")
        what = piece_label(self.doc.palette, sel[0]) if len(sel) == 1 else f"{len(sel)} pieces"
        outcome = editing.erase(self.doc, sel)
        if outcome.ok:
            self.ctx.say(f"Erased {what} (Ctrl+Z to undo)")
        return outcome

    def escape(self) -> None:
        """Esc: back to the select tool with nothing selected."""
        self.ctx.set_tool("select")
        self.ctx.scene.clear_preview()
        self.ctx.scene.problems.set_cells(())
        self.doc.select([])

    def select_all(self) -> None:
        s = self.doc.scenario
        self.doc.select((*s.terrain, *s.units))

    def copy(self) -> int:
        """Copy the selection (Ctrl+C); returns how many pieces were copied."""
        return clipboard.copy(self.ctx)

    def cut(self) -> None:
        if self.copy():
            self.delete_selection()

    def paste(self, at: int | None = None) -> editing.Outcome:
        """Paste at ``at`` (default: the cell under the cursor); see ``clipboard.paste``."""
        outcome = clipboard.paste(self.ctx, at)
        if not outcome.ok:
            self.ctx.say(f"Refused: {outcome.reason}")
        return outcome

    def toggle_unit_view(self) -> None:
        self.ctx.unit_view = self.actions_by_id["view.unit_view"].isChecked()
        self.overlays.refresh_unit_view()

    def _all_docks(self) -> list[QDockWidget]:
        extra = self.analysis.suggestions_dock
        return [*self.docks.values(), *([] if extra is None else [extra])]

    def toggle_board_only(self) -> None:
        """View ▸ Board only was toggled: hide the panels or bring them back."""
        action = self.actions_by_id["view.board_only"]
        said = self.board_only.set(action.isChecked())
        action.setChecked(self.board_only.on)
        if said:
            self.ctx.say(said)

    def set_overlay(self, name: str) -> None:
        self.overlays.set_mode(name)

    # --- status and help ------------------------------------------------------------------
    def _status(self, text: str) -> None:
        self.message.setText(text)

    def _tool_changed(self, tool_id: str) -> None:
        act = self.actions_by_id.get(f"tools.{tool_id}")
        if act is not None:
            act.setChecked(True)
        else:  # the stamp (Ctrl+V) has no button: none of the tool buttons is on
            for other in ("select", "place", "erase"):
                tool = self.actions_by_id[f"tools.{other}"]
                group = tool.actionGroup()
                if tool.isChecked() and group is not None:
                    group.setExclusionPolicy(QActionGroup.ExclusionPolicy.ExclusiveOptional)
                    tool.setChecked(False)
                    group.setExclusionPolicy(QActionGroup.ExclusionPolicy.Exclusive)

    def _hover(self, cell: object) -> None:
        if not isinstance(cell, int):
            self.hover_label.setText("")
            return
        s = self.doc.scenario
        found = pieces_at(s, cell)
        text = s.board.cell_name(cell)
        if found:
            sides = self.doc.ruleset.side_names()
            text += ": " + ", ".join(describe(p, self.doc.palette, sides) for p in found)
        self.hover_label.setText(text + "  ")

    def _refresh_hover(self) -> None:
        self._hover(self.ctx.hover)

    def _show_cells(self, cells: object) -> None:
        if isinstance(cells, tuple) and cells:
            self.view.centerOn(self.ctx.scene.geo.centre(cells[0]))

    def side_words(self) -> dict[str, str]:
        """How this document's game names the sides, keyed by their file names."""
        return {side.value: name for side, name in self.doc.ruleset.side_names().items()}

    def show_shortcuts(self) -> None:
        self.prompter.info("Keyboard shortcuts", shortcuts_html(self.side_words()))

    def show_rules(self) -> RulesWindow:
        """Help ▸ Rules: the rules document beside the editor, at this game's section."""
        if self.rules_window is None:
            self.rules_window = RulesWindow(self)
        self.rules_window.show()
        self.rules_window.raise_()
        self.rules_window.show_game(self.doc.scenario.ruleset)
        return self.rules_window

    def show_about(self) -> None:
        self.prompter.info(
            "About tankmap",
            "<b>tankmap</b> — scenario and map editor with balance analysis for grid tank "
            "board games (Final Act, Tank Chess, Tank Wars).<br>Every placement is checked "
            "against the rule book; the Problems dock explains what is still wrong.",
        )

    # --- closing --------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        if not self.maybe_save("quitting"):
            event.ignore()
            return
        self.analysis.stop()
        self.overlays.stop()
        self.autosave.discard()
        self.board_only.restore()  # the next start opens with its panels
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.sync()
        event.accept()
