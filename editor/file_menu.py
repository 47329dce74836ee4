"""The main window's File menu: new, open, save (never over a built-in map), revert, export,
import, crash recovery and the recent files.

``FileMenu`` is a mixin of ``MainWindow`` (``editor.mainwindow``): it uses the window's
document, prompter, autosave, context and settings.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction

from tankmap.editor.commands import ScenarioCommand
from tankmap.editor.dialogs import default_dir
from tankmap.editor.document import Document
from tankmap.editor.palette_data import ruleset_title
from tankmap.editor.window_setup import file_stem
from tankmap.maps import ROOT as BUILTIN_MAPS
from tankmap.rules.errors import TankmapError
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QMenu

    from tankmap.editor.autosave import Autosave
    from tankmap.editor.context import EditorContext
    from tankmap.editor.dialogs import Prompter

MAX_RECENT = 8


def is_builtin(path: Path) -> bool:
    """Whether ``path`` is one of tankmap's own maps (``tankmap maps``): a template that
    Save never writes over."""
    try:
        return path.resolve().is_relative_to(BUILTIN_MAPS.resolve())
    except OSError:
        return False


class FileMenu:
    """File ▸ … of the main window (see the module docstring)."""

    if TYPE_CHECKING:
        prompter: Prompter
        autosave: Autosave
        ctx: EditorContext
        settings: QSettings
        recent_menu: QMenu

        @property
        def doc(self) -> Document: ...

        def replace_document(self, doc: Document) -> None: ...

    def maybe_save(self, doing: str = "closing it") -> bool:
        """Ask about unsaved changes before ``doing`` ("starting a new scenario"...); False
        if the user cancelled (or saving failed)."""
        if not self.doc.modified:
            return True
        answer = self.prompter.unsaved_changes(self.doc.display_name, doing)
        if answer == "save":
            return self.save()
        return answer == "discard"

    def new_file(self, scenario: Scenario | None = None) -> bool:
        if not self.maybe_save("starting a new scenario"):
            return False
        scenario = scenario or self.prompter.new_scenario()
        if scenario is None:
            return False
        self.autosave.discard()
        self.replace_document(Document(scenario))
        self.ctx.say(f"New {get_ruleset(scenario.ruleset).title} scenario")
        return True

    def open_file(self, path: str | Path | None = None) -> bool:
        if not self.maybe_save("opening another file"):
            return False
        if path is None:
            path = self.prompter.open_path(default_dir(self.doc.path), self.recent_files())
            if path is None:
                return False
        if not self._load(path):
            return False
        self._add_recent(Path(path))
        self.ctx.say(f"Opened {path}")
        self.offer_recovery()
        return True

    def _load(self, path: str | Path) -> bool:
        """Make the file at ``path`` the document (the old one's autosave removed); False,
        with the reason shown, when it cannot be read."""
        try:
            doc = Document.open(path)
        except TankmapError as exc:
            self.prompter.error(str(exc))
            return False
        self.autosave.discard()
        self.replace_document(doc)
        return True

    def opened_builtin(self) -> bool:
        """Whether the document is one of tankmap's built-in maps (never saved over)."""
        return self.doc.path is not None and is_builtin(self.doc.path)

    def save(self) -> bool:
        """Save to the document's file; an untitled document or a built-in map asks for a
        file name (Save As) instead."""
        path = self.doc.path
        if path is None:
            return self.save_as()
        if is_builtin(path):
            self.ctx.say(f"{path.name} is a built-in map: save your board under a name of yours")
            return self.save_as()
        return self._write(path)

    def save_as(self) -> bool:
        """Ask for a file name and save there (never over a built-in map)."""
        path = self.doc.path
        if path is None or is_builtin(path):
            stem = path.stem if path is not None else file_stem(self.doc.scenario.title)
            suggested = str(Path(default_dir(None)) / f"{stem}.json")
        else:
            suggested = str(path)
        chosen = self._suffixed(self.prompter.save_path(suggested), ".json", bare_only=True)
        if chosen is None:
            return False
        if is_builtin(Path(chosen)):
            self.prompter.error(
                f"{chosen} is one of tankmap's built-in maps, which are not overwritten: "
                "choose another name or folder"
            )
            return False
        return self._write(Path(chosen))

    def _suffixed(self, chosen: str | None, suffix: str, bare_only: bool = False) -> str | None:
        """``chosen`` (a file dialog's answer) ending in ``suffix`` — added when the name
        does not end so (``bare_only``: only when it has no extension at all), as the
        dialog's filter says; ``None`` when nothing was chosen, or when the name so made is
        an existing file the dialog did not ask about and the user does not want it
        replaced."""
        if chosen is None or chosen.lower().endswith(suffix):
            return chosen
        if bare_only and Path(chosen).suffix:
            return chosen
        named = chosen + suffix
        if Path(named).exists() and not self.prompter.confirm(
            "Replace file?", f"{named} already exists. Replace it?"
        ):
            return None
        return named

    def _write(self, path: Path) -> bool:
        try:
            self.doc.save(path)
        except (OSError, TankmapError) as exc:
            self.prompter.error(f"Could not save {path}: {exc}")
            return False
        self._add_recent(path)
        self.ctx.say(f"Saved {path}")
        return True

    def revert(self) -> bool:
        """Read the document's file again, after asking to throw the changes away (they
        cannot be undone); False if there is nothing to revert or the user says no."""
        path = self.doc.path
        if path is None or not self.doc.modified:
            return False
        if not self.prompter.confirm(
            "Revert",
            f"Discard your changes to “{self.doc.display_name}” and read it again from "
            f"{path}? This cannot be undone.",
        ):
            return False
        if not self._load(path):
            return False
        self.ctx.say(f"Reverted to {path}")
        return True

    def export(self, kind: str) -> bool:
        from tankmap.editor import export

        stem = (self.doc.path.stem if self.doc.path else "board") + (
            "-setup" if kind == "pdf" else ""
        )
        filt = {
            "png": "PNG image (*.png)",
            "svg": "SVG drawing (*.svg)",
            "pdf": "PDF document (*.pdf)",
            "tmx": "Tiled map (*.tmx);;Tiled JSON map (*.tmj)",
        }[kind]
        path = self.prompter.save_path(
            str(Path(default_dir(self.doc.path)) / f"{stem}.{kind}"), "Export", filt
        )
        if path is None:
            return False
        if kind == "tmx" and path.lower().endswith(".tmj"):
            kind = "tmj"
        chosen = self._suffixed(path, f".{kind}")
        if chosen is None:
            return False
        path = chosen
        try:
            if kind in ("tmx", "tmj"):
                from tankmap.rules.tiled import write_tiled

                # the file the user chose: through a symbolic link if it is one
                write_tiled(self.doc.scenario, Path(path).resolve())
            elif kind == "png":
                export.export_png(self.doc.scenario, path)
            elif kind == "svg":
                export.export_svg(self.doc.scenario, path)
            else:
                export.export_setup_sheets(self.doc.scenario, path)
        except TankmapError as exc:
            self.prompter.error(str(exc))
            return False
        self.ctx.say(f"Exported {path}")
        return True

    def import_tiled(self) -> bool:
        """Read a Tiled map into a new, untitled document (saving asks for a .json name)."""
        from tankmap.rules.tiled_read import read_tiled

        if not self.maybe_save("importing a Tiled map"):
            return False
        path = self.prompter.open_file(
            default_dir(self.doc.path), "Import from Tiled", "Tiled maps (*.tmx *.tmj)"
        )
        if path is None:
            return False
        try:
            scenario = read_tiled(path)
        except TankmapError as exc:
            self.prompter.error(str(exc))
            return False
        self.autosave.discard()
        self.replace_document(Document(scenario))
        self.ctx.say(f"Imported {path}: save it as a scenario (.json) to keep it")
        return True

    # --- recovery ---------------------------------------------------------------------------
    def offer_recovery(self) -> bool:
        """If an autosave of this document was left by a crash, offer to restore it; an
        untitled document (the editor started without a file) is offered the copies of
        untitled documents and of the recent files. Restoring is one undoable step (on the
        recent file, opened first) and leaves the document modified; a copy declined is
        removed."""
        path = self.doc.path
        for found, original in self._left_copies(path):
            try:
                recovered = read_scenario(found)
            except TankmapError:
                found.unlink(missing_ok=True)
                continue
            if original is not None:
                name = f"“{original}”"
            else:
                title = f" “{recovered.title}”" if recovered.title else ""
                rs_title = ruleset_title(get_ruleset(recovered.ruleset))
                name = f"an untitled {rs_title} scenario{title}"
            if self.prompter.recover(str(found), name):
                self._restore(recovered, original if path is None else None)
                found.unlink(missing_ok=True)
                self.ctx.say(f"Recovered unsaved work from {found}")
                return True
            found.unlink(missing_ok=True)
        return False

    def _left_copies(self, path: Path | None) -> list[tuple[Path, Path | None]]:
        """The autosaved copies to offer, each with the file it is a copy of (``None``: an
        untitled document's)."""
        if path is not None:
            found = self.autosave.find_for(path)
            return [] if found is None else [(found, path)]
        copies: list[tuple[Path, Path | None]] = [(f, None) for f in self.autosave.find_untitled()]
        for recent in self.recent_files():
            found = self.autosave.find_for(Path(recent))
            if found is not None:
                copies.append((found, Path(recent)))
        return copies

    def _restore(self, recovered: Scenario, reopen: Path | None) -> None:
        """Put ``recovered`` in place as one undoable step: on ``reopen`` opened first (a
        recent file's copy), or on the document as it is (a new document when the copy is
        of another game)."""
        if reopen is not None:
            try:
                self.replace_document(Document.open(reopen))
            except TankmapError:  # the file is gone or unreadable: keep the work untitled
                self.replace_document(Document(recovered))
                self.doc.undo_stack.resetClean()
                return
        elif self.doc.path is None and recovered.ruleset != self.doc.scenario.ruleset:
            self.replace_document(Document(recovered))
            self.doc.undo_stack.resetClean()
            return
        self.doc.undo_stack.push(ScenarioCommand(self.doc, "Recover autosave", recovered))

    # --- recent files -----------------------------------------------------------------------
    def recent_files(self) -> list[str]:
        value = self.settings.value("recent", [])
        if isinstance(value, str):
            return [value]
        if isinstance(value, list | tuple):
            return [str(v) for v in value]
        return []

    def _add_recent(self, path: Path) -> None:
        text = str(path.resolve())
        files = [text] + [f for f in self.recent_files() if f != text]
        self.settings.setValue("recent", files[:MAX_RECENT])
        self._rebuild_recent()

    def _rebuild_recent(self) -> None:
        if not hasattr(self, "recent_menu"):
            return
        self.recent_menu.clear()
        for i, f in enumerate(self.recent_files()):
            act = QAction(f"&{i + 1} {Path(f).name}", self.recent_menu)
            act.setToolTip(f)
            act.triggered.connect(lambda checked=False, f=f: self.open_file(f))
            self.recent_menu.addAction(act)
        self.recent_menu.setEnabled(bool(self.recent_files()))
