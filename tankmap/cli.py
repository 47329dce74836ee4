"""``tankmap`` entry point: argument parsing and error handling, nothing else.

Each sub-command lives in ``tankmap/commands/<name>.py`` with ``register(subparsers)``; its
heavy imports happen inside the handler, so ``tankmap --help`` stays fast. Errors that are
the user's (``TankmapError``: bad files, unknown options...) print one line and exit 2.
Ctrl-C prints one line and exits 130; SIGTERM (``timeout``, a service manager, a cancelled
CI job) stops the command the same way — worker processes included — and exits 143.
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import FrameType

from tankmap import __version__

STARTED = time.monotonic()
"""When this command started (before its heavy imports): a command's ``--time-limit``
counts from here (``args.started``), so that the whole command keeps it."""

COMMANDS = (
    "rulesets",
    "maps",
    "new",
    "check",
    "moves",
    "perft",
    "analyze",
    "simulate",
    "ladder",
    "verdict",
    "suggest",
    "replay",
    "play",
    "render",
    "sheets",
    "export",
    "import_map",
    "edit",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tankmap",
        description=(
            "Scenario and map editor with balance analysis for grid tank board games "
            "(Final Act, Tank Chess, Tank Wars)."
        ),
        epilog="Run 'tankmap COMMAND --help' for the options of one command.",
    )
    parser.add_argument("--version", action="version", version=f"tankmap {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"tankmap.commands.{name}")
        except ModuleNotFoundError as exc:  # a command whose module is not installed
            if exc.name != f"tankmap.commands.{name}":
                raise
            continue
        module.register(sub)
    return parser


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived. A ``KeyboardInterrupt``, so that everything that stops cleanly on
    Ctrl-C (worker processes, Dask clusters, atomic writes) stops the same way."""


def _terminate(signum: int, frame: FrameType | None) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends us at once
    raise Terminated


def _redeliver_swallowed(unraisable: sys.UnraisableHookArgs, default: object) -> None:
    """``sys.unraisablehook`` while a command runs. Python swallows an exception raised where
    it cannot propagate (an at-fork callback, ``__del__``, a weakref callback), printing
    "Exception ignored in ..." and carrying on: a ``Terminated`` raised there would be lost
    and the command would run to its end. Such a ``Terminated`` is delivered again a moment
    later (a SIGTERM sent to the main thread by a short-lived thread, so that it lands once
    the swallowing code has returned and interrupts a blocking call); should it be swallowed
    again, this repeats."""
    if isinstance(unraisable.exc_value, Terminated) and (
        threading.current_thread() is threading.main_thread()
    ):
        signal.signal(signal.SIGTERM, _terminate)
        main_thread = threading.main_thread().ident
        assert main_thread is not None

        def resend() -> None:
            time.sleep(0.05)
            signal.pthread_kill(main_thread, signal.SIGTERM)

        threading.Thread(target=resend, name="tankmap-sigterm-again", daemon=True).start()
        return
    assert callable(default)
    default(unraisable)


EVENT_LOOP_COMMANDS = frozenset({"edit"})
"""Commands whose main thread runs Qt's event loop: Python code runs there only in slots,
which would swallow the exception, so SIGTERM keeps its default action (the editor's
autosave offers the work back)."""


@contextmanager
def _sigterm_stops(command: str) -> Iterator[None]:
    """While ``command`` runs, SIGTERM raises ``Terminated`` (in the main thread only: no
    other thread may set signal handlers; not under an event loop). A ``Terminated`` that
    Python swallows (see ``_redeliver_swallowed``) is raised again, so SIGTERM always stops
    the command."""
    if command in EVENT_LOOP_COMMANDS or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGTERM, _terminate)
    old_hook = sys.unraisablehook

    def hook(unraisable: sys.UnraisableHookArgs) -> None:
        _redeliver_swallowed(unraisable, old_hook)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = old_hook
        signal.signal(signal.SIGTERM, old)


def _signal_behind(exc: BaseException) -> KeyboardInterrupt | None:
    """The ``KeyboardInterrupt`` (or ``Terminated``) in ``exc``'s chain of causes, if any. A
    signal handler's exception raised while compiled code (numba) was calling back into
    Python comes out of the compiled call as a ``SystemError`` whose cause is that
    exception (or a chain of them: one per level of compiled calls)."""
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return link
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return None


def _stopped(command: str, signalled: KeyboardInterrupt, exc: BaseException) -> int:
    """One line and the exit code for a command stopped by SIGTERM (143) or Ctrl-C (130);
    the line ends with the first note the command added to ``exc`` (what it kept)."""
    from tankmap.rules.errors import printable

    notes = getattr(exc, "__notes__", None) or getattr(signalled, "__notes__", None) or []
    tail = f"; {printable(str(notes[0]), 300)}" if notes else ""
    if isinstance(signalled, Terminated):
        print(f"tankmap {command}: terminated{tail}", file=sys.stderr)
        return 143
    print(f"tankmap {command}: interrupted{tail}", file=sys.stderr)
    return 130


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    from tankmap.commands.common import settle_unwritable_home
    from tankmap.rules.errors import TankmapError, printable

    parser = build_parser()
    args = parser.parse_args(argv)
    for flag in ("out", "output", "record", "policy", "agents", "agent"):
        if getattr(args, flag, None) == "":  # not "as if the flag were not given"
            print(f"tankmap {args.command}: error: --{flag} is empty", file=sys.stderr)
            return 2
    # (run as the command, the process's start; called with arguments, as a library, now)
    args.started = STARTED if argv is None else time.monotonic()
    settle_unwritable_home()
    try:
        with _sigterm_stops(args.command):
            code: int = args.handler(args)
        return code
    except TankmapError as exc:
        # one line whatever the message quotes (file names, keys, values from the file)
        print(f"tankmap {args.command}: error: {printable(str(exc), 1000)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (Terminated)
        return _stopped(args.command, exc, exc)
    except SystemError as exc:
        signalled = _signal_behind(exc)
        if signalled is None:
            raise
        return _stopped(args.command, signalled, exc)
    except BrokenPipeError:
        return 0
