"""The repaired pair (docs/rules.md §1.8a ``repaired_pair``): §1.3 lets the R/M share a
cell with a tank only "while repairing". Default ``share``: after the repair the two may
stay together until one leaves (tested in test_rm_repair.py); ``rm-leaves``: the R/M must
leave the cell with its next order, while it has a cell to go to.

Geometry (advanced_support): indices 0 and 1 are the far tanks of ``FAR``; 2 is South's
damaged tank C on f3 facing N, 3 its R/M on f3 facing N (2 repairs), 4 North's tank 1 on
l8 facing S — out of reach of column f, so nothing is hit. The R/M's orders from f3 facing
N are the tank's six: f4 ahead, f2 behind, e4/g4 and e2/g2 diagonally (§1.5).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from advanced_support import FAR, N, S, c, game, play, rm, tank

from tankmap.analysis.simulation.games import get_driver
from tankmap.analysis.simulation.runner import record_game
from tankmap.cli import main
from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.final_act.engine import Game
from tankmap.rules.final_act.engine_advanced import Actions
from tankmap.rules.geometry import Facing

ROOT = Path(__file__).resolve().parents[2]


def pair(reading: str) -> Game:
    return game(*FAR, tank(S, "f3", "C", 1), rm(S, "f3"), tank(N, "l8", "1"), repaired_pair=reading)


def test_before_the_repair_the_pair_may_stay_together() -> None:
    # The tank is damaged and the R/M has repairs left: they met to repair, so staying is
    # legal (the repair is declared with this round's orders or a later one's).
    g = pair("rm-leaves")
    st = g.initial_state()
    assert not st.must_leave(3)
    assert st.orders(3)[0] == (c("f3"), Facing.N)  # staying is its first order
    play(g, st)  # everyone stays: legal
    assert st.cell[3] == c("f3")


def test_after_the_repair_the_rm_must_leave() -> None:
    g = pair("rm-leaves")
    st = g.initial_state()
    play(g, st, actions=Actions(rm_repair=[2]))  # repaired: C undamaged, R/M 1 repair left
    assert st.damage[2] == 0 and st.cell[3] == c("f3")
    assert st.must_leave(3) and not st.must_leave(2)  # (the tank may stay)
    cells = {o[0] for o in st.orders(3)}
    assert c("f3") not in cells
    assert cells == {c(n) for n in ("f4", "f2", "e4", "g4", "e2", "g2")}
    with pytest.raises(IllegalMoveError, match="must leave the cell it shares"):
        play(g, st)  # the R/M staying (no order) is refused
    with pytest.raises(IllegalMoveError, match="must leave"):
        play(g, st, {3: ("f3", Facing.N)})  # so is an explicit stay
    play(g, st, {3: ("e4", Facing.W)})  # forward-left, turning left: legal
    assert st.cell[3] == c("e4") and not st.must_leave(3)


def test_a_bounced_leave_keeps_it_there_one_more_round() -> None:
    # C and the R/M are both ordered forward into f4: two units into one cell, neither
    # moves (§1.5). The R/M is still on the repaired tank's cell and must leave next round.
    g = pair("rm-leaves")
    st = g.initial_state()
    play(g, st, actions=Actions(rm_repair=[2]))
    play(g, st, {2: ("f4", Facing.N), 3: ("f4", Facing.N)})
    assert st.cell[2] == st.cell[3] == c("f3")
    assert st.must_leave(3)
    play(g, st, {3: ("f2", Facing.N)})  # straight back: legal
    assert st.cell[3] == c("f2")


def test_the_default_keeps_the_pair_together() -> None:
    g = pair("share")
    st = g.initial_state()
    play(g, st, actions=Actions(rm_repair=[2]))
    assert not st.must_leave(3)
    play(g, st)
    assert st.cell[2] == st.cell[3] == c("f3")


def test_the_fast_engines_leave_it_to_the_reference_engine() -> None:
    extra = read_scenario(ROOT / "maps" / "final-act" / "extra-forces.json")
    changed = extra.with_options(repaired_pair="rm-leaves")
    driver: Any = get_driver("final-act")
    assert driver.batched(("heuristic", "heuristic"), driver.prepare(extra))
    assert not driver.batched(("heuristic", "heuristic"), driver.prepare(changed))
    note = driver.fallback_note(changed, ("heuristic", "heuristic"))
    assert note is not None and "repaired_pair=rm-leaves" in note


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_the_agents_play_legal_games_with_the_rm_leaving(
    policy: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Games on the Extra Forces map with the reading changed (played by the reference
    # engine and policies) replay through the checked engine, which refuses an R/M that
    # stays on a repaired tank's cell; at least one game must have made a repair.
    extra = read_scenario(ROOT / "maps" / "final-act" / "extra-forces.json")
    changed = extra.with_options(repaired_pair="rm-leaves")
    repairs = 0
    for g in range(8):
        result, record = record_game(changed, policy, seed=3, game=g)
        repairs += sum(1 for a in record.actions.values() if a.rm_repair)
        path = tmp_path / f"game-{g}.json"
        record.save(path)
        assert main(["replay", str(path), "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["result"]["rounds"] == result.length
    assert repairs >= 1
