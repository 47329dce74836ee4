"""Final Act conformance: the project against the independent reference (docs/rules.md §1.5-1.6).

Compared: ``tankmap moves --json`` (orders and fire zone of every unit) on every built-in map
(with its own options and with every combination of reverse_turn / lane_owner_only /
strict_line_of_fire), ruleset moves / fire_zone on 600 seeded random positions (and 200 more
with random cone options), the engine's State.orders / fire_zone on 100 more, the
damage of 150 shelling rounds in which nobody moves, the conflicts of 300 movement rounds,
whole rounds of 150 random games (moves, hits, winner), and hand-made positions with
hand-derived answers.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import conformance_support as S
import numpy as np
import pytest
import reference_final_act as RF

from tankmap.cli import main
from tankmap.rules.board import Board
from tankmap.rules.fileformat import read_scenario, write_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit

ROOT = Path(__file__).resolve().parents[2]
MAPS = sorted((ROOT / "maps" / "final-act").glob("*.json"))
B = Board.of(12, 12)
RS = get_ruleset("final-act")


def compare_cli(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sc = read_scenario(path)
    b = sc.board
    pos = RF.from_scenario(sc)
    capsys.readouterr()
    assert main(["moves", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["units"]) == len(sc.units)
    for i, (u, row) in enumerate(zip(sc.units, doc["units"], strict=True)):
        assert row["cell"] == b.cell_name(u.cell)
        got = {(m["to"], m["facing"]) for m in row["moves"]}
        assert len(got) == len(row["moves"]), f"duplicate moves for {row}"
        want = {(b.cell_name(b.cell(*c)), RF.FACING_NAMES[f]) for c, f in RF.orders(pos, i)}
        assert got == want, (row["cell"], sorted(want - got), sorted(got - want))
        want_zone = {b.cell_name(b.cell(*c)) for c in RF.fire_zone(pos, i)}
        zone = set(row["fire_zone"])
        assert zone == want_zone, (row["cell"], sorted(want_zone - zone), sorted(zone - want_zone))
        assert len(row["fire_zone"]) == len(zone)


@pytest.mark.parametrize("path", MAPS, ids=[p.stem for p in MAPS])
def test_builtin_map_moves_and_fire_zones(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    compare_cli(path, capsys)


@pytest.mark.parametrize("path", MAPS, ids=[p.stem for p in MAPS])
def test_builtin_map_under_every_option_combination(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sc = read_scenario(path)
    for n, (rev, owner, strict) in enumerate(itertools.product((False, True), repeat=3)):
        variant = sc.with_options(
            reverse_turn=rev, lane_owner_only=owner, strict_line_of_fire=strict
        )
        out = tmp_path / f"v{n}.json"
        write_scenario(variant, out)
        compare_cli(out, capsys)


@pytest.mark.parametrize("chunk", range(6))
def test_random_positions(chunk: int) -> None:
    bad: list[str] = []
    for seed in range(chunk * 100, chunk * 100 + 100):
        sc = S.random_final_act(seed)
        bad += [f"seed {seed} {dict(sc.options)}: {m}" for m in S.final_act_mismatches(sc)]
    assert not bad, "\n".join(bad[:10])


def test_random_positions_with_other_cones() -> None:
    # the cone options (docs/rules.md §1.6 "per-unit-kind masks [option]"): diamond-2, -3, wide-4
    bad: list[str] = []
    for seed in range(5000, 5200):
        sc = S.random_cones(seed)
        bad += [f"seed {seed} {dict(sc.options)}: {m}" for m in S.final_act_mismatches(sc)]
    assert not bad, "\n".join(bad[:10])


def test_engine_orders_and_fire_zones_match_too() -> None:
    # the game engine (rules.final_act.engine, used by simulate) has its own entry points:
    # State.orders (staying put first) and State.fire_zone
    from tankmap.rules.final_act.engine import Game

    bad: list[str] = []
    for seed in range(8000, 8100):
        sc = S.random_final_act(seed) if seed % 2 else S.random_cones(seed)
        state = Game(sc).initial_state()
        pos = RF.from_scenario(sc)
        b = sc.board
        for i, u in enumerate(sc.units):
            if u.wreck:
                continue
            stay, *rest = state.orders(i)
            assert stay == (u.cell, u.facing)
            got = {(b.cell_name(c), Facing(f).name) for c, f in rest}
            want = {(b.cell_name(b.cell(*x)), RF.FACING_NAMES[f]) for x, f in RF.orders(pos, i)}
            zone = {b.cell_name(c) for c in state.fire_zone(i)}
            want_zone = {b.cell_name(b.cell(*x)) for x in RF.fire_zone(pos, i)}
            if got != want or zone != want_zone or len(rest) != len(got):
                bad.append(f"seed {seed} unit {i}: {sorted(got ^ want)} {sorted(zone ^ want_zone)}")
    assert not bad, "\n".join(bad[:10])


def tally(sc: Scenario, status: list[str]) -> Counter[tuple[str, str, str, str]]:
    """Unit statuses counted per (cell, kind, side, status)."""
    b = sc.board
    return Counter(
        (b.cell_name(u.cell), u.kind, u.side.value, s)
        for u, s in zip(sc.units, status, strict=True)
    )


def test_shelling_rounds_without_moves() -> None:
    # Every unit stays; every tank and AT shells a cell of its fire zone (mostly one holding
    # an enemy). Compared: each unit's status after the round (live with its damage, wreck,
    # or out), per cell and kind, since which of two equal ATs goes is not a rule.
    from tankmap.rules.final_act.engine import Game

    bad: list[str] = []
    over = 0
    for seed in range(9000, 9150):
        sc = S.random_final_act_melee(seed)
        rng = np.random.default_rng(seed + 7)
        game = Game(sc)
        state = game.initial_state()
        if state.over:  # a side's tanks are all wrecks: lost already (§1.7)
            over += 1
            continue
        b = sc.board
        shells: dict[int, int] = {}
        for i, u in enumerate(sc.units):
            zone = state.fire_zone(i)
            enemy = [
                c
                for c in zone
                if any(v.cell == c and v.side != u.side and not v.wreck for v in sc.units)
            ]
            pool = enemy if enemy and rng.random() < 0.85 else zone
            if pool:
                shells[i] = int(pool[int(rng.integers(len(pool)))])
        game.play_round(state, [None] * len(sc.units), shells)
        got = [
            "wreck" if state.wreck[i] else ("out" if not state.alive[i] else f"ok{state.damage[i]}")
            for i in range(len(sc.units))
        ]
        want = RF.resolve_hits(
            RF.from_scenario(sc),
            [u.damage for u in sc.units],
            [(sc.units[i].side.index, (b.col_of(c), b.row_of(c))) for i, c in shells.items()],
            bool(sc.options["wrecks"]),
        )

        if tally(sc, got) != tally(sc, want):
            bad.append(
                f"seed {seed}: got {tally(got) - tally(want)} want {tally(want) - tally(got)}"
            )
    assert over < 15, f"{over} of 150 positions were over already"
    assert not bad, "\n".join(bad[:10])


def test_movement_rounds_with_conflicts() -> None:
    # Units packed into a 6 × 6 area, each given a random legal order (20 % stay): compared
    # every unit's cell and facing after the round and the ATs eliminated by enemy tanks.
    from tankmap.rules.final_act.engine import Game

    bad: list[str] = []
    over = 0
    for seed in range(9500, 9800):
        sc = S.random_final_act_melee(seed)
        rng = np.random.default_rng(seed + 11)
        game = Game(sc)
        state = game.initial_state()
        if state.over:  # a side's tanks are all wrecks: lost already (§1.7)
            over += 1
            continue
        b = sc.board
        orders: list[tuple[int, Facing] | None] = []
        for i in range(len(sc.units)):
            legal = state.orders(i)
            pick = legal[int(rng.integers(len(legal)))] if legal else None
            orders.append(None if pick is None or rng.random() < 0.2 else pick)
        game.play_round(state, orders, {})
        want, eliminated = RF.resolve_moves(
            RF.from_scenario(sc),
            [None if o is None else ((b.col_of(o[0]), b.row_of(o[0])), int(o[1])) for o in orders],
        )
        got = [
            ((b.col_of(state.cell[i]), b.row_of(state.cell[i])), int(state.facing[i]))
            for i in range(len(sc.units))
        ]
        out = {i for i, u in enumerate(sc.units) if not u.wreck and not state.alive[i]}
        if got != want or out != eliminated:
            bad.append(f"seed {seed}: units {[i for i in range(len(got)) if got[i] != want[i]]}")
    assert over < 30, f"{over} of 300 positions were over already"
    assert not bad, "\n".join(bad[:10])


def test_random_games_round_by_round() -> None:
    # Up to 8 rounds per game from packed positions: random legal orders (25 % stay), shells
    # from every unit allowed to fire (tanks; ATs that keep their cell) at a random cell of
    # its zone (mostly one holding an enemy). After each round: every unit's cell and
    # facing, statuses per (cell, kind, side), winner and game over. Rounds where both sides
    # stand on the enemy's last line (docs/rules.md §1.7 leaves the exact moment open) end the
    # comparison, as do positions where a side has no tank (never had one: not a loss).
    from tankmap.rules.final_act.engine import Game

    bad: list[str] = []
    for seed in range(11000, 11150):
        rng = np.random.default_rng(seed)
        sc = S.random_final_act_melee(seed)
        for rnd in range(8):
            b = sc.board
            if len({u.side for u in sc.units if u.kind == "tank" and not u.wreck}) < 2:
                break
            game = Game(sc)
            state = game.initial_state()
            orders: list[tuple[int, Facing] | None] = []
            for i in range(len(sc.units)):
                legal = state.orders(i)
                pick = legal[int(rng.integers(len(legal)))] if legal else None
                orders.append(None if pick is None or rng.random() < 0.25 else pick)
            shells: dict[int, int] = {}
            for i, u in enumerate(sc.units):
                zone = state.fire_zone(i)
                if not state.can_fire(i, orders[i]) or not zone or rng.random() < 0.1:
                    continue
                enemy = [
                    c
                    for c in zone
                    if any(v.cell == c and v.side != u.side and not v.wreck for v in sc.units)
                ]
                pool = enemy if enemy and rng.random() < 0.8 else zone
                shells[i] = int(pool[int(rng.integers(len(pool)))])
            placed, status, winner, over = RF.play_round(
                RF.from_scenario(sc),
                [u.damage for u in sc.units],
                [
                    None if o is None else ((b.col_of(o[0]), b.row_of(o[0])), int(o[1]))
                    for o in orders
                ],
                [(sc.units[i].side.index, (b.col_of(c), b.row_of(c))) for i, c in shells.items()],
                bool(sc.options["wrecks"]),
            )
            game.play_round(state, orders, shells)
            if status[-1:] == ["both"]:
                break
            got = [
                ((b.col_of(state.cell[i]), b.row_of(state.cell[i])), int(state.facing[i]))
                for i in range(len(sc.units))
            ]
            got_status = [
                "wreck"
                if state.wreck[i]
                else ("out" if not state.alive[i] else f"ok{state.damage[i]}")
                for i in range(len(sc.units))
            ]
            moved = sc.with_units(
                replace(u, cell=b.cell(*placed[i][0])) for i, u in enumerate(sc.units)
            )
            got_winner = None if state.winner is None else state.winner.index
            if (
                got != placed
                or tally(moved, got_status) != tally(moved, status)
                or (got_winner, state.over) != (winner, over)
            ):
                bad.append(f"seed {seed} round {rnd}")
                break
            if state.over:
                break
            sc = state.to_scenario()
    assert not bad, "\n".join(bad[:10])


# (units as (kind, side, cell, facing), orders as "cell+facing" or None, expected cells,
#  expected eliminated unit indices) -- each derived by hand from docs/rules.md §1.5
N_, S_ = Side.NORTH, Side.SOUTH
CONFLICTS = {
    # two units trading cells both stay
    "swap": ([("tank", S_, "d4", "N"), ("tank", N_, "d5", "S")], ["d5N", "d4S"], ["d4", "d5"], []),
    # two units ordered into one cell: neither moves
    "same-cell": (
        [("tank", S_, "c4", "N"), ("tank", S_, "e4", "N")],
        ["d5N", "d5N"],
        ["c4", "e4"],
        [],
    ),
    # a tank entering an enemy AT's cell eliminates it and moves
    "run-over": (
        [("tank", S_, "d4", "N"), ("at", N_, "d5", "S")],
        ["d5N", None],
        ["d5", "d5"],
        [1],
    ),
    # ... also when both are ordered into one cell
    "run-over-both-moving": (
        [("tank", S_, "d4", "N"), ("at", N_, "d6", "S")],
        ["d5N", "d5S"],
        ["d5", "d5"],
        [1],
    ),
    # an AT may not enter a cell held by an enemy tank that stays
    "at-into-tank": (
        [("tank", S_, "d5", "N"), ("at", N_, "e6", "S")],
        [None, "d5S"],
        ["d5", "e6"],
        [],
    ),
    # an AT may join its own tank (allowed sharing is no conflict)
    "join-own-tank": (
        [("tank", S_, "d5", "N"), ("at", S_, "c5", "N")],
        [None, "d5N"],
        ["d5", "d5"],
        [],
    ),
    # chain: d4 cannot enter d5 (held by a unit that stays), so d3 cannot enter d4
    "chain": (
        [("tank", S_, "d3", "N"), ("tank", S_, "d4", "N"), ("tank", N_, "d5", "S")],
        ["d4N", "d5N", None],
        ["d3", "d4", "d5"],
        [],
    ),
    # three ATs moving round a cycle: no two swap and no cell gets two, so all move
    "cycle": (
        [("at", S_, "d4", "N"), ("at", S_, "e4", "N"), ("at", S_, "e5", "N")],
        ["e4N", "e5N", "d4N"],
        ["e4", "e5", "d4"],
        [],
    ),
    # X (d5) and Y (c7 facing S, forward-left = d6) are both ordered into d6, so neither
    # moves; then Z (d4) cannot enter d5, which X holds without moving
    "bounce-blocks-exit": (
        [("tank", S_, "d5", "N"), ("tank", S_, "c7", "S"), ("tank", S_, "d4", "N")],
        ["d6N", "d6S", "d5N"],
        ["d5", "c7", "d4"],
        [],
    ),
}


@pytest.mark.parametrize("case", sorted(CONFLICTS))
def test_hand_made_conflicts(case: str) -> None:
    from tankmap.rules.final_act.engine import Game

    spec, order_text, cells, eliminated = CONFLICTS[case]
    units = [Unit(k, side, c(cell), Facing.parse(f)) for k, side, cell, f in spec]
    sc = scen(units)
    orders = [None if o is None else (c(o[:2]), Facing.parse(o[2:])) for o in order_text]
    game = Game(sc)
    state = game.initial_state()
    game.play_round(state, orders, {})
    assert [B.cell_name(state.cell[i]) for i in range(len(units))] == cells
    assert [i for i in range(len(units)) if not state.alive[i]] == eliminated
    want, out = RF.resolve_moves(
        RF.from_scenario(sc),
        [None if o is None else ((B.col_of(o[0]), B.row_of(o[0])), int(o[1])) for o in orders],
    )
    assert [B.cell_name(B.cell(*x)) for x, _ in want] == cells
    assert sorted(out) == eliminated


# --- hand-made positions -------------------------------------------------------------------
def c(name: str) -> int:
    return B.parse_cell(name)


def scen(units: list[Unit], terrain: list[Terrain] | None = None, **options: bool) -> Scenario:
    return Scenario(
        ruleset="final-act",
        board=B,
        options={"extra_forces": True, **options},
        terrain=tuple(terrain or ()),
        units=tuple(units),
    )


def zone_names(sc: Scenario, u: Unit) -> set[str]:
    got = {B.cell_name(x) for x in RS.fire_zone(sc, u)}
    pos = RF.from_scenario(sc)
    want = {B.cell_name(B.cell(*x)) for x in RF.fire_zone(pos, sc.units.index(u))}
    assert got == want
    return got


def move_names(sc: Scenario, u: Unit) -> set[str]:
    got = {f"{B.cell_name(m.to)}{m.facing.name}" for m in RS.moves(sc, u)}  # type: ignore[arg-type, union-attr]
    pos = RF.from_scenario(sc)
    want = {
        f"{B.cell_name(B.cell(*x))}{RF.FACING_NAMES[f]}"
        for x, f in RF.orders(pos, sc.units.index(u))
    }
    assert got == want
    return got


def tank(cell: str, facing: Facing = Facing.N, side: Side = Side.SOUTH, **kw: bool) -> Unit:
    return Unit("tank", side, c(cell), facing, **kw)


SHADOW_F2 = {"e2", "f2", "g2", "d3", "h3", "c4", "i4"}  # docs/rules.md §4: blocker on f2, 7 cells


def test_rules_section_4_fire_zone_examples() -> None:
    # docs/rules.md §4: 24 cells at f1, 15 at a1, 25 on a berm, AT 12; blocker on f2: 7 cells,
    # strict: 1 (f2 itself).
    f1 = tank("f1")
    assert len(zone_names(scen([f1]), f1)) == 24
    a1 = tank("a1")
    assert len(zone_names(scen([a1]), a1)) == 15
    assert len(zone_names(scen([f1], [Terrain("berm-small", (c("f1"), c("g1")))]), f1)) == 25
    at = Unit("at", Side.SOUTH, c("f1"), Facing.N)
    assert len(zone_names(scen([at]), at)) == 12
    foe = tank("f2", Facing.S, Side.NORTH)
    assert zone_names(scen([f1, foe]), f1) == SHADOW_F2
    assert zone_names(scen([f1, foe], strict_line_of_fire=True), f1) == {"f2"}


@pytest.mark.parametrize(
    ("what", "expected"),
    [
        # an AT never blocks: the whole 24-cell cone
        ("at", 24),
        # a swamp and a minefield never block
        ("swamp", 24),
        ("minefield", 24),
        # a berm, a wreck, the R/M and an own tank block like the enemy tank: 7 cells
        ("berm", 7),
        ("wreck", 7),
        ("rm", 7),
        ("own-tank", 7),
    ],
)
def test_what_blocks_the_line_of_fire(what: str, expected: int) -> None:
    f1 = tank("f1")
    units = [f1]
    terrain: list[Terrain] = []
    if what == "at":
        units.append(Unit("at", Side.NORTH, c("f2"), Facing.S))
    elif what == "swamp":
        terrain.append(Terrain("swamp", (c("f2"), c("g2"), c("f3"), c("g3")), Side.NORTH))
    elif what == "minefield":
        terrain.append(
            Terrain("minefield", (c("e2"), c("f2"), c("g2")), Side.NORTH, c("e2"), Facing.S)
        )
    elif what == "berm":
        terrain.append(Terrain("berm-small", (c("f2"), c("f3")), Side.SOUTH))
    elif what == "wreck":
        units.append(tank("f2", Facing.S, Side.NORTH, wreck=True))
    elif what == "rm":
        units.append(Unit("rm", Side.NORTH, c("f2"), Facing.S))
    else:
        units.append(tank("f2"))
    zone = zone_names(scen(units, terrain), f1)
    if what == "berm":
        # the berm f2-f3 also hides e4 f4 g4 ... which the f2 shadow already hides;
        # f3 (the berm's second cell) is in the f2 shadow, so still exactly the 7 cells
        assert zone == SHADOW_F2
    assert len(zone) == expected


def test_tank_and_at_on_a_berm_are_elevated_but_the_at_cone_stays_12() -> None:
    # Tank on a berm at f1 with an enemy tank on f2: elevated, whole cone + f8 = 25.
    # rules §1.6 (at_berm_elevated, default true): an AT on the same berm is elevated too —
    # its whole 12-cell cone f2 e2 g2 / d3..h3 / e4 f4 g4 / f5, never a longer one.
    # With at_berm_elevated=false its line of fire counts: a cell (s, f) with |s| < f behind
    # the blocker on f2 is hidden (e3 f3 g3, e4 f4 g4, f5); d3 h3 pass through f2's corner
    # points only. Visible then: e2 f2 g2 d3 h3 = 5.
    berm = Terrain("berm-small", (c("f1"), c("g1")), Side.SOUTH)
    f1 = tank("f1")
    foe = tank("f2", Facing.S, Side.NORTH)
    assert len(zone_names(scen([f1, foe], [berm]), f1)) == 25
    at = Unit("at", Side.SOUTH, c("f1"), Facing.N)
    cone = {"e2", "f2", "g2", "d3", "e3", "f3", "g3", "h3", "e4", "f4", "g4", "f5"}
    assert zone_names(scen([at, foe], [berm]), at) == cone
    assert zone_names(scen([at, foe], [berm], at_berm_elevated=False), at) == {
        "e2",
        "f2",
        "g2",
        "d3",
        "h3",
    }


def test_rules_section_4_minefield_orders() -> None:
    # docs/rules.md §4: minefield f5 g5 h5, lane g5, arrow N.
    mine = Terrain("minefield", (c("f5"), c("g5"), c("h5")), Side.SOUTH, c("g5"), Facing.N)
    g4 = tank("g4")
    assert move_names(scen([g4], [mine]), g4) == {"g5N", "g3N", "f3N", "f3W", "h3N", "h3E"}
    on_lane = tank("g5")
    assert move_names(scen([on_lane], [mine]), on_lane) == {"g6N"}
    backwards = tank("g5", Facing.S)
    assert move_names(scen([backwards], [mine]), backwards) == {"g6S"}
    at = Unit("at", Side.SOUTH, c("g4"), Facing.N)
    assert len(move_names(scen([at], [mine]), at)) == 27


def test_lane_owner_only_and_reverse_turn() -> None:
    # North tank on g4 facing S, south minefield f5 g5 h5 (lane g5, arrow N). Its moves:
    # forward g3, back g5 (a straight step N into the lane), forward-left = h3 (left of S is
    # E), forward-right = f3, back-left h5 / back-right f5 are mined. Facing S, left is E
    # and right is W: h3S h3E f3S f3W. With lane_owner_only the north tank may not enter.
    mine = Terrain("minefield", (c("f5"), c("g5"), c("h5")), Side.SOUTH, c("g5"), Facing.N)
    north = tank("g4", Facing.S, Side.NORTH)
    assert move_names(scen([north], [mine]), north) == {"g3S", "g5S", "h3S", "h3E", "f3S", "f3W"}
    assert move_names(scen([north], [mine], lane_owner_only=True), north) == {
        "g3S",
        "h3S",
        "h3E",
        "f3S",
        "f3W",
    }
    # Tank f6 facing N on an empty board: forward-left e7 (W), forward-right g7 (E),
    # back-left e5 turns left (W) by default, right (E) with reverse_turn; back-right g5
    # turns right (E) by default, left (W) with reverse_turn.
    t = tank("f6")
    base = {"f7N", "f5N", "e7N", "e7W", "g7N", "g7E", "e5N", "g5N"}
    assert move_names(scen([t]), t) == base | {"e5W", "g5E"}
    assert move_names(scen([t], reverse_turn=True), t) == base | {"e5E", "g5W"}


def test_wrecks_swamps_and_edges_stop_movement_other_units_do_not() -> None:
    # Tank a1 facing N: forward a2, forward-right b2 (N or E); back and back moves are off
    # the board; forward-left is off the board. A wreck on a2 and a swamp b2 c2 b3 c3 leave
    # nothing; a live enemy tank on a2 is ignored (conflicts are resolved when orders run).
    t = tank("a1")
    assert move_names(scen([t]), t) == {"a2N", "b2N", "b2E"}
    wreck = tank("a2", Facing.S, Side.NORTH, wreck=True)
    swamp = Terrain("swamp", (c("b2"), c("c2"), c("b3"), c("c3")), Side.NORTH)
    assert move_names(scen([t, wreck], [swamp]), t) == set()
    live = tank("a2", Facing.S, Side.NORTH)
    assert move_names(scen([t, live]), t) == {"a2N", "b2N", "b2E"}
