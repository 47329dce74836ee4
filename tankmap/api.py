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
and the value; an unknown map name says so; an illegal board is refused by ``simulate``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

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

    write_scenario(scenario, path)


def map_names(ruleset: str | None = None) -> list[str]:
    """The built-in maps' names, e.g. ``['final-act/extra-forces', ...]``.

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

    return get_ruleset(scenario.ruleset).check(scenario)


def is_legal(scenario: Scenario) -> bool:
    """True when ``check`` finds no error (incomplete setups can still be legal)."""
    from tankmap.rules.violations import is_legal as legal

    return legal(check(scenario))


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

    rs = get_ruleset(scenario.ruleset)
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

    return run(scenario)


def _side(side: str) -> Any:
    from tankmap.rules.geometry import Side

    return Side(side)


def reach_frame(result: ScenarioAnalysis, side: str) -> pd.DataFrame:
    """Fewest rounds (turns) for any unit of ``side`` (``"south"``/``"north"``) to stand on
    each cell, as a DataFrame labelled like the board: index rows ``"12"``..``"1"`` (north
    at the top), columns ``"a"``..; missing where no unit can get there."""
    from tankmap.analysis.report import grid_frame

    doc = result.to_json()["sides"][_side(side).value]
    return grid_frame(doc["reach"], result.scenario.board)


def coverage_frame(result: ScenarioAnalysis, side: str) -> pd.DataFrame:
    """How many of ``side``'s units can fire on each cell now, labelled like
    ``reach_frame``.

    >>> cov = coverage_frame(analyse(load("final-act/mirror")), "north")
    >>> int(cov.values.max()) >= 1
    True
    """
    from tankmap.analysis.report import grid_frame

    doc = result.to_json()["sides"][_side(side).value]
    return grid_frame(doc["coverage"], result.scenario.board)


def figures(result: ScenarioAnalysis) -> dict[str, Figure]:
    """The report's matplotlib figures by name (``reach``, ``coverage``, ``contested``,
    ``lanes``, ``routes``, and ``kills``/``artillery`` where the game has them).

    >>> sorted(figures(analyse(load("final-act/mirror"))))[:3]
    ['contested', 'coverage', 'lanes']
    """
    from tankmap.analysis import figures as f

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
    ``IllegalScenarioError`` for an illegal board, ``PolicyError`` for an unknown policy."""
    from tankmap.analysis.simulation.runner import require_legal
    from tankmap.analysis.simulation.runner import simulate as run

    require_legal(scenario)
    return run(scenario, games, policies, seed=seed, workers=workers)


def balance(games: pd.DataFrame) -> dict[str, Any]:
    """Win rates with Wilson 95 % intervals, draws and the balance (1 − |south − north|)
    of a ``simulate`` table, as in ``tankmap simulate --json``."""
    from tankmap.analysis.simulation.stats import wilson

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
