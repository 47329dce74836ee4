"""``simulate``: play many seeded games of a scenario and return one table row per game.

Determinism: game ``i`` is played with ``default_rng(SeedSequence(seed, spawn_key=(i,)))``,
i.e. the ``i``-th child of ``SeedSequence(seed).spawn``. Games are grouped into fixed-size
batches only to amortise task overhead; the seeds do not depend on the batch or on which
worker ran it, so the same ``seed`` gives an identical table for any ``workers`` count,
for local processes and for a Dask cluster alike.

>>> # df = simulate(read_scenario("maps/final-act/mirror.json"), 200, "heuristic", seed=1)
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tankmap.analysis.simulation.budgets import check_budget
from tankmap.analysis.simulation.executors import Executor, make_executor
from tankmap.analysis.simulation.games import GameResult, PolicyError, get_driver
from tankmap.analysis.simulation.interrupt import RunAborted
from tankmap.analysis.simulation.kernel_switch import python_only
from tankmap.rules.board import Board
from tankmap.rules.errors import TankmapError
from tankmap.rules.fileformat import dumps_scenario, loads_scenario
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario

COLUMNS = (
    "game",
    "policy_south",
    "policy_north",
    "winner",
    "length",
    "end",
    "kills_south",
    "kills_north",
    "winning_unit",
    "route",
    "deaths",
    "first",
)
DEFAULT_BATCH = 20
Progress = Callable[[int, int], None]

_PREPARED: dict[str, tuple[Scenario, Any]] = {}


def game_rng(seed: int, game: int) -> np.random.Generator:
    """The generator game ``game`` of a run seeded ``seed`` is played with."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(game,)))


def play_batch(
    scenario_text: str, policies: tuple[str, str], seed: int, games: Sequence[int]
) -> dict[str, list[Any]]:
    """Play the games numbered ``games`` (a worker task) and return their table columns
    (``result_columns``): the rows are built where the games were played, so the process
    that gathers many workers' batches only concatenates lists (it shares the cores with
    them). The scenario travels as its JSON text and is parsed and prepared once per
    worker process."""
    scenario, prepared = _prepared(scenario_text)
    results = play_games(get_driver(scenario.ruleset), prepared, policies, seed, games)
    return result_columns(scenario.board, policies, results, games)


def _prepared(scenario_text: str) -> tuple[Scenario, Any]:
    """The parsed scenario and its driver's prepared game (kept for the last few texts)."""
    entry = _PREPARED.get(scenario_text)
    if entry is None:
        scenario = loads_scenario(scenario_text)
        entry = (scenario, get_driver(scenario.ruleset).prepare(scenario))
        if len(_PREPARED) > 8:
            _PREPARED.clear()
        _PREPARED[scenario_text] = entry
    return entry


def check_policies(scenario: Scenario, policies: Sequence[str]) -> None:
    """Refuse, before any game, an agent that ``scenario``'s game does not know or a
    budget past its limit (each driver's ``check_policy`` asks ``budgets.check_budget``):
    ``PolicyError``, one line. What a caller playing several runs (the ladder) asks first."""
    _scenario, prepared = _prepared(dumps_scenario(scenario))
    driver = get_driver(scenario.ruleset)
    for p in policies:
        driver.check_policy(prepared, p)


def play_games(
    driver: Any,
    prepared: Any,
    policies: tuple[str, str],
    seed: int,
    games: Sequence[int],
    record: bool = False,
) -> Sequence[GameResult]:
    """Games number ``games`` of a run seeded ``seed``, in order: the driver's
    ``play_seeded`` when it has one (it derives its own per-game randomness from the seed
    and the game number), else ``play_many`` or ``play`` with ``game_rng(seed, g)``."""
    seeded = getattr(driver, "play_seeded", None)
    if seeded is not None:
        out: Sequence[GameResult] = seeded(prepared, policies, seed, list(games), record)
        return out
    many = getattr(driver, "play_many", None)
    if many is not None and not record:
        results: Sequence[GameResult] = many(prepared, policies, [game_rng(seed, g) for g in games])
        return results
    return [driver.play(prepared, policies, game_rng(seed, g), record=record) for g in games]


def record_game(
    scenario: Scenario,
    policies: str | Sequence[str] | Mapping[Side, str],
    seed: int = 0,
    game: int = 0,
) -> tuple[GameResult, Any]:
    """Play game number ``game`` of a run seeded ``seed`` (the same game ``simulate`` plays)
    and return its result and its record (an object with ``save(path)``: Final Act
    ``FinalActRecord``, Tank Chess ``GameRecord``, Tank Wars ``TankWarsRecord``).
    ``KernelSwitchError`` for an unknown ``TANKMAP_KERNEL`` value."""
    python_only()  # (refuses an unknown TANKMAP_KERNEL before a game is played)
    pols = normalise_policies(policies)
    driver = get_driver(scenario.ruleset)
    prepared = driver.prepare(scenario)
    for p in pols:
        check_budget(scenario.ruleset, p)  # before the driver reads the number
        driver.check_policy(prepared, p)
    result = play_games(driver, prepared, pols, seed, [game], record=True)[0]
    return result, result.record


