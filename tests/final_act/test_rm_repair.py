"""Extra Forces R/M repair (docs/rules.md §1.3; seed 001 "Repairing a damaged tank") in the
reference engine: on by default with Extra Forces, the wreck reading of "both are eliminated
... and remain on the board as wrecks", the ordinary rules when no repair is declared, and
the pair sharing after the repair. (The texts' other points — both stay, no shell, the R/M
cannot move and repair, at most 2 repairs — are in test_advanced.py.)

Geometry: the north tank on f8 facing S covers f3 (f = 5, s = 0: 0 + |5 - 3| <= 3) and f2
(f = 6: 0 + 3 <= 3), the line of fire running down column f (f7 .. f4 empty). Unit indices:
0 and 1 are the far tanks of ``FAR``, 2 the south tank C on f3, 3 its R/M, 4 the north tank.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from advanced_support import FAR, N, S, c, game, play, rm, tank

from tankmap.analysis.simulation.games import get_driver
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.final_act.engine import Game
from tankmap.rules.final_act.engine_advanced import Actions
from tankmap.rules.geometry import Facing

ROOT = Path(__file__).resolve().parents[2]


def pair(damage: int = 1, **options: object) -> Game:
    """South's damaged C and its R/M sharing f3, the north tank 1 on f8 facing S."""
    return game(*FAR, tank(S, "f3", "C", damage), rm(S, "f3"), tank(N, "f8", "1"), **options)


def test_on_by_default_with_extra_forces() -> None:
    # No option given: "R/M repair is part of Extra Forces". The side declares "Tank C
    # repaired": both stay on f3, and at the end of the round the flame is gone and the R/M
    # has 2 - 1 = 1 repair left.
    g = pair()
    assert "rm_repair" in g.adv.on
    st = g.initial_state()
    play(g, st, actions=Actions(rm_repair=[2]))
    assert st.cell[2] == st.cell[3] == c("f3")
    assert st.damage[2] == 0 and st.alive[2] and st.alive[3]
    assert st.adv.rm_left[3] == 1


def test_without_an_rm_the_option_is_not_in_play() -> None:
    # Base-game units only: nothing can repair, so no advanced rule is on and the fast
    # engines play the game (no fallback to the reference policies).
    g = game(*FAR, tank(S, "f3", "C", 1), extra_forces=False)
    assert not g.adv
    mirror = read_scenario(ROOT / "maps" / "final-act" / "mirror.json")
    driver = get_driver("final-act")
    assert not Game(mirror).adv
    assert driver.batched(("heuristic", "random"), driver.prepare(mirror))  # type: ignore[attr-defined]


def test_extra_forces_maps_keep_the_fast_engines() -> None:
    extra = read_scenario(ROOT / "maps" / "final-act" / "extra-forces.json")
    driver = get_driver("final-act")
    prep = driver.prepare(extra)
    assert "rm_repair" in prep.game.adv.on
    assert driver.batched(("heuristic", "random"), prep)  # type: ignore[attr-defined]
    assert driver.fallback_note(extra, ("heuristic", "heuristic")) is None  # type: ignore[attr-defined]
    # another advanced option still falls back, and the note names only that one
    smoky = extra.with_options(smoke=True)
    assert not driver.batched(("heuristic", "random"), driver.prepare(smoky))  # type: ignore[attr-defined]
    note = driver.fallback_note(smoky, ("heuristic", "heuristic"))  # type: ignore[attr-defined]
    assert note is not None and "smoke" in note and "rm_repair" not in note


@pytest.mark.parametrize("wrecks", [True, False])
def test_hit_during_the_repair_leaves_both_as_wrecks(wrecks: bool) -> None:
    # North's shell lands on f3 in the repair round. The tank takes the hit (§1.6), its
    # second: out; the R/M is out with it, and "both ... remain on the board as wrecks" —
    # with the wrecks option on. Off, wrecks are removed like any knocked-out unit.
    g = pair(wrecks=wrecks)
    st = g.initial_state()
    play(g, st, shells={4: "f3"}, actions=Actions(rm_repair=[2]))
    assert not st.alive[2] and not st.alive[3]
    assert st.wreck[2] is wrecks and st.wreck[3] is wrecks
    assert st.kills == [0, 2] and st.adv.rm_left[3] == 2  # no repair was made
    assert bool(st.wreck_mask >> c("f3") & 1) is wrecks
    # the wreck cell blocks the north tank's line of fire to f2 behind it
    assert (c("f2") in st.fire_zone(4)) is not wrecks
    units = {(u.kind, u.cell, u.wreck) for u in st.to_units()}
    assert (("rm", c("f3"), True) in units) is wrecks


def test_hit_on_the_pair_without_a_declared_repair_follows_the_ordinary_rules() -> None:
    # The pair shares f3 but no repair is declared this round: the tank takes the hit, its
    # second, so it is out (a wreck) and the unit on its cell goes with it; the R/M, not
    # repairing, is removed like any R/M (§1.6).
    g = pair()
    st = g.initial_state()
    play(g, st, shells={4: "f3"})
    assert not st.alive[2] and st.wreck[2]
    assert not st.alive[3] and not st.wreck[3]


def test_the_repaired_pair_may_keep_sharing_until_one_leaves() -> None:
    # Reading (docs/rules.md): after the repair the undamaged tank and the R/M may stay
    # together; a hit then is the tank's first (it takes the hit, the R/M is unharmed).
    g = pair()
    st = g.initial_state()
    play(g, st, actions=Actions(rm_repair=[2]))
    play(g, st)
    assert st.cell[2] == st.cell[3] == c("f3")
    play(g, st, shells={4: "f3"})
    assert st.damage[2] == 1 and st.alive[2] and st.alive[3]
    # repaired again (the second and last repair), then the R/M leaves forward to f4 ...
    play(g, st, actions=Actions(rm_repair=[2]))
    play(g, st, {3: ("f4", Facing.N)})
    assert st.cell[3] == c("f4") and st.damage[2] == 0
    # ... and may not come back: the tank is undamaged (and the R/M has no repair left)
    play(g, st, {3: ("f3", Facing.N)})
    assert st.cell[3] == c("f4")
