"""Final Act ``random`` and ``heuristic`` written plainly, one game at a time, on the
reference engine (``rules.final_act.engine``): the ``-ref`` agents, the readable
description of what the compiled kernel's agents decide (``kernel/policies.py``), and the
agents every option of the rules (docs/rules.md §1.8) falls back to.

Every policy implements ``decide(view, rng) -> (orders, shells)`` for its side, where
``view`` is the ``RoundView`` both sides share in a round (current zones, danger) and the
result maps unit index → order and shooter index → target cell.

- ``random``: every unit picks uniformly among its legal orders (staying put included);
  every unit that may fire shells a uniform cell of its fire zone.
- ``heuristic``: tanks advance along shortest terrain routes (``Prepared.dist``) and prefer
  cells out of the enemy's current fire (cover behind berms, units and wrecks counts,
  since it is the real fire zone), damaged tanks more carefully; units of one side do not
  order each other into the same cell; ATs stay and fire while an enemy is likely to come
  into their zone, else turn in place to face the threat, else advance; shells go on the
  cells enemy units are most likely to move into (each enemy's orders weighted by how much
  they shorten its route; damaged tanks count double), spread over several cells.
- advanced rules and tokens (docs/rules.md §1.8, when on): ``pre_round``, ``act`` and
  ``respond`` (mid-round: smoke, Red Cross), see ``agents/advanced.py``.
- restrictions (``+no-berms``: never order a unit onto a berm cell; ``+no-KIND``: the
  side's units of that kind take no part in the game) are applied by the agent and the
  driver (``agents/factory.make_policy`` builds the agent of a name).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import repeat
from typing import Protocol

import numpy as np

from tankmap.analysis.simulation.final_act.agents.advanced import (
    heuristic_act,
    heuristic_after_hits,
    heuristic_after_moves,
    heuristic_pre_round,
    random_act,
    random_after_hits,
    random_after_moves,
    random_pre_round,
)
from tankmap.analysis.simulation.final_act.prepared import INF, VALUE, Prepared
from tankmap.rules.final_act.engine import RoundReport, State
from tankmap.rules.final_act.engine_advanced import Actions
from tankmap.rules.final_act.tables import Order
from tankmap.rules.geometry import Facing

# The heuristic's picks under ``token_share`` pick, most wanted first: tokens that win races
# (full throttle) and take tanks out, before the defensive ones.
TOKEN_PREFERENCE = (
    *("full_throttle", "air_strike", "quick_shot", "smoke", "red_cross", "quick_sand"),
    "mine_clearing",
)


def stale_amplitude(stale: int) -> float:
    """Noise on a unit's order scores after ``stale`` rounds without getting closer to its
    goal: small at first, up to a random walk for a unit stuck behind wrecks."""
    return 0.3 if stale < 2 else 0.3 + min(stale, 8)


_Choice = tuple[int, int, Order, float, bool]
"""One order a heuristic unit may choose: rounds to goal, destination, the order, its score
without noise (rounds to goal + caution x enemy shooters on the destination; not worked out
for a closed destination), and whether the destination is closed whatever the other units
do (a wreck, no entry, a berm refused; never the unit's own cell)."""

_AtChoices = tuple[
    tuple[tuple[Facing, tuple[int, ...]], ...], float, Iterable[tuple[int, Order, float]]
]
"""An AT's choices: its zone after each turn in place, the score of staying, and its moves
(index among its orders, order, score without noise)."""
_ZEROS = repeat(0.0)
"""``map(likely.get, cells, _ZEROS)``: each cell's likely value, 0.0 where none."""


class RoundView:
    """What both sides see at the start of a round: each live unit's fire zone (cells and
    bitmask) and, per side, the zone masks of its shooters (``danger`` counts them)."""

    __slots__ = (
        *("state", "blockers", "zones", "masks", "side_masks", "live"),
        *("_danger", "likely", "choices", "at_choices"),
    )

    def __init__(self, state: State, prep: Prepared) -> None:
        self.state = state
        self.blockers = blockers = state.blockers()
        self.live = state.live()
        self.zones: dict[int, tuple[int, ...]] = {}
        self.masks: dict[int, int] = {}
        self.side_masks: tuple[list[int], list[int]] = ([], [])
        kind, cell, facing, side = state.kind, state.cell, state.facing, state.side
        zone_of = prep.zone
        for u in self.live:
            zone, mask = zone_of(kind[u], cell[u], facing[u], blockers)
            self.zones[u] = zone
            self.masks[u] = mask
            if mask:
                self.side_masks[side[u]].append(mask)
        self._danger: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self.likely: dict[int, dict[int, float]] = {}
        """Per enemy side, ``HeuristicPolicy._likely`` of this view (the same for every
        heuristic plan drawn from it: ``search`` draws many)."""
        self.choices: dict[tuple[int, int, bool], tuple[_Choice, ...]] = {}
        """Per (unit, side, no_berms), the unit's ``HeuristicPolicy`` choices scored without
        noise (``_choices``)."""
        self.at_choices: dict[tuple[int, int, bool], _AtChoices] = {}
        """The same for an AT (``HeuristicPolicy._at_choices``)."""

    def danger(self, side: int, cell: int) -> int:
        """How many units of ``side`` have ``cell`` in their fire zone now."""
        cache = self._danger[side]
        found = cache.get(cell)
        if found is None:
            found = cache[cell] = sum(1 for m in self.side_masks[side] if m >> cell & 1)
        return found


class Policy(Protocol):
    def decide(
        self, view: RoundView, rng: np.random.Generator
    ) -> tuple[dict[int, Order], dict[int, int]]: ...


class RandomPolicy:
    """Uniform over legal orders and fire-zone cells."""

    def __init__(self, prep: Prepared, side: int, no_berms: bool = False) -> None:
        self.side = side
        self.no_berms = no_berms
        self.berms = prep.game.tables.elevating_mask

    def decide(
        self, view: RoundView, rng: np.random.Generator
    ) -> tuple[dict[int, Order], dict[int, int]]:
        st = view.state
        mine = [u for u in view.live if st.side[u] == self.side]
        draws = rng.random(2 * len(mine)).tolist()
        orders: dict[int, Order] = {}
        shells: dict[int, int] = {}
        for k, u in enumerate(mine):
            opts = st.orders(u)
            if self.no_berms:
                opts = tuple(o for o in opts if o[0] == st.cell[u] or not self.berms >> o[0] & 1)
            order = opts[int(draws[2 * k] * len(opts))]
            orders[u] = order
            zone = view.zones[u]
            if zone and st.can_fire(u, order):
                shells[u] = zone[int(draws[2 * k + 1] * len(zone))]
        return orders, shells

    def pre_round(self, state: State, rng: np.random.Generator) -> Actions:
        """Start-of-round tokens (docs/rules.md §1.8), uniformly at random."""
        return random_pre_round(state, self.side, rng)

    def act(
        self,
        view: RoundView,
        orders: dict[int, Order],
        shells: dict[int, int],
        rng: np.random.Generator,
    ) -> Actions:
        """Advanced actions (docs/rules.md §1.8), uniformly at random; adjusts orders/shells."""
        return random_act(view, self.side, orders, shells, rng)

    def spare_ats(self, view: RoundView, orders: dict[int, Order]) -> list[int]:
        """No choice of which AT survives a shell on two (docs/rules.md §1.6): the engine's
        default rule decides (and the random numbers drawn stay those of before)."""
        return []

    def pick_tokens(self, tokens: list[str], k: int, rng: np.random.Generator) -> list[str]:
        """``k`` of the action ``tokens`` (``token_share`` pick), uniformly at random."""
        return [tokens[int(i)] for i in rng.choice(len(tokens), k, replace=False)]

    def respond(
        self,
        phase: str,
        state: State,
        shells: dict[int, int],
        report: RoundReport,
        rng: np.random.Generator,
    ) -> Actions:
        """Mid-round tokens (``Game.apply_round``'s ``respond``), uniformly at random."""
        if phase == "moved":
            return random_after_moves(state, self.side, rng)
        return random_after_hits(state, self.side, report, rng)


class HeuristicPolicy:
    """Advance on shortest routes, use cover, face threats, shell likely destinations.

    ``many_per_view``: this policy draws many plans from each round's view (``search``
    draws its enemy's futures): what they share is worked out once and kept in the view
    (``RoundView.likely``, ``.choices``, ``.at_choices``). Otherwise only the orders a
    plan reads are scored, as one plan per view needs. The plans are the same."""

    def __init__(
        self, prep: Prepared, side: int, no_berms: bool = False, *, many_per_view: bool = False
    ) -> None:
        self.prep = prep
        self.side = side
        self.many_per_view = many_per_view
        self.enemy = 1 - side
        self.no_berms = no_berms
        self.berms = prep.game.tables.elevating_mask
        self.fire_tables = prep.game.fire_tables
        self.berm_mask = prep.game.berm_mask
        # rounds since each unit last got closer to its goal: a stuck unit (blocked by a
        # wreck or a face-off the route table does not know about) explores more and more
        self.best_d: dict[int, int] = {}
        self.stale: dict[int, int] = {}
        self._plan: dict[int, Order] = {}  # orders a start-of-round token was laid for

    def _likely(self, view: RoundView) -> dict[int, float]:
        """Expected value of enemy units ending the round on each cell (a new dict: the
        caller may change it)."""
        if not self.many_per_view:
            return self._likely_now(view)
        found = view.likely.get(self.enemy)
        if found is None:
            found = view.likely[self.enemy] = self._likely_now(view)
        return dict(found)

    def _likely_now(self, view: RoundView) -> dict[int, float]:
        st = view.state
        likely = self.prep.likely
        enemy = self.enemy
        out: dict[int, float] = {}
        get = out.get
        for u in view.live:
            if st.side[u] != enemy:
                continue
            kind = st.kind[u]
            value = VALUE.get(kind, 1.0) * (1 + st.damage[u])
            for to, w in likely(kind, enemy, st.cell[u], st.facing[u]):
                out[to] = get(to, 0.0) + w * value
        return out

    def decide(
        self, view: RoundView, rng: np.random.Generator
    ) -> tuple[dict[int, Order], dict[int, int]]:
        st = view.state
        side = self.side
        dist = self.prep.dist
        mine = [u for u in view.live if st.side[u] == side]
        noise = rng.random(32 * len(mine) + 8).tolist()
        likely = self._likely(view)
        # front units first, so followers see the cells they free; ties (and equal shell
        # targets below) are broken at random, so no side or direction is favoured
        ties = rng.random(len(mine) + len(likely)).tolist()
        order_of = {u: ties[i] for i, u in enumerate(mine)}
        mine.sort(
            key=lambda u: (dist[st.kind[u]][side][st.cell[u] * 8 + st.facing[u]], order_of[u])
        )
        for i, cell in enumerate(likely, len(mine)):
            likely[cell] *= 1.0 + 1e-9 * ties[i]
        claimed = {st.cell[u] for u in mine if st.kind[u] != "at"}
        orders: dict[int, Order] = {}
        shells: dict[int, int] = {}
        shooters: list[int] = []
        for k, u in enumerate(mine):
            kind = st.kind[u]
            here = st.cell[u]
            if kind == "at":
                order = self._at_order(view, u, likely, noise, 8 + 32 * k)
            else:
                caution = 0.35 if kind == "tank" and st.damage[u] == 0 else 0.8
                d_here = dist[kind][side][here * 8 + st.facing[u]]
                if d_here < self.best_d.get(u, INF):
                    self.best_d[u], stale = d_here, 0
                else:
                    stale = self.stale.get(u, 0) + 1
                self.stale[u] = stale
                amplitude = stale_amplitude(stale)
                best = None
                best_score = float(INF)
                base = 8 + 32 * k
                for j, (d, to, o, calm, closed) in enumerate(self._choices(view, u, caution)):
                    if d > best_score:
                        break  # sorted by d and score >= d: nothing later scores better
                    if closed or (to != here and to in claimed):
                        continue
                    score = calm + amplitude * noise[base + (j & 31)]
                    if score < best_score:
                        best, best_score = o, score
                order = best if best is not None else (here, st.facing[u])
                if order[0] != here:
                    claimed.discard(here)
                    claimed.add(order[0])
            if order[0] == here and st.must_leave(u):  # §1.8a repaired_pair="rm-leaves"
                order = self._leave(view, u, claimed)
                claimed.add(order[0])
            orders[u] = order
            if view.zones[u] and st.can_fire(u, order):
                shooters.append(u)
        shooters.sort(key=lambda u: st.kind[u] != "tank")  # docs/rules.md §1.4: tanks, then ATs
        likely_mask = 0
        for cell in likely:
            likely_mask |= 1 << cell
        for n, u in enumerate(shooters):
            m = view.masks[u] & likely_mask
            best_cell = -1
            best_val = 0.0
            while m:
                low = m & -m
                cell = low.bit_length() - 1
                m ^= low
                v = likely[cell]
                if v > best_val:
                    best_cell, best_val = cell, v
            if best_cell < 0:
                zone = view.zones[u]
                best_cell = zone[int(noise[n % 8] * len(zone))]
            else:
                likely[best_cell] = best_val * 0.45
            shells[u] = best_cell
        return orders, shells

    def _choices(self, view: RoundView, u: int, caution: float) -> Iterable[_Choice]:
        """Unit ``u``'s orders as ``decide`` weighs them (``_Choice``), best route first:
        scored as read, or (``many_per_view``) all at once and kept in ``view``, where only
        the noise and the cells other units claim differ between the plans drawn."""
        key = (u, self.side, self.no_berms)
        found = view.choices.get(key)
        if found is not None:
            return found
        st = view.state
        closed = st.wreck_mask | st.no_entry
        if self.no_berms:
            closed |= self.berms
        danger, enemy, here = view.danger, self.enemy, st.cell[u]
        # (a closed destination other than the unit's own cell is never taken: not scored)
        scored = (
            (d, to, o, float(d) if shut else d + caution * danger(enemy, to), shut)
            for d, to, o in self.prep.ranked(st.kind[u], self.side, here, st.facing[u])
            for shut in (to != here and bool(closed >> to & 1),)
        )
        if not self.many_per_view:
            return scored
        found = view.choices[key] = tuple(scored)
        return found

    def _leave(self, view: RoundView, u: int, claimed: set[int]) -> Order:
        """The order of an R/M that must leave its cell (``State.must_leave``): the
        closest to its goal of its legal orders, an unclaimed and safe cell preferred."""
        st = view.state
        dist = self.prep.dist[st.kind[u]][self.side]
        return min(
            st.orders(u),
            key=lambda o: (
                o[0] in claimed,
                dist[o[0] * 8 + o[1]] + 0.8 * view.danger(self.enemy, o[0]),
            ),
        )

    def pre_round(self, state: State, rng: np.random.Generator) -> Actions:
        """Start-of-round tokens (docs/rules.md §1.8) where they help."""
        self._plan = {}
        return heuristic_pre_round(state, self.side, self.prep, self._plan)

    def act(
        self,
        view: RoundView,
        orders: dict[int, Order],
        shells: dict[int, int],
        rng: np.random.Generator,
    ) -> Actions:
        """Advanced actions (docs/rules.md §1.8) where they help; adjusts orders/shells."""
        likely = self._likely(view)
        return heuristic_act(view, self.side, orders, shells, likely, self.prep, self._plan)

    def spare_ats(self, view: RoundView, orders: dict[int, Order]) -> list[int]:
        """Where two own ATs are ordered to end on one cell, the one to keep if a shell hits
        them (docs/rules.md §1.6): the one whose fire zone from where it ends holds more
        enemy units (the lower index on a tie)."""
        st = view.state
        ends: dict[int, list[int]] = {}
        for u in view.live:
            if st.kind[u] == "at" and st.side[u] == self.side:
                ends.setdefault(orders.get(u, (st.cell[u], st.facing[u]))[0], []).append(u)
        out: list[int] = []
        if all(len(ats) < 2 for ats in ends.values()):
            return out
        blockers = st.blockers()
        enemies = {st.cell[v] for v in st.live(self.enemy)}
        for cell, ats in ends.items():
            if len(ats) < 2:
                continue

            def worth(u: int, cell: int = cell) -> int:
                facing = orders.get(u, (cell, st.facing[u]))[1]
                return sum(1 for c in st.zone_at(u, cell, facing, blockers) if c in enemies)

            out.append(max(sorted(ats), key=lambda u: (worth(u), -u)))
        return out

    def pick_tokens(self, tokens: list[str], k: int, rng: np.random.Generator) -> list[str]:
        """``k`` of the action ``tokens`` (``token_share`` pick), by ``TOKEN_PREFERENCE``."""
        return sorted(tokens, key=TOKEN_PREFERENCE.index)[:k]

    def respond(
        self,
        phase: str,
        state: State,
        shells: dict[int, int],
        report: RoundReport,
        rng: np.random.Generator,
    ) -> Actions:
        """Mid-round tokens (``Game.apply_round``'s ``respond``) where they help."""
        if phase == "moved":  # before the shells are placed: ``shells`` is empty
            return heuristic_after_moves(state, self.side, report)
        return heuristic_after_hits(state, self.side, report)

    def _at_order(
        self, view: RoundView, u: int, likely: dict[int, float], noise: list[float], base: int
    ) -> Order:
        st = view.state
        here, facing = st.cell[u], st.facing[u]
        get = likely.get
        if sum(map(get, view.zones[u], _ZEROS)) > 0.25:
            return (here, facing)
        turns, stay, moves = self._at_choices(view, u)
        best_f, best_v = facing, 0.25
        for f, zone in turns:
            v = sum(map(get, zone, _ZEROS))
            if v > best_v:
                best_f, best_v = f, v
        if best_f is not facing:
            return (here, best_f)
        best: Order = (here, facing)
        best_score = stay
        for j, order, calm in moves:
            score = calm + 0.2 * noise[base + (j & 31)]
            if score < best_score:
                best, best_score = order, score
        return best

    def _at_choices(self, view: RoundView, u: int) -> _AtChoices:
        """AT ``u``'s choices as ``_at_order`` weighs them (kept in ``view`` when
        ``many_per_view``): its zone after each turn in place, the score of staying, and
        each move's index among its orders, the order and its score without noise (route +
        0.5 x enemy shooters there)."""
        key = (u, self.side, self.no_berms)
        found = view.at_choices.get(key)
        if found is None:
            st = view.state
            here, facing = st.cell[u], st.facing[u]
            dtab = self.prep.dist["at"][self.side]
            danger, enemy = view.danger, self.enemy
            turns = []
            for turn in (2, 4, 6):
                f = facing.turned(turn)
                turns.append((f, self.prep.zone("at", here, f, view.blockers)[0]))
            moves = (  # (scored only if read: an AT that turns to fire never moves)
                (j, (to, f), dtab[to * 8 + f] + 0.5 * danger(enemy, to))
                for j, (to, f) in enumerate(st.orders(u))
                if to != here and not (self.no_berms and self.berms >> to & 1)
            )
            stay = dtab[here * 8 + facing] + 0.5 * danger(enemy, here)
            if not self.many_per_view:
                return (tuple(turns), stay, moves)
            found = view.at_choices[key] = (tuple(turns), stay, tuple(moves))
        return found
