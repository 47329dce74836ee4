"""The balance dialog's run and its words: ``play_run`` plays it
(``analysis.simulation.simulate`` on a snapshot of the scenario, in the calling thread or on
spawned worker processes); ``SimulationJob`` runs that in a ``QThread`` and reports progress,
``cancel`` stopping it at once; ``progress_text``, ``estimate_text`` and ``result_html`` are
what the dialog shows; ``record_sample`` records a game of the run again for the replay view
and checks that it is the run's game.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from typing import Any

import pandas as pd
from PySide6.QtCore import Signal

from tankmap.analysis.replay import Replay, replay_of
from tankmap.analysis.simulation.agent_info import strength_text
from tankmap.analysis.simulation.batching import progress_batch
from tankmap.analysis.simulation.games import get_driver
from tankmap.analysis.simulation.runner import (
    Progress,
    record_game,
    result_row,
    simulate,
)
from tankmap.analysis.simulation.stats import summary
from tankmap.editor.jobs import JobCancelled, ThreadJob, gui_executor
from tankmap.rules.errors import TankmapError
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario


def progress_text(done: int, total: int, left: float | None) -> str:
    """The bar's words: ``120 of 1000 games · about 40 s left`` (``playing the first
    games…`` until one is done)."""
    if left is None:
        return f"{done} of {total} games · playing the first games…"
    if done >= total:
        when = "done"
    elif left < 1:
        when = "about a second left"
    elif left < 90:
        when = f"about {left:.0f} s left"
    else:
        when = f"about {left / 60:.0f} min left"
    return f"{done} of {total} games · {when}"


def play_run(
    scenario: Scenario,
    games: int,
    policies: tuple[str, str],
    seed: int,
    workers: int = 1,
    progress: Progress | None = None,
    abort: Callable[[], bool] | None = None,
) -> pd.DataFrame:
    """The dialog's run: ``games`` seeded games in batches small enough for its progress
    bar (``progress_batch``), in this thread (``workers`` = 1) or on ``workers`` spawned
    worker processes (``jobs.gui_executor``; the numbers are the same either way). When
    ``abort()`` turns true the run ends within about a quarter second, keeping the games
    finished before the first one left unfinished (``table.attrs["stopped"]``). Raises
    what ``simulate`` raises."""
    driver = get_driver(scenario.ruleset)
    most = int(getattr(driver, "batch_size", 20))
    batch = progress_batch(scenario, games, policies, most)
    with gui_executor(workers, abortable=True) as executor:
        return simulate(
            scenario,
            games,
            policies,
            seed=seed,
            workers=workers,
            batch_size=batch,
            progress=progress,
            executor=executor,
            abort=abort,
        )


class SimulationJob(ThreadJob):
    """One simulation run (``play_run``, on ``workers`` processes) in its own thread:
    ``progress(done, total)`` after each batch, then ``finished((summary, table))`` or
    ``failed(message)``. After ``cancel`` the run stops within about a quarter second (the
    game in progress is left at its next decision, or its worker process ended) and still
    finishes, with the games played before that one (``table.attrs["stopped"]`` is then
    true), or signals ``cancelled`` when there are none. A full run remembers its pace
    (seconds a game on one process: ``analysis.simulation.pace``; see ``_pace``)."""

    progress = Signal(int, int)

    def __init__(
        self,
        scenario: Scenario,
        games: int,
        policies: tuple[str, str],
        seed: int,
        workers: int = 1,
    ) -> None:
        super().__init__(self._simulate)
        self.scenario = scenario
        self.games = games
        self.policies = policies
        self.seed = seed
        self.workers = max(1, workers)
        self._first: tuple[float, int] | None = None  # (when, games) of the first batch done

    def _tick(self, done: int, total: int) -> None:
        if self._first is None and done > 0:
            self._first = (time.monotonic(), done)
        self.progress.emit(done, total)

    def _simulate(self) -> tuple[dict[str, Any], pd.DataFrame]:
        self._first = None
        table = play_run(
            self.scenario,
            self.games,
            self.policies,
            self.seed,
            workers=self.workers,
            progress=self._tick,
            abort=self._stop.is_set,
        )
        if table.attrs.get("stopped") and len(table) == 0:
            raise JobCancelled  # (cancelled in the first game: nothing to show)
        pace = self._pace(table)
        if pace is not None:
            from tankmap.analysis.simulation.pace import remember_pace

            remember_pace(self.scenario, self.policies, pace)
        return summary(table, alternating=self.scenario.ruleset == "tank-chess"), table

    def _pace(self, table: pd.DataFrame) -> float | None:
        """Seconds a game on one process that a full run measured: its wall time a game,
        or on several processes, the games after the first batch done (their start-up,
        a second or two, left out) times the processes; ``None`` when too few games
        tell."""
        if table.attrs.get("stopped"):
            return None
        if self.workers == 1:
            return float(table.attrs["seconds"]) / len(table) if len(table) >= 2 else None
        if self._first is None or len(table) - self._first[1] < 2:
            return None
        seconds = time.monotonic() - self._first[0]
        return seconds * self.workers / (len(table) - self._first[1])


def estimate_text(games: int, pace: float, workers: int = 1) -> str:
    """``"Estimated time: about 50 s for 400 games (0.126 s a game on this board, measured)"``;
    on several worker processes ``"… for 800 games on 2 processes (0.126 s a game …)"``."""
    seconds = games * pace / max(workers, 1)
    when = (
        "under a second"
        if seconds < 1
        else f"about {seconds:.0f} s"
        if seconds < 90
        else f"about {seconds / 60:.0f} min"
        if seconds < 5400
        else f"about {seconds / 3600:.1f} h"
    )
    on = f" on {workers} processes" if workers > 1 else ""
    each = f"{pace:.3g} s" if pace >= 0.01 else f"{pace * 1000:.2g} ms"
    return f"Estimated time: {when} for {games} games{on} ({each} a game on this board, measured)"


def result_html(
    doc: dict[str, Any], side_names: dict[Side, str], note: str | None, partial: str | None = None
) -> str:
    """The numbers of a finished run as a small HTML table (what the dialog shows): the
    board's remembered verdict first, the balance with its 95 % interval and agent, and
    ``partial`` (a cancelled run's warning) when given."""
    rows = []
    for side in Side:
        r = doc["win_rate"][side.value]
        lo, hi = r["ci95"]
        rows.append(
            f"<tr><td>{html.escape(side_names[side])} wins</td>"
            f"<td align=right>{doc['wins'][side.value]}</td>"
            f"<td align=right>{r['estimate']:.3f}</td><td>[{lo:.3f}, {hi:.3f}]</td></tr>"
        )
    d = doc["draw_rate"]
    rows.append(
        f"<tr><td>draws</td><td align=right>{doc['draws']}</td>"
        f"<td align=right>{d['estimate']:.3f}</td>"
        f"<td>[{d['ci95'][0]:.3f}, {d['ci95'][1]:.3f}]</td></tr>"
    )
    length = doc["length"]
    sn, nn = side_names[Side.SOUTH], side_names[Side.NORTH]
    agents = doc.get("agents") or {}
    lines = []
    if agents.get("verdict_line"):
        lines.append(f"<p><b>{html.escape(agents['verdict_line'].capitalize())}</b></p>")
    if partial:
        lines.append(f"<p style='color:#a60'><b>{html.escape(partial)}</b></p>")
    blo, bhi = doc.get("balance_ci95", (0.0, 1.0))
    lines += [
        f"<p><b>{doc['games']} games</b>, seed {doc['seed']}, "
        f"{html.escape(doc['policy']['south'])} vs {html.escape(doc['policy']['north'])}</p>",
        "<table cellspacing=6><tr><th></th><th>games</th><th>rate</th>"
        "<th>95 % interval</th></tr>" + "".join(rows) + "</table>",
        f"<p>Balance <b>{doc['balance']:.3f}</b> [{blo:.3f}, {bhi:.3f}] "
        f"({html.escape(doc['policy']['south'])} vs {html.escape(doc['policy']['north'])}; "
        f"1 = even: 1 − |{html.escape(sn)} rate − {html.escape(nn)} rate|, 95 % interval). "
        f"Length: mean {length['mean']}, median {length['median']}.",
    ]
    if agents:
        lines.append("<p>")
        for side in Side:
            a = agents[side.value]
            lines.append(
                f"<b>{html.escape(side_names[side])}</b>: {html.escape(a['description'])} "
                f"<i>({html.escape(strength_text(a))})</i><br>"
            )
        lines.append("</p>")
        warning = agents.get("verdict_warning")
        if warning:
            lines.append(f"<p style='color:#a00'><b>Warning:</b> {html.escape(warning)}</p>")
    if "first_mover" in doc:
        fm = doc["first_mover"]
        lines.append(
            f"<br>First mover wins {fm['estimate']:.3f} [{fm['ci95'][0]:.3f}, {fm['ci95'][1]:.3f}]."
        )
    rate = doc["playouts_per_second"]
    lines.append(f" {rate:.1f} games/s.</p>" if rate < 10 else f" {rate:.0f} games/s.</p>")
    if note:
        lines.append(f"<p><i>{html.escape(note)}</i></p>")
    return "".join(lines)


def record_sample(
    scenario: Scenario, policies: tuple[str, str], seed: int, table: pd.DataFrame, game: int
) -> Replay:
    """Game ``game`` of a run (``table``, seeded ``seed``) recorded again and replayed;
    ``TankmapError`` if it is not the run's game (its table row differs)."""
    result, record = record_game(scenario, policies, seed=seed, game=game)
    row = result_row(scenario.board, game, policies, result)
    ran = table[table["game"] == game].iloc[0].to_dict()
    differ = [k for k, v in row.items() if not (v == ran[k] or (pd.isna(v) and pd.isna(ran[k])))]
    if differ:
        raise TankmapError(
            f"game {game} recorded again is not the game of the run ({', '.join(differ)} differ)"
        )
    return replay_of(record, f"game {game} (seed {seed})")
