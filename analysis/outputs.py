"""Writing report files through the output gate (``rules.safeio``): figures and tables are
made in memory and written atomically, so a full disk or a kill leaves the old file, never a
truncated one; no file is written through a symbolic link, and an existing file that is not
of the kind its name says is not replaced."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

from tankmap.rules.safeio import utf8, write_output


def figure_bytes(fig: Any, fmt: str, dpi: float) -> bytes:
    """The matplotlib figure ``fig`` as a ``fmt`` file's bytes (png, svg, pdf)."""
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=dpi)
    return buf.getvalue()


def save_figure(
    fig: Any,
    path: str | os.PathLike[str],
    dpi: float,
    *,
    fmt: str | None = None,
    force: bool = False,
) -> Path:
    """Write ``fig`` to ``path`` (format from the name unless ``fmt``) through the gate."""
    target = Path(path)
    kind = fmt or target.suffix.lstrip(".").lower() or "png"
    return write_output(target, figure_bytes(fig, kind, dpi), force=force)


def save_text(path: str | os.PathLike[str], text: str, *, force: bool = False) -> Path:
    """Write UTF-8 ``text`` to ``path`` through the gate (``TankmapError`` for text that
    is not valid Unicode)."""
    return write_output(path, utf8(path, text), force=force)