class IllegalScenarioError(TankmapError):
    """The set-up breaks a rule, so its games would not be games of the rule book."""


def require_legal(scenario: Scenario, verb: str = "simulate") -> None:
    """Raise ``IllegalScenarioError`` naming the first ``error`` violation of the set-up
    (and how many more there are: "cannot ``verb`` an illegal scenario: ..."), or saying
    that a side has no units or that the position's game is already over; ``incomplete``
    and ``warning`` ones do not stop a run."""
    from tankmap.rules.registry import get_ruleset
    from tankmap.rules.violations import Severity

    rs = get_ruleset(scenario.ruleset)
    names = rs.side_names()  # as the game names them: White and Black in Tank Chess
    empty = [names[side] for side in Side if not any(u.side is side for u in scenario.units)]
    if empty:
        raise IllegalScenarioError(
            f"nothing to play: {' and '.join(empty)} {'has' if len(empty) == 1 else 'have'} "
            "no units (place them first)"
        )
    done = rs.finished(scenario)
    if done is not None:
        who = "a draw" if done.winner is None else f"{names[done.winner]} wins"
        raise IllegalScenarioError(
            f"the game of this position is already over ({who}, {done.reason})"
        )
    errors = [v for v in rs.check(scenario) if v.severity is Severity.ERROR]
    if errors:
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise IllegalScenarioError(f"cannot {verb} an illegal scenario: {errors[0].message}{more}")


def fallback_note(scenario: Scenario, policies: tuple[str, str]) -> str | None:
    """The driver's note when these policies fall back to a slower reference engine (Final
    Act advanced options), else ``None`` (also for a ruleset without a driver)."""
    try:
        note = getattr(get_driver(scenario.ruleset), "fallback_note", None)
    except TankmapError:
        return None  # no driver: ``simulate`` reports that itself
    return None if note is None else note(scenario, policies)


def normalise_policies(policies: str | Sequence[str] | Mapping[Side, str]) -> tuple[str, str]:
    """``"heuristic"`` → both sides; ``("a", "b")`` or ``{"south": "a", "north": "b"}`` →
    south a, north b. ``PolicyError`` for anything else (other keys, names that are not
    text, not two of them)."""
    if isinstance(policies, str):
        return (policies, policies)
    if isinstance(policies, Mapping):
        if set(policies) != {Side.SOUTH, Side.NORTH}:  # (a Side is equal to its name)
            raise PolicyError("policies by side need the keys 'south' and 'north' only")
        pair: tuple[Any, ...] = (policies[Side.SOUTH], policies[Side.NORTH])
    elif isinstance(policies, Iterable):
        pair = tuple(policies)
    else:
        raise PolicyError(f"need one policy or two (south, north), not a {type(policies).__name__}")
    if len(pair) != 2:
        raise PolicyError(f"need one policy or two (south, north), got {len(pair)}")
    if not all(isinstance(p, str) for p in pair):
        raise PolicyError("a policy is a name (text)")
    return (pair[0], pair[1])


def result_row(board: Board, game: int, policies: tuple[str, str], r: GameResult) -> dict[str, Any]:
    """One table row (cells as names). ``route`` is the winning unit's cells, space
    separated; ``deaths`` lists ``side:kind:cell:killer-kind`` items (``-`` when no single
    unit did it), space separated."""
    columns = result_columns(board, policies, [r], [game])
    return {name: values[0] for name, values in columns.items()}


_NAMES: dict[tuple[int, int], list[str]] = {}


def _cell_names(board: Board) -> list[str]:
    """Every cell's name (kept per board shape: a task of one game named them all)."""
    key = (board.columns, board.size)
    names = _NAMES.get(key)
    if names is None:
        names = _NAMES[key] = [board.cell_name(c) for c in range(board.size)]
    return names


