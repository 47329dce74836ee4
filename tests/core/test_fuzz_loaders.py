"""Property test: mutated built-in maps never make a loader raise anything but the
project's one-line ``TankmapError``, and ``tankmap check`` always exits 0, 1 or 2 with one
line on error (the longer run is ``python -m benchmarks.fuzz_inputs``)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.fuzz_inputs import case_text
from tankmap.maps import builtin_maps
from tankmap.rules.errors import TankmapError
from tankmap.rules.fileformat import loads_scenario
from tankmap.rules.tiled_read import loads_tmj

SOURCES = [p.read_text() for p in builtin_maps()]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_mutated_files_give_one_typed_line(seed: int) -> None:
    text = case_text(random.Random(seed), SOURCES)
    for loader in (loads_scenario, loads_tmj):
        try:
            loader(text, "case.json")
        except TankmapError as exc:
            message = str(exc)
            assert "\n" not in message and len(message) < 600, message[:200]
