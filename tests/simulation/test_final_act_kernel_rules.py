"""The compiled kernel's rules play exactly like the reference engine's: both are fed the
same orders and shells (from seeded games of the reference ``random`` agent) and compared
after every round (``kernel.orders.given_rounds``: the kernel's rules alone). On the Extra
Forces map (R/M repair on by default) the games also send R/Ms onto neighbouring damaged
tanks and declare repairs at random, so repair pairs, repairs and R/Ms hit during a repair
are compared too."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from repair_support import repairs

from tankmap.analysis.simulation.final_act.agents.reference import RandomPolicy, RoundView
from tankmap.analysis.simulation.final_act.kernel.base import available
from tankmap.analysis.simulation.final_act.kernel.orders import given_rounds
from tankmap.analysis.simulation.final_act.kernel.tables import END_CODES
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.analysis.simulation.runner import game_rng
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.final_act.engine import Game, State
from tankmap.rules.final_act.engine_advanced import Actions
from tankmap.rules.final_act.tables import Order
from tankmap.rules.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]
MAPS = ["mirror", "flanks-vs-centre", "extra-forces"]

pytestmark = pytest.mark.skipif(not available(), reason="numba is not installed")


Row = tuple[list[int], list[int], list[int], list[bool]]


def _play_reference(
    prep: Prepared, seed: int, g: int
) -> tuple[State, list[Row], list[State], list[list[int]]]:
    """One seeded game of the reference ``random`` agents (with R/M repairs made likely):
    the start, each round's orders, shells and repairs as the kernel takes them (end
    cells, facings, targets or -1, repair flags), the state after every round and each
    round's knock-outs (unit, cell, by unit, flattened)."""
    game = prep.game
    st = game.initial_state()
    start = st.copy()
    rng = game_rng(seed, g)
    players = (RandomPolicy(prep, 0), RandomPolicy(prep, 1))
    n = len(st.kind)
    rows: list[Row] = []
    after: list[State] = []
    knocked: list[list[int]] = []
    while not st.over:
        view = RoundView(st, prep)
        o0, s0 = players[0].decide(view, rng)
        o1, s1 = players[1].decide(view, rng)
        orders: list[Order | None] = [None] * n
        for u, o in {**o0, **o1}.items():
            orders[u] = o
        fired = {**s0, **s1}
        declared = repairs(st, orders, fired, rng)
        dest, facing = list(st.cell), [int(f) for f in st.facing]
        for u, o in enumerate(orders):
            if o is not None:
                dest[u], facing[u] = o[0], int(o[1])
        rows.append(
            (
                dest,
                facing,
                [fired.get(u, -1) for u in range(n)],
                [u in declared for u in range(n)],
            )
        )
        report = game.apply_round(st, orders, fired, Actions(rm_repair=declared))
        after.append(st.copy())
        knocked.append(
            [x for u, cell, _by, by_unit in report.knocked_out for x in (u, cell, by_unit)]
        )
    return start, rows, after, knocked


def crosscheck(scenario: Scenario, games: int, seed: int) -> tuple[int, int, int, int]:
    """Play ``games`` reference games and the same orders on the kernel's rules; compare
    every round. Returns the rounds, knock-outs, wrecks and repairs declared in all."""
    prep = Prepared(Game(scenario))
    rounds = kills = wrecks = declared = 0
    for g in range(games):
        start, rows, after, knocked = _play_reference(prep, seed, g)
        dest, facing, shells, repair = (np.array([r[i] for r in rows]) for i in range(4))
        got = given_rounds(prep, start, dest, facing, shells, repair.astype(bool))
        deaths = got.deaths.tolist()
        for r, st in enumerate(after):
            where = f"game {g} round {st.round}"
            assert got.alive[r].tolist() == st.alive, where
            assert got.wreck[r].tolist() == st.wreck, where
            assert got.damage[r].tolist() == st.damage, where
            on_board = np.array(st.alive) | np.array(st.wreck)
            assert got.cell[r][on_board].tolist() == np.array(st.cell)[on_board].tolist(), where
            facings = np.array([int(f) for f in st.facing])
            assert got.facing[r][on_board].tolist() == facings[on_board].tolist(), where
            assert got.kills[r].tolist() == st.kills, where
            assert END_CODES[int(got.end[r])] == (st.end or ""), where
            assert int(got.winner[r]) == (-1 if st.winner is None else st.winner.index), where
            left = [st.adv.rm_left.get(u, 0) for u in range(len(st.kind))]
            assert got.rm_left[r].tolist() == left, where
            # a round's knock-outs happen together: their order within the round is no rule
            mine = sorted((u, c, by) for u, c, rnd, by in deaths if rnd == st.round)
            theirs = sorted(zip(knocked[r][::3], knocked[r][1::3], knocked[r][2::3], strict=True))
            assert mine == theirs, where
        final = after[-1]
        rounds += len(after)
        kills += sum(final.kills)
        wrecks += sum(final.wreck)
        declared += int(repair.sum())
    return rounds, kills, wrecks, declared


@pytest.mark.parametrize("wrecks", [True, False])
@pytest.mark.parametrize("name", MAPS)
def test_kernel_rules_match_the_reference_engine(name: str, wrecks: bool) -> None:
    scenario = read_scenario(ROOT / "maps" / "final-act" / f"{name}.json")
    games = 48 if name == "extra-forces" else 16
    rounds, kills, left, declared = crosscheck(scenario.with_options(wrecks=wrecks), games, seed=3)
    # the games were long and bloody enough to exercise conflicts, hits and wrecks
    assert rounds > 10 and kills > 16
    assert (left > 0) is wrecks
    if name == "extra-forces":  # the games exercised repairs
        assert declared > 10


def test_kernel_playouts_edge_positions() -> None:
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
