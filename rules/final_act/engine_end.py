"""How a Final Act game ends (docs/rules.md §1.7): a tank landed on the enemy's last line,
a side without tanks, or the round limit; a tie on the line is decided by a further tank."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tankmap.rules.geometry import Side

if TYPE_CHECKING:
    from tankmap.rules.final_act.engine import Game, State

SIDES = (Side.SOUTH, Side.NORTH)
END_GOAL = "goal"
END_ANNIHILATION = "annihilation"
END_LIMIT = "limit"


def check_end(game: Game, state: State, arrived: list[int] | None = None) -> None:
    """Set ``state.winner``/``state.end`` when the game is over after the round just
    played (``arrived``: tanks that moved this round and were knocked out, for
    ``arrival_hit_wins``); a tie on the last line sets ``state.tie_base``."""
    # docs/rules.md §1.7: a side wins when one of its tanks ends a round on the enemy's
    # last line and the enemy's do not; both in one round is a tie, after which only a
    # *further* tank (one not on the line at the end of the tying round) decides —
    # knocking out or withdrawing a tank already there decides nothing.
    tanks = [0, 0]
    there: set[int] = set()
    for u, a in enumerate(state.alive):
        if a and state.kind[u] == "tank":
            s = state.side[u]
            tanks[s] += 1
            if game.goal_mask[s] >> state.cell[u] & 1:
                there.add(u)
    if game.readings.arrival_hit_wins:  # §1.8a: knocked out on arrival still lands
        for u in arrived or ():
            if game.goal_mask[state.side[u]] >> state.cell[u] & 1:
                there.add(u)
    base = state.tie_base or frozenset()
    landed = [any(state.side[u] == s and u not in base for u in there) for s in (0, 1)]
    if landed[0] != landed[1]:
        state.winner = SIDES[0] if landed[0] else SIDES[1]
        state.end = END_GOAL
        return
    if landed[0]:  # both: a (new) tie, play on
        state.tie_base = frozenset(there)
    if (tanks[0] == 0 and game.had_tanks[0]) or (tanks[1] == 0 and game.had_tanks[1]):
        lost = [tanks[s] == 0 and game.had_tanks[s] for s in (0, 1)]
        state.winner = None if lost[0] == lost[1] else SIDES[1] if lost[0] else SIDES[0]
        state.end = END_ANNIHILATION
    elif state.round >= game.max_rounds:
        state.end = END_LIMIT
