"""The Red Cross action token (docs/rules.md §1.8; the rule book's "Red Cross") for the
reference engine.

Reading (docs/rules.md §1.8): once per game per side the token is laid at the end of a
round, after its hits ("at the end of any turn"), on a vacant cell (no unit, no wreck) of
the side's own half (own rows 1–6); it is seen by both. At the end of a *later* round
("only at the end of the next turn after it was placed" — never the round it was laid),
decided after that round's hits, the side may use it on one of its tanks
(``red_cross_repair``) that stands on the token's cell or one of its 8 neighbours while no
live enemy tank stands on the token's cell: a damaged tank loses its flame, and a tank
knocked out in that very round (its second hit) is back in play with one hit mark (no
wreck; the knock-out is not counted); the token then leaves the board. Shells on the
token's cell do not stop it; any unit may move onto it. Both decisions are taken by
``Game.apply_round``'s ``respond``, phase ``"hit"``; a checked round refuses a repair of
a tank that does not qualify.
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


def settle_red_cross(
    adv: Advanced, state: State, actions: Actions, report: RoundReport, check: bool
) -> None:
    """At the end of the round (after the hits): first the Red Cross repairs of tokens laid
    in an earlier round, then the tokens laid now. With ``check`` raise
    ``IllegalMoveError`` for a use the rules refuse; without, skip it."""
    b = state.game.board
    sides: list[int] = []
    for u in actions.red_cross_repair:
        ok = "red_cross" in adv.on and 0 <= u < len(state.kind) and _repairable(state, u, report)
        if not ok or state.side[u] in sides:
            if check:
                raise IllegalMoveError(f"unit #{u} cannot be repaired by a Red Cross now")
            continue
        sides.append(state.side[u])
        _repair(state, u, report, state.game.wrecks)
    for side, cell in actions.red_cross.items():
        if (
            not adv.may_use(state, side, "red_cross")
            or side in state.adv.crosses  # one on the board at a time (a second token waits)
            or cell not in red_cross_cells(state, side)
        ):
            if check:
                raise IllegalMoveError(
                    f"{SIDE_NAMES[side]} may not lay a Red Cross on {b.cell_name(cell)}"
                )
            continue
        adv.spend(state, side, "red_cross")
        state.adv.crosses[side] = cell


def repairable(state: State, report: RoundReport) -> list[int]:
    """The tanks a Red Cross on the board may repair now, at the end of a round (after
    ``report``'s hits)."""
    return [u for u in range(len(state.kind)) if _repairable(state, u, report)]


def _repairable(state: State, u: int, report: RoundReport) -> bool:
    """Tank ``u`` is damaged (or was knocked out this round), on or next to its side's
    token, and no live enemy tank stands on the token."""
    side = state.side[u]
    cross = state.adv.crosses.get(side)
    if cross is None or state.kind[u] != "tank":
        return False
    out = any(e[0] == u for e in report.knocked_out)
    if not (out or (state.alive[u] and state.damage[u] > 0)):
        return False
    b = state.game.board
    here = state.cell[u]
    if max(abs(b.col_of(here) - b.col_of(cross)), abs(b.row_of(here) - b.row_of(cross))) > 1:
        return False
    return not any(
        state.alive[v] and state.kind[v] == "tank" and state.side[v] != side
        for v in range(len(state.kind))
        if state.cell[v] == cross
    )


def _repair(state: State, u: int, report: RoundReport, wrecks: bool) -> None:
    """Remove tank ``u``'s flame, or bring it back with one hit if it was knocked out this
    round; the token leaves the board."""
    out = next((e for e in report.knocked_out if e[0] == u), None)
    if out is not None:  # "hit a second time ... continues the battle with a hit mark"
        report.knocked_out.remove(out)
        state.kills[out[2]] -= 1
        state.alive[u] = True
        state.wreck[u] = False
        if wrecks:
            state.wreck_mask &= ~(1 << state.cell[u])
        state.damage[u] = 1
    else:
        state.damage[u] = 0
    del state.adv.crosses[state.side[u]]
