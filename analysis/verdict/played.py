"""The games a board's verdicts have played, kept so that judging the board again goes on
from where the last climb stopped instead of playing every game again.

A climb's run is a pure function of the board, the two agents, the run's seed and the game
numbers (``analysis.simulation.runner``: game ``i`` of seed ``s`` is always the same game),
so a game played once never needs playing again. ``PlayedGames`` keeps, per run (the
agents and the seed), each game's winner by game number and the seconds the games took;
``run_verdict`` takes the kept games first and plays only the others. A climb cut by its
time limit (or cancelled) thus loses only the batch of games it was playing: the next
``tankmap verdict`` on the board, with a longer ``--time-limit`` or not, climbs through
the rungs already played in moments and spends its time on the next one — with the trace
a single long enough climb would have given.

The games depend on the code that plays them, so the file also records ``code_version()``
(``analysis/code_version.py``: the tankmap version and a hash of the rules' and the agents'
source, the numpy and numba versions and the kernel switch): games kept by other code are
dropped, never reused. One
file per board (``cache.verdict_dir()/games/<board key>.json``; the key is the verdict
cache's, options included). An unreadable or malformed file counts as no games kept; a
file that cannot be written never fails the climb (the games are then simply not kept).
Each write merges into the file as it is then, under a lock (``<key>.json.lock``), so two
verdicts of the board at once keep each other's games.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tankmap.analysis.code_version import made_here, stamp
from tankmap.analysis.ladder_cache import board_key
from tankmap.analysis.verdict.cache import verdict_dir
from tankmap.rules.errors import TankmapError
from tankmap.rules.fileformat import atomic_write_text
from tankmap.rules.scenario import Scenario

CODE = {"south": "s", "north": "n", "draw": "d"}
"""A winner as one letter in the file; ``.`` marks a game not played."""
WINNER = {v: k for k, v in CODE.items()}
UNPLAYED = "."


def games_path(scenario: Scenario) -> Path:
    """The file that keeps this board's played games."""
    return verdict_dir() / "games" / f"{board_key(scenario)}.json"


def _run_name(policies: tuple[str, str], seed: int) -> str:
    return f"{policies[0]} | {policies[1]} | {seed}"


class PlayedGames:
    """The played games of one board's verdict runs (see the module docstring).
    ``PlayedGames.of(scenario)`` reads them from the cache (none when ``fresh``: every
    game is played again, and the kept ones are replaced as they are)."""

    def __init__(self, path: Path | None, runs: dict[str, dict[str, Any]] | None = None) -> None:
        self.path = path
        self.runs: dict[str, dict[str, Any]] = runs if runs is not None else {}

    @classmethod
    def of(cls, scenario: Scenario, fresh: bool = False) -> PlayedGames:
        path = games_path(scenario)
        return cls(path, None if fresh else _read(path))

    def kept(self, policies: tuple[str, str], seed: int, first: int, n: int) -> list[str]:
        """The winners (``"south"``, ``"north"``, ``"draw"``) of games ``first``,
        ``first + 1``, … of the run, up to ``n`` of them and up to the first one not kept."""
        run = self.runs.get(_run_name(policies, seed))
        if run is None:
            return []
        letters: str = run["winners"][first : first + n]
        stop = letters.find(UNPLAYED)
        return [WINNER[c] for c in (letters if stop < 0 else letters[:stop])]

    def seconds_per_game(self, policies: tuple[str, str], seed: int) -> float:
        """The mean seconds one of the run's kept games took (0 with none kept)."""
        run = self.runs.get(_run_name(policies, seed))
        if run is None or not run["played"]:
            return 0.0
        return float(run["seconds"]) / int(run["played"])

    def count(self) -> int:
        """How many games are kept, over all runs."""
        return sum(len(r["winners"]) - r["winners"].count(UNPLAYED) for r in self.runs.values())

    def add(
        self, policies: tuple[str, str], seed: int, first: int, winners: list[str], seconds: float
    ) -> None:
        """Keep games ``first``, ``first + 1``, … of the run (their ``winners``, which took
        ``seconds`` in all) and write the file (atomically; a failure is ignored)."""
        if not winners:
            return
        name = _run_name(policies, seed)
        run = self.runs.setdefault(name, {"winners": "", "seconds": 0.0, "played": 0})
        letters = list(run["winners"])
        end = first + len(winners)
        if len(letters) < end:
            letters.extend(UNPLAYED * (end - len(letters)))
        letters[first:end] = [CODE[w] for w in winners]
        run["winners"] = "".join(letters)
        run["seconds"] = float(run["seconds"]) + max(seconds, 0.0)
        run["played"] = int(run["played"]) + len(winners)
        self._save()

    def _save(self) -> None:
        """Write the file: these runs merged into the games it holds now, so that two
        verdicts of the board at once (the editor's and a terminal's) keep each other's
        games (the file is locked while it is read and replaced, where the system allows)."""
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with _locked(self.path):
                runs = _merged(_read(self.path), self.runs)
                doc = stamp({"runs": runs})
                atomic_write_text(self.path, json.dumps(doc) + "\n")
        except (OSError, TankmapError):
            pass  # the games are not kept; the climb goes on


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path``'s lock file (``.lock`` added) while the block
    runs; no lock where ``fcntl`` is missing (Windows)."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _merged(
    theirs: dict[str, dict[str, Any]], mine: dict[str, dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """``mine`` with the games of ``theirs`` (the file as another process left it) that it
    lacks: a game both kept is the same game (``mine`` is taken); the pace (seconds and games
    played) is ``mine``'s when it played any, else theirs."""
    out = {name: dict(run) for name, run in theirs.items()}
    for name, run in mine.items():
        other = out.get(name)
        if other is None:
            out[name] = dict(run)
            continue
        a, b = run["winners"], other["winners"]
        size = max(len(a), len(b))
        a, b = a.ljust(size, UNPLAYED), b.ljust(size, UNPLAYED)
        pace = run if run["played"] else other
        out[name] = {
            "winners": "".join(x if x != UNPLAYED else y for x, y in zip(a, b, strict=True)),
            "seconds": float(pace["seconds"]),
            "played": int(pace["played"]),
        }
    return out


def _read(path: Path) -> dict[str, dict[str, Any]]:
    """The runs kept in ``path`` by this code (``made_here``); empty when the file is
    missing, unreadable, malformed or written by other code. A malformed run is dropped."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not made_here(doc):
        return {}
    runs = doc.get("runs")
    if not isinstance(runs, dict):
        return {}
    out: dict[str, dict[str, Any]] = {}
    for name, run in runs.items():
        if not isinstance(run, dict):
            continue
        winners, seconds, played = run.get("winners"), run.get("seconds"), run.get("played")
        if (
            isinstance(winners, str)
            and set(winners) <= {*WINNER, UNPLAYED}
            and isinstance(seconds, (int, float))
            and isinstance(played, int)
            and not isinstance(played, bool)
            and seconds >= 0
            and played >= 0
        ):
            out[str(name)] = {"winners": winners, "seconds": float(seconds), "played": played}
    return out
