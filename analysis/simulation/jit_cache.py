"""Where numba keeps the compiled kernels, also where the install cannot be written to.

The kernels are numba functions compiled with ``cache=True``: the first run compiles them
(25–40 s each), later runs load the machine code. numba caches a function in the
``__pycache__`` folder beside its source file, else in the user's cache folder
(``$XDG_CACHE_HOME/numba`` or ``~/.cache/numba``), or in ``NUMBA_CACHE_DIR`` when that is
set; when none of them can be written — a read-only install run by a service account
with an unwritable HOME — merely *defining* such a function fails ("cannot cache function
...: no locator available"), and with it every command that loads a kernel.

``cache_folder(source)`` asks numba itself where it would cache the functions of the file
``source`` (a probe function compiled from that file name: nothing is compiled to machine
code). If nowhere, it points numba at a private folder in the temp directory,
``tankmap-numba-<uid>`` (created mode 0700; used only if it is a real folder owned by
this user and closed to others: numba loads machine code from it), by setting
``NUMBA_CACHE_DIR`` for this process and its children; if that is impossible too, it
answers ``None``: the kernels are then compiled on every run, without a cache. It never
raises.
"""

from __future__ import annotations

import contextlib
import functools
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

PRIVATE_PREFIX = "tankmap-numba-"
"""The private cache folder in the temp directory: this prefix and the user id."""


def _numba() -> Any:
    try:
        import numba
    except ImportError:  # pragma: no cover - numba is a dependency
        return None
    return numba


def numba_folder(source: str | os.PathLike[str]) -> Path | None:
    """The folder numba would cache the functions of the file ``source`` in, as things
    stand (``None``: it could not cache them). Creates that folder, as numba does."""
    numba = _numba()
    if numba is None:
        return None
    namespace: dict[str, Any] = {}
    exec(compile("def probe():\n    pass\n", str(source), "exec"), namespace)
    try:
        dispatcher = numba.njit(cache=True)(namespace["probe"])
    except (RuntimeError, OSError):  # "cannot cache function ...: no locator available"
        return None
    found = getattr(getattr(dispatcher, "_cache", None), "cache_path", None)
    return Path(found) if found else Path(source).parent / "__pycache__"


def private_folder(
    prefix: str = PRIVATE_PREFIX, temp: str | os.PathLike[str] | None = None
) -> Path | None:
    """``<prefix><uid>`` in the temp directory (or ``temp``), made if missing: ``None``
    unless it is a folder (not a link) of this user, closed to group and others, and
    writable."""
    uid: int | None = getattr(os, "getuid", lambda: None)()
    name = f"{prefix}{uid if uid is not None else 'user'}"
    folder = Path(temp or tempfile.gettempdir()) / name
    try:
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=0o700)
        info = os.lstat(folder)
        if not stat.S_ISDIR(info.st_mode) or info.st_mode & 0o077:
            return None
        if uid is not None and info.st_uid != uid:
            return None
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return None
    return folder


@functools.cache
def cache_folder(source: str) -> Path | None:
    """Where the compiled functions of the file ``source`` are cached — numba's own
    choice, else the private temp folder (then ``NUMBA_CACHE_DIR`` points there) — or
    ``None``: compile them without a cache (``cache=False``)."""
    numba = _numba()
    if numba is None:
        return None
    found = numba_folder(source)
    if found is not None:
        return found
    private = private_folder()
    if private is None:
        return None
    os.environ["NUMBA_CACHE_DIR"] = str(private)  # numba re-reads its settings from here
    numba.config.CACHE_DIR = str(private)
    return numba_folder(source)
