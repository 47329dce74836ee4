"""The ``regret`` search in plain Python on the engine (``rules.tank_wars.engine``): the
reference for ``kernel/search.py`` — the same algorithm (``agents/regret.py``), the same
draws from the same stream (``kernel.rng.SplitMix``), the same arithmetic in the same order
and the same tie-breaking, so both choose the same plan. Rounds are resolved by
``resolve_orders_with``/``artillery_phase_with`` with the stream's dice; the playout players
are ``light_orders`` (mirrored by ``kernel/playout.light_orders``) and the heuristic's
``heuristic_orders`` with the stream's noise. Slow (a few ms per iteration): for tests, and
for machines without numba.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tankmap.analysis.simulation.tank_wars.agents.heuristic import heuristic_orders
from tankmap.analysis.simulation.tank_wars.agents.options import Option, vehicle_options
from tankmap.analysis.simulation.tank_wars.agents.regret_value import value
from tankmap.analysis.simulation.tank_wars.kernel.rng import SplitMix
from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.data import CommandKind
from tankmap.rules.tank_wars.engine import (
    Command,
    Orders,
    TankWarsState,
    artillery_phase_with,
    resolve_orders_with,
)
from tankmap.rules.tank_wars.state import Vehicle, outcome

LIGHT, HEURISTIC = 0, 1
_SIDES = (Side.SOUTH, Side.NORTH)


@dataclass
class Plan:
    """The search's answer: ``orders`` for the side, and the average strategies of both
    sides: ``commands[ident]`` over the vehicle's options (``vehicle_options`` order),
    ``fields[side]`` the gunfire fields and ``gunfire[side]`` their weights."""

    orders: Orders
    commands: dict[int, list[float]]
    fields: tuple[list[int], list[int]] | None = None
    gunfire: tuple[list[float], list[float]] | None = None


class _Tokens:
    """Command tokens used per kind (``tokens_per_kind``)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used: dict[CommandKind, int] = {}

    def fits(self, c: Command | None) -> bool:
        return c is None or self.limit <= 0 or self.used.get(c.kind, 0) < self.limit

    def take(self, c: Command | None) -> None:
        if c is not None:
            self.used[c.kind] = self.used.get(c.kind, 0) + 1


def _first_fitting(v: Vehicle, opts: Sequence[Option], tokens: _Tokens, idle: bool) -> int:
    for j, (c, end, _path) in enumerate(opts):
        if idle and end != v.cell:
            continue
        if tokens.fits(c):
            return j
    return -1


def _give(commands: dict[int, Command], v: Vehicle, opts: Sequence[Option], j: int,
          tokens: _Tokens) -> None:  # fmt: skip
    c = None if j < 0 else opts[j][0]
    if c is not None:
        commands[v.ident] = c
    tokens.take(c)


def light_orders(state: TankWarsState, side: Side, rng: SplitMix, banned: frozenset[str]) -> Orders:
    """The light playout player (``kernel/playout.light_orders``): uniform options within the
    tokens; each gunfire token on a field a uniformly drawn enemy vehicle reaches with a
    uniformly drawn option."""
    tokens = _Tokens(state.rules.tokens_per_kind)
    commands: dict[int, Command] = {}
    for v in state.vehicles_of(side):
        opts = vehicle_options(state, v)
        if v.kind in banned:
            _give(commands, v, opts, _first_fitting(v, opts, tokens, True), tokens)
        elif tokens.limit > 0:
            ok = [j for j, (c, _e, _p) in enumerate(opts) if tokens.fits(c)]
            _give(commands, v, opts, ok[rng.below(len(ok))] if ok else -1, tokens)
        else:
            _give(commands, v, opts, rng.below(len(opts)), tokens)
    enemies = state.vehicles_of(side.other)
    gunfire: list[int] = []
    if enemies:
        for _ in range(state.gunfire_available(side)):
            e = enemies[rng.below(len(enemies))]
            opts = vehicle_options(state, e)
            gunfire.append(opts[rng.below(len(opts))][1])
    return Orders(commands, tuple(gunfire))


def _strategy(regret: list[float]) -> list[float]:
    total = 0.0
    for r in regret:
        total += r
    n = len(regret)
    return [r / total if total > 0.0 else 1.0 / n for r in regret]


def _pick(sig: Sequence[float], total: float, rng: SplitMix) -> int:
    u = rng.unit() * total
    acc = 0.0
    for j, s in enumerate(sig):
        acc += s
        if u < acc:
            return j
    for j in range(len(sig) - 1, -1, -1):
        if sig[j] > 0.0:
            return j
    return len(sig) - 1


