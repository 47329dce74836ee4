"""Game records with docs/rules.md §1.8 actions: JSON round trip, checked replay, bad input."""

from __future__ import annotations

import json

import pytest

from tankmap.rules.board import Board
from tankmap.rules.errors import ScenarioFormatError
from tankmap.rules.final_act.engine import Game
from tankmap.rules.final_act.engine_actions import Actions
from tankmap.rules.final_act.engine_record import FinalActRecord
from tankmap.rules.final_act.tables import Order
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Unit

B = Board.of(12, 12)
c = B.parse_cell
S, N = Side.SOUTH, Side.NORTH

EVERY = Actions(
    rm_repair=[3],
    berm_repair=[4],
    double_shot={2: c("f8")},
    quick_shot={5: c("f7")},
    full_throttle=[6],
    quick_sand={0: c("e6")},
    smoke={1: c("g9")},
    mine_clearing={0: c("d4")},
    air_strike={1: (c("c12"), [c("c3"), c("c5")])},
    red_cross={0: c("b2")},
    red_cross_repair=[7],
)


def test_every_action_survives_json() -> None:
    raw = json.loads(json.dumps(EVERY.to_json(B.cell_name)))
    assert raw["air_strike"] == {"north": {"token": "c12", "shells": ["c3", "c5"]}}
    assert raw["smoke"] == {"north": "g9"} and raw["double_shot"] == {"2": "f8"}

    def fail(suffix: str, message: str, value: object) -> None:
        raise AssertionError(suffix, message, value)

    assert Actions.from_json(raw, B.parse_cell, fail) == EVERY


def scenario() -> Scenario:
    units = (
        Unit("tank", S, c("a1"), Facing.N, "2B"),
        Unit("tank", N, c("l12"), Facing.S, "2B"),
        Unit("tank", S, c("c2"), Facing.N, "C"),
        Unit("tank", N, c("f8"), Facing.S, "1"),
    )
    opts = {"full_throttle": True, "smoke": True}
    return Scenario("final-act", B, opts, (), units)  # type: ignore[arg-type]


def test_record_with_actions_replays() -> None:
    # Round 1: south's C on c2 is ordered forward one cell (c3) with the Full throttle token:
    # "would move 2 squares in the direction indicated on the panel" -> c4 (docs/rules.md
    # §1.8; c3 holds nothing at the start of the round). Round 2: north lays smoke on e8
    # after the moves (vacant, next to its f8 tank). Replay reproduces both.
    g = Game(scenario())
    st = g.initial_state()
    rounds: list[tuple[list[Order | None], dict[int, int]]] = []
    acts = {0: Actions(full_throttle=[2]), 1: Actions(smoke={1: c("e8")})}
    for i in range(2):
        orders: list[Order | None] = [None] * 4
        if i == 0:
            orders[2] = (c("c3"), Facing.N)
        g.play_round(st, orders, {}, acts[i])
        rounds.append((orders, {}))
    rec = FinalActRecord.of(st, rounds, acts)
    again = FinalActRecord.loads(rec.dumps())
    assert again.actions == acts
    final = again.replay()
    assert final.cell[2] == c("c4") and final.adv.used == ({"full_throttle"}, {"smoke"})
    # the same rounds without the declared token: C makes its one-cell move only
    again.actions = {}
    assert again.replay().cell[2] == c("c3")


def test_bad_action_in_a_record_names_its_path() -> None:
    doc = FinalActRecord(scenario(), [([None] * 4, {})]).to_json()
    doc["rounds"][0]["actions"] = {"teleport": [1]}
    with pytest.raises(ScenarioFormatError, match=r"rounds\[0\]\.actions\.teleport"):
        FinalActRecord.from_json(doc)
    doc["rounds"][0]["actions"] = {"smoke": {"east": "e8"}}
    with pytest.raises(ScenarioFormatError, match=r"actions\.smoke"):
        FinalActRecord.from_json(doc)
