"""Which code made a remembered result: kept games, a verdict, a ladder.

A result remembered on disk (``verdict/played.py``'s games, ``verdict/cache.py``'s verdicts,
``ladder_cache``'s ladders) depends on the code that played its games. Each is saved with
``code_version()`` (``stamp``) and read back only by the same code (``made_here``): after
an upgrade that changes an agent, a figure of the old agent is never shown as the board's,
and a result read from a file with another or no stamp counts as not there.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

CODE_KEY = "code"
"""The key of a remembered document that holds ``code_version()``."""


@lru_cache(maxsize=1)
def code_version() -> str:
    """A short hash of what decides a game's course: the tankmap version, the source of
    ``tankmap/rules`` and ``tankmap/analysis/simulation`` (agents, kernels, drivers, agent
    families), the numpy and numba versions and the ``TANKMAP_KERNEL`` switch."""
    from tankmap import __version__

    root = Path(__file__).resolve().parents[1]  # the tankmap package
    digest = hashlib.sha256(__version__.encode())
    for folder in ("rules", "analysis/simulation"):
        for path in sorted((root / folder).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    for dist in ("numpy", "numba"):
        try:
            digest.update(f"{dist} {importlib.metadata.version(dist)}".encode())
        except importlib.metadata.PackageNotFoundError:
            digest.update(f"{dist} none".encode())
    digest.update(os.environ.get("TANKMAP_KERNEL", "").encode())
    return digest.hexdigest()[:24]


def stamp(doc: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``doc`` that says it was made by this code."""
    return {**doc, CODE_KEY: code_version()}


def made_here(doc: object) -> bool:
    """Whether ``doc`` (as read from a file) was made by this code."""
    return isinstance(doc, dict) and doc.get(CODE_KEY) == code_version()


def unstamped(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` without the stamp ``stamp`` added (as it was before it was saved)."""
    return {k: v for k, v in doc.items() if k != CODE_KEY}
