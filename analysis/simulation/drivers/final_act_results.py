"""The Final Act kernel's games as arrays (``final_act_kernel.play_many``): a sequence of
``GameResult``s built on first access, and the runner's table columns built straight
from the arrays (``table_columns``; ``runner.result_columns`` uses it), so a simulation's
worker makes no per-game objects (they cost about a seventh of a playout's time)."""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.games import Death, GameResult
from tankmap.rules.final_act.engine import SIDES
from tankmap.rules.final_act.engine_batch import END_CODES
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario

IntArray = npt.NDArray[np.int64]


class KernelResults(Sequence[GameResult]):
    """Games played by the kernel: ``res[g]`` = (winner, rounds, end code, winning unit or
    -1), ``kills[g]``, deaths ``d_count[g]`` and ``deaths[i][g, :d_count[g]]`` (unit,
    cell, round, by), the winning unit's route ``flat[start[g]:start[g + 1]]``."""

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
    ) -> None:
        self._scenario = scenario
        self._side = [int(x) for x in side]
        self._res, self._kills, self._d_count = res, kills, d_count
        self._deaths, self._start, self._flat = deaths, start, flat
        self._list: list[GameResult] | None = None

    def __len__(self) -> int:
        return int(self._res.shape[0])

    @overload
    def __getitem__(self, i: int) -> GameResult: ...

    @overload
    def __getitem__(self, i: slice) -> list[GameResult]: ...

    def __getitem__(self, i: int | slice) -> GameResult | list[GameResult]:
        return self.results()[i]

    def __iter__(self) -> Iterator[GameResult]:
        return iter(self.results())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and self.results() == list(other)

    __hash__ = None  # type: ignore[assignment]

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

    def results(self) -> list[GameResult]:
        """The ``GameResult`` of every game (built once)."""
        if self._list is not None:
            return self._list
        collecting = gc.isenabled()
        gc.disable()  # thousands of small acyclic objects: collections would only cost time
        try:
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
                        record=None,
                    )
                )
        finally:
            if collecting:
                gc.enable()
        self._list = out
        return out

    def table_columns(self, names: Sequence[str]) -> dict[str, list[Any]]:
        """``runner.result_columns``' columns from ``winner`` on (cells named by ``names``),
        the same values as from the ``GameResult``s."""
        res, kill_rows, counts, d_unit, d_cell, _, d_by, starts, flat = self._columns()
        units = self._scenario.units
        lead = [f"{SIDES[s].value}:{u.kind}:" for s, u in zip(self._side, units, strict=True)]
        tail = [f":{u.kind}" for u in units]
        label_of = [u.label for u in units]
        side_name = ["draw", SIDES[0].value, SIDES[1].value]  # winner + 1
        route = []
        deaths = []
        for i in range(len(res)):
            route.append(" ".join([names[c] for c in flat[starts[i] : starts[i + 1]]]))
            u_i, c_i, b_i = d_unit[i], d_cell[i], d_by[i]
            deaths.append(
                " ".join([lead[u_i[j]] + names[c_i[j]] + tail[b_i[j]] for j in range(counts[i])])
            )
        return {
            "winner": [side_name[r[0] + 1] for r in res],
            "length": [r[1] for r in res],
            "end": [END_CODES[r[2]] for r in res],
            "kills_south": [k[0] for k in kill_rows],
            "kills_north": [k[1] for k in kill_rows],
            "winning_unit": [None if r[3] < 0 else label_of[r[3]] for r in res],
            "route": route,
            "deaths": deaths,
            "first": [Side.SOUTH.value] * len(res),
        }