def result_columns(
    board: Board, policies: tuple[str, str], results: Sequence[GameResult], games: Sequence[int]
) -> dict[str, list[Any]]:
    """The table columns (``COLUMNS``, values as in ``result_row``) of ``results``, the
    games numbered ``games`` (cell and side names looked up once: a 20,000-game run spent
    a third of a second naming cells)."""
    if len(games) != len(results):
        raise ValueError(f"{len(results)} results for {len(games)} game numbers")
    names = _cell_names(board)
    side_name = {side: side.value for side in Side}
    head: dict[str, list[Any]] = {
        "game": list(games),
        "policy_south": [policies[0]] * len(results),
        "policy_north": [policies[1]] * len(results),
    }
    direct = getattr(results, "table_columns", None)  # results kept as arrays (Final Act kernel)
    if direct is not None:
        columns: dict[str, list[Any]] = direct(names)
        return head | columns
    return head | {
        "winner": ["draw" if r.winner is None else side_name[r.winner] for r in results],
        "length": [r.length for r in results],
        "end": [r.end for r in results],
        "kills_south": [r.kills[0] for r in results],
        "kills_north": [r.kills[1] for r in results],
        "winning_unit": [r.winning_unit for r in results],
        "route": [" ".join([names[c] for c in r.route]) for r in results],
        "deaths": [
            " ".join(
                [
                    f"{side_name[d.side]}:{d.kind}:{names[d.cell]}:{d.by_kind or '-'}"
                    for d in r.deaths
                ]
            )
            for r in results
        ],
        "first": [side_name[r.first] for r in results],
    }


