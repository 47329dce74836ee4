"""``tankmap`` entry point: argument parsing and error handling, nothing else.

Each sub-command lives in ``tankmap/commands/<name>.py`` with ``register(subparsers)``; its
heavy imports happen inside the handler, so ``tankmap --help`` stays fast. Errors that are
the user's (``TankmapError``: bad files, unknown options...) print one line and exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from tankmap import __version__

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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    from tankmap.rules.errors import TankmapError, printable

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
        return code
    except TankmapError as exc:
        # one line whatever the message quotes (file names, keys, values from the file)
        print(f"tankmap {args.command}: error: {printable(str(exc), 1000)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"tankmap {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