def _purified(avg: list[float], fraction: float) -> list[float]:
    total = 0.0
    for a in avg:
        total += a
    out = [a / total if total > 0.0 else 0.0 for a in avg]
    top = 0.0
    for o in out:
        top = max(top, o)
    return [0.0 if o < fraction * top else o for o in out]


def _sample_gunfire(sig: list[float], fields: list[int], tokens: int, rng: SplitMix) -> list[int]:
    taken = [False] * len(fields)
    out: list[int] = []
    count = 0
    for _ in range(tokens):
        if count < len(fields):
            total = 0.0
            for f, s in enumerate(sig):
                if not taken[f]:
                    total += s
            pick = -1
            if total > 0.0:
                u = rng.unit() * total
                acc = 0.0
                last = -1
                for f, s in enumerate(sig):
                    if not taken[f] and s > 0.0:
                        acc += s
                        last = f
                        if u < acc:
                            pick = f
                            break
                if pick < 0:
                    pick = last
            else:
                r = rng.below(len(fields) - count)
                pick = [f for f in range(len(fields)) if not taken[f]][r]
            taken[pick] = True
            count += 1
        else:
            total = 0.0
            for s in sig:
                total += s
            pick = _pick(sig, total, rng)
        out.append(fields[pick])
    return out


class _Search:
    """One decision's search state (see ``reference_search``)."""

    def __init__(
        self, state: TankWarsState, me: Side, depth: int, mode: int,
        weights: Sequence[float], banned: frozenset[str],
    ) -> None:  # fmt: skip
        self.state, self.me, self.depth, self.mode = state, me, depth, mode
        self.weights, self.banned = weights, banned
        self.opts = {v.ident: vehicle_options(state, v) for v in state.vehicles}
        self.fields: list[list[int]] = []
        self.tokens: list[int] = []
        for s in _SIDES:
            ends = {end for e in state.vehicles_of(s.other) for _c, end, _p in self.opts[e.ident]}
            self.fields.append(sorted(ends))
            self.tokens.append(state.gunfire_available(s) if ends else 0)

    def is_banned(self, v: Vehicle) -> bool:
        return v.kind in self.banned and v.side is self.me

    def sample_commands(
        self, side: Side, sig: dict[int, list[float]], rng: SplitMix
    ) -> dict[int, Command]:
        tokens = _Tokens(self.state.rules.tokens_per_kind)
        commands: dict[int, Command] = {}
        for v in self.state.vehicles_of(side):
            opts = self.opts[v.ident]
            if self.is_banned(v):
                _give(commands, v, opts, _first_fitting(v, opts, tokens, True), tokens)
                continue
            if not opts:
                continue
            total = 0.0
            for s in sig[v.ident]:
                total += s
            j = _pick(sig[v.ident], total, rng)
            if not tokens.fits(opts[j][0]):
                j = _first_fitting(v, opts, tokens, False)
            _give(commands, v, opts, j, tokens)
        return commands

    def evaluate(self, commands: dict[int, Command], gun: list[list[int]], seed: int) -> float:
        """South's value of the round played with these plans, the dice of ``seed``, then
        ``depth`` playout rounds."""
        rng = SplitMix(seed)

        def dice(n: int) -> list[int]:
            return [rng.below(36) for _ in range(n)]

        halves = [
            Orders({i: c for i, c in commands.items() if self.opts_side(i) is s}, tuple(g))
            for s, g in zip(_SIDES, gun, strict=True)
        ]
        state = resolve_orders_with(self.state, halves[0], halves[1], dice)
        for _ in range(self.depth):
            if outcome(state) is not None:
                break
            state = artillery_phase_with(state, dice)
            if not state.in_round:
                break
            plans = [self.player(state, s, rng) for s in _SIDES]
            state = resolve_orders_with(state, plans[0], plans[1], dice)
        return value(state, self.weights)

    def opts_side(self, ident: int) -> Side:
        v = self.state.vehicle(ident)
        assert v is not None
        return v.side

    def player(self, state: TankWarsState, side: Side, rng: SplitMix) -> Orders:
        banned = self.banned if side is self.me else frozenset()
        if self.mode == HEURISTIC:
            return heuristic_orders(state, side, lambda n: [rng.unit() for _ in range(n)], banned)
        return light_orders(state, side, rng, banned)


