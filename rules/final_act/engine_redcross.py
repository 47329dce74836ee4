"""The Red Cross action token (docs/rules.md §1.8; seed 000 "Red Cross") for the reference engine.

Reading chosen (also in ``engine_advanced`` and /work/notes/discrepancies.md): once per game
per side the token is laid at the start of a round (= "at the end of" the previous turn,
before orders, seen by both) on a vacant cell (no unit, no wreck) of the side's own half
(own rows 1–6). From the end of that round on, at the end of a round the side may use it
for one of its tanks named in that round's actions (``red_cross_repair``), decided with the
orders: if at the end of the round the tank stands on the token's cell or one of its 8
neighbours and no live enemy tank stands on the token's cell, then a damaged tank loses its
flame, and a tank knocked out in that very round (its second hit) is back in play with one
hit mark (no wreck; the knock-out is not counted); the token then leaves the board. If the
named tank does not qualify nothing happens and the token stays. Shells on the token's cell
do not stop it; any unit may move onto it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.final_act.data import DATA
from tankmap.rules.final_act.engine_actions import SIDE_NAMES, Actions

if TYPE_CHECKING:
    from tankmap.rules.final_act.engine import RoundReport, State
    from tankmap.rules.final_act.engine_advanced import Advanced


def red_cross_cells(state: State, side: int) -> list[int]:
    """Vacant cells of ``side``'s own half where its Red Cross token may go."""
    b = state.game.board
    taken = state.wreck_mask
    for u, a in enumerate(state.alive):
        if a:
            taken |= 1 << state.cell[u]
    return [
        cell
        for cell in range(b.size)
        if not taken >> cell & 1 and b.own_row(cell, side) <= DATA.half_rows
    ]


def place_red_cross(adv: Advanced, state: State, actions: Actions, check: bool) -> None:
    """Lay the round's Red Cross tokens (``Advanced.begin``)."""
    for side, cell in actions.red_cross.items():
        if check and (
            not adv.may_use(state, side, "red_cross") or cell not in red_cross_cells(state, side)
        ):
            raise IllegalMoveError(
                f"{SIDE_NAMES[side]} may not lay a Red Cross on {state.game.board.cell_name(cell)}"
            )
        state.adv.used[side].add("red_cross")
        state.adv.crosses[side] = cell


def check_red_cross(adv: Advanced, state: State, actions: Actions) -> None:
    """Refuse a Red Cross repair without a token on the board or of a non-tank/enemy unit."""
    sides = []
    for u in actions.red_cross_repair:
        if (
            "red_cross" not in adv.on
            or not 0 <= u < len(state.kind)
            or state.kind[u] != "tank"
            or not state.alive[u]
            or state.side[u] not in state.adv.crosses
        ):
            raise IllegalMoveError(f"unit #{u} cannot be named for a Red Cross repair now")
        sides.append(state.side[u])
    if len(sides) != len(set(sides)):
        raise IllegalMoveError("one Red Cross repair per side")


def activate_red_cross(state: State, actions: Actions, report: RoundReport, wrecks: bool) -> None:
    """At the end of the round (after the hits): repair the named tanks that qualify."""
    b = state.game.board
    for u in actions.red_cross_repair:
        side = state.side[u]
        cross = state.adv.crosses.get(side)
        if cross is None:
            continue
        here = state.cell[u]
        if max(abs(b.col_of(here) - b.col_of(cross)), abs(b.row_of(here) - b.row_of(cross))) > 1:
            continue
        if any(
            state.alive[v] and state.kind[v] == "tank" and state.side[v] != side
            for v in range(len(state.kind))
            if state.cell[v] == cross
        ):
            continue
        out = next((e for e in report.knocked_out if e[0] == u), None)
        if out is not None:  # "hit a second time ... continues the battle with a hit mark"
            report.knocked_out.remove(out)
            state.kills[out[2]] -= 1
            state.alive[u] = True
            state.wreck[u] = False
            if wrecks:
                state.wreck_mask &= ~(1 << here)
            state.damage[u] = 1
        elif state.alive[u] and state.damage[u] > 0:
            state.damage[u] = 0
        else:
            continue
        del state.adv.crosses[side]
