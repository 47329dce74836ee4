"""The input gate every file the project reads goes through, and the output gate for every
file it writes.

``read_bounded`` reads only regular files (a FIFO, a device such as ``/dev/zero`` or a
folder is refused at once, without blocking) and at most ``limit`` bytes, whatever size the
file reports. ``strict_json`` parses JSON the way the scenario format's schema means it: no
``NaN``/``Infinity``, no duplicate keys, integer literals of at most ``MAX_INT_DIGITS``
digits (Python would otherwise raise a ``ValueError`` past 4,300 digits), strings of valid
Unicode (no lone surrogates such as ``"\\ud800"``). Every refusal is a
``ScenarioFormatError`` naming the file and, where there is one, the JSON path.

``atomic_write_bytes`` writes a temp file in the target's folder and renames it over the
target, so a failed or killed write leaves the old file as it was (a full disk cannot leave
a truncated picture in its place). It does not write through a symbolic link unless told to
(``follow_symlinks``) nor onto a folder, pipe or device, and it removes the temp files that
killed writes of the same target left behind. ``check_output`` is what a command asks before
writing a file the user named: it also refuses to replace an existing file that is not of
the kind written there (a PNG for ``x.png``...) unless forced. Every refusal is one line, a
``TankmapError``.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tankmap.rules.errors import ScenarioFormatError, TankmapError, printable

MAX_INT_DIGITS = 30
MAX_FLOAT_CHARS = 64
MAX_DEPTH = 64


def read_bounded(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; else
    ``ScenarioFormatError`` ("no such file", "not a regular file", "more than N bytes",
    "cannot read")."""
    source = str(path)
    if _has_nul(path):
        raise ScenarioFormatError(f"cannot read file: {_NUL_NAME}", source=source)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise ScenarioFormatError("cannot read file: no such file", source=source) from None
    except OSError as exc:
        raise ScenarioFormatError(
            f"cannot read file: {exc.strerror or exc}", source=source
        ) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a pipe, device or socket"
            raise ScenarioFormatError(
                f"cannot read file: not a regular file ({kind})", source=source
            )
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise ScenarioFormatError(f"more than {limit} bytes: too large", source=source)
        return b"".join(chunks)
    except OSError as exc:
        raise ScenarioFormatError(
            f"cannot read file: {exc.strerror or exc}", source=source
        ) from None
    finally:
        os.close(fd)


class _Refused:
    """What the JSON parser's hooks put where a value is refused (a ``NaN``, an over-long
    number, an object with a duplicate key), so that ``strict_json`` can name its JSON path
    once the document is parsed (the hooks do not know where they are)."""

    __slots__ = ("message", "key")

    def __init__(self, message: str, key: str | None = None) -> None:
        self.message = message
        self.key = key  # the duplicate key (the refusal is that key's value)


_NUL_NAME = "the name holds a NUL character (no file is called that)"


