"""Hits on a cell that two units of a side share, and the end of a side whose tanks are all
wrecks (docs/rules.md §1.4 step 4, §1.6, §1.7), on the reference engine and on the compiled
kernel's rules (``kernel.orders.given_rounds``).

Rule text: "every unit that ends the round on a shelled cell (moved there or stayed) is hit";
"AT and R/M — out at the first hit"; the only units spared are the AT a tank covers ("if a
tank and an AT share a hit cell, the tank takes the hit") and one of two ATs ("one is out per
shell"). An AT does not cover the R/M it shares a cell with. "A side with no tanks left
loses": a side whose tanks are all wrecks has none left."""

from __future__ import annotations

import numpy as np
import pytest
from advanced_support import FAR, N, S, at, c, game, play, rm, tank

from tankmap.analysis.simulation.final_act.kernel.base import available
from tankmap.analysis.simulation.final_act.kernel.orders import given_rounds
from tankmap.analysis.simulation.final_act.kernel.tables import END_CODES
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.rules.final_act.engine import Game, State

needs_kernel = pytest.mark.skipif(not available(), reason="numba is not installed")


def at_and_rm() -> Game:
    # South AT (2) and R/M (3) share f5; north tank C (4) on f8 faces S: f5 is 3 straight
    # ahead with f7 and f6 empty, inside its cone.
    return game(*FAR, at(S, "f5"), rm(S, "f5"), tank(N, "f8", "C"))


def kernel_after(g: Game, shells: dict[int, str]) -> tuple[list[bool], str, int]:
    """Alive flags, end and winner index (-1: none) after one round of the kernel's
    rules in which nobody moves and ``shells`` land."""
    st = g.initial_state()
    n = len(st.kind)
    dest = np.array([st.cell], dtype=np.int64)
    facing = np.array([[int(f) for f in st.facing]], dtype=np.int64)
    fired = np.array([[c(shells[u]) if u in shells else -1 for u in range(n)]], dtype=np.int64)
    got = given_rounds(Prepared(g), st, dest, facing, fired, np.zeros((1, n), dtype=bool))
    return got.alive[0].tolist(), END_CODES[int(got.end[0])], int(got.winner[0])


def test_one_shell_on_an_at_and_the_rm_takes_out_both() -> None:
    g = at_and_rm()
    st = g.initial_state()
    play(g, st, shells={4: "f5"})
    assert st.alive == [True, True, False, False, True]
    assert st.kills == [0, 2]


def test_a_tank_covers_the_at_with_it_but_the_rm_elsewhere_is_hit() -> None:
    # The control: an undamaged south tank with its AT on f5 is damaged, the AT kept; an R/M
    # alone on e5, shelled by north's 1 from e8, is out.
    g = game(
        *FAR, tank(S, "f5", "C"), at(S, "f5"), rm(S, "e5"), tank(N, "f8", "C"), tank(N, "e8", "1")
    )
    st = g.initial_state()
    play(g, st, shells={5: "f5", 6: "e5"})
    assert st.alive == [True, True, True, True, False, True, True]
    assert st.damage[2] == 1


@needs_kernel
def test_the_kernel_hits_the_at_and_the_rm_too() -> None:
    alive, end, _ = kernel_after(at_and_rm(), {4: "f5"})
    assert alive == [True, True, False, False, True] and end == ""


def all_wrecks() -> Game:
    # South's tanks C (e5) and 1 (g5) are wrecks from an earlier round (a saved position);
    # its AT on c2 lives. North's C on l12 is far from everything.
    return game(
        tank(S, "e5", "C", wreck=True),
        tank(S, "g5", "1", wreck=True),
        at(S, "c2"),
        tank(N, "l12", "C"),
    )


def test_a_side_whose_tanks_are_all_wrecks_has_already_lost() -> None:
    # as the ruleset's ``finished`` says of the same position
    st: State = all_wrecks().initial_state()
    assert st.over and st.end == "annihilation" and st.winner is N


@needs_kernel
def test_the_kernel_ends_that_game_after_a_round() -> None:
    # (the kernel is never started on a finished position: its callers check ``finished``
    # first; played from there anyway, it ends the game at its first end check)
    _, end, winner = kernel_after(all_wrecks(), {})
    assert end == "annihilation" and winner == N.index
