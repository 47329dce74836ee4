"""tankmap: a scenario and map editor with balance analysis for grid tank board games.

The command line is ``tankmap`` (``python -m tankmap``). For notebooks and scripts the
functions of ``tankmap.api`` are available right here, imported on first use so that
``import tankmap`` (and the command line) stays fast::

    import tankmap
    board = tankmap.load("final-act/mirror")
    result = tankmap.analyse(board)
    tankmap.reach_frame(result, "south")

See ``docs/api.md``. Subpackages: ``tankmap.rules`` (the games), ``tankmap.analysis``
(analysis, simulation, reports), ``tankmap.editor`` (the Qt editor), ``tankmap.maps``.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.2.0"

_API = (
    "analyse",
    "balance",
    "check",
    "coverage_frame",
    "figures",
    "is_legal",
    "load",
    "map_names",
    "moves",
    "reach_frame",
    "save",
    "simulate",
)

__all__ = ["__version__", *_API]


def __getattr__(name: str) -> Any:
    if name in _API:
        value = getattr(importlib.import_module("tankmap.api"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tankmap' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
