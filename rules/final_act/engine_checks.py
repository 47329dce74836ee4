"""The checked path of a Final Act round (``Game.play_round``): orders made plain
(docs/rules.md §1.5: a straight move ordered with a turn is the plain move) and every order,
shell and declaration checked against the rules before the round is played."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.final_act.engine_actions import Actions
from tankmap.rules.final_act.tables import Order

if TYPE_CHECKING:
    from tankmap.rules.final_act.engine import Game, State


def plain_orders(game: Game, state: State, orders: list[Order | None]) -> list[Order | None]:
    """``orders`` with docs/rules.md §1.5 applied: a tank's or the R/M's straight move
    (forward or back along its facing) ordered with a turn is the plain move, without
    the turn. Other orders are returned unchanged (the same list if none changes)."""
    out = orders
    board = game.board
    for u, order in enumerate(orders):
        if order is None or state.kind[u] == "at" or not state.alive[u]:
            continue
        to, facing = order
        here, now = state.cell[u], state.facing[u]
        if to == here or facing == now:
            continue
        dc = board.col_of(to) - board.col_of(here)
        dr = board.row_of(to) - board.row_of(here)
        if dc * now.dy == dr * now.dx:  # along the facing's axis: a straight move
            if out is orders:
                out = list(orders)
            out[u] = (to, now)
    return out


def check_round(
    game: Game,
    state: State,
    orders: list[Order | None],
    shells: dict[int, int],
    actions: Actions | None,
) -> None:
    """``Game.play_round``'s checks (places the round's tokens on ``state`` first); raises
    ``IllegalMoveError`` naming the unit and what it may not do."""
    names = game.scenario.units
    if actions is not None:
        for u in actions.at_spared:  # docs/rules.md §1.6: the owner keeps this AT
            if not (0 <= u < len(state.kind) and state.alive[u] and state.kind[u] == "at"):
                raise IllegalMoveError(f"unit #{u} is no AT in play to spare")
        if not replace(actions, at_spared=[]).empty():
            if not game.adv:
                raise IllegalMoveError("no advanced rule (docs/rules.md §1.8) is on in this game")
            game.adv.begin(state, actions, check=True)
    for u, order in enumerate(orders):
        if state.must_leave(u) and (order is None or order[0] == state.cell[u]):
            if (state.cell[u], state.facing[u]) not in state.orders(u):  # it has a move
                raise IllegalMoveError(
                    f"{names[u].label}: must leave the cell it shares with a repaired "
                    "tank (repaired_pair=rm-leaves)"
                )
        if order is not None and state.alive[u] and order not in state.orders(u):
            raise IllegalMoveError(f"{names[u].label}: illegal order {_order_name(game, order)}")
    blockers = state.blockers()
    for u, target in shells.items():
        if not 0 <= u < len(state.kind) or not state.can_fire(u, orders[u]):
            raise IllegalMoveError(f"unit #{u} may not fire this round")
        if target not in state.fire_zone(u, blockers):
            raise IllegalMoveError(
                f"{names[u].label}: {game.board.cell_name(target)} is not in its fire zone"
            )
    if game.adv:
        game.adv.check(state, orders, shells, actions or Actions(), blockers)


def _order_name(game: Game, order: Order) -> str:
    return f"{game.board.cell_name(order[0])}{order[1].name}"
