"""The Final Act ``search`` agent's kernel rows, laid out a decision at a time
(``agents.search._FutureRows``): one row per (candidate plan, sampled future), plan-major;
each unit's destination and facing from the enemy's future when it has an order there,
else the plan's, else where it stands; shells ours, then the enemy's; the future's key."""

from __future__ import annotations

import numpy as np

from tankmap.analysis.simulation.final_act.agents.search import _FutureRows
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.final_act.engine import Game
from tankmap.rules.geometry import Facing


def test_rows_lay_every_plan_over_every_future() -> None:
    st = Game(read_scenario(map_path("final-act/mirror"))).initial_state()
    units = len(st.kind)
    cell, face = list(st.cell), [int(f) for f in st.facing]
    north = Facing.N
    plans = [{0: (10, north)}, {0: (11, north), 1: (12, Facing.E)}]
    futures = [
        ({5: (40, Facing.S)}, {5: 3}, 7),
        ({5: (41, Facing.W), 1: (99, Facing.S)}, {}, 9),  # an entry for our unit 1: it wins
    ]
    dest, facing, fire, keys = _FutureRows.of(st, {0: 50, 1: 51}, futures).rows(plans)
    assert dest.shape == facing.shape == fire.shape == (4, units)
    assert keys.tolist() == [7, 9, 7, 9]
    want_dest = np.array([cell] * 4)
    want_face = np.array([face] * 4)
    want_dest[0, 0] = want_dest[1, 0] = 10
    want_dest[2, 0] = want_dest[3, 0] = 11
    want_dest[2, 1], want_face[2, 1] = 12, int(Facing.E)
    want_dest[[0, 2], 5], want_face[[0, 2], 5] = 40, int(Facing.S)
    want_dest[[1, 3], 5], want_face[[1, 3], 5] = 41, int(Facing.W)
    want_dest[[1, 3], 1], want_face[[1, 3], 1] = 99, int(Facing.S)
    want_face[0:4, 0] = int(north)
    assert dest.tolist() == want_dest.tolist()
    assert facing.tolist() == want_face.tolist()
    want_fire = np.full((4, units), -1)
    want_fire[:, 0], want_fire[:, 1] = 50, 51
    want_fire[[0, 2], 5] = 3
    assert fire.tolist() == want_fire.tolist()
