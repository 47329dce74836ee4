"""Keeping numba's on-disk cache of a compiled kernel in step with the kernel's sources.

numba checks a cached function only against its own file, not the files of the functions
it calls or the constants it reads, so a kernel module changed under an unchanged caller
(an update, a checkout) would otherwise run the caller's stale machine code with the old
rules. Each kernel (``final_act/kernel``, ``tank_chess/kernel``) calls ``guard_cache`` once
when it is imported, with the list of files its compiled code depends on.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path


def guard_cache(
    folder: Path, sources: tuple[Path, ...], name: str, home: Path | None = None
) -> bool:
    """Drop numba's cached functions in ``folder`` (the kernel's ``__pycache__``) when any
    of ``sources`` changed since they were written, and return whether it did. A
    fingerprint of all the sources is kept beside the cache (``<name>.sources``); only
    cache files (``.nbi``/``.nbc``) of the sources that live in ``folder``'s parent are
    dropped (``home``: that folder instead, for a cache kept elsewhere, e.g. a private
    temp folder where the install is read-only). An unwritable folder (an installed
    package: updates rewrite every file, which numba notices) is left alone."""
    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.name.encode() + b"\0")
        with contextlib.suppress(OSError):
            digest.update(path.read_bytes())
    stamp = folder / f"{name}.sources"
    try:
        if stamp.read_text(encoding="ascii") == digest.hexdigest():
            return False
    except (OSError, UnicodeDecodeError):
        pass
    home = (home or folder.parent).resolve()
    stems = tuple(f"{p.stem}." for p in sources if p.resolve().parent == home)
    try:
        folder.mkdir(exist_ok=True)
        for cached in folder.iterdir():
            if cached.suffix in (".nbi", ".nbc") and cached.name.startswith(stems):
                cached.unlink(missing_ok=True)
        temp = folder / f"{name}.sources.{os.getpid()}"
        temp.write_text(digest.hexdigest(), encoding="ascii")
        os.replace(temp, stamp)
    except OSError:
        return False
    return True
