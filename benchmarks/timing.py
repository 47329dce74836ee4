"""Small timing helper shared by the benchmark modules."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeat: int = 5, number: int | None = None) -> float:
    """Best mean seconds per call of ``fn`` over ``repeat`` rounds of ``number`` calls.

    With ``number=None`` it picks a count that makes one round last about 0.2 s.
    """
    if number is None:
        number = 1
        while True:
            start = time.perf_counter()
            for _ in range(number):
                fn()
            if time.perf_counter() - start > 0.2 or number >= 1_000_000:
                break
            number *= 4
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best
