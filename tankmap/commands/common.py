"""Helpers shared by the sub-commands: reading scenarios, printing JSON, progress bars."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from tankmap.analysis.simulation.executors import available_cpus

T = TypeVar("T")


def load(path: str, option_pairs: Iterable[str] = ()) -> Any:
    """Read a scenario file or built-in map (``final-act/mirror``; a real file of that name
    wins) — ``ScenarioFormatError`` on any problem —, then apply the ``--option NAME=VALUE``
    overrides (``OptionError`` naming the file for a bad one)."""
    from tankmap.maps import resolve
    from tankmap.rules.errors import OptionError, ScenarioFormatError
    from tankmap.rules.fileformat import read_scenario
    from tankmap.rules.registry import get_ruleset

    target = resolve(path)
    if not os.path.lexists(target):
        raise ScenarioFormatError(
            "cannot read file: no such file, nor a built-in map of that name "
            "('tankmap maps' lists them)",
            source=path,
        )
    scenario = read_scenario(target)
    pairs = list(option_pairs)
    if pairs:
        try:
            options = parse_option_args(get_ruleset(scenario.ruleset), pairs)
        except OptionError as exc:
            raise OptionError(f"{path}: {exc}") from None
        scenario = scenario.with_options(**options)
    return scenario


def file_error(command: str, path: str, exc: Exception) -> dict[str, str]:
    """Say why ``path`` could not be read in one line on standard error, naming the file
    (``tankmap COMMAND: error: PATH: why``, as for any bad input), and return the file's
    ``--json`` entry ``{"file": path, "error": why}`` of a command that goes on with the
    other files."""
    from tankmap.rules.errors import printable

    # the reader's errors name the file themselves (escaped and shortened: compare sources)
    named = getattr(exc, "source", None) == path or str(exc).startswith(path)
    msg = str(exc) if named else f"{path}: {exc}"
    print(f"tankmap {command}: error: {printable(msg, 1000)}", file=sys.stderr)
    return {"file": path, "error": str(exc)}


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


def add_seed_and_workers(
    parser: Any, scheduler: bool = True, depends: str = "the numbers do not depend on it"
) -> None:
    """The flags of commands that play seeded games: ``--seed``, ``--workers`` (its help
    ends with ``depends``) and (when the command can spread its games over a Dask cluster)
    ``--scheduler``."""
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="K",
        help=f"worker processes (default: one per CPU, here {available_cpus()}); {depends}",
    )
    if scheduler:
        parser.add_argument(
            "--scheduler",
            metavar="ADDR",
            help="run on a Dask distributed scheduler (tcp://host:port), or 'local' to start a "
            "LocalCluster with --workers processes",
        )


def print_json(data: Any) -> None:
    """Print one JSON document on stdout (the ``--json`` contract)."""
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def parse_option_args(ruleset: Any, pairs: Iterable[str]) -> dict[str, Any]:
    """Turn ``["extra_forces=true", "max_rounds=50"]`` into typed ruleset options."""
    from tankmap.rules.errors import OptionError

    options: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise OptionError(f"--option needs NAME=VALUE, not {pair!r}")
        key, value = pair.split("=", 1)
        options[key.strip()] = ruleset.option_spec(key.strip()).parse(value)
    return options


_BAR_START: dict[str, tuple[float, int]] = {}


def format_seconds(seconds: float) -> str:
    """``"40 s"``, ``"3 min"`` or ``"2.5 h"``.

    >>> format_seconds(40), format_seconds(185), format_seconds(9000)
    ('40 s', '3 min', '2.5 h')
    """
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def bar_text(label: str, done: int, total: int, elapsed: float | None) -> str:
    """The progress line: bar, count and — once something is done — the time left,
    estimated from the time so far (``elapsed`` seconds).

    >>> bar_text("simulate", 50, 200, 10.0)
    'simulate [#######-----------------------] 50/200  ~30 s left'
    """
    filled = int(30 * done / total) if total else 30
    line = f"{label} [{'#' * filled}{'-' * (30 - filled)}] {done}/{total}"
    if elapsed is not None and 0 < done < total:
        left = elapsed * (total - done) / done
        line += f"  ~{left:.0f} s left" if left < 120 else f"  ~{left / 60:.0f} min left"
    return line


def draw_bar(label: str, done: int, total: int) -> None:
    """One frame of the one-line progress bar on stderr, with an estimate of the time
    left from the pace since this ``label``'s first frame."""
    import time

    now = time.monotonic()
    start = _BAR_START.get(label)
    if start is None or done <= start[1]:
        start = _BAR_START[label] = (now, done)
    t0, d0 = start
    elapsed = None
    if done > d0 and now > t0:  # pace since the first frame, applied to what is left
        elapsed = (now - t0) * done / (done - d0)
    sys.stderr.write("\r" + bar_text(label, done, total, elapsed).ljust(70))
    sys.stderr.flush()


def progress(items: Iterable[T], total: int, label: str, enabled: bool = True) -> Iterator[T]:
    """Yield ``items`` while drawing a one-line progress bar on stderr (only on a terminal)."""
    show = enabled and sys.stderr.isatty() and total > 1
    for n, item in enumerate(items, 1):
        yield item
        if show:
            draw_bar(label, n, total)
    if show:
        sys.stderr.write("\n")


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[Callable[[int], None]]:
    """A ``tick(done)`` callback drawing the progress bar (only on a terminal, only for more
    than one item); the line is ended when the block ends."""
    show = sys.stderr.isatty() and total > 1

    def tick(done: int) -> None:
        if show:
            draw_bar(label, done, total)

    try:
        yield tick
    finally:
        if show:
            sys.stderr.write("\n")


