"""``suggest``'s ``interrupt`` hook: raising from it stops the search at its next step (what
the editor's Cancel does); a hook that never raises leaves the results unchanged."""

from __future__ import annotations

import pytest

from tankmap.analysis.suggest import suggest
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario


class Stop(Exception):
    pass


def test_interrupt_stops_the_search_and_otherwise_changes_nothing() -> None:
    path = map_path("final-act/flanks-vs-centre")
    assert path is not None
    s = read_scenario(path)
    calls = 0

    def count() -> None:
        nonlocal calls
        calls += 1

    plain = suggest(s, "heuristic", games=40, budget=60, seed=3, top=1, max_candidates=3)
    hooked = suggest(
        s, "heuristic", games=40, budget=60, seed=3, top=1, max_candidates=3, interrupt=count
    )
    strip = lambda d: {k: v for k, v in d.items() if k != "seconds"}  # noqa: E731
    assert strip(hooked.to_json()) == strip(plain.to_json())
    assert calls > hooked.candidates  # every edit generated, and every measurement

    played: list[int] = []

    def stop_after_first() -> None:
        if played:
            raise Stop

    with pytest.raises(Stop):
        suggest(
            s,
            "heuristic",
            games=40,
            budget=60,
            seed=3,
            max_candidates=3,
            progress=lambda done, total: played.append(done),
            interrupt=stop_after_first,
        )
    assert played == [1]  # nothing was played after the interrupt raised
