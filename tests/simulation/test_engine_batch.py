"""The vectorised Final Act engine plays exactly like the reference engine: both are fed the
same orders and shells (from seeded random playouts) and compared after every round. On the
Extra Forces map (R/M repair on by default) the playouts also send R/Ms onto neighbouring
damaged tanks and declare repairs at random, so repair pairs, repairs and R/Ms hit during
a repair are compared too."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from repair_support import repairs

from tankmap.analysis.simulation.final_act.agents.reference import RandomPolicy, RoundView
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.analysis.simulation.runner import game_rng
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.final_act.engine import Game
from tankmap.rules.final_act.engine_advanced import Actions
from tankmap.rules.final_act.engine_batch import END_CODES, BatchGame
from tankmap.rules.final_act.tables import Order
from tankmap.rules.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]
MAPS = ["mirror", "flanks-vs-centre", "extra-forces"]


def crosscheck(scenario: Scenario, games: int, seed: int) -> tuple[int, int, int]:
    prep = Prepared(Game(scenario))
    game = prep.game
    batch = BatchGame(game)
    states = [game.initial_state() for _ in range(games)]
    rngs = [game_rng(seed, g) for g in range(games)]
    policies = [(RandomPolicy(prep, 0), RandomPolicy(prep, 1)) for _ in range(games)]
    bs = batch.initial(games)
    rounds = 0
    done = [0]  # repairs declared
    while not all(s.over for s in states):
        n = batch.n_units
        dest = bs.cell.copy()
        dest_facing = bs.facing.copy()
        shells = np.full((games, n), -1, dtype=np.int64)
        repair = np.zeros((games, n), dtype=bool)
        for g, st in enumerate(states):
            if st.over:
                continue
            view = RoundView(st, prep)
            o0, s0 = policies[g][0].decide(view, rngs[g])
            o1, s1 = policies[g][1].decide(view, rngs[g])
            orders: list[Order | None] = [None] * n
            for u, o in {**o0, **o1}.items():
                orders[u] = o
            fired = {**s0, **s1}
            declared = repairs(st, orders, fired, rngs[g])
            repair[g, declared] = True
            for u, o in enumerate(orders):
                if o is not None:
                    dest[g, u], dest_facing[g, u] = o[0], int(o[1])
            for u, t in fired.items():
                shells[g, u] = t
            game.apply_round(st, orders, fired, Actions(rm_repair=declared))
        batch.apply(bs, dest, dest_facing, shells, repair)
        done[0] += int(repair.sum())
        rounds += 1
        for g, st in enumerate(states):
            where = f"game {g} round {st.round}"
            assert list(bs.alive[g]) == st.alive, where
            assert list(bs.wreck[g]) == st.wreck, where
            assert list(bs.damage[g]) == st.damage, where
            on_board = np.array(st.alive) | np.array(st.wreck)
            assert list(bs.cell[g][on_board]) == list(np.array(st.cell)[on_board]), where
            facings = np.array([int(f) for f in st.facing])
            assert list(bs.facing[g][on_board]) == list(facings[on_board]), where
            assert list(bs.kills[g]) == st.kills, where
            assert bool(bs.over[g]) == st.over, where
            assert int(bs.round[g]) == st.round, where
            assert END_CODES[int(bs.end[g])] == (st.end or ""), where
            assert int(bs.winner[g]) == (-1 if st.winner is None else st.winner.index), where
            left = [st.adv.rm_left.get(u, 0) for u in range(n)]
            assert list(bs.rm_left[g]) == left, where
    kills = int(bs.kills.sum())
    wrecks = int(bs.wreck.sum())
    if batch.repair_on:
        used = int((2 * batch.is_rm - bs.rm_left).sum())  # repairs made (2 per R/M)
        rm_wrecks = int((bs.wreck & batch.is_rm).sum())
        # the games exercised repairs, and R/Ms hit during a repair (wrecks on)
        assert done[0] > 10 and used > 5
        assert (rm_wrecks > 0) is batch.wrecks
    return rounds, kills, wrecks


@pytest.mark.parametrize("wrecks", [True, False])
@pytest.mark.parametrize("name", MAPS)
def test_batch_engine_matches_reference(name: str, wrecks: bool) -> None:
    scenario = read_scenario(ROOT / "maps" / "final-act" / f"{name}.json")
    games = 48 if name == "extra-forces" else 16
    rounds, kills, left = crosscheck(scenario.with_options(wrecks=wrecks), games, seed=3)
    # the games were long and bloody enough to exercise conflicts, hits and wrecks
    assert rounds > 10 and kills > 16
    assert (left > 0) is wrecks


def test_vectorised_playouts_edge_positions() -> None:
    # Only south units: south walks to the goal unopposed (9 rounds from rows 2-3 to row 12
    # at best: d3 needs 9 steps). No units at all: nothing happens until the round limit.
    # A wreck and a damaged tank at the start, and a side without tanks, still play.
    from dataclasses import replace

    from tankmap.analysis.simulation.runner import simulate
    from tankmap.rules.geometry import Side

    sc = read_scenario(ROOT / "maps" / "final-act" / "mirror.json")
    south = sc.with_units([u for u in sc.units if u.side is Side.SOUTH])
    df = simulate(south, 4, "heuristic", seed=1)
    assert set(df["winner"]) == {"south"} and set(df["end"]) == {"goal"}
    assert df["length"].min() >= 9
    df = simulate(sc.with_units([]).with_options(max_rounds=5), 3, "heuristic", seed=1)
    assert set(df["end"]) == {"limit"} and set(df["length"]) == {5}
    units = list(sc.units)
    units[0] = replace(units[0], wreck=True)
    units[1] = replace(units[1], damage=1)
    df = simulate(sc.with_units(units), 10, "heuristic", seed=1)
    assert len(df) == 10
    df = simulate(sc, 5, ("heuristic+no-tank", "heuristic"), seed=1)
    # a side playing without its tanks loses at the end of round 1
    assert set(df["winner"]) == {"north"} and set(df["length"]) == {1}
