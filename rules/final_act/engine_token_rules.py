"""The Final Act action tokens' own rules (docs/rules.md §1.8): their share-out, full
throttle and smoke — the readings are in ``engine_advanced``'s module docstring. A mixin of
``engine_advanced.Advanced``, which provides the game, the options and ``may_use``/``spend``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.final_act.engine_actions import SIDE_NAMES, Actions
from tankmap.rules.final_act.engine_tokens import Hands, Picker, check_hands, deal
from tankmap.rules.final_act.tables import Order
from tankmap.rules.geometry import Facing

if TYPE_CHECKING:
    from tankmap.rules.final_act.engine import Game, RoundReport, State


class TokenRules:
    """Full throttle, smoke and the share-out, for ``engine_advanced.Advanced``."""

    game: Game
    in_play: list[str]
    share: str
    each: int
    smoke_blocks_owner: bool
    throttle_after_moves: bool  # option throttle_passed "after-moves"

    def may_use(self, state: State, side: int, name: str) -> bool:
        raise NotImplementedError  # Advanced.may_use

    def spend(self, state: State, side: int, name: str) -> None:
        raise NotImplementedError  # Advanced.spend

    def deal(self, state: State, rng: np.random.Generator, picker: Picker | None = None) -> None:
        """Share the action tokens out for a new game (option ``token_share``,
        ``engine_tokens``; nothing to do for equal sets). Draws on ``rng`` only then."""
        if self.share != "equal" and self.in_play:
            self.set_hands(state, deal(self.in_play, self.share, self.each, rng, picker))

    def set_hands(self, state: State, hands: Hands) -> None:
        """Give the sides these hands (a new game's deal, or a record's);
        ``IllegalMoveError`` for tokens not in play or more than two of one."""
        check_hands(hands, self.in_play)
        state.adv.held = (dict(hands[0]), dict(hands[1]))
        state.adv.dealt = (dict(hands[0]), dict(hands[1]))

    def throttle_orders(self, state: State, u: int) -> list[Order]:
        """The orders tank ``u`` could give with full throttle: its one-cell moves that
        keep its facing (docs/rules.md §1.8; ``throttle_end`` says where each ends)."""
        if state.kind[u] != "tank" or not state.alive[u]:
            return []
        here, facing = state.cell[u], state.facing[u]
        return [o for o in state.orders(u) if o[0] != here and o[1] == facing]

    def throttle_end(self, state: State, u: int, order: Order) -> int:
        """Where tank ``u`` ends with full throttle and one-cell ``order``: two cells on when
        a normal move from the first cell could enter the second and the first holds no
        tank, R/M or wreck now (with ``throttle_passed`` ``after-moves`` only a wreck counts
        now: ``settle_throttle`` judges the units once the moves are made); else the first
        cell (the order itself)."""
        g = self.game
        b = g.board
        here, facing = state.cell[u], state.facing[u]
        to = order[0]
        if state.kind[u] != "tank" or order[1] != facing or to == here:
            return to
        if state.wreck_mask >> to & 1 or (
            not self.throttle_after_moves
            and any(
                state.alive[v] and state.cell[v] == to and state.kind[v] in ("tank", "rm")
                for v in range(len(state.kind))
            )
        ):
            return to
        end = b.offset(to, b.col_of(to) - b.col_of(here), b.row_of(to) - b.row_of(here))
        tables = state.adv.tables[state.side[u]] or g.tables
        avoid = state.wreck_mask | state.no_entry
        side = g.sides[state.side[u]]
        if end >= 0 and (end, facing) in tables.orders("tank", side, to, facing, avoid):
            return end
        return to

    def throttle_ends(
        self, state: State, orders: list[Order | None], actions: Actions
    ) -> dict[int, int]:
        """``{tank: end cell}`` of the round's full-throttle tanks (``throttle_end``)."""
        out = {}
        for u in actions.full_throttle:
            o = orders[u] if 0 <= u < len(orders) else None
            if o is not None and state.alive[u]:
                out[u] = self.throttle_end(state, u, o)
        return out

    def settle_throttle(
        self,
        state: State,
        orders: list[Order | None],
        ahead: dict[int, int],
        dest: list[int],
        movers: list[int],
        bounced: list[int],
        resolve: Callable[[list[int], list[int], list[int]], None],
    ) -> None:
        """Judge the round's conflicts (``resolve(dest, movers, bounced)``, which changes
        its lists as ``engine_conflicts.resolve``) with the full-throttle tanks ``ahead``
        (``{tank: end cell}``, ``throttle_ends``) going where they end. With
        ``throttle_passed`` ``after-moves`` a tank whose passed cell is held once the moves
        are made (a tank or the R/M ends there, or a wreck lies there) is given its
        one-cell order instead and the conflicts are judged again from the orders, until
        no more tank falls back."""
        ordered, ordered_movers = dest[:], movers[:]
        fallen: set[int] = set()
        while True:
            resolve(dest, movers, bounced)
            if not self.throttle_after_moves:
                return
            held = state.wreck_mask
            for v, alive in enumerate(state.alive):
                if alive and state.kind[v] in ("tank", "rm"):
                    held |= 1 << dest[v]
            late = []
            for u, end in ahead.items():
                first = orders[u]
                if first is None or end == first[0] or dest[u] != end:
                    continue  # no full throttle, or the tank does not go (conflict)
                if held >> first[0] & 1:
                    late.append(u)
            if not late:
                return
            fallen.update(late)
            dest[:] = ordered
            for u in fallen:
                first = orders[u]
                if first is not None:
                    dest[u] = first[0]
            movers[:] = ordered_movers
            bounced.clear()

    def smoke_cells(self, state: State, side: int) -> list[int]:
        """Vacant cells next to one of ``side``'s live tanks (where its smoke may go)."""
        b = self.game.board
        taken = state.wreck_mask
        for u, a in enumerate(state.alive):
            if a:
                taken |= 1 << state.cell[u]
        out: set[int] = set()
        for u, a in enumerate(state.alive):
            if a and state.kind[u] == "tank" and state.side[u] == side:
                for dx in (-1, 0, 1):
                    for dy in (-1, 0, 1):
                        c = b.offset(state.cell[u], dx, dy)
                        if c >= 0 and not taken >> c & 1:
                            out.add(c)
        return sorted(out)

    def lay_smoke(
        self,
        state: State,
        actions: Actions,
        fired: list[tuple[int, int, int]],
        start: tuple[list[int], list[Facing], int],
        report: RoundReport,
        check: bool,
    ) -> list[tuple[int, int, int]]:
        """After the moves: lay the round's smoke (vacant cell next to an own live tank)
        and return the ``(shooter, target, side)`` shells it does not stop. ``start`` is
        the shooters' cells, facings and fire blockers when the shells were placed. With
        ``check`` raise ``IllegalMoveError`` for smoke the rules refuse (else skip it)."""
        if not actions.smoke:
            return fired
        by_side = [0, 0]
        for side, cell in actions.smoke.items():
            if not self.may_use(state, side, "smoke") or cell not in self.smoke_cells(state, side):
                if check:
                    raise IllegalMoveError(
                        f"{SIDE_NAMES[side]} may not lay smoke on "
                        f"{self.game.board.cell_name(cell)} after the moves"
                    )
                continue
            self.spend(state, side, "smoke")
            by_side[side] |= 1 << cell
        state.smoke = by_side[0] | by_side[1]
        cells, facings, blockers = start
        kept = []
        for shooter, target, by in fired:
            smoke = state.smoke if self.smoke_blocks_owner else by_side[1 - by]
            if shooter >= 0 and smoke:
                zone = state.zone_at(shooter, cells[shooter], facings[shooter], blockers | smoke)
            if shooter >= 0 and smoke and target not in zone:
                report.stopped.append((shooter, target))
                continue
            kept.append((shooter, target, by))
        return kept
