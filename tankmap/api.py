"""tankmap's Python API for notebooks and scripts: one import, every step.

Everything here is also available as ``tankmap.<name>`` (imported on first use, so
``import tankmap`` stays cheap). A session, from a built-in map to a chart:

>>> import tankmap
>>> board = tankmap.load("final-act/mirror")        # a file path or a built-in map name
>>> tankmap.is_legal(board)
True
>>> result = tankmap.analyse(board)
>>> reach = tankmap.reach_frame(result, "south")    # rows 12..1 x columns a..l
>>> reach.shape
(12, 12)
>>> int(reach.loc["2", "f"])                        # tank C stands on f2 now
0
>>> int(reach.loc["4", "f"])                        # two rounds ahead of it
2
>>> games = tankmap.simulate(board, games=20, seed=1)
>>> len(games), set(games["winner"]) <= {"south", "north", "draw"}
(20, True)
>>> summary = tankmap.balance(games)
>>> 0.0 <= summary["balance"] <= 1.0
True

Errors are the project's ``TankmapError`` family (a bad file names the file, the JSON path
and the value; an unknown map name says so; an illegal board is refused by ``simulate``;
an argument of the wrong type or out of range is an ``ArgumentError`` naming the function,
the argument and the value).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from tankmap.analysis.summary import ScenarioAnalysis
    from tankmap.rules.scenario import Scenario
    from tankmap.rules.violations import Violation


def load(path_or_name: str | Path) -> Scenario:
    """Read a scenario file or a built-in map (``"final-act/mirror"``; ``map_names()``
    lists them; a real file of that name wins). Raises ``ScenarioFormatError``.

    >>> load("tank-chess/basic-16").board.columns
    16
    """
    from tankmap.maps import resolve
    from tankmap.rules.errors import ScenarioFormatError
    from tankmap.rules.fileformat import read_scenario

    if not isinstance(path_or_name, str | Path):
        _refuse("load", "path_or_name", "a file name or a built-in map's name", path_or_name)
    target = resolve(str(path_or_name))
    if not Path(target).exists():
        raise ScenarioFormatError(
            "cannot read file: no such file, nor a built-in map of that name "
            "(tankmap.map_names() lists them)",
            source=str(path_or_name),
        )
    return read_scenario(target)


def save(scenario: Scenario, path: str | Path) -> None:
    """Write ``scenario`` to ``path`` atomically and canonically (``TankmapError`` if it
    cannot be written; the old file is then untouched)."""
    from tankmap.rules.fileformat import write_scenario

    _scenario(scenario, "save")
    if not isinstance(path, str | Path):
        _refuse("save", "path", "a file name (str or Path)", path)
    write_scenario(scenario, path)


def map_names(ruleset: str | None = None) -> list[str]:
    """The built-in maps' names, e.g. ``['final-act/extra-forces', ...]``
    (``UnknownRulesetError``, naming the games, for a ruleset that does not exist).

    >>> "tank-wars/default" in map_names("tank-wars")
    True
    """
    from tankmap.maps import map_names as names

    return names(ruleset)


def check(scenario: Scenario) -> list[Violation]:
    """Everything wrong or missing: ``Violation(code, severity, message, cells, side)`` with
    severity ``error``, ``incomplete`` or ``warning`` (empty for a finished legal setup).

    >>> [v.code for v in check(load("final-act/mirror")) if v.severity == "error"]
    []
    """
    from tankmap.rules.registry import get_ruleset

    return get_ruleset(_scenario(scenario, "check").ruleset).check(scenario)


def is_legal(scenario: Scenario) -> bool:
    """True when ``check`` finds no error (incomplete setups can still be legal)."""
    from tankmap.rules.violations import is_legal as legal

    return legal(check(_scenario(scenario, "is_legal")))


def moves(scenario: Scenario) -> pd.DataFrame:
    """Every unit's possible moves now, one row per (unit, destination): columns ``unit``
    (index in the scenario), ``kind``, ``side``, ``cell``, ``to``, ``facing`` — the same as
    ``tankmap moves --json``.

    >>> m = moves(load("final-act/mirror"))
    >>> sorted(m.columns)
    ['cell', 'facing', 'kind', 'side', 'to', 'unit']
    """
    import pandas as pd

    from tankmap.rules.registry import get_ruleset

    rs = get_ruleset(_scenario(scenario, "moves").ruleset)
    board = scenario.board
    rows = []
    for i, u in enumerate(scenario.units):
        if u.wreck:
            continue
        for m in rs.moves(scenario, u):
            doc = m.to_json(board)
            rows.append(
                {
                    "unit": i,
                    "kind": u.kind,
                    "side": u.side.value,
                    "cell": board.cell_name(u.cell),
                    "to": doc["to"],
                    "facing": doc["facing"],
                }
            )
    return pd.DataFrame(rows, columns=["unit", "kind", "side", "cell", "to", "facing"])


def analyse(scenario: Scenario) -> ScenarioAnalysis:
    """Reach, fire coverage, lanes and choke points of both sides (what ``tankmap analyze``
    reports); ``reach_frame``/``coverage_frame``/``figures`` turn it into tables and
    charts, ``result.to_json()`` is the ``analyze --json`` document."""
    from tankmap.analysis.summary import analyse as run

    return run(_scenario(scenario, "analyse"))


def _refuse(function: str, argument: str, need: str, value: Any) -> NoReturn:
    """Raise the ``ArgumentError`` of ``tankmap.<function>`` given a ``value`` it cannot
    take as ``argument``: ``tankmap.check: scenario must be a Scenario ..., not 'x' (a str)``.
    """
    from tankmap.rules.errors import ArgumentError, short

    kind = type(value).__name__
    article = "an" if kind[0].lower() in "aeiou" else "a"
    text = short(value)
    if value is None:
        given = "None"
    elif "\n" in text or text.startswith("<"):  # a table or an object: its type says more
        given = f"{article} {kind}"
    else:
        given = f"{text} ({article} {kind})"
    raise ArgumentError(f"tankmap.{function}: {argument} must be {need}, not {given}")


def _scenario(value: Any, function: str) -> Scenario:
    """``value`` if it is a ``Scenario`` whose options its game has and takes (one made in
    Python, ``Scenario.with_options``, is not checked before): else ``ArgumentError``
    naming ``function`` (``OptionError`` for an option; ``UnknownRulesetError``)."""
    from tankmap.rules.registry import get_ruleset
    from tankmap.rules.scenario import Scenario

    if not isinstance(value, Scenario):
        _refuse(function, "scenario", "a Scenario (tankmap.load reads one)", value)
    get_ruleset(value.ruleset).validate_options(dict(value.options))
    return value


def _analysis(value: Any, function: str) -> ScenarioAnalysis:
    """``value`` if it is what ``analyse`` returns, else ``ArgumentError``."""
    from tankmap.analysis.summary import ScenarioAnalysis

    if not isinstance(value, ScenarioAnalysis):
        _refuse(function, "result", "what tankmap.analyse returns", value)
    return value


def _whole(value: Any, function: str, argument: str, least: int) -> int:
    """``value`` as an ``int`` (numpy's whole numbers too) if it is one of at least
    ``least``, else ``ArgumentError``."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        _refuse(function, argument, "a whole number", value)
    if value < least:
        _refuse(function, argument, f"a whole number of at least {least}", value)
    return int(value)


def _side(side: str, function: str) -> Any:
    from tankmap.rules.geometry import Side

    if isinstance(side, str):  # (a Side is one too)
        try:
            return Side(side)
        except ValueError:
            pass
    _refuse(function, "side", "'south' or 'north'", side)


def reach_frame(result: ScenarioAnalysis, side: str) -> pd.DataFrame:
    """Fewest rounds (turns) for any unit of ``side`` (``"south"``/``"north"``) to stand on
    each cell, as a DataFrame labelled like the board: index rows ``"12"``..``"1"`` (north
    at the top), columns ``"a"``..; missing where no unit can get there."""
    from tankmap.analysis.report import grid_frame

    key = _side(side, "reach_frame").value
    doc = _analysis(result, "reach_frame").to_json()["sides"][key]
    return grid_frame(doc["reach"], result.scenario.board)


def coverage_frame(result: ScenarioAnalysis, side: str) -> pd.DataFrame:
    """How many of ``side``'s units can fire on each cell now, labelled like
    ``reach_frame``.

    >>> cov = coverage_frame(analyse(load("final-act/mirror")), "north")
    >>> int(cov.values.max()) >= 1
    True
    """
    from tankmap.analysis.report import grid_frame

    key = _side(side, "coverage_frame").value
    doc = _analysis(result, "coverage_frame").to_json()["sides"][key]
    return grid_frame(doc["coverage"], result.scenario.board)


def figures(result: ScenarioAnalysis) -> dict[str, Figure]:
    """The report's matplotlib figures by name (``reach``, ``coverage``, ``contested``,
    ``lanes``, ``routes``, and ``kills``/``artillery`` where the game has them).

    >>> sorted(figures(analyse(load("final-act/mirror"))))[:3]
    ['contested', 'coverage', 'lanes']
    """
    from tankmap.analysis import figures as f

    _analysis(result, "figures")
    out: dict[str, Figure] = {
        "reach": f.reach_figure(result),
        "coverage": f.coverage_figure(result),
        "contested": f.contested_figure(result),
        "lanes": f.lanes_figure(result),
        "routes": f.routes_figure(result),
    }
    for name, fig in (("kills", f.kill_figure(result)), ("artillery", f.artillery_figure(result))):
        if fig is not None:
            out[name] = fig
    return out


def simulate(
    scenario: Scenario,
    games: int = 1000,
    policies: str | Sequence[str] | Mapping[Any, str] = "heuristic",
    seed: int = 0,
    workers: int = 1,
) -> pd.DataFrame:
    """Play ``games`` seeded games (one row per game: ``winner``, ``length``, ``end``,
    kills, …; the same numbers as ``tankmap simulate --seed`` for any ``workers``).
    ``policies`` is one name for both sides or ``(south, north)``. Raises
    ``IllegalScenarioError`` for an illegal board, ``PolicyError`` for an unknown policy,
    ``ArgumentError`` for ``games`` or ``workers`` below 1, a negative ``seed`` or an
    argument of another type."""
    from tankmap.analysis.simulation.runner import require_legal
    from tankmap.analysis.simulation.runner import simulate as run

    _scenario(scenario, "simulate")
    games = _whole(games, "simulate", "games", 1)
    seed = _whole(seed, "simulate", "seed", 0)
    workers = _whole(workers, "simulate", "workers", 1)
    pair = _policies(policies)
    require_legal(scenario)
    return run(scenario, games, pair, seed=seed, workers=workers)


def _policies(policies: Any) -> tuple[str, str]:
    """``simulate``'s ``policies`` as (south, north) (``runner.normalise_policies``), else
    ``ArgumentError``."""
    from tankmap.analysis.simulation.games import PolicyError
    from tankmap.analysis.simulation.runner import normalise_policies

    try:
        return normalise_policies(policies)
    except PolicyError:
        need = "a policy name or two, (south, north) or {'south': ..., 'north': ...}"
        _refuse("simulate", "policies", need, policies)


def balance(games: pd.DataFrame) -> dict[str, Any]:
    """Win rates with Wilson 95 % intervals, draws and the balance (1 − |south − north|)
    of a ``simulate`` table, as in ``tankmap simulate --json``."""
    import pandas as pd

    from tankmap.analysis.simulation.stats import wilson

    need = "the table tankmap.simulate returns"
    if not isinstance(games, pd.DataFrame):
        _refuse("balance", "games", need, games)
    if "winner" not in games.columns:
        from tankmap.rules.errors import ArgumentError, short

        names = ", ".join(short(str(c), 30) for c in list(games.columns)[:8]) or "none"
        raise ArgumentError(
            f"tankmap.balance: games must be {need}, with a 'winner' column (its columns: {names})"
        )
    n = len(games)
    if n == 0:
        from tankmap.rules.errors import TankmapError

        raise TankmapError("no games to measure")
    wins = {s: int((games["winner"] == s).sum()) for s in ("south", "north")}
    rates = {s: wins[s] / n for s in wins}
    return {
        "games": n,
        "wins": wins,
        "draws": n - wins["south"] - wins["north"],
        "win_rate": {s: {"estimate": rates[s], "ci95": list(wilson(wins[s], n))} for s in wins},
        "balance": 1 - abs(rates["south"] - rates["north"]),
    }