def reference_search(
    state: TankWarsState,
    me: Side,
    iterations: int,
    depth: int,
    mode: int,
    weights: Sequence[float],
    seed: int,
    banned: frozenset[str] = frozenset(),
) -> Plan:
    """``kernel.search.search`` on the engine: the plan of ``me`` from ``state`` (its
    artillery fired) after ``iterations`` iterations, playouts ``depth`` rounds deep played
    by ``mode`` players (``LIGHT`` or ``HEURISTIC``), ``weights`` as ``regret.WEIGHTS``,
    every draw from ``SplitMix(seed)``; ``banned``: kinds of ``me``'s vehicles that stay."""
    sr = _Search(state, me, depth, mode, weights, banned)
    rng = SplitMix(seed)
    live = [v for v in state.vehicles if not sr.is_banned(v)]
    regret = {v.ident: [0.0] * len(sr.opts[v.ident]) for v in live}
    sig = {v.ident: [0.0] * len(sr.opts[v.ident]) for v in live}
    avg = {v.ident: [0.0] * len(sr.opts[v.ident]) for v in live}
    regret_gun = [[0.0] * len(f) for f in sr.fields]
    sig_gun = [[0.0] * len(f) for f in sr.fields]
    avg_gun = [[0.0] * len(f) for f in sr.fields]
    limit = state.rules.tokens_per_kind
    for it in range(iterations):
        weight = it + 1.0
        for v in live:
            if sr.opts[v.ident]:
                sig[v.ident] = _strategy(regret[v.ident])
                a = avg[v.ident]
                for j, p in enumerate(sig[v.ident]):
                    a[j] += weight * p
        for k in range(2):
            if sr.tokens[k] > 0:
                sig_gun[k] = _strategy(regret_gun[k])
                for f, g in enumerate(sig_gun[k]):
                    avg_gun[k][f] += weight * g
        commands: dict[int, Command] = {}
        for s in _SIDES:
            commands.update(sr.sample_commands(s, sig, rng))
        gun: list[list[int]] = [[], []]
        for k in range(2):
            if sr.tokens[k] > 0:
                gun[k] = _sample_gunfire(sig_gun[k], sr.fields[k], sr.tokens[k], rng)
        eseed = rng.next_u64()
        u0 = sr.evaluate(commands, gun, eseed)
        for v in state.vehicles:
            opts = sr.opts[v.ident]
            if len(opts) <= 1 or sr.is_banned(v):
                continue
            u: list[float] = []
            for c, _end, _path in opts:
                if c == commands.get(v.ident):
                    u.append(u0)
                    continue
                trial = {i: x for i, x in commands.items() if i != v.ident}
                if limit > 0:
                    tokens = _Tokens(limit)
                    for other in state.vehicles_of(v.side):
                        if other.ident != v.ident:
                            tokens.take(commands.get(other.ident))
                    if not tokens.fits(c):
                        u.append(u0)
                        continue
                if c is not None:
                    trial[v.ident] = c
                u.append(sr.evaluate(trial, gun, eseed))
            sign = 1.0 if v.side is Side.SOUTH else -1.0
            expected = 0.0
            for s_j, u_j in zip(sig[v.ident], u, strict=True):
                expected += s_j * u_j
            r = regret[v.ident]
            for j, u_j in enumerate(u):
                x = r[j] + sign * (u_j - expected)
                r[j] = x if x > 0.0 else 0.0
        for k in range(2):
            fields = sr.fields[k]
            if sr.tokens[k] == 0 or len(fields) <= 1:
                continue
            gain = [0.0] * len(fields)
            sign = 1.0 if k == 0 else -1.0
            for tok in range(sr.tokens[k]):
                u = []
                for field in fields:
                    if field in gun[k]:
                        u.append(u0)
                        continue
                    alt = [list(gun[0]), list(gun[1])]
                    alt[k][tok] = field
                    u.append(sr.evaluate(commands, alt, eseed))
                expected = 0.0
                for s_f, u_f in zip(sig_gun[k], u, strict=True):
                    expected += s_f * u_f
                for f, u_f in enumerate(u):
                    gain[f] += sign * (u_f - expected)
            for f in range(len(fields)):
                x = regret_gun[k][f] + gain[f]
                regret_gun[k][f] = x if x > 0.0 else 0.0
    fraction = weights[len(weights) - 1]
    final = {i: _purified(a, fraction) for i, a in avg.items()}
    mine = sr.sample_commands(me, final, rng)
    n = sr.tokens[me.index]
    fire: list[int] = []
    if n > 0:
        fire = _sample_gunfire(_purified(avg_gun[me.index], fraction), sr.fields[me.index], n, rng)
    return Plan(
        Orders(mine, tuple(fire)),
        {i: _normalised(a) for i, a in avg.items()},
        (sr.fields[0], sr.fields[1]),
        (_normalised(avg_gun[0]), _normalised(avg_gun[1])),
    )


def _normalised(a: list[float]) -> list[float]:
    total = 0.0
    for x in a:
        total += x
    return [x / total if total > 0.0 else 0.0 for x in a]
