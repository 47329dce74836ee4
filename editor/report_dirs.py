"""Where the editor writes the HTML reports it opens (Analysis ▸ Open analysis report, the
balance dialog's Open report): one folder per kind of report and editor process in the
temporary directory, emptied and reused for each new report — so report folders do not
pile up — and the folders of editors that are no longer running removed on first use
(those of an older tankmap, one fresh folder per report, after a day)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from pathlib import Path

from tankmap.rules.safeio import process_alive

_MINE = re.compile(r"^tankmap-(?P<kind>[a-z]+)-report-(?P<pid>\d+)$")
_OLD = re.compile(r"^tankmap-(analysis|balance)-[a-z0-9_]{8}$")  # mkdtemp folders
OLD_AFTER_SECONDS = 86_400.0
_swept: set[str] = set()


def report_dir(kind: str, base: str | os.PathLike[str] | None = None) -> Path:
    """An empty folder for a new ``kind`` report ("analysis", "balance") of this process,
    created if it vanished. ``OSError`` if it cannot be made."""
    root = Path(base if base is not None else tempfile.gettempdir())
    if str(root) not in _swept:
        _swept.add(str(root))
        sweep(root)
    out = root / f"tankmap-{kind}-report-{os.getpid()}"
    if out.is_symlink() or out.is_file():
        out.unlink()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(mode=0o700, parents=True, exist_ok=True)
    return out


def sweep(root: str | os.PathLike[str]) -> int:
    """Remove report folders of editors that are gone; returns how many went."""
    removed = 0
    try:
        entries = list(os.scandir(root))
    except OSError:
        return 0
    now = time.time()
    for entry in entries:
        if not entry.is_dir(follow_symlinks=False):
            continue
        m = _MINE.match(entry.name)
        if m is not None:
            if process_alive(int(m["pid"])):
                continue
        elif _OLD.match(entry.name) is not None:
            try:
                if now - entry.stat(follow_symlinks=False).st_mtime < OLD_AFTER_SECONDS:
                    continue
            except OSError:
                continue
        else:
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed += 1
    return removed
