"""Output folders written whole or not at all (``tankmap analyze --out DIR``).

``staged_folder(out)`` hands the block a hidden temp folder beside ``out``
(``.NAME.PID.XXXX.tmp``) and, when the block ends, puts it in ``out``'s place; an earlier
report there is replaced. Whatever stops the block (an error, Ctrl-C, SIGTERM) removes the
temp folder and leaves ``out`` as it was, so a report folder is either complete or absent
(or the old one, intact). The swap itself runs with Ctrl-C and SIGTERM held back. A killed
process (``kill -9``) leaves its temp folder; the next run for the same ``out`` removes it.

Because the whole folder is replaced, ``out`` must be new, empty or an earlier report:
a folder holding anything else (a symbolic link, a file of another kind, the current
folder) is refused with one line, a ``TankmapError``, before any work.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

from tankmap.rules.errors import TankmapError, printable
from tankmap.rules.safeio import process_alive

REPORT_FILE = re.compile(r"^[\w.-]+\.(?:html|png|csv|json)$")
"""Names of the files a report folder holds (``report.html``, ``reach.png``...)."""

_STAGE = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[^.]+\.tmp$")


def earlier_report(folder: Path) -> bool:
    """Whether ``folder`` holds nothing but report files (regular files named like
    ``REPORT_FILE``) and sub-folders holding nothing but report files: what replacing it
    may delete. An empty folder is one."""
    try:
        for entry in os.scandir(folder):
            if entry.is_symlink():
                return False
            if entry.is_dir():
                if not all(
                    sub.is_file(follow_symlinks=False) and REPORT_FILE.match(sub.name)
                    for sub in os.scandir(entry.path)
                ):
                    return False
            elif not (entry.is_file(follow_symlinks=False) and REPORT_FILE.match(entry.name)):
                return False
    except OSError:
        return False
    return True


def _refuse_target(target: Path, shown: str) -> None:
    """``TankmapError`` if ``target`` may not be replaced by a new report."""
    here = Path.cwd().resolve()
    if target == here or target in here.parents:
        raise TankmapError(
            f"{shown}: the report goes into a folder of its own: give a new folder name, "
            "not the current folder or one above it"
        )
    if not os.path.lexists(target):
        return
    if target.is_symlink() or not target.is_dir():
        kind = "a symbolic link" if target.is_symlink() else "not a folder"
        raise TankmapError(f"cannot write the report into {shown!r}: it is {kind}")
    if not earlier_report(target):
        raise TankmapError(
            f"{shown}: holds other files than an earlier report, which the new report would "
            "replace: give a new or empty folder"
        )


def remove_stale_stages(parent: Path, name: str) -> None:
    """Remove the temp folders that killed runs writing ``parent/name`` left behind (their
    process is gone); never raises."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(parent):
            m = _STAGE.match(entry.name)
            if m is None or m["name"] != name or process_alive(int(m["pid"])):
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait (blocked, not lost) until the block ends."""
    held = {signal.SIGINT, signal.SIGTERM}
    block = getattr(signal, "pthread_sigmask", None)
    if block is None:  # pragma: no cover - not on POSIX
        yield
        return
    old = block(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, old)


def _folder_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o777 & ~mask


@contextlib.contextmanager
def staged_folder(out: str | os.PathLike[str]) -> Iterator[Path]:
    """A temp folder to fill, put in ``out``'s place when the block ends (see the module
    docstring). ``TankmapError`` (one line, naming ``out``) if ``out`` may not be
    replaced or no folder can be made beside it."""
    shown = printable(str(out), 300)
    target = Path(os.path.abspath(out))
    _refuse_target(target, shown)
    parent = target.parent
    remove_stale_stages(parent, target.name)
    try:
        parent.mkdir(parents=True, exist_ok=True)
        stage = Path(
            tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=parent)
        )
    except OSError as exc:
        raise TankmapError(
            f"cannot write the report into {shown!r}: {exc.strerror or exc}"
        ) from None
    try:
        yield stage
        try:
            os.chmod(stage, _folder_mode())
            with _signals_held():
                _replace(stage, target)
        except OSError as exc:
            raise TankmapError(
                f"cannot write the report into {shown!r}: {exc.strerror or exc}"
            ) from None
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise


def _replace(stage: Path, target: Path) -> None:
    """Put ``stage`` where ``target`` is: an absent or empty ``target`` in one rename, an
    earlier report moved aside first and removed after."""
    try:
        os.rename(stage, target)  # atomic when target is absent or an empty folder
        return
    except OSError:
        if not target.is_dir():
            raise
    aside = Path(
        tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=target.parent)
    )
    os.rename(target, aside / "old")
    try:
        os.rename(stage, target)
    except OSError:
        os.rename(aside / "old", target)  # the old report back in its place
        raise
    finally:
        shutil.rmtree(aside, ignore_errors=True)