def task_games(indices: Sequence[int], batch_size: int, workers: int) -> list[list[int]]:
    """``indices`` cut into tasks of ``batch_size`` games; with several workers, a task
    takes at most a ``2 * workers``-th of the games still left (and at least an eighth of
    a batch), so the last tasks shrink and the workers finish together (a worker that
    takes a last whole batch would keep the others waiting). The results never depend on
    the cut."""
    least = max(1, batch_size // 8)
    out: list[list[int]] = []
    i = 0
    while i < len(indices):
        size = batch_size
        if workers > 1:
            size = min(batch_size, max(least, -(-(len(indices) - i) // (2 * workers))))
        out.append(list(indices[i : i + size]))
        i += size
    return out


class _Stopped(Exception):
    """Raised from a progress callback to end a run early, keeping its finished games."""


def simulate(
    scenario: Scenario,
    games: int,
    policies: str | Sequence[str] | Mapping[Side, str] = "heuristic",
    seed: int = 0,
    workers: int = 1,
    scheduler: str | None = None,
    *,
    until_ci: float | None = None,
    max_games: int = 200_000,
    batch_size: int | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    stop: Callable[[], bool] | None = None,
    abort: Callable[[], bool] | None = None,
    first_game: int = 0,
    interrupted: Callable[[pd.DataFrame], None] | None = None,
) -> pd.DataFrame:
    """Play ``games`` games (seeded) and return a DataFrame with one row per game.

    Columns: ``COLUMNS``. ``df.attrs`` holds ``seed``, ``seconds`` (wall time) and
    ``playouts_per_second``. With ``until_ci=W`` the run continues in chunks of ``games``
    until both sides' Wilson 95 % win-rate intervals are narrower than ``W`` (or
    ``max_games`` is reached); the result is still a pure function of the seed.

    ``batch_size`` = games per task (default: the driver's ``batch_size``, else 20, cut so
    that every worker gets at least two tasks); it never changes the results.
    ``progress(done, total)`` is called as games finish. ``stop()``, asked after each task,
    ends the run early when it returns true: the table then holds the run's games from its
    first up to the first one not finished (in game order; each is the game the full run
    would have played; games finished after a gap are dropped, since which games finish
    first depends on their length) and ``df.attrs["stopped"]`` is true
    (``df.attrs["asked"]`` = the games asked for).
    ``abort()`` is asked about every ``executors.ABORT_POLL`` seconds while games run (not
    only between tasks): when it returns true the run ends at once, its games in progress
    left unfinished, with the table ``stop`` would give. Without ``executor`` and with
    ``workers > 1``, every game then runs in a local worker process (``workers`` of them),
    which is killed in the middle of its game; with one worker it is asked after each
    task; on a Dask cluster the tasks left are cancelled.
    ``first_game`` numbers the games from there on (games ``first_game`` … ``first_game +
    games − 1`` of the seed: a run can be extended later with the very games a longer run
    would play).
    ``interrupted(table)`` is called when an exception ends the run — Ctrl-C
    (``KeyboardInterrupt``), SIGTERM, a lost worker — with the games finished, as ``stop``
    would have kept them (``attrs["stopped"]`` true); the exception then goes on. So a
    caller that keeps games (``tankmap verdict``) loses only the batches in progress.
    Raises ``NoDriverError`` for a ruleset without an engine, ``PolicyError`` for
    unknown policies and ``KernelSwitchError`` for an unknown ``TANKMAP_KERNEL`` value
    (before any game).
    """
    from tankmap.analysis.simulation.stats import wilson

    if games < 1:
        raise TankmapError(f"need at least 1 game, not {games}")
    if until_ci is not None and not 0 < until_ci < 1:
        raise TankmapError(
            f"--until-ci takes an interval width above 0 and below 1 (0.1: ±0.05), not {until_ci}"
        )
    python_only()  # (refuses an unknown TANKMAP_KERNEL value now, not in a worker)
    pols = normalise_policies(policies)
    driver = get_driver(scenario.ruleset)
    # the text names the scenario exactly: a repeated run (the ladder, a sweep, the
    # editor's balance meter) reuses its prepared game and the tables built from it
    text = dumps_scenario(scenario)
    cached = _PREPARED.get(text)
    prepared = cached[1] if cached is not None else driver.prepare(scenario)
    for p in pols:
        check_budget(scenario.ruleset, p)  # before the driver reads the number
        driver.check_policy(prepared, p)
    warm = getattr(driver, "warm", None)
    if warm is not None and scheduler is None:
        # built once here; local (forked) workers inherit it. A driver's optional
        # ``warm(prepared, policies, games=)`` is told how many games the run may play.
        warm(prepared, pols, games=max_games if until_ci is not None else games)
    if batch_size is None:
        batch_size = int(getattr(driver, "batch_size", DEFAULT_BATCH))
        if workers > 1:  # at least two tasks per worker, so none of them idles
            batch_size = max(1, min(batch_size, -(-games // (2 * workers))))
    if len(_PREPARED) > 8:
        _PREPARED.clear()
    _PREPARED[text] = (scenario, prepared)

    own = executor is None
    ex = (
        executor
        if executor is not None
        else make_executor(workers, scheduler, abortable=abort is not None)
    )
    columns: dict[str, list[Any]] = {name: [] for name in COLUMNS}
    start = time.perf_counter()
    # Results are hundreds of thousands of small acyclic objects: cyclic garbage collections
    # while they arrive only cost time, and here they stall the thread that feeds the
    # workers (two local workers ran 1.2x one worker on 20,000 Final Act games, 1.7x+ without)
    collecting = gc.isenabled()
    gc.disable()
    stopped = False
    try:
        target = games
        while True:
            first = len(columns["game"])
            total = target
            indices = list(range(first_game + first, first_game + target))
            tasks = [
                (text, pols, seed, chunk) for chunk in task_games(indices, batch_size, ex.workers)
            ]
            done = [first]
            received: dict[int, dict[str, list[Any]]] = {}

            def on_done(
                i: int,
                block: dict[str, list[Any]],
                done: list[int] = done,
                total: int = total,
                received: dict[int, dict[str, list[Any]]] = received,
            ) -> None:
                received[i] = block
                done[0] += len(block["game"])
                if progress is not None:
                    progress(done[0], total)
                if stop is not None and stop():
                    raise _Stopped

            try:
                ex.map(play_batch, tasks, on_done, abort=abort)
            except (_Stopped, RunAborted):
                stopped = True
            except BaseException:
                if interrupted is not None:
                    _take_finished(received, columns)
                    table = _table(columns, scenario, seed, games, start, stopped=True)
                    with contextlib.suppress(Exception):  # the interruption goes on
                        interrupted(table)
                raise
            _take_finished(received, columns)
            if stopped or until_ci is None or target >= max_games:
                break
            n = len(columns["game"])
            widths = []
            for side in Side:
                k = columns["winner"].count(side.value)
                lo, hi = wilson(k, n)
                widths.append(hi - lo)
            if max(widths) < until_ci:
                break
            target = min(max_games, target + games)
    finally:
        if collecting:
            gc.enable()
        if own:
            ex.close()
    return _table(columns, scenario, seed, games, start, stopped)


def _take_finished(
    received: dict[int, dict[str, list[Any]]], columns: dict[str, list[Any]]
) -> None:
    """Add the received tasks' games to ``columns``, in task order up to the first task
    missing (only a stopped or interrupted run misses any): a long game finishes late, so
    the games that happened to finish first could bias an estimate, while a run's first
    games are a fair sample."""
    i = 0
    while i in received:
        for name, values in received[i].items():
            columns[name].extend(values)
        i += 1


def _table(
    columns: dict[str, list[Any]],
    scenario: Scenario,
    seed: int,
    asked: int,
    start: float,
    stopped: bool,
) -> pd.DataFrame:
    """``simulate``'s table of the games in ``columns``, with its ``attrs``."""
    seconds = time.perf_counter() - start
    df = pd.DataFrame(columns, columns=list(COLUMNS))
    df.attrs["seed"] = seed
    df.attrs["seconds"] = seconds
    df.attrs["playouts_per_second"] = len(df) / seconds if seconds > 0 else float("inf")
    df.attrs["ruleset"] = scenario.ruleset
    df.attrs["stopped"] = stopped
    df.attrs["asked"] = asked
    return df
