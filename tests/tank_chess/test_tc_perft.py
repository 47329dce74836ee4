"""perft on small positions counted by hand, the perft command, and engine conformance."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from tc_support import MAPS, ROOT, make

from tankmap.rules.fileformat import read_scenario, write_scenario
from tankmap.rules.tank_chess.notation import format_turn, parse_turn
from tankmap.rules.tank_chess.state import initial_state, perft, perft_divide

# Boxed position on 8 × 8: White mortar a1 facing E, boxed by obstacles a2 b2 b1; Black
# command tank a5 facing E, boxed by a4 a6 b4 b5 b6. Neither can move off its cell.
# White: 6 rotations (NE N NW SE S SW, ≤ 3 steps); only facing N has a target: a5 is 4
# ahead (mortar 3-5, over the obstacles) → 7 turns, one of which destroys the CLT (gun 5).
# Black: 7 rotations (speed 5 reaches every facing), no shot (every neighbour blocked, so
# every ray is blocked next to it), no escape (far from row 1), no backward step (off board).
BOXED = dict(
    units=["W mortar a1 E", "B command a5 E"],
    obstacles="a2 b2 b1 a4 a6 b4 b5 b6",
    size=(8, 8),
)


def test_perft_depth_1_boxed() -> None:
    assert perft(initial_state(make(**BOXED)), 1) == 7  # type: ignore[arg-type]


def test_perft_depth_2_boxed() -> None:
    # 6 non-ending White turns × 7 Black turns + the CLT kill as a leaf = 43
    assert perft(initial_state(make(**BOXED)), 2) == 43  # type: ignore[arg-type]


def test_perft_depth_3_boxed() -> None:
    # After White's first (non-ending) turn the mortar faces f in {NE, N, NW, SE, S, SW};
    # its next turn has 6 rotations plus the kill iff N is a new facing ≤ 3 steps away:
    # NE 7, N 6, NW 7, SE 7, S 6 (N is 4 away), SW 7 = 40; × 7 Black turns = 280; + 1 leaf.
    assert perft(initial_state(make(**BOXED)), 3) == 281  # type: ignore[arg-type]


# Same idea with a Black light tank to shoot instead of the command tank: White mortar a1
# (boxed by a2 b1 b2) facing E; Black light a5 facing E (boxed by a4 a6 b4 b5 b6) and Black
# command tank h8 facing S (boxed by g8 g7 h7). Mortar facing N: a4 obstacle (3), a5 light
# (4) → target, a6 obstacle (5). Black: light 7 rotations + command 7 rotations, no shots.
WRECK = dict(
    units=["W mortar a1 E", "B light a5 E", "B command h8 S"],
    obstacles="a2 b1 b2 a4 a6 b4 b5 b6 g8 g7 h7",
    size=(8, 8),
)


def test_perft_with_a_wreck_that_stops_moving() -> None:
    st = initial_state(make(**WRECK))  # type: ignore[arg-type]
    # depth 1: 6 rotations + the shot = 7
    # depth 2: 6 quiet turns × 14 + the shot (the light becomes a wreck) × 7 = 91
    # depth 3: quiet first turns leave the mortar facing NE/N/NW/SE/S/SW with 7/6/7/7/6/7
    #   turns (the shot needs N to be a new facing ≤ 3 turns away) = 40 × 14 = 560; after
    #   the shot: 7 Black turns × 6 (no target: a5 is a wreck) = 42 → 602.
    assert [perft(st, d) for d in (1, 2, 3)] == [7, 91, 602]


def test_lone_command_tank_plays_out_its_escape() -> None:
    # docs/rules.md §4: h1 facing N, 5 + 5 + 5 steps to h16, then the escape step: 4 turns.
    st = initial_state(make(["W command h1 N", "B heavy a16 S"]))
    for white, black in [("h1h6N", "a16a16SE"), ("h6h11N", "a16a16S"), ("h11h16N", "a16a16SE")]:
        st.push(parse_turn(st, white))
        st.push(parse_turn(st, black))
    st.push(parse_turn(st, "h16esc"))
    result = st.outcome()
    assert result is not None and result.reason == "escape" and st.ply == 7


def test_perft_depth_1_heavy_and_targets() -> None:
    # White heavy a1 N on 8 × 8 (21 end states, see test_heavy_in_the_corner), Black heavy a6.
    # Shots at a6 along the a-file: from a1 NE and NW (N is in both fans): 2; a2 N NE NW: 3;
    # a3 N NE NW: 3; a4 N (a5 empty, a6 at 2): 1. No end cell is on a diagonal of a6
    # (b5 c4 d3 e2 f1). 21 + 9 = 30.
    st = initial_state(make(["W heavy a1 N", "B heavy a6 S"], size=(8, 8)))
    assert perft(st, 1) == 30
    assert len(st.legal_turns()) == st.count_turns() == 30


def test_divide_sums_to_perft() -> None:
    st = initial_state(make(**BOXED))  # type: ignore[arg-type]
    parts = perft_divide(st, 2)
    assert sum(n for _t, n in parts) == 43
    kill = [t for t, n in parts if n == 1]
    assert [format_turn(st, t) for t in kill] == ["a1a1Nxa5"]


def test_perft_command_json(tmp_path: pytest.TempPathFactory) -> None:
    path = f"{tmp_path}/boxed.json"
    write_scenario(make(**BOXED), path)  # type: ignore[arg-type]
    out = subprocess.run(
        [sys.executable, "-m", "tankmap", "perft", path, "--depth", "2", "--json", "--divide"],
        capture_output=True,
        cwd=ROOT,
        text=True,
        check=True,
    )
    doc = json.loads(out.stdout)
    assert doc["depth"] == 2 and doc["nodes"] == 43
    assert {d["turn"]: d["nodes"] for d in doc["divide"]}["a1a1Nxa5"] == 1


def test_perft_command_refuses_other_rulesets(tmp_path: pytest.TempPathFactory) -> None:
    path = f"{tmp_path}/fa.json"
    with open(path, "w") as fh:
        json.dump({"ruleset": "final-act", "board": {"columns": 12, "rows": 12}}, fh)
    out = subprocess.run(
        [sys.executable, "-m", "tankmap", "perft", path, "--depth", "1"],
        capture_output=True,
        cwd=ROOT,
        text=True,
    )
    assert out.returncode == 2
    assert "Tank Chess" in out.stderr and "Traceback" not in out.stderr


# --- conformance: random games through the engine ----------------------------------------
@pytest.mark.parametrize("path", [str(MAPS / "basic-16.json"), str(MAPS / "sample-20.json")])
def test_random_games_conform(path: str) -> None:
    rng = np.random.default_rng(20261123)
    start = initial_state(read_scenario(path))
    for _game in range(2):
        st = start.copy()
        for _ply in range(40):
            turns = st.legal_turns()
            assert len(turns) == st.count_turns()
            if not turns:
                break
            assert len(set(turns)) == len(turns)  # distinct
            before = st.copy()
            assert before == st
            # every generated turn applies and undoes cleanly (sampled for speed)
            for i in rng.choice(len(turns), size=min(12, len(turns)), replace=False):
                t = turns[int(i)]
                assert parse_turn(st, format_turn(st, t)) == t  # notation round trip
                st.push(t)
                st.pop()
                assert st == before
            # the position written as a scenario plays the same
            again = initial_state(st.to_scenario())
            assert sorted(map(str, (format_turn(again, t) for t in again.legal_turns()))) == (
                sorted(format_turn(st, t) for t in turns)
            )
            st.push(turns[int(rng.integers(len(turns)))])
            if st.outcome() is not None:
                break