def _has_nul(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` holds a NUL character, which the system calls refuse with a
    ``ValueError`` (not an ``OSError``) before they look for the file."""
    name = os.fspath(path)
    return ("\0" if isinstance(name, str) else b"\0") in name


def _int(text: str) -> int | _Refused:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        return _Refused(f"an integer of {len(text)} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _float(text: str) -> float | _Refused:
    if len(text) > MAX_FLOAT_CHARS:
        return _Refused(f"a number of {len(text)} characters (at most {MAX_FLOAT_CHARS})")
    value = float(text)
    if math.isinf(value):  # 1e400: no number a scenario can hold, quoted as written
        return _Refused(f"{text} is too large for a number")
    return value


def _constant(text: str) -> _Refused:
    return _Refused(f"{text} is not a JSON number")


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any] | _Refused:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            return _Refused(f"duplicate key {key[:40]!r}", key)
        out[key] = value
    return out


def _json_reason(msg: str) -> str:
    """The parser's reason without its dangling " at" (its position is said before it):
    ``Unterminated string starting at`` → ``unterminated string starting there``."""
    if msg.endswith(" at"):
        msg = msg.removesuffix(" at") + " there"
    return msg[:1].lower() + msg[1:]


def strict_json(text: str | bytes, source: str) -> Any:
    """Parse ``text`` strictly (see the module docstring); ``ScenarioFormatError`` naming
    ``source`` and, for a refused value, its JSON path (the first in the document)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ScenarioFormatError(
                f"not UTF-8 text (bad byte at offset {exc.start})", source=source
            ) from None
    try:
        data = json.loads(
            text,
            parse_int=_int,
            parse_float=_float,
            parse_constant=_constant,
            object_pairs_hook=_pairs,
        )
    except json.JSONDecodeError as exc:
        raise ScenarioFormatError(
            f"malformed JSON at line {exc.lineno} column {exc.colno}: {_json_reason(exc.msg)}",
            source=source,
        ) from None
    except ValueError as exc:
        raise ScenarioFormatError(f"refused JSON: {exc}", source=source) from None
    except RecursionError:
        raise ScenarioFormatError("JSON nested too deeply", source=source) from None
    _check_values(data, "$", source, 0)
    return data


def _check_values(value: Any, path: str, source: str, depth: int) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH``, text with a lone surrogate and what the
    parser's hooks refused (``_Refused``), naming the JSON path."""
    if depth > MAX_DEPTH:
        raise ScenarioFormatError("JSON nested too deeply", source=source, path=path)
    if isinstance(value, _Refused):
        where = path if value.key is None else f"{path}.{value.key}"
        raise ScenarioFormatError(f"refused JSON: {value.message}", source=source, path=where)
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ScenarioFormatError(
                "text with a lone surrogate (not valid Unicode)", source=source, path=path
            ) from None
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_values(k, path, source, depth + 1)
            _check_values(v, f"{path}.{k}", source, depth + 1)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_values(v, f"{path}[{i}]", source, depth + 1)


# -- the output gate ---------------------------------------------------------------------

_TEMP = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[^.]+\.tmp$")
_OLD_TEMP = re.compile(r"^\.(?P<name>.+)\.[a-z0-9_]{8}\.tmp$")
STALE_TEMP_SECONDS = 3600.0
"""A temp file of an older tankmap (no process id in its name) counts as left behind
after this long."""


def atomic_write_text(
    path: str | os.PathLike[str], text: str, *, follow_symlinks: bool = False
) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) atomically; see ``atomic_write_bytes``.
    Text that is not valid Unicode (a lone surrogate) is a ``TankmapError``, nothing is
    written."""
    atomic_write_bytes(path, utf8(path, text), follow_symlinks=follow_symlinks)


def utf8(path: str | os.PathLike[str], text: str) -> bytes:
    """``text`` as UTF-8; ``TankmapError`` naming ``path`` for text that is not valid
    Unicode (a lone surrogate)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise TankmapError(
            f"{path}: cannot write: the text has a lone surrogate (not valid Unicode)"
        ) from None


def atomic_write_bytes(
    path: str | os.PathLike[str], data: bytes, *, follow_symlinks: bool = False
) -> None:
    """Write ``data`` to ``path`` via a temp file in the same folder and ``os.replace``.

    Raises ``TankmapError`` naming the file if it cannot be written (or is a symbolic link
    and ``follow_symlinks`` is false, or is a folder, pipe or device); the old file (if
    any) is left as it was, and so is nothing else: the temp file goes whatever happens,
    even on Ctrl-C. The file keeps the old file's permissions, or gets the usual ones for a
    new file (``0o666`` minus the umask), not the temp file's private ``0o600``.
    """
    if _has_nul(path):
        raise TankmapError(f"{printable(str(path), 300)}: cannot write: {_NUL_NAME}")
    target = Path(path)
    # (os.path's tests, not Path's: those raise on a name too long for the system)
    if os.path.islink(target):
        if not follow_symlinks:
            raise TankmapError(f"{target}: is a symbolic link; not writing through it")
        target = Path(os.path.realpath(target))
    _require_writable_kind(target)
    with temp_beside(target) as tmp, open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


@contextlib.contextmanager
def temp_beside(
    target: Path, error: type[TankmapError] = TankmapError, name: str | None = None
) -> Iterator[str]:
    """A temp file in ``target``'s folder for the block to fill; renamed over ``target``
    when the block ends (with the old file's permissions, or the usual ones for a new
    file), removed whatever else happens, even on Ctrl-C. Temp files of killed writes of
    ``target`` are swept first. ``OSError`` becomes ``error`` naming ``name`` (default:
    the target)."""
    shown = name if name is not None else str(target)
    folder = target.parent if str(target.parent) else Path(".")
    remove_stale_temps(folder, target.name)
    try:
        fd, tmp = tempfile.mkstemp(
            prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=folder
        )
    except OSError as exc:
        raise error(f"{shown}: cannot write: {exc.strerror or exc}") from None
    os.close(fd)
    try:
        yield tmp
        os.chmod(tmp, _new_file_mode(target))
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise error(f"{shown}: cannot write: {exc.strerror or exc}") from None
        raise


def _require_writable_kind(target: Path) -> None:
    try:
        info = os.stat(target)
    except OSError:
        return  # absent (or unreachable: the write itself says why)
    if stat.S_ISDIR(info.st_mode):
        raise TankmapError(f"{target}: cannot write: it is a folder")
    if not stat.S_ISREG(info.st_mode):
        raise TankmapError(f"{target}: cannot write: not a regular file (a pipe, device or socket)")


def _new_file_mode(target: Path) -> int:
    """Permission bits for ``target``: its current ones if it exists, else 0o666 & ~umask."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def remove_stale_temps(folder: str | os.PathLike[str], name: str | None = None) -> int:
    """Remove the temp files that killed writes (``kill -9``, a crash, a power cut) left in
    ``folder`` — of the file ``name`` only, or of any file: those whose writing process is
    gone, and those of older tankmap versions after ``STALE_TEMP_SECONDS``. Returns how
    many went; never raises."""
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    now = time.time()
    for entry in entries:
        if not entry.name.endswith(".tmp") or not entry.name.startswith("."):
            continue
        m = _TEMP.match(entry.name)
        if m is not None:
            if (name is not None and m["name"] != name) or process_alive(int(m["pid"])):
                continue
        else:
            old = _OLD_TEMP.match(entry.name)
            if old is None or (name is not None and old["name"] != name):
                continue
            with contextlib.suppress(OSError):
                if now - entry.stat(follow_symlinks=False).st_mtime < STALE_TEMP_SECONDS:
                    continue
        with contextlib.suppress(OSError):
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed += 1
    return removed


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` may still be running (this one, or one that exists or
    cannot be checked)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True  # exists (another user's), or cannot tell: keep it
    return True


_MAGIC: dict[str, tuple[str, tuple[bytes, ...]]] = {
    ".png": ("a PNG picture", (b"\x89PNG\r\n\x1a\n",)),
    ".pdf": ("a PDF document", (b"%PDF-",)),
    ".svg": ("an SVG picture", (b"<?xml", b"<svg", b"<!--")),
    ".html": ("an HTML page", (b"<!doctype html", b"<html")),
    ".json": ("a JSON document", (b"{", b"[")),
    ".tmj": ("a Tiled map", (b"{",)),
    ".tmx": ("a Tiled map", (b"<?xml", b"<map")),
    ".csv": ("a CSV table", ()),
}


def check_output(path: str | os.PathLike[str], *, force: bool = False, hint: str = "") -> Path:
    """The output gate for a file the user named: the path to write, or ``TankmapError``
    in one line. Refused: a symbolic link (unless ``force``: then its target is written),
    a folder, pipe or device, and — unless ``force`` — an existing file that is not of the
    kind its name says (``x.png`` that is no PNG picture, ``r.csv`` that is no text...):
    replacing an earlier output is fine, replacing something else is not; and a file
    that cannot be created there (a missing or read-only folder, a name too long: the temp
    file it is written through is tried). ``hint`` ends a refusal (the command's way round
    it: "--force does")."""
    if _has_nul(path):
        raise TankmapError(f"{printable(str(path), 300)}: cannot write: {_NUL_NAME}")
    target = Path(path)
    more = f" ({hint})" if hint else ""
    if os.path.islink(target):
        if not force:
            raise TankmapError(f"{target}: is a symbolic link; not writing through it{more}")
        target = Path(os.path.realpath(target))
    _require_writable_kind(target)
    if not force and os.path.exists(target):
        kind = _MAGIC.get(target.suffix.lower())
        if kind is not None and not _looks_like(target, kind[1]):
            raise TankmapError(f"{target}: exists and is not {kind[0]}; not replacing it{more}")
    _probe_write(target)
    return target


def _probe_write(target: Path) -> None:
    """Create and remove the temp file ``atomic_write_bytes`` will write ``target``
    through: ``TankmapError`` now, before the work, for a folder that is missing or
    read-only and for a name too long for the system."""
    folder = target.parent if str(target.parent) else Path(".")
    try:
        with tempfile.NamedTemporaryFile(
            dir=folder, prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp"
        ):
            pass
    except OSError as exc:
        raise TankmapError(f"{target}: cannot write: {exc.strerror or exc}") from None


def _looks_like(path: Path, magics: tuple[bytes, ...]) -> bool:
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except OSError:
        return True  # unreadable: the write itself will say what is wrong
    if not head:
        return True  # an empty file holds nothing to lose
    if not magics:  # text: valid UTF-8 without NUL bytes
        if b"\0" in head:
            return False
        try:
            head.decode("utf-8")
        except UnicodeDecodeError as exc:
            return exc.start > len(head) - 4  # cut in the middle of a character
        return True
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return any(text.startswith(m.lower()) for m in magics)


def write_output(path: str | os.PathLike[str], data: bytes, *, force: bool = False) -> Path:
    """``check_output`` then ``atomic_write_bytes``; returns the path written."""
    target = check_output(path, force=force)
    atomic_write_bytes(target, data)
    return target
