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

``check_report_folder(out, command)`` is that rule for every command with ``--out DIR``
(analyze, simulate, verdict, ladder, suggest): ``DIR`` may be new, empty or an earlier
report of the same command, never another command's report nor a folder of other files.
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

_STAGE = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[^.]+\.tmp$")


REPORT_NAMES: dict[str, re.Pattern[str]] = {
    "analyze": re.compile(
        r"^(?:report\.html|index\.html|analysis\.json|[\w-]+\.png"
        r"|(?:balance|units|lanes)\.csv|(?:reach|coverage)_\w+\.csv)$"
    ),
    "simulate": re.compile(r"^(?:report\.html|games\.csv|summary\.json|[\w-]+\.png)$"),
    "verdict": re.compile(r"^(?:verdict\.html|verdict\.json|trace\.png)$"),
    "ladder": re.compile(r"^(?:ladder\.html|ladder\.json|elo\.png)$"),
    "suggest": re.compile(r"^suggestion-\d+\.json$"),
}
"""The names of the files each command's ``--out`` report holds."""

SIGNATURES: dict[str, re.Pattern[str]] = {
    "analyze": re.compile(r"^(?:analysis\.json|index\.html|balance\.csv)$"),
    "simulate": re.compile(r"^(?:games\.csv|summary\.json)$"),
    "verdict": REPORT_NAMES["verdict"],
    "ladder": REPORT_NAMES["ladder"],
    "suggest": REPORT_NAMES["suggest"],
}
"""Files only that command writes: a folder holding one is that command's report."""

NESTED = frozenset({"analyze"})
"""Commands whose report may hold sub-folders (one report per file)."""

_WRITE_TEMP = re.compile(r"^\.(?P<name>.+)\.\d+\.[^.]+\.tmp$")


def _report_files(folder: Path, nested: bool) -> list[str] | None:
    """The names of the files in ``folder`` (and, if ``nested``, in its sub-folders; the
    temp files of killed writes count by the name they were writing), or ``None`` when it
    holds a link, something else than files and folders, or cannot be read."""
    names: list[str] = []
    try:
        for entry in os.scandir(folder):
            if entry.is_symlink():
                return None
            if entry.is_dir() and nested:
                inner = _report_files(Path(entry.path), nested=False)
                if inner is None:
                    return None
                names += inner
            elif entry.is_file(follow_symlinks=False):
                temp = _WRITE_TEMP.match(entry.name)
                names.append(temp["name"] if temp else entry.name)
            else:
                return None
    except OSError:
        return None
    return names


def earlier_report(folder: Path, command: str = "analyze") -> bool:
    """Whether ``folder`` holds nothing but the files of a ``command`` report (and, for
    analyze, sub-folders of them): what replacing it may delete. An empty folder is one."""
    names = _report_files(folder, command in NESTED)
    return names is not None and all(REPORT_NAMES[command].match(n) for n in names)


def report_owner(folder: Path) -> str | None:
    """The command whose report ``folder`` holds (by the files only it writes), if any."""
    names = _report_files(folder, nested=True) or []
    for command, signature in SIGNATURES.items():
        if any(signature.match(n) for n in names):
            return command
    return None


def check_report_folder(out: str | os.PathLike[str], command: str) -> None:
    """The rule for ``tankmap COMMAND --out DIR``: ``DIR`` may be absent, empty or an
    earlier report of ``command``. ``TankmapError`` (one line, naming ``DIR``) for a link,
    a file, another command's report or a folder holding other files."""
    shown = printable(str(out), 300)
    target = Path(os.path.abspath(out))
    if not os.path.lexists(target):
        return
    if target.is_symlink() or not target.is_dir():
        kind = "a symbolic link" if target.is_symlink() else "not a folder"
        raise TankmapError(f"cannot write the report into {shown!r}: it is {kind}")
    if earlier_report(target, command):
        return
    owner = report_owner(target)
    if owner is not None and owner != command:
        raise TankmapError(
            f"{shown}: holds a report of 'tankmap {owner}', which the {command} report "
            "would spoil: give a new or empty folder"
        )
    raise TankmapError(
        f"{shown}: holds other files than an earlier {command} report, which the new "
        "report would replace or mix with: give a new or empty folder"
    )


def refuse_current(target: Path, shown: str) -> None:
    """``TankmapError`` if ``target`` is the current folder or one above it."""
    here = Path.cwd().resolve()
    if target == here or target in here.parents:
        raise TankmapError(
            f"{shown}: the report goes into a folder of its own: give a new folder name, "
            "not the current folder or one above it"
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
def staged_folder(out: str | os.PathLike[str], command: str = "analyze") -> Iterator[Path]:
    """A temp folder to fill, put in ``out``'s place when the block ends (see the module
    docstring). ``TankmapError`` (one line, naming ``out``) if ``out`` may not be
    replaced (``check_report_folder``) or no folder can be made beside it."""
    shown = printable(str(out), 300)
    target = Path(os.path.abspath(out))
    refuse_current(target, shown)
    check_report_folder(out, command)
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
