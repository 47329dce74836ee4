"""The compiled Tank Wars round (``analysis/simulation/tank_wars/kernel/round.py``) against
the reference engine (``rules.tank_wars.engine``): on seeded games of both built-in boards,
under every rule reading, every round's artillery and resolution give the same position
from the same dice and orders; and the kernel's light playout player and the heuristic
playout player against their Python twins."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tankmap.analysis.simulation.tank_wars.agents.heuristic import heuristic_orders
from tankmap.analysis.simulation.tank_wars.agents.regret_ref import light_orders as py_light
from tankmap.analysis.simulation.tank_wars.kernel import base, playout, rng
from tankmap.analysis.simulation.tank_wars.kernel import round as kround
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario
from tankmap.rules.tank_wars.engine import (
    Orders,
    TankWarsState,
    artillery_phase_with,
    draw_rolls,
    initial_state,
    outcome,
    random_orders,
    resolve_orders_with,
)
from tankmap.rules.tank_wars.state import ALL_COMMANDS

ROOT = Path(__file__).resolve().parents[2]
MAPS = ("default", "flank-artillery")
READINGS: tuple[dict[str, object], ...] = (
    {},
    {"shells_used_up": True, "gunfire_hits_stationary": False},
    {"stay_without_token": False, "tokens_per_kind": 1},
    {"tokens_per_kind": 2, "supply_drops": 2, "support_armour": 2, "max_rounds": 6},
)


def _scenario(board: str, reading: dict[str, object]) -> Scenario:
    sc = read_scenario(ROOT / "maps" / "tank-wars" / f"{board}.json")
    return sc.with_options(**reading)  # type: ignore[arg-type]


def _roster(state: TankWarsState) -> tuple[tuple[str, ...], tuple[Side, ...]]:
    ordered = sorted(state.vehicles, key=lambda v: v.ident)
    assert [v.ident for v in ordered] == list(range(len(ordered)))
    return tuple(v.kind for v in ordered), tuple(v.side for v in ordered)


def _cmds(orders: tuple[Orders, Orders], n: int) -> np.ndarray:
    cmds = np.full(n, base.NONE, dtype=np.int64)
    for o in orders:
        for ident, c in o.commands.items():
            cmds[ident] = ALL_COMMANDS.index(c)
    return cmds


@pytest.mark.parametrize("board", MAPS)
@pytest.mark.parametrize("reading", READINGS, ids=lambda r: ",".join(r) or "defaults")
def test_kernel_rounds_are_the_engines(board: str, reading: dict[str, object]) -> None:
    start = initial_state(_scenario(board, reading))
    kinds, sides = _roster(start)
    n = len(kinds)
    t = base.tables_of(start, kinds, sides)
    at = np.zeros(base.CELLS, dtype=np.int64)
    moved = np.zeros(n, dtype=np.int64)
    gen = np.random.default_rng(7)
    rounds = 0
    for _game in range(12):
        state = start
        while outcome(state) is None:
            pos = base.position_of(state, n)
            shots = kround.artillery_shots(t, pos, 0) + kround.artillery_shots(t, pos, 1)
            assert shots == state.artillery_shots(Side.SOUTH) + state.artillery_shots(Side.NORTH)
            rolls = draw_rolls(gen, shots)
            mid = artillery_phase_with(state, lambda k, r=rolls: r[:k])  # type: ignore[misc]
            planning = kround.artillery(t, pos, np.asarray(rolls, dtype=np.int64), at)
            assert planning == mid.in_round
            assert pos.tolist() == base.position_of(mid, n).tolist()
            state = mid
            if not mid.in_round:
                break
            orders = (random_orders(mid, Side.SOUTH, gen), random_orders(mid, Side.NORTH, gen))
            supply = draw_rolls(gen, 2 * mid.rules.supply_drops)
            state = resolve_orders_with(mid, orders[0], orders[1], lambda k, r=supply: r[:k])  # type: ignore[misc]
            gun = np.zeros((2, max(1, mid.rules.gunfire_tokens)), dtype=np.int64)
            placed = np.zeros(2, dtype=np.int64)
            for s, o in enumerate(orders):
                gun[s, : len(o.gunfire)] = o.gunfire
                placed[s] = len(o.gunfire)
            kround.resolve(t, pos, _cmds(orders, n), gun, placed,
                           np.asarray(supply, dtype=np.int64), at, moved)  # fmt: skip
            assert pos.tolist() == base.position_of(state, n).tolist()
            rounds += 1
        code = kround.outcome(t, base.position_of(state, n))
        result = outcome(state)
        assert result is not None
        expected = {None: {"both-destroyed": 2, "round-limit": 3}.get(result.reason)}
        expected.update({Side.SOUTH: 0, Side.NORTH: 1})
        assert code == expected[result.winner]
    assert rounds > 12  # the games lasted more than one round


def _midgame_states(board: str, reading: dict[str, object], count: int) -> list[TankWarsState]:
    """States with the artillery fired, from seeded random games."""
    state = initial_state(_scenario(board, reading))
    gen = np.random.default_rng(11)
    out: list[TankWarsState] = []
    while len(out) < count:
        if outcome(state) is not None:
            state = initial_state(_scenario(board, reading))
        mid = artillery_phase_with(state, lambda k: draw_rolls(gen, k))
        if not mid.in_round:
            state = mid
            continue
        out.append(mid)
        orders = (random_orders(mid, Side.SOUTH, gen), random_orders(mid, Side.NORTH, gen))
        state = resolve_orders_with(mid, orders[0], orders[1], lambda k: draw_rolls(gen, k))
    return out


@pytest.mark.parametrize("board", MAPS)
@pytest.mark.parametrize("reading", READINGS, ids=lambda r: ",".join(r) or "defaults")
@pytest.mark.parametrize("player", ["light", "heuristic"])
def test_kernel_playout_players_are_their_python_twins(
    board: str, reading: dict[str, object], player: str
) -> None:
    states = _midgame_states(board, reading, 15)
    kinds, sides = _roster(initial_state(_scenario(board, reading)))
    n = len(kinds)
    t = base.tables_of(states[0], kinds, sides)
    for k, mid in enumerate(states):
        pos = base.position_of(mid, n)
        for side in (Side.SOUTH, Side.NORTH):
            cmds = np.full(n, base.NONE, dtype=np.int64)
            gun = np.zeros((2, max(1, mid.rules.gunfire_tokens)), dtype=np.int64)
            placed = np.zeros(2, dtype=np.int64)
            used = np.zeros(4, dtype=np.int64)
            st = rng.state(1000 + k)
            py = rng.SplitMix(1000 + k)
            if player == "light":
                playout.light_orders(t, pos, side.index, cmds, gun, placed, st, used)
                want = py_light(mid, side, py, frozenset())
            else:
                mark = np.zeros(base.CELLS, dtype=np.float64)
                spare = (np.empty(base.CELLS), np.empty(base.CELLS, dtype=np.int64))
                playout.heuristic_orders(
                    t, pos, side.index, cmds, gun, placed, st, used, mark, *spare
                )
                want = heuristic_orders(mid, side, lambda m, r=py: [r.unit() for _ in range(m)])  # type: ignore[misc]
            got = {
                v.ident: ALL_COMMANDS[int(cmds[v.ident])]
                for v in mid.vehicles_of(side)
                if cmds[v.ident] >= 0
            }
            assert got == dict(want.commands)
            assert tuple(gun[side.index, : placed[side.index]].tolist()) == want.gunfire
            assert int(st[0]) == py.s  # the same number of draws
