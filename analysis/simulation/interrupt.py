"""Leaving a run in the middle of a game the calling process plays.

A run aborted with worker processes kills them in the middle of their games
(``executors``). A game played in the calling process cannot be killed; instead, while a
run runs there inside ``abortable(abort)``, the games' loops call ``between_decisions()``
before each decision, which asks ``abort()`` (at most every ``ABORT_POLL`` seconds) and
raises ``RunAborted`` when it answers true. So a one-worker run (``--workers 1``, the
editor's balance dialog, which plays in a thread of the window's process) stops within
one decision of its limit or its Cancel, not one game: a Tank Chess game between the
verdict's high budgets takes minutes, a decision well under a second.

The promise is per thread: ``abortable`` in one thread never stops another thread's
games, and outside ``abortable`` ``between_decisions`` does nothing (a few hundred
nanoseconds, against milliseconds for a search agent's decision).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator

ABORT_POLL = 0.25
"""Seconds between two questions to a run's ``abort``."""


class RunAborted(Exception):
    """A run's ``abort()`` answered true: the run ended with games unfinished."""


class _Asking(threading.local):
    """This thread's run: its ``abort`` (``None``: none) and when to ask it next."""

    abort: Callable[[], bool] | None = None
    next_ask = 0.0


_ASKING = _Asking()


@contextlib.contextmanager
def abortable(abort: Callable[[], bool] | None) -> Iterator[None]:
    """While inside, this thread's games ask ``abort()`` between decisions
    (``between_decisions``); ``None`` leaves them as they are. Nests: the run outside is
    asked again on leaving."""
    if abort is None:
        yield
        return
    outer, outer_next = _ASKING.abort, _ASKING.next_ask
    _ASKING.abort, _ASKING.next_ask = abort, 0.0
    try:
        yield
    finally:
        _ASKING.abort, _ASKING.next_ask = outer, outer_next


def between_decisions() -> None:
    """Called by a game's loop before each decision: raises ``RunAborted`` when this
    thread's run (``abortable``) has an ``abort()`` that answers true. It is asked at
    most every ``ABORT_POLL`` seconds (a cheap check between fast decisions)."""
    abort = _ASKING.abort
    if abort is None:
        return
    now = time.monotonic()
    if now < _ASKING.next_ask:
        return
    _ASKING.next_ask = now + ABORT_POLL
    if abort():
        raise RunAborted
