"""Final Act rounds for many games at once (numpy arrays, one row per game).

The same rules as ``rules.final_act.engine`` (that module is the reference and documents
them), vectorised over ``G`` games of one scenario so that thousands of playouts per second
fit in one core. ``tests/simulation`` cross-checks both engines round by round on the same
orders and shells.

Arrays (``G`` games × ``U`` units, unit ``u`` = ``scenario.units[u]``): ``cell``, ``facing``
(0..7), ``damage``, ``alive`` (in play, not a wreck), ``wreck``; per game ``wreck_cells``
(``G × N`` bool), ``round``, ``over``, ``winner`` (-1 none/draw, 0 south, 1 north), ``end``
(``END_CODES`` index), ``kills`` (``G × 2``), ``rm_left`` (``G × U``: repairs left of each
R/M, 0 for other units).

``apply(state, dest, dest_facing, shells, repair)``: ``dest``/``dest_facing`` are every
unit's ordered end cell and facing (staying put: its own cell), ``shells[g, u]`` the target
of unit ``u`` or -1, ``repair[g, u]`` (optional) whether tank ``u`` is declared repaired by
the R/M on its cell this round (Extra Forces R/M repair, option ``rm_repair``; the caller
makes both stay and the tank not fire). Only games with ``over == False`` change. Returns
the knock-outs of the round as arrays ``(game, unit, cell, by_unit)``. Orders are trusted
(no legality check).

R/M repair (``rules.final_act.engine_advanced``): a tank damaged at the start of the round
and an own R/M with repairs left may end the round alone together on one cell; an R/M
knocked out with its tank during a declared repair stays as a wreck (option ``wrecks``);
after the hits a declared tank still in play is undamaged and its R/M has one repair fewer.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tankmap.rules.final_act.data import DATA
from tankmap.rules.final_act.engine import Game

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

TANK, AT, RM = 0, 1, 2
_CODES = {"tank": TANK, "at": AT, "rm": RM}
END_CODES = ("", "goal", "annihilation", "limit")
Event = tuple[IntArray, IntArray, IntArray, IntArray]


@dataclass
class BatchState:
    """The position of ``G`` games (see the module docstring)."""

    cell: IntArray
    facing: IntArray
    damage: IntArray
    alive: BoolArray
    wreck: BoolArray
    wreck_cells: BoolArray
    round: IntArray
    over: BoolArray
    winner: IntArray
    end: IntArray
    kills: IntArray
    tie_base: BoolArray  # [g, u]: tanks on the enemy line at the end of a tying round
    rm_left: IntArray  # [g, u]: repairs left of each R/M (rule option rm_repair)


class BatchGame:
    """Vectorised rounds of one scenario (built on the reference ``Game``)."""

    def __init__(self, game: Game) -> None:
        units = game.scenario.units
        self.game = game
        self.n_units = len(units)
        self.size = game.board.size
        self.kind = np.array([_CODES[u.kind] for u in units], dtype=np.int64)
        self.side = np.array([u.side.index for u in units], dtype=np.int64)
        self.hits = np.array([DATA.units[u.kind].hits for u in units], dtype=np.int64)
        self.blocks = np.array([DATA.units[u.kind].blocks_fire for u in units], dtype=bool)
        self.is_tank = self.kind == TANK
        # [u, v]: units u and v may not trade cells (two tanks, or a tank and an R/M)
        blocker = self.is_tank | (self.kind == RM)
        self.no_swap = (
            blocker[:, None] & blocker[None, :] & (self.is_tank[:, None] | self.is_tank[None, :])
        )
        self.is_at = self.kind == AT
        self.is_rm = self.kind == RM
        self.goal = np.zeros((2, self.size), dtype=bool)
        for s in (0, 1):
            for c in range(self.size):
                self.goal[s, c] = bool(game.goal_mask[s] >> c & 1)
        self.had_tanks = np.array(game.had_tanks, dtype=bool)
        self.wrecks = game.wrecks
        self.max_rounds = game.max_rounds
        sharing = dict(DATA.sharing.max_per_kind)
        self.max_units = DATA.sharing.max_units
        self.max_kind = np.array(
            [sharing.get("tank", 1), sharing.get("at", 1), sharing.get("rm", 1)], dtype=np.int64
        )
        self.forbid_tank_rm = any(set(p) == {"tank", "rm"} for p in DATA.sharing.forbidden_pairs)
        # one-hot of (side, kind) per unit: column side * 3 + kind
        self.onehot = np.zeros((self.n_units, 6), dtype=np.int64)
        self.onehot[np.arange(self.n_units), self.side * 3 + self.kind] = 1
        self.onehot_f = self.onehot.astype(np.float32)
        self.enemies = self.side[:, None] != self.side[None, :]  # [shooter, target]
        self.has_at = bool(self.is_at.any())
        self.side_onehot = np.stack([self.side == 0, self.side == 1], axis=1).astype(np.int64)
        self.goal_of = self.goal[self.side]  # [u, cell]: the goal cells of unit u's side
        # Extra Forces R/M repair (engine_advanced): only in games with an R/M
        self.repair_on = "rm_repair" in game.adv.on
        self.same_side = ~self.enemies

    def initial(self, games: int) -> BatchState:
        """``games`` copies of the scenario's starting position."""
        ref = self.game.initial_state()
        g = games
        cell = np.tile(np.array(ref.cell, dtype=np.int64), (g, 1))
        wreck = np.tile(np.array(ref.wreck, dtype=bool), (g, 1))
        wreck_cells = np.zeros((g, self.size), dtype=bool)
        if self.wrecks:
            for u in np.nonzero(wreck[0])[0]:
                wreck_cells[:, cell[0, u]] = True
        end = END_CODES.index(ref.end or "")
        return BatchState(
            cell=cell,
            facing=np.tile(np.array([int(f) for f in ref.facing], dtype=np.int64), (g, 1)),
            damage=np.tile(np.array(ref.damage, dtype=np.int64), (g, 1)),
            alive=np.tile(np.array(ref.alive, dtype=bool), (g, 1)),
            wreck=wreck,
            wreck_cells=wreck_cells,
            round=np.zeros(g, dtype=np.int64),
            over=np.full(g, ref.over, dtype=bool),
            winner=np.full(g, -1 if ref.winner is None else ref.winner.index, dtype=np.int64),
            end=np.full(g, end, dtype=np.int64),
            kills=np.zeros((g, 2), dtype=np.int64),
            tie_base=np.zeros((g, self.n_units), dtype=bool),
            rm_left=np.tile(
                np.array([ref.adv.rm_left.get(u, 0) for u in range(self.n_units)], dtype=np.int64),
                (g, 1),
            ),
        )

    # --- one round ---------------------------------------------------------------------
    def apply(
        self,
        st: BatchState,
        dest: IntArray,
        dest_facing: IntArray,
        shells: IntArray,
        repair: BoolArray | None = None,
    ) -> tuple[IntArray, IntArray, IntArray, IntArray]:
        """Play one round in every unfinished game (module docstring)."""
        active = ~st.over
        alive = st.alive & active[:, None]
        origin = st.cell
        stay = dest == origin
        moving = alive & ~stay
        # an order that keeps the cell may turn (an AT turning in place)
        st.facing = np.where(alive & stay, dest_facing, st.facing)
        pair = None  # [g, u]: damaged tanks and R/Ms with repairs left (may pair up)
        if self.repair_on:
            pair = alive & ((self.is_tank & (st.damage > 0)) | (self.is_rm & (st.rm_left > 0)))
        moving = self._resolve(alive, origin, dest, moving, pair)
        st.cell = np.where(moving, dest, origin)
        st.facing = np.where(moving, dest_facing, st.facing)
        cell = st.cell
        events: list[Event] = []
        # enemy tanks that moved onto enemy ATs eliminate them (only maps with ATs)
        if self.has_at:
            same = cell[:, :, None] == cell[:, None, :]  # [g, u, v]
            tank_in = moving & self.is_tank
            run_over = (
                same
                & tank_in[:, :, None]
                & (alive & self.is_at)[:, None, :]
                & (self.side[:, None] != self.side[None, :])[None, :, :]
            )
            victims = run_over.any(axis=1)
            if victims.any():
                gv, vv = np.nonzero(victims)
                by = run_over[gv, :, vv].argmax(axis=1)
                self._knock_out(st, gv, vv, by, events)
                alive = st.alive & active[:, None]
        # R/Ms repairing this round: knocked out with their tank, they stay as wrecks
        repairing = None
        if repair is not None and self.repair_on and (repair & alive).any():
            repairing = self._partners(st, repair & alive, alive)
        # hits, shell by shell (unit slot order; the result does not depend on it)
        rows = np.arange(len(cell))
        # shells that could hit something in some game (units only leave play below, so
        # the shells skipped here would hit nothing in the loop either)
        fire_all = (shells >= 0) & active[:, None]  # [g, s]
        could = (
            (cell[:, None, :] == shells[:, :, None])
            & alive[:, None, :]
            & fire_all[:, :, None]
            & self.enemies[None, :, :]
        ).any(axis=(0, 2))
        for s in np.nonzero(could)[0].tolist():
            target = shells[:, s]
            fire = (target >= 0) & active
            here = alive & (cell == target[:, None]) & (self.side != self.side[s]) & fire[:, None]
            hit_any = here.any(axis=1)
            if not hit_any.any():
                continue
            tanks = here & self.is_tank
            has_tank = tanks.any(axis=1)
            if has_tank.any():
                g = rows[has_tank]
                t = tanks[has_tank].argmax(axis=1)
                st.damage[g, t] += 1
                dead = st.damage[g, t] >= self.hits[t]
                if dead.any():
                    gd = g[dead]
                    sub = here[gd]
                    gg, uu = np.nonzero(sub)
                    self._knock_out(st, gd[gg], uu, np.full(len(uu), s), events, repairing)
            rest = hit_any & ~has_tank
            if rest.any():
                g = rows[rest]
                ats = here[rest] & self.is_at
                pick = np.where(ats.any(axis=1), ats.argmax(axis=1), here[rest].argmax(axis=1))
                st.damage[g, pick] += 1
                dead = st.damage[g, pick] >= self.hits[pick]
                if dead.any():
                    self._knock_out(st, g[dead], pick[dead], np.full(int(dead.sum()), s), events)
            alive = st.alive & active[:, None]
        if repairing is not None and repair is not None:
            self._repair(st, repair & st.alive & active[:, None])
        st.round = st.round + active
        self._check_end(st, active)
        if events:
            return (
                np.concatenate([e[0] for e in events]),
                np.concatenate([e[1] for e in events]),
                np.concatenate([e[2] for e in events]),
                np.concatenate([e[3] for e in events]),
            )
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty

    def _partners(self, st: BatchState, declared: BoolArray, alive: BoolArray) -> BoolArray:
        """[g, v]: R/M ``v`` has repairs left and shares its cell with a ``declared`` own
        damaged tank in play (``engine_advanced.Advanced.repair_partner``)."""
        tanks = declared & self.is_tank & (st.damage > 0) & alive
        rms = alive & self.is_rm & (st.rm_left > 0)
        with_tank = (
            (st.cell[:, :, None] == st.cell[:, None, :])
            & tanks[:, None, :]
            & self.same_side[None, :, :]
        ).any(axis=2)
        out: BoolArray = rms & with_tank
        return out

    def _repair(self, st: BatchState, declared: BoolArray) -> None:
        """After the hits: each declared tank still in play with an R/M partner is
        undamaged, and that R/M has one repair fewer (``Advanced.finish``)."""
        rms = self._partners(st, declared, st.alive)
        if not rms.any():
            return
        tanks = (
            (
                (st.cell[:, :, None] == st.cell[:, None, :])
                & rms[:, None, :]
                & self.same_side[None]
            ).any(axis=2)
            & declared
            & self.is_tank
            & (st.damage > 0)
        )
        st.damage[tanks] = 0
        st.rm_left[rms] -= 1

    def _knock_out(
        self,
        st: BatchState,
        g: IntArray,
        u: IntArray,
        by: IntArray,
        events: list[Event],
        repairing: BoolArray | None = None,
    ) -> None:
        fresh = st.alive[g, u]
        g, u, by = g[fresh], u[fresh], by[fresh]
        if not len(g):
            return
        st.alive[g, u] = False
        np.add.at(st.kills, (g, self.side[by]), 1)
        cells = st.cell[g, u]
        if self.wrecks:
            tank = self.is_tank[u]
            if repairing is not None:  # an R/M hit while repairing stays as a wreck
                tank = tank | repairing[g, u]
            st.wreck[g[tank], u[tank]] = True
            st.wreck_cells[g[tank], cells[tank]] = True
        events.append((g, u, cells, by))

    def _resolve(
        self,
        alive: BoolArray,
        origin: IntArray,
        dest: IntArray,
        moving: BoolArray,
        pair: BoolArray | None = None,
    ) -> BoolArray:
        """Bounce movers until every cell holds an allowed group (reference: engine.py).
        Only games with a shared cell or a possible swap are examined (most have none)."""
        n_units = self.n_units
        spread = np.arange(n_units)
        # games still to examine: a game none of whose movers bounced is settled (its
        # movers, hence its cells, stay as they are)
        todo = np.nonzero(moving.any(axis=1))[0]
        moving = moving.copy()
        while len(todo):
            mv, og, de = moving[todo], origin[todo], dest[todo]
            pos = np.where(mv, de, og)
            keyed = np.where(alive[todo], pos, -1 - spread)  # out-of-play units never collide
            ordered = np.sort(keyed, axis=1)
            shared = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
            # a swap needs a mover whose (dest, origin) is another mover's (origin, dest)
            span = self.size * self.size
            base = (np.arange(len(pos)) * span)[:, None]
            fwd = np.where(mv, base + og * self.size + de, -1 - spread)
            rev = np.where(mv, base + de * self.size + og, -2 - n_units - spread)
            flat = np.sort(fwd.ravel())
            at = np.minimum(np.searchsorted(flat, rev.ravel()), len(flat) - 1)
            swaps = (flat[at] == rev.ravel()).reshape(rev.shape).any(axis=1)
            rows = todo[shared | swaps]
            if not len(rows):
                break
            bounce = self._bounces(
                alive[rows],
                origin[rows],
                dest[rows],
                moving[rows],
                None if pair is None else pair[rows],
            )
            moving[rows] &= ~bounce
            todo = rows[bounce.any(axis=1)]
        return moving

    def _bounces(
        self,
        alive: BoolArray,
        origin: IntArray,
        dest: IntArray,
        moving: BoolArray,
        pair: BoolArray | None = None,
    ) -> BoolArray:
        """Which movers of these games must stay this iteration (swaps, bad groups);
        ``pair``: units that may form an R/M repair pair (a damaged tank, an R/M with
        repairs left), or ``None`` when R/M repair is off."""
        side = self.side
        pos = np.where(moving, dest, origin)
        swap = (
            moving[:, :, None]
            & moving[:, None, :]
            & (dest[:, :, None] == origin[:, None, :])
            & (dest[:, None, :] == origin[:, :, None])
            & self.no_swap[None, :, :]
        ).any(axis=2)
        same = (pos[:, :, None] == pos[:, None, :]) & alive[:, None, :] & alive[:, :, None]
        # [g, u, side*3+kind] (a float matmul runs on BLAS; the counts are small ints)
        counts = np.rint(same.astype(np.float32) @ self.onehot_f).astype(np.int64)
        mt = moving & self.is_tank
        mt_side = np.stack(
            [(same & (mt & (side == s))[:, None, :]).any(axis=2) for s in (0, 1)], axis=2
        )  # [g, u, s]: a moving tank of side s ends on u's cell
        t0, a0, r0 = counts[:, :, 0], counts[:, :, 1], counts[:, :, 2]
        t1, a1, r1 = counts[:, :, 3], counts[:, :, 4], counts[:, :, 5]
        a0 = np.where(mt_side[:, :, 1], 0, a0)  # ATs run over by a moving enemy tank
        a1 = np.where(mt_side[:, :, 0], 0, a1)
        n0, n1 = t0 + a0 + r0, t1 + a1 + r1
        bad = (n0 > 0) & (n1 > 0)
        # [g, u]: the units of each side on u's cell that may pair up for a repair
        if pair is not None:
            p0, p1 = ((same & (pair & (side == s))[:, None, :]).sum(axis=2) for s in (0, 1))
        for s, (t, a, r, n) in enumerate(((t0, a0, r0, n0), (t1, a1, r1, n1))):
            bad |= (
                (n > self.max_units)
                | (t > self.max_kind[TANK])
                | (a > self.max_kind[AT])
                | (r > self.max_kind[RM])
            )
            if self.forbid_tank_rm:
                mixed = (t > 0) & (r > 0)
                if pair is not None:  # alone together: a damaged tank and its R/M
                    mixed &= ~((t == 1) & (r == 1) & (a == 0) & ((p0, p1)[s] == 2))
                bad |= mixed
        result: BoolArray = moving & (bad | swap)
        return result

    def _check_end(self, st: BatchState, active: BoolArray) -> None:
        live_tank = st.alive & self.is_tank
        # per side counts [g, 2] (an integer product with the side one-hot: exact)
        tanks = live_tank.astype(np.int64) @ self.side_onehot
        at_goal = live_tank & self.goal_of[np.arange(self.n_units)[None, :], st.cell]
        # docs/rules.md §1.7: only a tank not on the line at the end of a tying round counts
        landed = ((at_goal & ~st.tie_base).astype(np.int64) @ self.side_onehot) > 0
        goal = active & (landed[:, 0] != landed[:, 1])
        tie = active & landed[:, 0] & landed[:, 1]
        st.tie_base = np.where(tie[:, None], at_goal, st.tie_base)
        lost = (tanks == 0) & self.had_tanks[None, :]
        annihilation = active & ~goal & (lost[:, 0] | lost[:, 1])
        limit = active & ~goal & ~annihilation & (st.round >= self.max_rounds)
        st.winner = np.where(goal, np.where(landed[:, 0], 0, 1), st.winner)
        decided = annihilation & (lost[:, 0] != lost[:, 1])
        st.winner = np.where(decided, np.where(lost[:, 0], 1, 0), st.winner)
        st.end = np.where(goal, 1, np.where(annihilation, 2, np.where(limit, 3, st.end)))
        st.over = st.over | goal | annihilation | limit
