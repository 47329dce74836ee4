"""Same seed ⇒ identical table: in-process, 2 local processes, and a real Dask cluster."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from tankmap.analysis.simulation.runner import simulate
from tankmap.rules.fileformat import read_scenario

ROOT = Path(__file__).resolve().parents[2]
FLANKS = read_scenario(ROOT / "maps" / "final-act" / "flanks-vs-centre.json")


def test_final_act_same_table_with_one_and_two_workers() -> None:
    one = simulate(FLANKS, 60, ("heuristic", "random+no-berms"), seed=42, workers=1)
    two = simulate(FLANKS, 60, ("heuristic", "random+no-berms"), seed=42, workers=2, batch_size=7)
    pd.testing.assert_frame_equal(one, two)


def test_dask_local_cluster_gives_the_same_table() -> None:
    distributed = pytest.importorskip("distributed")
    local = simulate(FLANKS, 40, "heuristic", seed=9, workers=1)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address
        remote = simulate(FLANKS, 40, "heuristic", seed=9, scheduler=address)
        # with an ``abort`` that never answers true: asked while the results come, the same
        never = simulate(FLANKS, 40, "heuristic", seed=9, scheduler=address, abort=lambda: False)
        # one that does once games are done: the run stops, keeping the games before the
        # first one not finished (the tasks left are cancelled)
        seen: list[int] = []
        cut = simulate(
            FLANKS, 400, "heuristic", seed=9, scheduler=address, batch_size=1,
            progress=lambda done, total: seen.append(done), abort=lambda: bool(seen),
        )  # fmt: skip
    pd.testing.assert_frame_equal(local, remote)
    pd.testing.assert_frame_equal(local, never)
    assert cut.attrs["stopped"] and len(cut) < 400
    cols = ["game", "winner", "length"]
    k = min(len(cut), len(local))  # (its first games are the 40 of the full run's)
    assert cut[cols].iloc[:k].equals(local[cols].iloc[:k])


def test_vectorised_games_do_not_depend_on_their_batch() -> None:
    # The vectorised Final Act policies play many games per call: one game per call, or all
    # in one, must give the same table (each game only uses its own Generator and row).
    one_each = simulate(FLANKS, 16, "heuristic", seed=77, batch_size=1)
    together = simulate(FLANKS, 16, "heuristic", seed=77, batch_size=16)
    uneven = simulate(FLANKS, 16, "heuristic", seed=77, batch_size=5)
    pd.testing.assert_frame_equal(one_each, together)
    pd.testing.assert_frame_equal(uneven, together)
