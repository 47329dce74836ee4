"""Final Act advanced rules (docs/rules.md §1.8) in playouts: the reference policies use them, game
records save and replay them (every action checked by ``Game.play_round``), and the
vectorised policies fall back to the reference engine with a note."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from tankmap.analysis.simulation.final_act.agents.reference import (
    HeuristicPolicy,
    RandomPolicy,
    RoundView,
)
from tankmap.analysis.simulation.final_act.driver import DRIVER as FA
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.analysis.simulation.runner import game_rng, simulate
from tankmap.cli import main
from tankmap.rules.board import Board
from tankmap.rules.fileformat import read_scenario, write_scenario
from tankmap.rules.final_act.engine import Game, RoundReport, State
from tankmap.rules.final_act.engine_advanced import MODELLED, Actions
from tankmap.rules.final_act.engine_record import FinalActRecord
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Terrain, Unit

ROOT = Path(__file__).resolve().parents[2]
EXTRA = read_scenario(ROOT / "maps" / "final-act" / "extra-forces.json")
ALL_ON = EXTRA.with_options(**{name: True for name in MODELLED})
B = Board.of(12, 12)
S, N = Side.SOUTH, Side.NORTH
c = B.parse_cell


def test_vectorised_policies_fall_back_when_an_advanced_option_is_on() -> None:
    plain = FA.prepare(EXTRA)
    assert FA.batched(("heuristic", "random"), plain)
    assert FA.fallback_note(EXTRA, ("heuristic", "heuristic")) is None
    prep = FA.prepare(EXTRA.with_options(officer_loss=True))
    assert not FA.batched(("heuristic", "random"), prep)
    note = FA.fallback_note(EXTRA.with_options(officer_loss=True), ("heuristic", "random"))
    assert note is not None and "officer_loss" in note and "heuristic-ref" in note
    # R/M repair (Extra Forces, on by default) is modelled by the kernel: no fallback
    assert "rm_repair" in plain.game.adv.on and "rm_repair" not in note
    # the -ref policies are the reference ones anyway: nothing to say
    assert FA.fallback_note(ALL_ON, ("heuristic-ref", "random-ref")) is None


def test_simulate_cli_says_so_on_stderr_and_in_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "adv.json"
    write_scenario(EXTRA.with_options(officer_loss=True, smoke=True), path)
    args = ["simulate", str(path), "--games", "6", "--seed", "3", "--workers", "1", "--json"]
    assert main(args) == 0
    out = capsys.readouterr()
    doc = json.loads(out.out)
    assert "officer_loss" in doc["fallback"] and "smoke" in doc["fallback"]
    assert out.err.count("reference engine only") == 1
    assert doc["wins"]["south"] + doc["wins"]["north"] + doc["draws"] == 6


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_games_with_every_modelled_option_replay_and_use_the_actions(
    policy: str, tmp_path: Path
) -> None:
    prep = FA.prepare(ALL_ON)
    used: Counter[str] = Counter()
    for g in range(12):
        r = FA.play(prep, (policy, policy), game_rng(11, g), record=True)
        rec = r.record
        assert isinstance(rec, FinalActRecord)
        for acts in rec.actions.values():
            used.update(acts.to_json(B.cell_name).keys())
        path = tmp_path / f"{g}.fagame.json"
        rec.save(path)
        again = FinalActRecord.load(path)
        assert set(again.actions) == set(rec.actions)
        state = again.replay()  # every order, shell and action checked
        assert (state.winner, state.round, state.end) == (r.winner, r.length, r.end)
    # every token a side can use without special circumstances shows up in 12 games
    keys = ["full_throttle", "quick_sand", "smoke", "double_shot", "quick_shot", "air_strike"]
    if policy == "random":  # the heuristic clears mines only where that shortens a route
        keys += ["mine_clearing", "red_cross", "red_cross_repair"]
    for key in keys:
        assert used[key] > 0, (policy, key, used)


def test_same_seed_same_games_with_advanced_options() -> None:
    a = simulate(ALL_ON, 6, "heuristic", seed=5)
    b = simulate(ALL_ON, 6, "heuristic", seed=5, batch_size=2)
    cols = ["winner", "length", "end", "kills_south", "kills_north", "route"]
    assert a[cols].equals(b[cols])


def test_tampered_record_is_refused_naming_the_round() -> None:
    prep = FA.prepare(ALL_ON)
    r = FA.play(prep, ("random", "random"), game_rng(2, 0), record=True)
    doc = r.record.to_json()
    first = doc["rounds"][0]
    # a double shot in round 1: no tank has been lost yet (seed 000 advanced rule 3)
    shooter = next(iter(first["shells"]), None)
    assert shooter is not None
    first.setdefault("actions", {})["double_shot"] = {shooter: first["shells"][shooter]}
    from tankmap.rules.errors import IllegalMoveError

    with pytest.raises(IllegalMoveError, match="round 1"):
        FinalActRecord.from_json(doc).replay()


# --- the heuristic uses the rules sensibly (hand-made positions) -------------------------
def view_of(scenario: Scenario) -> tuple[Prepared, RoundView]:
    prep = Prepared(Game(scenario))
    return prep, RoundView(prep.game.initial_state(), prep)


def heuristic_actions(scenario: Scenario, side: int = 0) -> tuple[dict, dict, object]:  # type: ignore[type-arg]
    prep, view = view_of(scenario)
    pol = HeuristicPolicy(prep, side)
    rng = np.random.default_rng(0)
    orders, shells = pol.decide(view, rng)
    acts = pol.act(view, orders, shells, rng)
    return orders, shells, acts


def sc(*units: Unit, terrain: tuple[Terrain, ...] = (), **opts: object) -> Scenario:
    far = (Unit("tank", S, c("a1"), Facing.N, "2B"), Unit("tank", N, c("l12"), Facing.S, "2B"))
    return Scenario("final-act", B, {"extra_forces": True, **opts}, terrain, (*far, *units))  # type: ignore[arg-type]


def test_heuristic_repairs_a_damaged_tank_sharing_with_its_rm_when_safe() -> None:
    # No enemy shooter covers f3 (north only has l12 facing S: f3 is 6 columns aside).
    scenario = sc(
        Unit("tank", S, c("f3"), Facing.N, "C", 1),
        Unit("rm", S, c("f3"), Facing.N),
        rm_repair=True,
    )
    orders, shells, acts = heuristic_actions(scenario)
    assert acts.rm_repair == [2]  # type: ignore[attr-defined]
    assert orders[2][0] == c("f3") and orders[3][0] == c("f3") and 2 not in shells


def test_heuristic_sends_the_rm_to_a_damaged_tank() -> None:
    # R/M on f1 facing N, damaged C on f2: forward (f2) joins it; C waits there.
    scenario = sc(
        Unit("tank", S, c("f2"), Facing.N, "C", 1),
        Unit("rm", S, c("f1"), Facing.N),
        rm_repair=True,
    )
    orders, _shells, _acts = heuristic_actions(scenario)
    assert orders[3][0] == c("f2") and orders[2][0] == c("f2")


def test_heuristic_repairs_behind_a_berm() -> None:
    berm = Terrain("berm-small", (c("d3"), c("e3")), S)
    scenario = sc(Unit("tank", S, c("d2"), Facing.N, "C", 1), terrain=(berm,), berm_repair=True)
    orders, shells, acts = heuristic_actions(scenario)
    assert acts.berm_repair == [2]  # type: ignore[attr-defined]
    assert orders[2][0] == c("d2") and 2 not in shells


def test_heuristic_throttles_onto_the_goal() -> None:
    # South C on f10 facing N: ordered forward (f11) with the token it goes on to f12
    # (north's last line of defence) in one round (docs/rules.md §1.8).
    scenario = sc(Unit("tank", S, c("f10"), Facing.N, "C"), full_throttle=True)
    orders, _shells, acts = heuristic_actions(scenario)
    assert acts.full_throttle == [2] and orders[2] == (c("f11"), Facing.N)  # type: ignore[attr-defined]
    prep = Prepared(Game(scenario))
    st = prep.game.initial_state()
    prep.game.play_round(st, [orders.get(u) for u in range(3)], {}, acts)  # type: ignore[arg-type]
    assert st.cell[2] == c("f12") and st.winner is S


def test_heuristic_clears_a_mine_that_shortens_its_route() -> None:
    # South C on c3 facing N; a swamp on a4 b4 a5 b5 and the minefield c4 d4 e4 (lane d4,
    # arrow N) in front: the only ways north go around (e.g. d3 -> d4 by the lane).
    # Clearing c4 lets C advance a row now, so the heuristic lays the token there (or on
    # the lane d4, entered diagonally) and orders C onto it.
    mines = Terrain("minefield", (c("c4"), c("d4"), c("e4")), S, lane=c("d4"), arrow=Facing.N)
    swamp = Terrain("swamp", (c("a4"), c("b4"), c("a5"), c("b5")), S)
    scenario = sc(
        Unit("tank", S, c("c3"), Facing.N, "C"), terrain=(mines, swamp), mine_clearing=True
    )
    prep = Prepared(Game(scenario))
    st = prep.game.initial_state()
    pol = HeuristicPolicy(prep, 0)
    rng = np.random.default_rng(0)
    pre = pol.pre_round(st, rng)
    assert pre.mine_clearing.get(0) in (c("c4"), c("d4"))
    prep.game.adv.begin(st, pre, check=True)
    view = RoundView(st, prep)
    orders, shells = pol.decide(view, rng)
    pol.act(view, orders, shells, rng)
    assert orders[2][0] == pre.mine_clearing[0]


def test_heuristic_lays_and_uses_a_red_cross_for_a_damaged_tank() -> None:
    # Damaged C on f3 (own half). At the end of round 1 (phase "hit") the token goes on a
    # vacant cell next to it furthest back: own row 2 holds e2 f2 g2, the lowest cell index
    # wins -> e2. At the end of round 2 C (still on f3, next to e2; no enemy covers it:
    # north's l12 tank reaches columns i..l only) is named and its flame is gone.
    scenario = sc(Unit("tank", S, c("f3"), Facing.N, "C", 1), red_cross=True)
    prep = Prepared(Game(scenario))
    g = prep.game
    pols = (HeuristicPolicy(prep, 0), HeuristicPolicy(prep, 1))
    rng = np.random.default_rng(0)

    def respond(phase: str, now: State, shells: dict[int, int], report: RoundReport) -> Actions:
        return pols[0].respond(phase, now, shells, report, rng)

    st = g.initial_state()
    report = g.apply_round(st, [None] * 3, {}, None, respond)
    assert report.actions.red_cross == {0: c("e2")} and st.adv.crosses == {0: c("e2")}
    report = g.apply_round(st, [None] * 3, {}, None, respond)
    assert report.actions.red_cross_repair == [2] and st.damage[2] == 0


def test_heuristic_smokes_the_cell_that_stops_an_enemy_shell() -> None:
    # South C on f2 stays, facing S (its own edge: it covers no enemy, so smoke costs it no
    # shot); north 1 on f8 facing S has C in its fire zone (f = 6, f3..f7 empty) and
    # shells f2. Smoke is decided blind, before the shells (rules §1.8): from the shooters
    # alone, 1 aims at C, the only enemy in its zone. South may smoke e1 e3 f1 f3 g1 g3
    # (next to C; e2/g2 too). Only f3 lies on the line f8 -> f2 (the others are off it or
    # behind C): the heuristic lays it there and the shell stops.
    scenario = sc(
        Unit("tank", S, c("f2"), Facing.S, "C"), Unit("tank", N, c("f8"), Facing.S, "1"), smoke=True
    )
    prep = Prepared(Game(scenario))
    g = prep.game
    pol = HeuristicPolicy(prep, 0)
    rng = np.random.default_rng(0)

    def respond(phase: str, now: State, shells: dict[int, int], report: RoundReport) -> Actions:
        return pol.respond(phase, now, shells, report, rng)

    st = g.initial_state()
    report = g.apply_round(st, [None] * 4, {3: c("f2")}, None, respond)
    assert report.actions.smoke == {0: c("f3")} and st.damage[2] == 0


def test_heuristic_lays_no_smoke_that_hides_its_own_shot_as_much() -> None:
    # As above, but C faces N: f8 is in its zone too, so smoke on f3 would hide north 1 from
    # C as much as C from north 1 (smoke blocks its owner's fire too, the default): the
    # expected gain is 1 - 1 = 0, under SMOKE_WORTH, and no smoke is laid.
    scenario = sc(
        Unit("tank", S, c("f2"), Facing.N, "C"), Unit("tank", N, c("f8"), Facing.S, "1"), smoke=True
    )
    prep = Prepared(Game(scenario))
    pol = HeuristicPolicy(prep, 0)
    rng = np.random.default_rng(0)

    def respond(phase: str, now: State, shells: dict[int, int], report: RoundReport) -> Actions:
        return pol.respond(phase, now, shells, report, rng)

    st = prep.game.initial_state()
    report = prep.game.apply_round(st, [None] * 4, {3: c("f2")}, None, respond)
    assert report.actions.smoke == {}


def test_random_policy_stays_within_the_lost_tanks_shells() -> None:
    # South has lost one tank; double shot, quick shot and air strike all on: whatever the
    # draws, its double and quick shots plus air-strike shells paid by lost tanks never
    # exceed one, and the checked engine accepts the round.
    scenario = sc(
        Unit("tank", S, c("e2"), Facing.N, "2A"),
        Unit("tank", S, c("g2"), Facing.N, "2"),
        double_shot=True,
        quick_shot=True,
        air_strike=True,
    )
    prep = Prepared(Game(scenario))
    pol = RandomPolicy(prep, 0)
    for seed in range(40):
        st = prep.game.initial_state()
        st.adv.tanks_lost[0] = 1
        view = RoundView(st, prep)
        rng = np.random.default_rng(seed)
        orders, shells = pol.decide(view, rng)
        acts = pol.act(view, orders, shells, rng)
        assert len(acts.double_shot) + len(acts.quick_shot) <= 1
        prep.game.play_round(st, [orders.get(u) for u in range(4)], shells, acts)


def test_random_policy_respects_the_officer_loss_cap() -> None:
    # After losing C south's 3 tanks may place 2 shells: whatever the draws, at most 2.
    scenario = sc(
        Unit("tank", S, c("e2"), Facing.N, "2A"),
        Unit("tank", S, c("g2"), Facing.N, "2"),
        officer_loss=True,
    )
    prep = Prepared(Game(scenario))
    st = prep.game.initial_state()
    st.adv.shots_lost[0] = 1
    view = RoundView(st, prep)
    pol = RandomPolicy(prep, 0)
    for seed in range(20):
        rng = np.random.default_rng(seed)
        orders, shells = pol.decide(view, rng)
        pol.act(view, orders, shells, rng)
        assert sum(1 for u in shells if st.kind[u] == "tank") <= 2
