"""The balance dialog's run and its words: ``SimulationJob`` runs
``analysis.simulation.simulate`` (one process, in a ``QThread``) on a snapshot of the scenario
and reports progress, ``cancel`` stopping it at the next decision of the game in progress;
``progress_text`` and ``result_html`` are what the dialog shows; ``record_sample`` records a
game of the run again for the replay view and checks that it is the run's game.
"""

from __future__ import annotations

import html
from typing import Any

import pandas as pd
from PySide6.QtCore import Signal

from tankmap.analysis.replay import Replay, replay_of
from tankmap.analysis.simulation.agent_info import strength_text
from tankmap.analysis.simulation.batching import progress_batch
from tankmap.analysis.simulation.games import get_driver
from tankmap.analysis.simulation.runner import (
    record_game,
    result_row,
    simulate,
)
from tankmap.analysis.simulation.stats import summary
from tankmap.editor.jobs import JobCancelled, ThreadJob
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


class SimulationJob(ThreadJob):
    """One simulation run in its own thread: ``progress(done, total)`` after each batch,
    then ``finished((summary, table))`` or ``failed(message)``. After ``cancel`` the run
    stops at the next decision of the game being played (within about a quarter second:
    ``simulate``'s ``abort``) and still finishes, with the games played before that one
    (``table.attrs["stopped"]`` is then true), or signals ``cancelled`` when there are
    none."""

    progress = Signal(int, int)

    def __init__(
        self, scenario: Scenario, games: int, policies: tuple[str, str], seed: int
    ) -> None:
        super().__init__(self._simulate)
        self.scenario = scenario
        self.games = games
        self.policies = policies
        self.seed = seed

    def _tick(self, done: int, total: int) -> None:
        self.progress.emit(done, total)

    def _simulate(self) -> tuple[dict[str, Any], pd.DataFrame]:
        driver = get_driver(self.scenario.ruleset)
        most = int(getattr(driver, "batch_size", 20))
        batch = progress_batch(self.scenario, self.games, self.policies, most)
        table = simulate(
            self.scenario,
            self.games,
            self.policies,
            seed=self.seed,
            workers=1,
            batch_size=batch,
            progress=self._tick,
            # Cancel leaves the game in progress at its next decision and keeps the games
            # finished before it
            abort=self._stop.is_set,
        )
        if table.attrs.get("stopped") and len(table) == 0:
            raise JobCancelled  # (cancelled in the first game: nothing to show)
        if len(table) >= 2 and not table.attrs.get("stopped"):
            from tankmap.analysis.simulation.pace import remember_pace

            remember_pace(self.scenario, self.policies, table.attrs["seconds"] / len(table))
        return summary(table, alternating=self.scenario.ruleset == "tank-chess"), table


def estimate_text(games: int, pace: float) -> str:
    """``"Estimated time: about 50 s for 400 games (0.126 s a game on this board, measured)"``."""
    seconds = games * pace
    when = (
        "under a second"
        if seconds < 1
        else f"about {seconds:.0f} s"
        if seconds < 90
        else f"about {seconds / 60:.0f} min"
        if seconds < 5400
        else f"about {seconds / 3600:.1f} h"
    )
    return f"Estimated time: {when} for {games} games ({pace:.3g} s a game on this board, measured)"


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
    lines.append(f" {doc['playouts_per_second']:.0f} games/s.</p>")
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
