"""Tank Chess kernel games as arrays (``TankChessDriver.play_seeded`` on
``kernel.games.kernel_games``): a sequence of
``GameResult``s built on first access, and the runner's table columns built straight
from the arrays (``table_columns``; ``runner.result_columns`` uses it), so a simulation's
worker neither replays the games' turns on a ``GameState`` nor makes per-game objects.
The values are those of ``TankChessDriver.play`` for the same games."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from tankmap.analysis.simulation.games import Death, GameResult
from tankmap.analysis.simulation.lazy_results import LazyResults
from tankmap.analysis.simulation.tank_chess.ends import ENDS, REASONS
from tankmap.analysis.simulation.tank_chess.kernel.games import GameArrays
from tankmap.rules.tank_chess.data import KINDS
from tankmap.rules.tank_chess.state import SIDES, GameState

_END_OF_CODE = [ENDS.get(reason, reason) for reason in REASONS]


class TankChessResults(LazyResults):
    """The games of ``arrays`` (all finished: no end code -1), played from ``start``."""

    def __init__(self, start: GameState, arrays: GameArrays) -> None:
        self._start = start
        self._a = arrays

    def __len__(self) -> int:
        return int(self._a.res.shape[0])

    def _labels(self, names: Sequence[str]) -> Labels:
        """``labels(self._start, names)``, made once for the last start and names."""
        held = _LABELS.get("last")
        if held is None or held[0] is not self._start or held[1] is not names:
            held = _LABELS["last"] = (self._start, names, labels(self._start, names))
        return held[2]

    def _build(self) -> list[GameResult]:
        """The arrays' games as ``GameResult``s (``LazyResults.results`` keeps them)."""
        st = self._start
        board = st.scenario.board
        unit_of = labels(st, [board.cell_name(c) for c in range(board.size)]).unit
        side_of = [SIDES[s] for s in st.side]
        kind_of = [KINDS[k] for k in st.kind]
        first = SIDES[st.to_move]
        a = self._a
        d_start, r_start = a.d_start.tolist(), a.r_start.tolist()
        deaths, route = a.deaths.tolist(), a.route.tolist()
        out = []
        for i, (winner, length, end, unit, k0, k1) in enumerate(a.res.tolist()):
            out.append(
                GameResult(
                    winner=None if winner < 0 else SIDES[winner],
                    length=length,
                    end=_END_OF_CODE[end],
                    kills=(k0, k1),
                    winning_unit=unit_of[unit],
                    route=tuple(route[r_start[i] : r_start[i + 1]]),
                    deaths=tuple(
                        Death(side_of[p], kind_of[p], cell, ply, kind_of[by])
                        for p, cell, ply, by in deaths[d_start[i] : d_start[i + 1]]
                    ),
                    first=first,
                )
            )
        return out

    def table_columns(self, names: Sequence[str]) -> dict[str, list[Any]]:
        """``runner.result_columns``' columns from ``winner`` on (cells named by ``names``),
        the same values as from the ``GameResult``s."""
        st = self._start
        a = self._a
        games = len(self)
        lead, tail, unit_of = self._labels(names)
        items = [lead[p] + names[c] + tail[by] for p, c, _, by in a.deaths.tolist()]
        cells = [names[c] for c in a.route.tolist()]
        d_start, r_start = a.d_start.tolist(), a.r_start.tolist()
        deaths = [" ".join(items[d_start[i] : d_start[i + 1]]) for i in range(games)]
        route = [" ".join(cells[r_start[i] : r_start[i + 1]]) for i in range(games)]
        res = a.res.T.tolist()
        return {
            "winner": [_WINNER[w] for w in res[0]],
            "length": res[1],
            "end": [_END_OF_CODE[e] for e in res[2]],
            "kills_south": res[4],
            "kills_north": res[5],
            "winning_unit": [unit_of[u] for u in res[3]],
            "route": route,
            "deaths": deaths,
            "first": [SIDES[st.to_move].value] * games,
        }


class Labels(NamedTuple):
    """Per piece: a death item's head (``side:kind:``) and tail (``:kind``, the piece as
    the killer), the ``winning_unit`` name (kind and start cell; then ``None`` for -1)."""

    lead: list[str]
    tail: list[str]
    unit: list[str | None]


def labels(start: GameState, names: Sequence[str]) -> Labels:
    """The ``Labels`` of ``start``'s pieces, cells named by ``names``."""
    units = start.scenario.units
    kinds = [KINDS[k] for k in start.kind]
    return Labels(
        lead=[f"{SIDES[s].value}:{k}:" for s, k in zip(start.side, kinds, strict=True)],
        tail=[f":{k}" for k in kinds],
        unit=[*(f"{k} {names[u.cell]}" for k, u in zip(kinds, units, strict=True)), None],
    )


_LABELS: dict[str, tuple[GameState, Sequence[str], Labels]] = {}
_WINNER = [SIDES[0].value, SIDES[1].value, "draw"]  # winner -1: draw
