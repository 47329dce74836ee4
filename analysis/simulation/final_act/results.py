"""The Final Act kernel's games as arrays (``kernel.games.play_many``): a sequence of
``GameResult``s built on first access, and the runner's table columns built straight
from the arrays (``table_columns``; ``runner.result_columns`` uses it), so a simulation's
worker makes no per-game objects (they cost about a seventh of a playout's time). Games
played with records carry their ``FinalActRecord`` (built from the kernel's record buffer,
``kernel.play.record_buffer``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.kernel.tables import END_CODES
from tankmap.analysis.simulation.games import Death, GameResult
from tankmap.analysis.simulation.lazy_results import LazyResults
from tankmap.rules.final_act.engine import SIDES
from tankmap.rules.final_act.engine_actions import Actions
from tankmap.rules.final_act.engine_record import FinalActRecord, Round
from tankmap.rules.final_act.tables import Order
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario

IntArray = npt.NDArray[np.int64]


class KernelResults(LazyResults):
    """Games played by the kernel: ``res[g]`` = (winner, rounds, end code, winning unit or
    -1), ``kills[g]``, deaths ``d_count[g]`` and ``deaths[i][g, :d_count[g]]`` (unit,
    cell, round, by), the winning unit's route ``flat[start[g]:start[g + 1]]``, and with
    ``records`` (``kernel.play.record_buffer``) each game's rounds as played."""

    def __init__(
        self,
        scenario: Scenario,
        side: Sequence[int],
        res: IntArray,
        kills: IntArray,
        d_count: IntArray,
        deaths: Sequence[IntArray],
        start: IntArray,
        flat: IntArray,
        records: npt.NDArray[np.int64] | None = None,
    ) -> None:
        self._scenario = scenario
        self._side = [int(x) for x in side]
        self._res, self._kills, self._d_count = res, kills, d_count
        self._deaths, self._start, self._flat = deaths, start, flat
        self._records = records

    def __len__(self) -> int:
        return int(self._res.shape[0])

    def _columns(self) -> tuple[list[Any], ...]:
        most = int(self._d_count.max()) if len(self) else 0  # the bloodiest game's deaths
        d_unit, d_cell, d_round, d_by = (a[:, :most].tolist() for a in self._deaths)
        return (
            self._res.tolist(),
            self._kills.tolist(),
            self._d_count.tolist(),
            d_unit,
            d_cell,
            d_round,
            d_by,
            self._start.tolist(),
            self._flat.tolist(),
        )

    def _build(self) -> list[GameResult]:
        """The arrays' games as ``GameResult``s (``LazyResults.results`` keeps them)."""
        res, kill_rows, counts, d_unit, d_cell, d_round, d_by, starts, flat = self._columns()
        units = self._scenario.units
        side_of = [SIDES[s] for s in self._side]
        kind_of = [u.kind for u in units]
        label_of = [u.label for u in units]
        out = []
        for i, (winner, length, end, wu) in enumerate(res):
            units_i, cells_i, rounds_i, by_i = d_unit[i], d_cell[i], d_round[i], d_by[i]
            deaths = tuple(
                Death(
                    side_of[units_i[j]],
                    kind_of[units_i[j]],
                    cells_i[j],
                    rounds_i[j],
                    kind_of[by_i[j]],
                )
                for j in range(counts[i])
            )
            out.append(
                GameResult(
                    winner=None if winner < 0 else SIDES[winner],
                    length=length,
                    end=END_CODES[end],
                    kills=(kill_rows[i][0], kill_rows[i][1]),
                    winning_unit=None if wu < 0 else label_of[wu],
                    route=tuple(flat[starts[i] : starts[i + 1]]),
                    deaths=deaths,
                    record=None if self._records is None else self._record(i),
                )
            )
        return out

    def _record(self, i: int) -> FinalActRecord:
        """Game ``i``'s ``FinalActRecord``: each round's orders (``None`` for a unit out of
        play), shells and R/M repairs, from the record buffer, and the game's result."""
        assert self._records is not None
        winner, length, end, _unit = self._res[i].tolist()
        rounds: list[Round] = []
        actions: dict[int, Actions] = {}
        for r, (dest, facing, shells, repair) in enumerate(self._records[i, :length].tolist()):
            orders: list[Order | None] = [
                None if to < 0 else (to, Facing(f)) for to, f in zip(dest, facing, strict=True)
            ]
            rounds.append((orders, {u: c for u, c in enumerate(shells) if c >= 0}))
            declared = [u for u, flag in enumerate(repair) if flag]
            if declared:
                actions[r] = Actions(rm_repair=declared)
        result = {
            "winner": None if winner < 0 else SIDES[winner].value,
            "end": END_CODES[end],
            "rounds": length,
        }
        return FinalActRecord(self._scenario, rounds, result, actions)

    def table_columns(self, names: Sequence[str]) -> dict[str, list[Any]]:
        """``runner.result_columns``' columns from ``winner`` on (cells named by ``names``),
        the same values as from the ``GameResult``s."""
        res = self._res
        games = len(self)
        units = self._scenario.units
        # every game's deaths in a row (game by game, in order), named once each
        used = np.arange(self._deaths[0].shape[1]) < self._d_count[:, None]
        d_unit, d_cell, d_by = (self._deaths[i][used].tolist() for i in (0, 1, 3))
        lead = [f"{SIDES[s].value}:{u.kind}:" for s, u in zip(self._side, units, strict=True)]
        tail = [f":{u.kind}" for u in units]
        items = [lead[u] + names[c] + tail[b] for u, c, b in zip(d_unit, d_cell, d_by, strict=True)]
        cells = [names[c] for c in self._flat[: self._start[games]].tolist()]
        ends = np.cumsum(self._d_count).tolist()
        starts = self._start.tolist()
        deaths = []
        route = []
        first = 0
        for i in range(games):
            deaths.append(" ".join(items[first : ends[i]]))
            first = ends[i]
            route.append(" ".join(cells[starts[i] : starts[i + 1]]))
        label_of = [None, *(u.label for u in units)]  # winning unit + 1
        side_name = ["draw", SIDES[0].value, SIDES[1].value]  # winner + 1
        end_name = list(END_CODES)
        return {
            "winner": [side_name[w] for w in (res[:, 0] + 1).tolist()],
            "length": res[:, 1].tolist(),
            "end": [end_name[e] for e in res[:, 2].tolist()],
            "kills_south": self._kills[:, 0].tolist(),
            "kills_north": self._kills[:, 1].tolist(),
            "winning_unit": [label_of[u] for u in (res[:, 3] + 1).tolist()],
            "route": route,
            "deaths": deaths,
            "first": [Side.SOUTH.value] * games,
        }
