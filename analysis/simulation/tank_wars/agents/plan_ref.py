"""The ``plan`` search in plain Python on the engine (``rules.tank_wars.engine``): the
reference for ``kernel/plan.py`` — the same algorithm (``agents/plan.py``), the same draws
from the same stream (``kernel.rng.SplitMix``), the same arithmetic in the same order and
the same tie-breaking, so both choose the same orders. The heuristic plays through
``heuristic.heuristic_orders`` with the stream's noise (``kernel/playout.heuristic_orders``
is its twin); rounds are resolved by ``resolve_orders_with``/``artillery_phase_with`` with
the stream's dice. Slow: for tests, and for machines without numba.
"""

from __future__ import annotations

from collections.abc import Sequence

from tankmap.analysis.simulation.tank_wars.agents.heuristic import heuristic_orders
from tankmap.analysis.simulation.tank_wars.agents.options import vehicle_options
from tankmap.analysis.simulation.tank_wars.agents.regret_value import value
from tankmap.analysis.simulation.tank_wars.kernel.rng import SplitMix
from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.engine import (
    Command,
    Orders,
    TankWarsState,
    artillery_phase_with,
    resolve_orders_with,
)
from tankmap.rules.tank_wars.state import outcome, tokens_ok


def likely_fields(state: TankWarsState, me: Side) -> list[int]:
    """The fields the enemy's options end on, by weight (each vehicle's options count
    1 / their number; most first, then the lower field)."""
    weight: dict[int, float] = {}
    for e in state.vehicles_of(me.other):
        options = vehicle_options(state, e)
        for _cmd, end, _path in options:
            weight[end] = weight.get(end, 0.0) + 1.0 / len(options)
    return sorted(weight, key=lambda f: (-weight[f], f))


class _Futures:
    """The sampled futures of one decision: the enemy's heuristic plan and a dice seed (the
    look-ahead's heuristic keeps ``me``'s vehicles of ``banned`` kinds idle)."""

    def __init__(
        self, state: TankWarsState, me: Side, samples: int, lookahead: int,
        weights: Sequence[float], banned: frozenset[str], rng: SplitMix,
    ) -> None:  # fmt: skip
        self.state, self.me, self.lookahead, self.banned = state, me, lookahead, banned
        self.weights = weights
        self.drawn: list[tuple[Orders, int]] = []
        for _ in range(samples):
            enemy = heuristic_orders(state, me.other, lambda n: [rng.unit() for _ in range(n)])
            self.drawn.append((enemy, rng.next_u64()))

    def score(self, commands: dict[int, Command], gunfire: list[int]) -> float:
        """The sum over the futures of ``me``'s value after the round and the look-ahead."""
        sign = 1.0 if self.me is Side.SOUTH else -1.0
        mine = Orders(commands, tuple(gunfire))
        total = 0.0
        for enemy, seed in self.drawn:
            r = SplitMix(seed)

            def dice(n: int, r: SplitMix = r) -> list[int]:
                return [r.below(36) for _ in range(n)]

            def noise(n: int, r: SplitMix = r) -> list[float]:
                return [r.unit() for _ in range(n)]

            pair = (mine, enemy) if self.me is Side.SOUTH else (enemy, mine)
            state = resolve_orders_with(self.state, pair[0], pair[1], dice)
            for _ in range(self.lookahead):
                if outcome(state) is not None:
                    break
                state = artillery_phase_with(state, dice)
                if not state.in_round:
                    break
                plans = [
                    heuristic_orders(state, s, noise, self.banned if s is self.me else frozenset())
                    for s in (Side.SOUTH, Side.NORTH)
                ]
                state = resolve_orders_with(state, plans[0], plans[1], dice)
            total += sign * value(state, self.weights)
        return total


def reference_plan(
    state: TankWarsState,
    me: Side,
    samples: int,
    lookahead: int,
    weights: Sequence[float],
    seed: int,
    banned: frozenset[str],
    candidates: int,
) -> Orders:
    """``kernel.plan.plan`` on the engine: ``me``'s orders from ``state`` (its artillery
    fired) scored on ``samples`` futures ``lookahead`` rounds deep by
    ``regret_value.value`` with ``weights``, trying the
    ``candidates`` likeliest enemy fields for each gunfire token, every draw from
    ``SplitMix(seed)``; ``banned``: kinds of ``me``'s vehicles that stay."""
    rng = SplitMix(seed)
    own = heuristic_orders(state, me, lambda n: [rng.unit() for _ in range(n)], banned)
    futures = _Futures(state, me, samples, lookahead, weights, banned, rng)
    commands = dict(own.commands)
    gunfire = list(own.gunfire)
    best = futures.score(commands, gunfire)
    for v in state.vehicles_of(me):
        if v.kind in banned:
            continue
        for cmd, _end, _path in vehicle_options(state, v):
            if cmd == commands.get(v.ident):
                continue
            trial = {i: c for i, c in commands.items() if i != v.ident}
            if cmd is not None:
                trial[v.ident] = cmd
            if not tokens_ok(state.rules, trial):
                continue
            got = futures.score(trial, gunfire)
            if got > best:
                best, commands = got, trial
    fields = likely_fields(state, me)[:candidates]
    for k in range(len(gunfire)):
        for field in fields:
            if field in gunfire:
                continue
            trial_fire = gunfire[:k] + [field] + gunfire[k + 1 :]
            got = futures.score(commands, trial_fire)
            if got > best:
                best, gunfire = got, trial_fire
    return Orders(commands, tuple(gunfire))
