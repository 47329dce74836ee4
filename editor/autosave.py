"""Autosave: a copy of the scenario written a few seconds after each change, removed when
the document is saved or closed cleanly, and offered for recovery after a crash.

Copies live in one directory (by default ``QStandardPaths.AppDataLocation/autosave``), never
next to the user's file, so built-in map folders and version-controlled folders stay clean:
``<stem>-<hash of the file's absolute path>.autosave.json`` for a file,
``untitled-<n>.autosave.json`` for a document that was never saved.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer, Signal

from tankmap.editor.document import Document
from tankmap.rules.errors import TankmapError
from tankmap.rules.fileformat import atomic_write_text, dumps_scenario
from tankmap.rules.safeio import remove_stale_temps

SUFFIX = ".autosave.json"


def default_directory() -> Path:
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".tankmap") / "autosave"


def autosave_path(directory: Path, original: Path) -> Path:
    """Where the autosaved copy of ``original`` lives."""
    digest = hashlib.sha1(str(original.resolve()).encode("utf-8")).hexdigest()[:10]
    return directory / f"{original.stem}-{digest}{SUFFIX}"


def _owner_alive(path: Path) -> bool:
    """Whether the editor process that writes ``untitled-<pid>-...`` is still running (its
    copy is then live work, not a crash leftover)."""
    try:
        pid = int(path.name.split("-")[1])
    except (IndexError, ValueError):
        return False
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists but belongs to someone else
    return True


class Autosave(QObject):
    """Watches one document at a time (``attach``) and keeps its autosaved copy."""

    saved = Signal(str)
    failed = Signal(str)  # once per run of failures: the folder cannot take the copy

    def __init__(
        self, directory: Path | None = None, interval_ms: int = 5000, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.directory = directory or default_directory()
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.save_now)
        self.doc: Document | None = None
        self._untitled = f"untitled-{os.getpid()}-{int(time.time() * 1000)}{SUFFIX}"
        self.current: Path | None = None
        self.failing = False
        # temp files of copies whose editor was killed mid-write (its own copies are offered
        # for recovery; a half-written temp file is of no use to anyone)
        remove_stale_temps(self.directory)

    def attach(self, doc: Document) -> None:
        """Watch ``doc`` (the previous document's copy is removed)."""
        if self.doc is not None:
            self.discard()
            for signal, slot in (
                (self.doc.undo_stack.indexChanged, self._changed),
                (self.doc.modified_changed, self._modified),
                (self.doc.path_changed, self._path_changed),
            ):
                try:
                    signal.disconnect(slot)
                except (RuntimeError, TypeError):  # already gone with its document
                    pass
        self.doc = doc
        doc.undo_stack.indexChanged.connect(self._changed)
        doc.modified_changed.connect(self._modified)
        doc.path_changed.connect(self._path_changed)
        self.current = self.path_for(doc)

    def path_for(self, doc: Document) -> Path:
        if doc.path is None:
            return self.directory / self._untitled
        return autosave_path(self.directory, doc.path)

    def _changed(self, *args: object) -> None:
        try:
            modified = self.doc is not None and self.doc.modified
        except RuntimeError:  # the document is being destroyed with its window
            self.doc = None
            return
        if modified and not self.timer.isActive():
            self.timer.start()

    def _modified(self, modified: bool) -> None:
        if not modified:
            self.discard()

    def _path_changed(self) -> None:
        self.discard()
        if self.doc is not None:
            self.current = self.path_for(self.doc)

    def save_now(self) -> None:
        """Write the copy now if the document has unsaved changes (else remove it)."""
        self.timer.stop()
        if self.doc is None or self.current is None:
            return
        if not self.doc.modified:
            self.discard()
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self.current, dumps_scenario(self.doc.scenario))
        except (OSError, TankmapError) as exc:  # must never disturb editing: say it once
            if not self.failing:
                self.failing = True
                self.failed.emit(str(exc))
            return
        self.failing = False
        self.saved.emit(str(self.current))

    def discard(self) -> None:
        """Remove the current copy (after a save or a clean close)."""
        self.timer.stop()
        if self.current is not None:
            try:
                self.current.unlink(missing_ok=True)
            except OSError:
                pass

    # --- recovery ---------------------------------------------------------------------------
    def find_for(self, original: Path) -> Path | None:
        """An autosaved copy of ``original`` newer than the file, if one was left behind."""
        candidate = autosave_path(self.directory, original)
        if not candidate.exists():
            return None
        try:
            if original.exists() and original.stat().st_mtime > candidate.stat().st_mtime:
                return None
        except OSError:
            return None
        return candidate

    def find_untitled(self) -> list[Path]:
        """Autosaved copies of never-saved documents, newest first."""
        if not self.directory.is_dir():
            return []
        found = [
            p
            for p in self.directory.glob(f"untitled-*{SUFFIX}")
            if p.name != self._untitled and not _owner_alive(p)
        ]
        return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)
