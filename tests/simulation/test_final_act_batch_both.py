"""Both sides' heuristic in one pass (``final_act.batch.both_sides``) makes exactly the decisions of
the side-by-side vectorised heuristic (``BatchPlayers`` with ``both`` off): the two are fed the
same positions, random numbers and stale counters for whole seeded playouts on every built-in
Final Act map (with and without ``no-berms``), and their orders and shells must be equal."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tankmap.analysis.simulation.final_act.batch.agents import BatchPlayers
from tankmap.analysis.simulation.final_act.kernel.tables import NOISE_PER_UNIT, tables_of
from tankmap.analysis.simulation.games import get_driver
from tankmap.rules.fileformat import read_scenario

ROOT = Path(__file__).resolve().parents[2]
MAPS = ["mirror", "flanks-vs-centre", "extra-forces"]


@pytest.mark.parametrize("name", MAPS)
@pytest.mark.parametrize("no_berms", [(False, False), (True, False)])
def test_both_sides_at_once_decide_the_same(name: str, no_berms: tuple[bool, bool]) -> None:
    scenario = read_scenario(ROOT / "maps" / "final-act" / f"{name}.json")
    tb = tables_of(get_driver(scenario.ruleset).prepare(scenario))
    batch = tb.batch
    players = BatchPlayers(tb, ("heuristic", "heuristic"), no_berms)
    assert players.both  # every built-in map fields the same kinds on both sides
    games = 40
    st = batch.initial(games)
    rng = np.random.default_rng(5)
    width = batch.n_units * NOISE_PER_UNIT + tb.size + 1
    checked = 0
    repaired = 0  # R/M repairs declared (Extra Forces: rm_repair is on by default)
    for _ in range(30):
        if st.over.all():
            break
        noise = rng.random((games, width))
        still = rng.integers(0, 10, size=st.cell.shape)  # exercise stale_amplitude too
        players.both = True
        fast = players.decide(st, noise, still)
        players.both = False
        slow = players.decide(st, noise, still)
        for a, b in zip(fast, slow, strict=True):
            live = ~st.over
            if a is None or b is None:  # no R/M repair on this map
                assert a is None and b is None
                continue
            np.testing.assert_array_equal(a[live], b[live])
        checked += int((~st.over).sum())
        if fast[3] is not None:
            repaired += int(fast[3][~st.over].sum())
        batch.apply(st, *fast)
    assert checked > 200
    assert (repaired > 0) is (name == "extra-forces")
