"""The ``TANKMAP_KERNEL`` environment switch: which engine plays the games a compiled
kernel can play.

- unset or empty (the default): the compiled kernels play — Final Act ``random``/
  ``heuristic`` and Tank Chess ``random``/``heuristic`` pairs.
- ``python``: Tank Chess games stay on the Python loop over its reference engine (the same
  games, slower: the kernel's reference, for checks and measurements). Final Act has one
  fast engine, its kernel, and plays as by default.

Any other value is refused (``KernelSwitchError``, before a game is played), so that a
misspelt value, or ``numpy`` (an engine tankmap no longer has), is not silently ignored.
"""

from __future__ import annotations

import os

from tankmap.rules.errors import TankmapError

VARIABLE = "TANKMAP_KERNEL"
VALUES = ("", "python")


class KernelSwitchError(TankmapError, ValueError):
    """``TANKMAP_KERNEL`` holds a value this version does not know."""


def python_only() -> bool:
    """Whether ``TANKMAP_KERNEL`` asks for the Python reference path (``python``);
    ``KernelSwitchError`` naming the value for anything but unset, empty or ``python``."""
    value = os.environ.get(VARIABLE, "")
    if value not in VALUES:
        gone = (
            " (the numpy engine was removed: the compiled kernel plays)" if value == "numpy" else ""
        )
        raise KernelSwitchError(
            f"{VARIABLE}={value!r} is not a known value{gone}; leave it unset for the "
            "compiled kernels, or set it to 'python' to keep Tank Chess games on the Python "
            "reference path"
        )
    return value == "python"
