"""Tank Wars (docs/rules.md §3, provisional) against the independent reference.

(a) moves / fire zone of every vehicle in seeded random positions (ruleset and
``tankmap moves --json``); (b) ``check`` verdicts and named fields of seeded random set-ups
(ruleset and ``tankmap check --json``); (c) seeded games with scripted dice and random
orders, state compared after every phase; (d) hand-made cases, answers worked out in the
comments from docs/rules.md §3.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import reference_tank_wars as RW
import tw_conformance_support as S

from tankmap.cli import main
from tankmap.rules.fileformat import dumps_scenario
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Terrain, Unit
from tankmap.rules.tank_wars.engine import (
    Event,
    artillery_phase,
    command_end,
    command_options,
    hit_probability,
    hit_probability_exact,
    initial_state,
    play_round,
    resolve_orders,
)

MOVE_SEEDS = range(250)
SETUP_SEEDS = range(400)
GAME_SEEDS = range(300)


# --- (a) moves and fire zone ---------------------------------------------------------------
def test_moves_match_the_reference() -> None:
    bad = {seed: m for seed in MOVE_SEEDS if (m := S.moves_mismatches(S.random_position(seed)))}
    assert not bad, {k: bad[k] for k in list(bad)[:3]}


def test_moves_json_matches_the_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed in range(0, 250, 10):
        sc = S.random_position(seed)
        path = tmp_path / f"p{seed}.json"
        path.write_text(dumps_scenario(sc), "utf-8")
        assert main(["moves", str(path), "--json"]) == 0
        units = json.loads(capsys.readouterr().out)["units"]
        rules = RW.Rules.of(sc.options)
        vehicles = S.ref_vehicles(sc)
        assert len(units) == len(vehicles)
        for u in units:
            (i,) = [j for j, v in enumerate(vehicles) if S.name(v[2]) == u["cell"]]
            want = {S.name(c) for c in RW.moves(vehicles, i, rules)}
            assert sorted(m["to"] for m in u["moves"]) == sorted(want), (seed, u)
            assert all(m["facing"] is None for m in u["moves"])
            assert set(u["fire_zone"]) == {S.name(c) for c in RW.fire_zone(vehicles[i][1])}


def test_command_options_match_the_reference() -> None:
    # The engine's planning menu: the same end fields as the reference's moves of the
    # vehicle alone on its board (occupancy depends on card order, so it is not checked);
    # different tokens never share an end field, so one option per field.
    for seed in MOVE_SEEDS:
        sc = S.random_position(seed)
        st = initial_state(sc)
        rules = RW.Rules.of(sc.options)
        for i, v in enumerate(S.ref_vehicles(sc)):
            options = command_options(st, st.vehicles[i])
            assert options[0] is None and len(set(options)) == len(options)
            ends = {S.name(S.xy(command_end(S.BOARD, st.vehicles[i].cell, o))) for o in options[1:]}
            want = {S.name(c) for c in RW.moves([v], 0, rules)}
            assert ends == want and len(options) - 1 == len(want), (seed, v)


# --- (b) set-up checks -----------------------------------------------------------------------
def test_check_verdicts_match_the_reference() -> None:
    seen: Counter[tuple[bool, bool]] = Counter()
    bad = {}
    for seed in SETUP_SEEDS:
        sc = S.random_setup(seed)
        want = S.ref_check(sc)
        seen[want[:2]] += 1
        if S.project_check(sc) != want:
            bad[seed] = (S.project_check(sc), want)
    assert not bad, {k: bad[k] for k in list(bad)[:3]}
    # the edits produce every verdict often enough
    assert min(seen[(True, True)], seen[(False, True)], seen[(True, False)]) >= 25, seen


def test_check_json_matches_the_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenarios = [S.random_setup(seed) for seed in range(0, 400, 8)]
    paths = []
    for i, sc in enumerate(scenarios):
        paths.append(tmp_path / f"s{i}.json")
        paths[-1].write_text(dumps_scenario(sc), "utf-8")
    code = main(["check", *map(str, paths), "--json"])
    files = json.loads(capsys.readouterr().out)["files"]
    verdicts = [S.ref_check(sc) for sc in scenarios]
    assert code == (0 if all(v[0] for v in verdicts) else 1)
    for entry, (legal, complete, cells) in zip(files, verdicts, strict=True):
        named = {c for v in entry["violations"] if v["severity"] == "error" for c in v["cells"]}
        assert (entry["legal"], entry["complete"], named) == (legal, complete, cells), entry


# --- (c) rounds with scripted dice ------------------------------------------------------------
def planning_policy(
    g: RW.Game, rolls: Any, rng: np.random.Generator, planned: list[RW.Orders]
) -> Any:
    """A policy for ``play_round``: on its first call (after the engine's artillery phase) the
    reference fires too, the mid-round states are compared and both sides' orders drawn."""

    def policy(state: Any, side: Side) -> Any:
        if not planned:
            g.artillery(rolls)
            assert S.snapshot_engine(state) == S.snapshot_ref(g), "after the artillery"
            planned.extend(S.random_orders(g, s, rng) for s in (0, 1))
        return S.engine_orders(planned[side.index])

    return policy


def play_compared(seed: int, events: list[Event]) -> str | None:
    """Up to 6 rounds of seeded random orders and rolls; the first difference, if any."""
    sc = S.random_position(seed, rounds=True)
    rng = np.random.default_rng(50_000 + seed)
    st, g = initial_state(sc), S.ref_game(sc)
    for r in range(6):
        if g.result is not None:
            break
        rolls = S.random_rolls(g, rng)
        dice, it = S.Dice(rolls), iter(rolls)
        g.rolls_used = 0
        if seed % 3 == 0:  # the whole round through play_round, orders from a policy
            planned: list[RW.Orders] = []
            st = play_round(st, *[planning_policy(g, it, rng, planned)] * 2, dice, events)  # type: ignore[arg-type]
            if planned:
                g.resolve((planned[0], planned[1]), it)
            else:  # the round ended in its artillery phase: no policy was asked
                g.artillery(it)
        else:
            st = artillery_phase(st, dice, events)  # type: ignore[arg-type]
            g.artillery(it)
            if S.snapshot_engine(st) != S.snapshot_ref(g):
                return f"round {r} artillery: {S.snapshot_engine(st)} != {S.snapshot_ref(g)}"
            if g.result is not None:
                break
            orders = (S.random_orders(g, 0, rng), S.random_orders(g, 1, rng))
            st = resolve_orders(
                st, S.engine_orders(orders[0]), S.engine_orders(orders[1]), dice, events
            )  # type: ignore[arg-type]
            g.resolve(orders, it)
        if S.snapshot_engine(st) != S.snapshot_ref(g) or dice.used != g.rolls_used:
            got, want = S.snapshot_engine(st), S.snapshot_ref(g)
            diff = {k: (got[k], want[k]) for k in got if got[k] != want[k]}
            return f"round {r}: {diff}, rolls {dice.used} != {g.rolls_used}"
    return None


def test_rounds_match_the_reference() -> None:
    events: list[Event] = []
    bad = {seed: d for seed in GAME_SEEDS if (d := play_compared(seed, events))}
    assert not bad, {k: bad[k] for k in list(bad)[:3]}
    # every rule of the round was exercised (engine events, counted only for coverage)
    seen = Counter(e.what for e in events)
    for what in (
        "shot-support shot-hit shot-crater shot-on-crater not-executed cancelled moved "
        "crater-hit collected gunfire-hit crater-cleared supply supply-collected supply-lost"
    ).split():
        assert seen[what] >= 20, (what, seen)
    phases = Counter(e.phase for e in events if e.what == "destroyed")
    assert min(phases["artillery"], phases["movement"], phases["gunfire"]) >= 20, phases


# --- (d) hand-made cases -------------------------------------------------------------------------
@pytest.mark.parametrize("k", range(13))
def test_hit_probability(k: int) -> None:
    # docs/rules.md §3: a field is missed by one uniform roll of the letter and number dice with
    # probability 35/36, by k independent shots with (35/36)^k.
    assert hit_probability_exact(k) == RW.hit_probability(k) == 1 - Fraction(35, 36) ** k
    assert hit_probability(k) == pytest.approx(float(RW.hit_probability(k)), rel=1e-12)


def test_hit_probability_by_counting_the_dice() -> None:
    # Two shots: of the 36 × 36 = 1296 equally likely roll pairs, 35 × 35 = 1225 miss field
    # c9, so 71 hit it: 71/1296. Count it with the reference's own dice mapping.
    fields = [RW.roll_field(1, r) for r in range(36)]
    assert sorted(fields) == sorted(S.own_fields(1))  # 36 rolls = 36 fields of north's board
    hits = sum(
        (2, 8) in (RW.roll_field(1, a), RW.roll_field(1, b))
        for a, b in product(range(36), repeat=2)
    )
    assert hits == 71 and Fraction(hits, 1296) == hit_probability_exact(2)


def unit(kind: str, side: Side, where: str, armour: int | None = None) -> Unit:
    return Unit(kind, side, S.BOARD.parse_cell(where), armour=armour)


def tokens(kind: str, *where: str) -> list[Terrain]:
    return [Terrain(kind, (S.BOARD.parse_cell(w),)) for w in where]


SOUTH, NORTH = Side.SOUTH, Side.NORTH


@pytest.mark.parametrize(
    ("units", "index", "expected"),
    [
        # North medium on c7 (north's own row 6): straight/diagonal 1 would reach b6 c6 d6 on
        # south's board -> left out; b7 d7 b8 c8 d8 stay.
        ([unit("medium", NORTH, "c7")], 0, "b7 d7 b8 c8 d8"),
        # South heavy d4 (AP 2) with its medium on d5: straight1 d5 is occupied; straight2 d6
        # passes over the medium, and only the end field counts; c4 e4 d3 b4 f4 d2.
        ([unit("heavy", SOUTH, "d4", 2), unit("medium", SOUTH, "d5")], 0, "c4 e4 d3 d6 b4 f4 d2"),
        # The same heavy with 1 AP: no 2-field token -> c4 e4 d3.
        ([unit("heavy", SOUTH, "d4", 1), unit("medium", SOUTH, "d5")], 0, "c4 e4 d3"),
        # Artillery f6 (south's own row 6, corner): straight1 f5, e6 (f7 is north's board).
        ([unit("artillery", SOUTH, "f6")], 0, "f5 e6"),
    ],
)
def test_hand_moves(units: list[Unit], index: int, expected: str) -> None:
    sc = S.TW.new_scenario().with_units(units)
    got = sorted(S.BOARD.cell_name(m.to) for m in S.TW.moves(sc, units[index]) if m.to is not None)
    want = sorted(S.name(c) for c in RW.moves(S.ref_vehicles(sc), index, RW.Rules.of({})))
    assert got == want == sorted(expected.split())


def run_round(sc: Any, rolls: list[int], south: RW.Orders, north: RW.Orders) -> tuple[Any, RW.Game]:
    """The round in the engine (artillery_phase + resolve_orders) and in the reference."""
    dice = S.Dice(rolls)
    st = resolve_orders(
        artillery_phase(initial_state(sc), dice),  # type: ignore[arg-type]
        S.engine_orders(south),
        S.engine_orders(north),
        dice,  # type: ignore[arg-type]
    )
    g = S.ref_game(sc)
    it = iter(rolls)
    g.artillery(it)
    g.resolve((south, north), it)
    assert dice.used == g.rolls_used
    return st, g


def c(name: str) -> RW.Cell:
    return S.xy(S.BOARD.parse_cell(name))


def test_hand_round_gunfire_decides() -> None:
    # South: heavy c2 (3 AP), medium e1 (2 AP), no artillery. North: artillery d11 (2 AP),
    # heavy a12 (1 AP). Artillery: south has no shells -> 1 long-range shot, rolled first:
    # roll 0 = letter A, number 1 = north's a12: heavy 1 -> 0 AP, removed at the phase end,
    # north keeps 3 - 1 = 2 gunfire tokens. North's 4 shells on south's board: roll 14 =
    # c3 (crater), 20 = c4 (crater), 4 = e1 (medium 2 -> 1), 14 = c3 again (already a
    # crater: nothing).
    # Movement: heavy straight2 N c2 -> c4 crosses crater c3 and enters crater c4: 3 - 2 =
    # 1 AP, both removed. Medium diagonal1 NE e1 -> f2 (1 field, fine with 1 AP). North's
    # artillery straight1 S d11 -> d10.
    # Gunfire: south d10, d10, d11 -> the artillery on d10 takes 2: 2 - 2 = 0. North has
    # 2 tokens: f2, f2 (c4 is a third token: ignored) -> medium 1 - 2 -> destroyed.
    # North has lost its last vehicle -> south wins; no supply drop is rolled (5 rolls used).
    # Gunfire tokens left: south 3 - 1 (medium) = 2, north 3 - 2 (heavy, artillery) = 1.
    sc = S.TW.new_scenario().with_units(
        [
            unit("heavy", SOUTH, "c2"),
            unit("medium", SOUTH, "e1"),
            unit("artillery", NORTH, "d11"),
            unit("heavy", NORTH, "a12", 1),
        ]
    )
    south = RW.Orders(
        {0: ("straight2", "N"), 1: ("diagonal1", "NE")}, [c("d10"), c("d10"), c("d11")]
    )
    north = RW.Orders({2: ("straight1", "S")}, [c("f2"), c("f2"), c("c4")])
    st, g = run_round(sc, [0, 14, 20, 4, 14, 7, 7], south, north)
    want = {
        "vehicles": [(0, "heavy", 0, c("c4"), 1)],
        "craters": [],
        "supports": [],
        "gunfire": [2, 1],
        "round": 1,
        "in_round": False,
        "outcome": (0, "destroyed"),
    }
    assert S.snapshot_engine(st) == S.snapshot_ref(g) == want
    assert g.rolls_used == 5


def test_hand_round_support_supply_and_clearing() -> None:
    # South: medium b2 (1 AP), artillery f1 (2 AP), support token on c3. North: heavy c11
    # (3 AP), medium e12 (2 AP).
    # Artillery, south's 4 shells first: roll 8 = c11 (north own row 2): heavy 3 -> 2;
    # 28 = e8 (own row 5): crater; 28 again: nothing; 30 = a7 (own row 6): crater. North has
    # no shells: 1 long-range shot, roll 5 = f1: artillery 2 -> 1.
    # Movement: medium diagonal1 NE b2 -> c3 collects the support: 1 -> 2 AP (its start).
    # Artillery straight2 N is outside its pattern (straight 1): not executed, stays f1.
    # North heavy straight1 W c11 -> b11; medium has no command.
    # Gunfire (3 each): south c11 (empty now), b11 (heavy 2 -> 1), e12 (the medium that
    # stayed: 2 -> 1). North: e8 = own crater -> cleared; f1 -> artillery 1 -> 0, destroyed
    # (south keeps 2 tokens); a1 empty.
    # Supply, south first: roll 14 = c3, the medium at full AP collects it (stays 2); north
    # roll 30 = a7, a crater -> lost.
    sc = (
        S.TW.new_scenario()
        .with_units(
            [
                unit("medium", SOUTH, "b2", 1),
                unit("artillery", SOUTH, "f1"),
                unit("heavy", NORTH, "c11"),
                unit("medium", NORTH, "e12"),
            ]
        )
        .with_terrain(tokens("support", "c3"))
    )
    south = RW.Orders(
        {0: ("diagonal1", "NE"), 1: ("straight2", "N")}, [c("c11"), c("b11"), c("e12")]
    )
    north = RW.Orders({2: ("straight1", "W")}, [c("e8"), c("f1"), c("a1")])
    st, g = run_round(sc, [8, 28, 28, 30, 5, 14, 30], south, north)
    want = {
        "vehicles": [
            (0, "medium", 0, c("c3"), 2),
            (2, "heavy", 1, c("b11"), 1),
            (3, "medium", 1, c("e12"), 1),
        ],
        "craters": [c("a7")],
        "supports": [],
        "gunfire": [2, 3],
        "round": 1,
        "in_round": False,
        "outcome": None,
    }
    assert S.snapshot_engine(st) == S.snapshot_ref(g) == want
    # next round south has no artillery vehicle: one long-range shot
    assert st.artillery_shots(SOUTH) == g.shots(0) == 1


def test_hand_round_crater_death_frees_the_field() -> None:
    # South heavy b1 (2 AP, card 1) straight2 N crosses crater b2 (2 -> 1) and enters crater
    # b3 (1 -> 0): destroyed at once, both craters removed, south keeps 3 - 1 = 2 tokens.
    # Then the medium a1 (card 2) straight1 E -> b1, which the heavy has left.
    # North heavy f12 stays. No shells on either side -> 1 long-range shot each: south's roll
    # 35 = f7 (north own row 6): crater; north's roll 35 = f6: crater. Supply: south roll 33
    # = d6, next to the crater: a support token; north roll 29 = f8: support token.
    sc = (
        S.TW.new_scenario(options={"artillery_count": 0})
        .with_units(
            [
                unit("heavy", SOUTH, "b1", 2),
                unit("medium", SOUTH, "a1"),
                unit("heavy", NORTH, "f12"),
            ]
        )
        .with_terrain(tokens("crater", "b2", "b3"))
    )
    south = RW.Orders({0: ("straight2", "N"), 1: ("straight1", "E")}, [])
    st, g = run_round(sc, [35, 35, 33, 29], south, RW.Orders())
    want = {
        "vehicles": [(1, "medium", 0, c("b1"), 2), (2, "heavy", 1, c("f12"), 3)],
        "craters": sorted([c("f7"), c("f6")]),
        "supports": sorted([c("d6"), c("f8")]),
        "gunfire": [2, 3],
        "round": 1,
        "in_round": False,
        "outcome": None,
    }
    assert S.snapshot_engine(st) == S.snapshot_ref(g) == want


def test_hand_round_cancelled_by_card_order() -> None:
    # South artillery c1 (card 1) straight1 N -> c2, held at that moment by the heavy
    # (card 2): cancelled, the artillery stays on c1. Then the heavy straight1 N -> c3, a
    # crater: 3 -> 2 AP, crater removed. North's medium (1 AP) has no command.
    # Artillery: south's 4 shells all roll 35 = letter F, number 6 = f7 (north's own row 6):
    # one crater (the other three land on it). North has no shells: one long-range shot,
    # 35 = f6: crater. Supply: south 0 = a1, empty: support token; north 0 = a12, its
    # medium collects it: 1 -> 2 AP.
    sc = (
        S.TW.new_scenario()
        .with_units(
            [
                unit("artillery", SOUTH, "c1"),
                unit("heavy", SOUTH, "c2"),
                unit("medium", NORTH, "a12", 1),
            ]
        )
        .with_terrain(tokens("crater", "c3"))
    )
    south = RW.Orders({0: ("straight1", "N"), 1: ("straight1", "N")}, [])
    st, g = run_round(sc, [35, 35, 35, 35, 35, 0, 0], south, RW.Orders())
    want = {
        "vehicles": [
            (0, "artillery", 0, c("c1"), 2),
            (1, "heavy", 0, c("c3"), 2),
            (2, "medium", 1, c("a12"), 2),
        ],
        "craters": sorted([c("f7"), c("f6")]),
        "supports": [c("a1")],
        "gunfire": [3, 3],
        "round": 1,
        "in_round": False,
        "outcome": None,
    }
    assert S.snapshot_engine(st) == S.snapshot_ref(g) == want


@pytest.mark.parametrize(
    ("units", "extra", "legal", "complete", "cells"),
    [
        # 1 heavy, 1 medium, 1 artillery per side on own rows 1-2: legal and complete.
        (
            [
                ("heavy", SOUTH, "a1"),
                ("medium", SOUTH, "b2"),
                ("artillery", SOUTH, "f1"),
                ("heavy", NORTH, "a12"),
                ("medium", NORTH, "b11"),
                ("artillery", NORTH, "f12"),
            ],
            [],
            True,
            True,
            "",
        ),
        # North artillery missing: incomplete; south heavy on own row 3 (a3): illegal.
        (
            [
                ("heavy", SOUTH, "a3"),
                ("medium", SOUTH, "b2"),
                ("artillery", SOUTH, "f1"),
                ("heavy", NORTH, "a12"),
                ("medium", NORTH, "b11"),
            ],
            [],
            False,
            False,
            "a3",
        ),
        # Two south mediums (count 1): both named; north heavy on south's board (c6);
        # heavies and artillery missing: incomplete.
        (
            [("medium", SOUTH, "a1"), ("medium", SOUTH, "b2"), ("heavy", NORTH, "c6")],
            [],
            False,
            False,
            "a1 b2 c6",
        ),
        # Two vehicles on b1; a crater under the artillery on c2; north missing.
        (
            [("medium", SOUTH, "b1"), ("heavy", SOUTH, "b1"), ("artillery", SOUTH, "c2")],
            ["c2"],
            False,
            False,
            "b1 c2",
        ),
    ],
)
def test_hand_setups(
    units: list[tuple[str, Side, str]], extra: list[str], legal: bool, complete: bool, cells: str
) -> None:
    sc = (
        S.TW.new_scenario()
        .with_units([unit(k, s, w) for k, s, w in units])
        .with_terrain(tokens("crater", *extra))
    )
    want = (legal, complete, set(cells.split()))
    assert S.project_check(sc) == S.ref_check(sc) == want
