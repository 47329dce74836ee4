"""Helpers shared by the sub-commands: reading scenarios, printing JSON, progress bars."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")


def load(path: str, option_pairs: Iterable[str] = ()) -> Any:
    """Read a scenario file (``ScenarioFormatError`` on any problem), then apply the
    ``--option NAME=VALUE`` overrides (``OptionError`` naming the file for a bad one)."""
    from rules.errors import OptionError
    from rules.fileformat import read_scenario
    from rules.registry import get_ruleset

    scenario = read_scenario(path)
    pairs = list(option_pairs)
    if pairs:
        try:
            options = parse_option_args(get_ruleset(scenario.ruleset), pairs)
        except OptionError as exc:
            raise OptionError(f"{path}: {exc}") from None
        scenario = scenario.with_options(**options)
    return scenario


def add_option_flag(parser: Any) -> None:
    """The ``--option NAME=VALUE`` flag of commands that read a scenario: a what-if
    without editing the file (``tankmap rulesets`` lists each ruleset's options)."""
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a ruleset option of the file (repeatable), e.g. wrecks=false; "
        "`tankmap rulesets` lists them",
    )


def print_json(data: Any) -> None:
    """Print one JSON document on stdout (the ``--json`` contract)."""
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def parse_option_args(ruleset: Any, pairs: Iterable[str]) -> dict[str, Any]:
    """Turn ``["extra_forces=true", "max_rounds=50"]`` into typed ruleset options."""
    from rules.errors import OptionError

    options: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise OptionError(f"--option needs NAME=VALUE, not {pair!r}")
        key, value = pair.split("=", 1)
        options[key.strip()] = ruleset.option_spec(key.strip()).parse(value)
    return options


def progress(items: Iterable[T], total: int, label: str, enabled: bool = True) -> Iterator[T]:
    """Yield ``items`` while drawing a one-line progress bar on stderr (only on a terminal)."""
    show = enabled and sys.stderr.isatty() and total > 1
    for n, item in enumerate(items, 1):
        yield item
        if show:
            filled = int(30 * n / total)
            bar = "#" * filled + "-" * (30 - filled)
            sys.stderr.write(f"\r{label} [{bar}] {n}/{total}")
            sys.stderr.flush()
    if show:
        sys.stderr.write("\n")
