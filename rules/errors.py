"""One small error hierarchy for the whole project.

Every message names what the user needs to find the problem: the file, the JSON path and
the offending value where there is one.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class _NoValue:
    """The type of ``NO_VALUE``."""

    def __repr__(self) -> str:
        return "NO_VALUE"


NO_VALUE: Any = _NoValue()
"""What a reader's ``fail(path, message, value=NO_VALUE)`` takes for "the message quotes no
value", so that ``None`` (a JSON ``null``) is quoted like any other value
(``ScenarioFormatError.quoting``)."""


class TankmapError(Exception):
    """Base of every error tankmap raises on purpose (bad input, illegal moves, ...)."""


class ScenarioFormatError(TankmapError, ValueError):
    """A scenario file (or string) is not a valid tankmap scenario.

    ``source`` is the file name (or ``"<string>"``), ``path`` the JSON path of the offending
    value (``"$.units[3].cell"``) and ``value`` the value itself.
    """

    def __init__(
        self, message: str, *, source: str = "<string>", path: str = "$", value: Any = None
    ) -> None:
        self.source = source
        self.path = path
        self.value = value
        self.detail = message
        shown = "" if value is None else f" (got {_as_json(value)})"
        # file names and JSON paths (which hold the file's keys) shown escaped and cut in
        # the middle: their ends (the file's own name, the last key) say the most
        where = f"{printable_middle(source, 200)}: {printable_middle(path, 120)}"
        super().__init__(f"{where}: {message}{shown}")

    @classmethod
    def quoting(
        cls, message: str, *, source: str = "<string>", path: str = "$", value: Any = NO_VALUE
    ) -> ScenarioFormatError:
        """The error of a file's reader: the message quotes ``value`` whenever one is given,
        a JSON ``null`` too (``(got null)``: the constructor takes ``None`` for "no value").
        ``NO_VALUE``, the default, is "the message quotes no value".

        >>> str(ScenarioFormatError.quoting("must be a list", path="$.turns", value=None))
        '<string>: $.turns: must be a list (got null)'
        >>> str(ScenarioFormatError.quoting("is required", path="$.turns"))
        '<string>: $.turns: is required'
        """
        if value is NO_VALUE:
            return cls(message, source=source, path=path)
        if value is None:
            return cls(f"{message} (got null)", source=source, path=path)
        return cls(message, source=source, path=path, value=value)


class IllegalMoveError(TankmapError, ValueError):
    """A move, order or turn that the rules do not allow was asked for."""


class UnknownRulesetError(TankmapError, ValueError):
    """No ruleset is registered under the requested name."""


class OptionError(TankmapError, ValueError):
    """An unknown ruleset option, or a value of the wrong type for it."""


class ArgumentError(TankmapError, ValueError):
    """A function of the Python API (``tankmap.api``) was given an argument it cannot take
    (of another type, out of range): the message names the function, the argument and
    the value."""


def short(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: what messages quote of a user's value
    (``repr`` escapes newlines and terminal codes, the cut keeps a huge value out)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_short = short


def _as_json(value: Any, limit: int = 60) -> str:
    """A value from a file (or an option's value) as the messages quote it: ``short``
    (Python's quoting of text and numbers, which JSON's mostly shares), but JSON's ``null``,
    ``true`` and ``false``, also inside lists and objects; cut to ``limit`` characters.

    >>> _as_json(None), _as_json(True), _as_json([1, None, {"a": False}])
    ('null', 'true', "[1, null, {'a': false}]")
    """
    parts: list[str] = []
    size = 0

    def put(text: str) -> None:
        nonlocal size
        parts.append(text)
        size += len(text)

    def walk(item: Any, depth: int) -> None:
        if size > limit:
            return  # enough to cut: a huge list is not written out whole
        if item is None:
            put("null")
        elif isinstance(item, bool):
            put("true" if item else "false")
        elif isinstance(item, list | dict) and depth < 20:
            pairs = item.items() if isinstance(item, dict) else ((None, x) for x in item)
            put("{" if isinstance(item, dict) else "[")
            for n, (key, x) in enumerate(pairs):
                if size > limit:
                    return
                if n:
                    put(", ")
                if isinstance(item, dict):
                    walk(key, depth + 1)
                    put(": ")
                walk(x, depth + 1)
            put("}" if isinstance(item, dict) else "]")
        else:
            put(short(item, limit + 1))

    walk(value, 0)
    text = "".join(parts)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def printable(text: str, limit: int = 600) -> str:
    """``text`` safe for one line of a terminal: control characters (newlines, escape
    codes, line separators, bidi overrides) shown as ``\\n``/``\\x1b``-style escapes and the
    whole cut to ``limit`` characters.

    >>> printable("a\\nb\\x1b[31mc", 20)
    'a\\\\nb\\\\x1b[31mc'
    """
    if text.isprintable() and len(text) <= limit:
        return text
    out = _escaped(text[: limit + 1])
    return out if len(out) <= limit else out[: limit - 3] + "..."


def _escaped(text: str) -> str:
    """``text`` with every character that is not printable (but a space) as its ``\\n``,
    ``\\x1b``-style escape."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)


def printable_middle(text: str, limit: int) -> str:
    """``text`` escaped as ``printable`` does, but a long one cut in the middle, keeping
    its start and end: for a file name or a JSON path, whose end says the most.

    >>> printable_middle("/home/me/" + "x" * 50 + "/board.json", 30)
    '/home/me/xxxxx...xx/board.json'
    """
    if text.isprintable() and len(text) <= limit:
        return text
    if len(text) <= limit:
        whole = _escaped(text)
        if len(whole) <= limit:
            return whole
    tail = (limit - 3) // 2
    head = limit - 3 - tail
    return _escaped(text[:head])[:head] + "..." + _escaped(text[-tail:])[-tail:]


class MissingExtraError(TankmapError, ImportError):
    """A feature needs an optional part of tankmap that is not installed."""


def import_extra(module: str, extra: str, purpose: str) -> ModuleType:
    """Import ``module`` of the optional extra ``extra``; if it is missing, raise
    ``MissingExtraError`` with one line naming what needs it and how to install it.

    >>> try:
    ...     import_extra("no_such_module_xyz", "gui", "the editor")
    ... except MissingExtraError as exc:
    ...     print(exc)
    the editor is an optional part of tankmap; install it with pip install 'tankmap[gui]'
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(
            f"{purpose} is an optional part of tankmap; install it with "
            f"pip install 'tankmap[{extra}]'"
        ) from None
