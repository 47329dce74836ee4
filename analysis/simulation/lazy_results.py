"""A sequence of ``GameResult``s kept as the kernels' arrays until a caller reads one: the
runner's table rows come straight from the arrays (the subclasses' ``table_columns``), the
objects are built once, on first access (``Final Act``: ``final_act/results.py``, Tank Chess:
``tank_chess/results.py``)."""

from __future__ import annotations

import gc
from abc import abstractmethod
from collections.abc import Iterator, Sequence
from typing import overload

from tankmap.analysis.simulation.games import GameResult


class LazyResults(Sequence[GameResult]):
    """Subclasses say how many games they hold (``__len__``) and how to build their
    ``GameResult``s (``_build``); indexing, iterating and comparing use the built list."""

    _list: list[GameResult] | None = None

    @abstractmethod
    def _build(self) -> list[GameResult]:
        """Every game's ``GameResult``, in order."""

    def results(self) -> list[GameResult]:
        """The ``GameResult`` of every game (built once, with the cyclic garbage collector
        paused: thousands of small acyclic objects, collections would only cost time)."""
        if self._list is None:
            collecting = gc.isenabled()
            gc.disable()
            try:
                self._list = self._build()
            finally:
                if collecting:
                    gc.enable()
        return self._list

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
