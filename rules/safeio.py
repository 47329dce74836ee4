"""The input gate every file the project reads goes through.

``read_bounded`` reads only regular files (a FIFO, a device such as ``/dev/zero`` or a
folder is refused at once, without blocking) and at most ``limit`` bytes, whatever size the
file reports. ``strict_json`` parses JSON the way the scenario format's schema means it: no
``NaN``/``Infinity``, no duplicate keys, integer literals of at most ``MAX_INT_DIGITS``
digits (Python would otherwise raise a ``ValueError`` past 4,300 digits), strings of valid
Unicode (no lone surrogates such as ``"\\ud800"``). Every refusal is a
``ScenarioFormatError`` naming the file and, where there is one, the JSON path.
"""

from __future__ import annotations

import json
import os
import stat
from typing import Any

from tankmap.rules.errors import ScenarioFormatError

MAX_INT_DIGITS = 30
MAX_FLOAT_CHARS = 64
MAX_DEPTH = 64


def read_bounded(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; else
    ``ScenarioFormatError`` ("not a regular file", "more than N bytes", "cannot read")."""
    source = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ScenarioFormatError(f"cannot read file: {exc.strerror or exc}", source=source) \
            from None
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
        raise ScenarioFormatError(f"cannot read file: {exc.strerror or exc}", source=source) \
            from None
    finally:
        os.close(fd)


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {len(text)} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_FLOAT_CHARS:
        raise ValueError(f"a number of {len(text)} characters (at most {MAX_FLOAT_CHARS})")
    return float(text)


def _constant(text: str) -> Any:
    raise ValueError(f"{text} is not a JSON number")


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key[:40]!r}")
        out[key] = value
    return out


def strict_json(text: str | bytes, source: str) -> Any:
    """Parse ``text`` strictly (see the module docstring); ``ScenarioFormatError`` naming
    ``source`` (and the JSON path for a bad string)."""
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
            f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}", source=source
        ) from None
    except ValueError as exc:
        raise ScenarioFormatError(f"refused JSON: {exc}", source=source) from None
    except RecursionError:
        raise ScenarioFormatError("JSON nested too deeply", source=source) from None
    _check_strings(data, "$", source, 0)
    return data


def _check_strings(value: Any, path: str, source: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise ScenarioFormatError("JSON nested too deeply", source=source, path=path)
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ScenarioFormatError(
                "text with a lone surrogate (not valid Unicode)", source=source, path=path
            ) from None
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_strings(k, path, source, depth + 1)
            _check_strings(v, f"{path}.{k}", source, depth + 1)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_strings(v, f"{path}[{i}]", source, depth + 1)
