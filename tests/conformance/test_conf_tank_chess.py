"""Tank Chess conformance: the project against the independent reference (docs/rules.md §2.3-2.5).

Compared: ``tankmap moves --json`` (moves and fire zone of every unit) on every built-in map,
``tankmap perft --json`` on basic-16 (depth 1, 2) and sample-20 (depth 1, 2), moves and fire
zones on 400 seeded random positions, perft(2) on 30 and perft(3) on 3 small random
positions, 40 random games turn by turn (legal turn sets in notation, outcomes, positions),
and hand-counted positions whose derivations are written below.
"""

from __future__ import annotations

import json
from pathlib import Path

import conformance_support as S
import numpy as np
import pytest
import reference_tank_chess as RT

from tankmap.cli import main
from tankmap.rules.board import Board
from tankmap.rules.fileformat import read_scenario, write_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit

ROOT = Path(__file__).resolve().parents[2]
MAPS = sorted((ROOT / "maps" / "tank-chess").glob("*.json"))


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:  # type: ignore[type-arg]
    capsys.readouterr()
    assert main(list(argv)) == 0
    data: dict = json.loads(capsys.readouterr().out)  # type: ignore[type-arg]
    return data


# --- built-in maps -------------------------------------------------------------------------
@pytest.mark.parametrize("path", MAPS, ids=[p.stem for p in MAPS])
def test_builtin_map_moves_and_fire_zones(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sc = read_scenario(path)
    b = sc.board
    pos = RT.from_scenario(sc)
    doc = cli_json(capsys, "moves", str(path), "--json")
    assert len(doc["units"]) == len(sc.units)
    for i, (u, row) in enumerate(zip(sc.units, doc["units"], strict=True)):
        assert row["cell"] == b.cell_name(u.cell)
        got = {(m["to"], m["facing"]) for m in row["moves"]}
        assert len(got) == len(row["moves"]), f"duplicate moves for {row}"
        assert got == RT.moves_json(pos, i, lambda c, r: b.cell_name(b.cell(c, r))), row["cell"]
        want_zone = {b.cell_name(b.cell(c, r)) for c, r in RT.fire_zone(pos, i)}
        assert set(row["fire_zone"]) == want_zone, row["cell"]
        assert len(row["fire_zone"]) == len(want_zone)


@pytest.mark.parametrize(
    ("name", "depth"),
    [
        ("basic-16", 1),
        ("basic-16", 2),
        ("sample-20", 1),
        ("sample-20", 2),
        ("blank-16", 1),
        ("blank-20", 1),
    ],
)
def test_builtin_map_perft(name: str, depth: int, capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "maps" / "tank-chess" / f"{name}.json"
    want = RT.perft(RT.from_scenario(read_scenario(path)), depth)
    doc = cli_json(capsys, "perft", str(path), "--depth", str(depth), "--json")
    assert doc["depth"] == depth
    assert doc["nodes"] == want


def test_basic_16_reference_matches_rules_examples() -> None:
    # docs/rules.md §4: in the basic setup the heavy on c1 has 21 distinct moves; basic-16 has
    # 549 first turns by the reference (no shot is possible from the start lines: every
    # ray from rows 1-3 meets an own piece, an obstacle or an empty board far side).
    sc = read_scenario(ROOT / "maps" / "tank-chess" / "basic-16.json")
    pos = RT.from_scenario(sc)
    c1 = next(i for i, p in enumerate(pos.pieces) if (p.col, p.row) == (2, 0))
    assert len(RT.end_states(pos, c1)) == 21


# --- random positions ----------------------------------------------------------------------
@pytest.mark.parametrize("chunk", range(4))
def test_random_positions_moves_and_fire_zones(chunk: int) -> None:
    bad: list[str] = []
    for seed in range(chunk * 100, chunk * 100 + 100):
        sc = S.random_tank_chess(seed)
        bad += [f"seed {seed}: {m}" for m in S.tank_chess_mismatches(sc)]
    assert not bad, "\n".join(bad[:10])


def test_random_positions_perft_depth_2() -> None:
    bad = []
    for seed in range(1000, 1020):
        sc = S.random_tank_chess(seed, max_size=9, crowd=4)
        want = RT.perft(RT.from_scenario(sc), 2)
        got = S.project_perft(sc, 2)
        if got != want:
            bad.append(f"seed {seed}: project {got} reference {want}")
    assert not bad, "\n".join(bad)


def test_crowded_random_positions_perft_depth_2() -> None:
    # 8 × 8 to 9 × 9 boards with up to 11 pieces a side: many shots, kills and escapes
    bad = []
    for seed in range(4000, 4010):
        sc = S.random_tank_chess(seed, max_size=9, crowd=10)
        want = RT.perft(RT.from_scenario(sc), 2)
        got = S.project_perft(sc, 2)
        if got != want:
            bad.append(f"seed {seed}: project {got} reference {want}")
    assert not bad, "\n".join(bad)


def test_random_positions_perft_depth_3() -> None:
    bad = []
    for seed in (2004, 2010, 2011):  # the cheaper ones for the slow reference (~1.3 s each)
        sc = S.random_tank_chess(seed, max_size=8, crowd=2)
        want = RT.perft(RT.from_scenario(sc), 3)
        got = S.project_perft(sc, 3)
        if got != want:
            bad.append(f"seed {seed}: project {got} reference {want}")
    assert not bad, "\n".join(bad)


def test_random_position_perft_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed in (3000, 3001, 3002):
        sc = S.random_tank_chess(seed, max_size=10, crowd=5)
        path = tmp_path / f"p{seed}.json"
        write_scenario(sc, path)
        for depth in (1, 2):
            doc = cli_json(capsys, "perft", str(path), "--depth", str(depth), "--json")
            assert doc["nodes"] == RT.perft(RT.from_scenario(sc), depth), (seed, depth)


# --- hand-made positions -------------------------------------------------------------------
def corridor(shooter: str, clt_facing: Facing = Facing.S) -> Scenario:
    """8 × 8 board where only column d is free: south CLT d1 N, south ``shooter`` d2 N,
    north CLT d8 facing ``clt_facing``."""
    b = Board.of(8, 8)
    obstacles = tuple(c for c in range(b.size) if b.col_of(c) != 3)
    return Scenario(
        ruleset="tank-chess",
        board=b,
        terrain=(Terrain("obstacle", obstacles),),
        units=(
            Unit("command", Side.SOUTH, b.parse_cell("d1"), Facing.N),
            Unit(shooter, Side.SOUTH, b.parse_cell("d2"), Facing.N),
            Unit("command", Side.NORTH, b.parse_cell("d8"), clt_facing),
        ),
    )


def both_perft(sc: Scenario, depth: int) -> tuple[int, int]:
    return S.project_perft(sc, depth), RT.perft(RT.from_scenario(sc), depth)


def test_corridor_light_hits_front_armour_and_game_goes_on() -> None:
    # Light on d2 facing N, speed 5, only column d free. Min steps to (row, facing): facing
    # costs N0 NE/NW1 E/W2 SE/SW3 S4 on top of (row - 2) forward steps (d8 is occupied):
    # end states d2 7, d3 8, d4 7, d5 5, d6 3, d7 1 = 31 (backward d1 is the own CLT).
    # Shots at d8 along the N ray (N, NE and NW facings carry it), distance >= 2:
    # d2 NE NW, and N NE NW on d3 d4 d5 d6 = 2 + 12 = 14. South CLT d1: 7 rotations only.
    # perft(1) = 31 + 14 + 7 = 52.
    # Gun 1 vs front armour 1 (d = S = the CLT's facing): nothing happens. North CLT turns
    # with the light on row k: end states N(j) for j = min(5, 7 - k) forward steps
    # (7, 15, 22, 27, 30, 31 for j = 0..5) plus shots at the light from S/SE/SW facings on a
    # row >= k + 2: T(2..7) = 45, 41, 35, 27, 17, 7. South turns by light row k:
    # 16, 11, 10, 8, 6, 1. perft(2) = 16*45 + 11*41 + 10*35 + 8*27 + 6*17 + 1*7 = 1846.
    sc = corridor("light")
    assert both_perft(sc, 1) == (52, 52)
    assert both_perft(sc, 2) == (1846, 1846)


def test_corridor_medium_destroys_the_command_tank_and_the_turn_is_a_leaf() -> None:
    # Medium on d2 facing N, speed 4: end states d2 7, d3 7, d4 5, d5 3, d6 1 = 23; shots at
    # d8: d2 NE NW, N NE NW on d3 d4 d5, N on d6 = 12, each destroying the CLT (gun 2 >
    # front 1), so each is a leaf. South CLT: 7. perft(1) = 23 + 12 + 7 = 42.
    # perft(2) = 12 + (7 + 7)*45 + 7*41 + 5*35 + 3*27 + 1*17 = 1202.
    sc = corridor("medium")
    assert both_perft(sc, 1) == (42, 42)
    assert both_perft(sc, 2) == (1202, 1202)


def test_heavy_in_corner_and_walled_command_tank() -> None:
    # 8 × 8: south heavy a1 facing N (speed 3) on an otherwise empty corner: end states by
    # steps: 1 -> a1NE a1NW a2N; 2 -> a1E a1W b2NE a2NE a2NW a3N; 3 -> a1SE b1E a1SW b2E b2N
    # c3NE a2E b3NE a2W a3NE a3NW a4N: 3 + 6 + 12 = 21; backward is off the board.
    # North CLT h8 facing S walled by obstacles g8 g7 h7: 7 rotations, no escape (its goal is
    # row 1), no shot, and the heavy cannot reach it: perft(2) = 21 * 7 = 147.
    b = Board.of(8, 8)
    walls = tuple(b.parse_cell(n) for n in ("g8", "g7", "h7"))
    sc = Scenario(
        ruleset="tank-chess",
        board=b,
        terrain=(Terrain("obstacle", walls),),
        units=(
            Unit("heavy", Side.SOUTH, b.parse_cell("a1"), Facing.N),
            Unit("command", Side.NORTH, b.parse_cell("h8"), Facing.S),
        ),
    )
    assert both_perft(sc, 1) == (21, 21)
    assert both_perft(sc, 2) == (147, 147)


@pytest.mark.parametrize(("start", "escapes"), [("c4", True), ("d4", False)])
def test_escape_not_through_the_corner_point(start: str, escapes: bool) -> None:
    # Empty 8 × 8, south CLT facing NE (speed 5). From c4 four NE steps reach g8 and the
    # fifth leaves across the top edge at column h: escape. From d4 they reach h8 and the
    # fifth would leave through the corner point: forbidden; any rotation leaves only 4
    # forward steps (row 8 at best), so no escape at all.
    b = Board.of(8, 8)
    me = Unit("command", Side.SOUTH, b.parse_cell(start), Facing.NE)
    sc = Scenario(
        ruleset="tank-chess",
        board=b,
        units=(me, Unit("command", Side.NORTH, b.parse_cell("a8"), Facing.S)),
    )
    got = {m.to for m in get_ruleset("tank-chess").moves(sc, me)}
    assert (None in got) is escapes
    assert (RT.ESCAPE in RT.end_states(RT.from_scenario(sc), 0)) is escapes


def test_walled_command_tank_on_enemy_edge_escapes_once() -> None:
    # 8 × 8, south CLT d8 facing N with obstacles c8 e8 c7 d7 e7: 7 rotations, and escape
    # (N, NE or NW step across the top edge) counted once: 8 moves, no backward step (d7).
    b = Board.of(8, 8)
    walls = tuple(b.parse_cell(n) for n in ("c8", "e8", "c7", "d7", "e7"))
    me = Unit("command", Side.SOUTH, b.parse_cell("d8"), Facing.N)
    sc = Scenario(
        ruleset="tank-chess",
        board=b,
        terrain=(Terrain("obstacle", walls),),
        units=(me, Unit("command", Side.NORTH, b.parse_cell("a1"), Facing.S)),
    )
    moves = get_ruleset("tank-chess").moves(sc, me)
    assert len(moves) == 8
    assert sum(m.to is None for m in moves) == 1
    assert len(RT.end_states(RT.from_scenario(sc), 0)) == 8
    # perft(1) = 8 (no shot: every ray is walled or leaves the board)
    assert both_perft(sc, 1) == (8, 8)


def test_escape_and_depth_0_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the walled CLT on d8 above, end to end: "escape" with facing null, plus 7 rotations;
    # perft depth 0 is the root alone (1), depth 1 the 8 turns.
    b = Board.of(8, 8)
    walls = tuple(b.parse_cell(n) for n in ("c8", "e8", "c7", "d7", "e7"))
    sc = Scenario(
        ruleset="tank-chess",
        board=b,
        terrain=(Terrain("obstacle", walls),),
        units=(
            Unit("command", Side.SOUTH, b.parse_cell("d8"), Facing.N),
            Unit("command", Side.NORTH, b.parse_cell("a1"), Facing.S),
        ),
    )
    path = tmp_path / "walled.json"
    write_scenario(sc, path)
    doc = cli_json(capsys, "moves", str(path), "--json")
    moves = {(m["to"], m["facing"]) for m in doc["units"][0]["moves"]}
    assert moves == {("escape", None)} | {
        ("d8", f) for f in ("NE", "E", "SE", "S", "SW", "W", "NW")
    }
    assert cli_json(capsys, "perft", str(path), "--depth", "0", "--json")["nodes"] == 1
    assert cli_json(capsys, "perft", str(path), "--depth", "1", "--json")["nodes"] == 8


def test_mortar_and_destroyer_fire_zones_by_hand() -> None:
    # 8 × 8: south mortar d1 facing N, obstacle d5, own light d3: zone = d4 d6 (3..5 ahead,
    # not the obstacle; over anything). South destroyer a1 facing NE: ray b2 c3 d4 ... ;
    # the mortar is not on it; north light on f6: zone = c3 d4 e5 f6 (b2 adjacent, stops at
    # the first piece).
    b = Board.of(8, 8)
    mortar = Unit("mortar", Side.SOUTH, b.parse_cell("d1"), Facing.N)
    td = Unit("destroyer", Side.SOUTH, b.parse_cell("a1"), Facing.NE)
    sc = Scenario(
        ruleset="tank-chess",
        board=b,
        terrain=(Terrain("obstacle", (b.parse_cell("d5"),)),),
        units=(
            mortar,
            td,
            Unit("light", Side.SOUTH, b.parse_cell("d3"), Facing.N),
            Unit("light", Side.NORTH, b.parse_cell("f6"), Facing.S),
        ),
    )
    rs = get_ruleset("tank-chess")
    pos = RT.from_scenario(sc)
    names = {b.cell_name(c) for c in rs.fire_zone(sc, mortar)}
    assert names == {"d4", "d6"} == {b.cell_name(b.cell(*c)) for c in RT.fire_zone(pos, 0)}
    names = {b.cell_name(c) for c in rs.fire_zone(sc, td)}
    want = {b.cell_name(b.cell(*c)) for c in RT.fire_zone(pos, 1)}
    assert names == {"c3", "d4", "e5", "f6"} == want


@pytest.mark.parametrize("north_pieces", ["none", "wreck"])
def test_side_without_a_legal_turn_contributes_zero(north_pieces: str) -> None:
    # South CLT walled on d8 (as above): 8 turns, one of them the escape. North has no live
    # piece, hence no legal turn: perft(2) = 1 (the escape is a leaf) + 7 * 0 = 1, and
    # perft(3) = 1 too (docs/cli-json.md perft).
    b = Board.of(8, 8)
    walls = tuple(b.parse_cell(n) for n in ("c8", "e8", "c7", "d7", "e7"))
    units = [Unit("command", Side.SOUTH, b.parse_cell("d8"), Facing.N)]
    if north_pieces == "wreck":
        units.append(Unit("light", Side.NORTH, b.parse_cell("a1"), Facing.S, wreck=True))
    sc = Scenario(
        ruleset="tank-chess", board=b, terrain=(Terrain("obstacle", walls),), units=tuple(units)
    )
    assert both_perft(sc, 1) == (8, 8)
    assert both_perft(sc, 2) == (1, 1)
    assert both_perft(sc, 3) == (1, 1)


def turn_text(pos: RT.Pos, t: RT.Turn, b: Board) -> str:
    """docs/rules.md §2.4 notation of a reference turn (escape written ``<from>esc``)."""
    p = pos.pieces[t.piece]
    out = b.cell_name(b.cell(p.col, p.row))
    if t.end == RT.ESCAPE:
        return out + "esc"
    assert isinstance(t.end, tuple)
    out += b.cell_name(b.cell(t.end[0], t.end[1])) + RT.FACING_NAMES[t.end[2]]
    if t.target is not None:
        q = pos.pieces[t.target]
        out += "x" + b.cell_name(b.cell(q.col, q.row))
    return out


def test_random_games_turn_by_turn() -> None:
    # 40 random games of up to 30 plies: at every ply the SET of legal turns (as notation,
    # so each turn's identity, not just the count), then after a random turn the outcome
    # (winner and reason) and the position (cells, facings, wrecks) must agree.
    from collections import Counter

    from tankmap.rules.tank_chess.notation import format_turn, parse_turn
    from tankmap.rules.tank_chess.state import initial_state

    bad: list[str] = []
    for seed in range(12000, 12040):
        rng = np.random.default_rng(seed)
        sc = S.random_tank_chess(seed, max_size=10, crowd=5)
        b = sc.board
        state = initial_state(sc)
        pos = RT.from_scenario(sc)
        for ply in range(30):
            mine = {turn_text(pos, t, b): t for t in RT.legal_turns(pos)}
            theirs = {format_turn(state, t) for t in state.legal_turns()}
            if set(mine) != theirs:
                bad.append(f"seed {seed} ply {ply}: turns {sorted(set(mine) ^ theirs)[:6]}")
                break
            text = sorted(mine)[int(rng.integers(len(mine)))]
            mover = pos.to_move
            state.play(parse_turn(state, text))
            pos, over = RT.apply(pos, mine[text])
            outcome = state.outcome()
            if over:
                reason = "escape" if text.endswith("esc") else "command-destroyed"
                if outcome is None or outcome.winner is None or outcome.winner.index != mover:
                    bad.append(f"seed {seed} ply {ply}: {text} should win, got {outcome}")
                elif outcome.reason != reason:
                    bad.append(f"seed {seed} ply {ply}: {text} reason {outcome.reason}")
                break
            if outcome is not None:
                bad.append(f"seed {seed} ply {ply}: {text} ended the game: {outcome}")
                break
            got = Counter(
                (
                    b.col_of(u.cell),
                    b.row_of(u.cell),
                    u.kind,
                    u.side.index,
                    int(u.facing or 0),
                    u.wreck,
                )
                for u in state.to_scenario().units
            )
            want = Counter((p.col, p.row, p.kind, p.side, p.facing, p.wreck) for p in pos.pieces)
            if got != want:
                bad.append(f"seed {seed} ply {ply}: position after {text}")
                break
    assert not bad, "\n".join(bad[:10])


def test_no_legal_move_is_a_draw() -> None:
    # docs/rules.md §2.5: a side with no legal move draws. South's walled CLT on d8 rotates to NE;
    # north has only a wreck, hence no legal turn: the game is a draw.
    from tankmap.rules.tank_chess.notation import parse_turn
    from tankmap.rules.tank_chess.state import initial_state

    b = Board.of(8, 8)
    walls = tuple(b.parse_cell(n) for n in ("c8", "e8", "c7", "d7", "e7"))
    sc = Scenario(
        ruleset="tank-chess",
        board=b,
        terrain=(Terrain("obstacle", walls),),
        units=(
            Unit("command", Side.SOUTH, b.parse_cell("d8"), Facing.N),
            Unit("light", Side.NORTH, b.parse_cell("a1"), Facing.S, wreck=True),
        ),
    )
    state = initial_state(sc)
    state.play(parse_turn(state, "d8d8NE"))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None


def test_corridor_mortar_fires_over_pieces() -> None:
    # Only column d free on 8 × 8: south CLT d1 N, south mortar d2 N (speed 3), north light
    # d6 S, north CLT d8 S. Mortar end states: d2 NE NW E W SE SW (6), d3 N NE NW E W (5),
    # d4 N NE NW (3), d5 N (1) = 15 (backward d1 is the own CLT). Shots 3-5 cells straight
    # ahead at enemies, over anything: from d3 N the light d6 and the CLT d8 (over the
    # light), from d4 N the CLT d8 (d6 is only 2 ahead), from d5 N the CLT d8 = 4.
    # South CLT: 7 rotations. perft(1) = 15 + 4 + 7 = 26.
    sc = corridor("mortar")
    b = sc.board
    light = Unit("light", Side.NORTH, b.parse_cell("d6"), Facing.S)
    sc = sc.with_units(sc.units + (light,))
    assert both_perft(sc, 1) == (26, 26)
