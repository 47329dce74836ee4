"""Property test: mutated built-in maps never make a loader raise anything but the
project's one-line ``TankmapError`` — the scenario and Tiled readers, and the game-record
replay (the longer run, through the commands, is ``python benchmarks/fuzz_inputs.py``)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.fuzz_inputs import case_text, record_texts
from tankmap.analysis.replay import replay_record
from tankmap.maps import builtin_maps
from tankmap.rules.errors import TankmapError
from tankmap.rules.fileformat import loads_scenario
from tankmap.rules.safeio import strict_json
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


RECORDS = record_texts()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_mutated_game_records_give_one_typed_line(seed: int) -> None:
    """The replay command's loader (a record of each game, mutated): a replay or one
    short ``TankmapError``, never another exception."""
    text = case_text(random.Random(seed), RECORDS)
    try:
        replay_record(strict_json(text, "record.json"), "record.json")
    except TankmapError as exc:
        message = str(exc)
        assert "\n" not in message and len(message) < 600, message[:200]
