"""Before the editor starts: can Qt open a window here? A plain answer instead of Qt's abort.

On Linux, Qt's ``xcb`` platform plugin needs a handful of X libraries that minimal systems
lack; without them Qt prints a cryptic message and aborts the process. ``display_problem``
finds that case first (with ``ldd``, when present) and names the missing libraries and the
Debian/Ubuntu packages that provide them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

DEBIAN_PACKAGES = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libdbus-1.so.3": "libdbus-1-3",
}
"""Shared libraries Qt's xcb plugin links against, and the Debian package of each."""


def missing_libraries(plugin: Path) -> list[str]:
    """Libraries ``plugin`` links against that the dynamic loader cannot find (``ldd``);
    empty when all are found or when ``ldd`` is not available."""
    ldd = shutil.which("ldd")
    if ldd is None or not plugin.exists():
        return []
    try:
        out = subprocess.run(
            [ldd, str(plugin)], capture_output=True, text=True, timeout=10, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [line.split()[0] for line in out.splitlines() if "not found" in line]


def xcb_plugin() -> Path | None:
    """The xcb platform plugin of the installed PySide6, if there is one."""
    try:
        import PySide6
    except ImportError:
        return None
    path = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return path if path.exists() else None


def display_problem() -> str | None:
    """Why Qt could not open a window here, as one line, or ``None`` if nothing is known
    to be wrong. Only Linux with the default (xcb) platform is examined."""
    if not sys.platform.startswith("linux"):
        return None
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform and not platform.startswith("xcb"):
        return None
    if not platform and os.environ.get("WAYLAND_DISPLAY"):
        return None
    if not os.environ.get("DISPLAY"):
        return (
            "no display: DISPLAY is not set (start the editor from a desktop session, "
            "or under Xvfb: `xvfb-run tankmap edit`)"
        )
    plugin = xcb_plugin()
    missing = missing_libraries(plugin) if plugin is not None else []
    if not missing:
        return None
    packages = sorted({DEBIAN_PACKAGES.get(lib, lib) for lib in missing})
    return (
        f"Qt cannot open a window: missing system libraries {', '.join(missing)} "
        f"(on Debian/Ubuntu: sudo apt-get install {' '.join(packages)})"
    )