MAX_GAMES = 10_000_000
MAX_SEED = 2**63 - 1


def check_range(value: int, lo: int, hi: int, flag: str) -> int:
    """``value`` if ``lo <= value <= hi``, else ``TankmapError`` naming ``flag``."""
    from tankmap.rules.errors import TankmapError

    if not lo <= value <= hi:
        raise TankmapError(f"{flag} must be between {lo} and {hi}, not {value}")
    return value


def worker_count(requested: int | None, scheduler: str | None, command: str) -> int:
    """The worker processes to use: one per available CPU by default; at least 1; without
    a Dask scheduler at most the available CPUs (more would only add processes: a note on
    standard error says so)."""
    from tankmap.rules.errors import TankmapError

    cpus = available_cpus()
    if requested is None:
        return cpus
    if requested < 1:
        raise TankmapError(f"--workers must be at least 1, not {requested}")
    if scheduler is None and requested > cpus:
        sys.stderr.write(f"{command}: --workers {requested} capped at the {cpus} available CPUs\n")
        return cpus
    return min(requested, 4096)


def prepare_out_dir(out: str, command: str) -> None:
    """Make sure ``--out DIR`` can take ``command``'s report *before* long work starts:
    refuse the current folder (or one above it) and what is not new, empty or an earlier
    report of ``command`` (``check_report_folder``: the rule every ``--out`` follows), and
    try writing a file in ``DIR`` or, while it is new, in the nearest folder that exists
    above it. ``TankmapError`` (one line) otherwise. Nothing is created: a run refused
    later (a bad agent, an illegal board) leaves no empty ``DIR`` behind; the report is
    written through ``staged_folder``, which makes ``DIR`` (and the folders above it)."""
    import errno
    from pathlib import Path

    from tankmap.analysis.staged_folder import check_report_folder, refuse_current
    from tankmap.rules.errors import TankmapError, printable

    refuse_current(Path(os.path.abspath(out)), printable(out, 300))
    check_report_folder(out, command)
    there = Path(os.path.abspath(out))
    while not os.path.lexists(there) and there.parent != there:
        there = there.parent
    try:
        if not there.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
        probe_folder(there)
    except OSError as exc:
        raise TankmapError(f"--out {out}: cannot write there: {exc.strerror or exc}") from None


def final_path(out: str, staged: Any) -> str:
    """Where a file written at the top of ``staged_folder(out, ...)``'s temp folder ends up
    (``--out`` reports are written whole or not at all, an earlier one replaced whole)."""
    from pathlib import Path

    return str(Path(out) / Path(staged).name)


def probe_folder(folder: str | os.PathLike[str]) -> None:
    """Create and remove a temp file in ``folder``: ``OSError`` if it cannot be written
    (missing, read-only, full...)."""
    import tempfile

    with tempfile.NamedTemporaryFile(dir=folder or ".", prefix=".tankmap-probe-"):
        pass


def claim_output(path: str, force: bool) -> Any:
    """The file to write for ``-o PATH`` (a ``Path``), checked before any work: an existing
    file or symbolic link is refused without ``--force`` ("already exists"); with it a link
    is written through, but never a folder, pipe or device; and a folder that cannot be
    written is refused ("PATH: cannot write: <why>") — ``TankmapError``, one line."""
    from tankmap.rules.errors import TankmapError
    from tankmap.rules.safeio import check_output

    if os.path.isdir(path):
        raise TankmapError(f"{path}: is a folder: give a file name")
    if not force and os.path.lexists(path):
        raise TankmapError(f"{path}: already exists (use --force to overwrite)")
    return check_output(path, force=True)  # (it tries the write's temp file there too)


def require_playable(scenario: Any, path: str, verb: str = "simulate") -> None:
    """Refuse a scenario the playout commands cannot play (illegal, or already decided)
    with one line naming the file, saying what the command cannot do with it (``verb``:
    "cannot play an illegal scenario") and pointing at ``tankmap check``."""
    from tankmap.analysis.simulation.runner import IllegalScenarioError, require_legal
    from tankmap.rules.errors import TankmapError

    try:
        require_legal(scenario, verb)
    except IllegalScenarioError as exc:
        raise TankmapError(f"{path}: {exc}; see 'tankmap check {path}'") from None


def terminal_bar(label: str) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """``(tick, finish)`` for a long run: ``tick(done, total)`` draws the progress bar and
    ``finish()`` ends its line — both only when standard error is a terminal."""
    show = sys.stderr.isatty()

    def tick(done: int, total: int) -> None:
        if show:
            draw_bar(label, done, total)

    def finish() -> None:
        if show:
            sys.stderr.write("\n")

    return tick, finish


def settle_unwritable_home() -> None:
    """Where the configuration folder cannot be written (a service account's HOME, a
    read-only one), point matplotlib's configuration and font cache at a private temp
    folder (``MPLCONFIGDIR``), as matplotlib itself advises in the two lines it would
    otherwise print on every run. numba's kernel cache has its own fallback
    (``analysis/simulation/jit_cache.py``)."""
    if os.environ.get("MPLCONFIGDIR"):
        return
    from pathlib import Path

    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    folder = Path(base) / "matplotlib"
    while not os.path.lexists(folder) and folder.parent != folder:
        folder = folder.parent  # the nearest existing folder: where it would be made
    if folder.is_dir() and os.access(folder, os.W_OK | os.X_OK):
        return
    from tankmap.analysis.simulation.jit_cache import private_folder

    private = private_folder("tankmap-matplotlib-")
    if private is not None:
        os.environ["MPLCONFIGDIR"] = str(private)
