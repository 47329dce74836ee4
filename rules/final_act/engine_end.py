"""How a Final Act game ends (docs/rules.md §1.7): tanks landed on the enemy's last line,
a side without tanks, or the round limit; landings in one round by both sides are counted
(option ``simultaneous_landing``)."""

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
    ``arrival_hit_wins``), and ``state.tie_base`` to the tanks on the enemy's last line
    now (they do not land again next round)."""
    # docs/rules.md §1.7: a tank lands when it ends a round on the enemy's last line and
    # was not there at the end of the round before (``tie_base``; before round 1 every
    # tank there counts). The side that landed more tanks wins; equal counts (both sides
    # landing, or none) play on — knocking out or withdrawing a tank already on the line
    # decides nothing. Reading "tie": any round in which both sides land is a tie.
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
    before = state.tie_base or frozenset()
    landed = [0, 0]
    for u in there - before:
        landed[state.side[u]] += 1
    state.tie_base = frozenset(there)
    if game.readings.simultaneous_landing == "tie":
        decided = (landed[0] > 0) != (landed[1] > 0)
    else:
        decided = landed[0] != landed[1]
    if decided:
        state.winner = SIDES[0] if landed[0] > landed[1] else SIDES[1]
        state.end = END_GOAL
        return
    if (tanks[0] == 0 and game.had_tanks[0]) or (tanks[1] == 0 and game.had_tanks[1]):
        lost = [tanks[s] == 0 and game.had_tanks[s] for s in (0, 1)]
        state.winner = None if lost[0] == lost[1] else SIDES[1] if lost[0] else SIDES[0]
        state.end = END_ANNIHILATION
    elif state.round >= game.max_rounds:
        state.end = END_LIMIT
