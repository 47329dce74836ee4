"""Tank Chess (and Final Act) positions as games: decided positions, "Check!" and "Escape!",
and set-ups that lose on turn one. Hand-made positions, answers worked out in comments from
docs/rules.md §2.3–2.5 (a move then an optional shot; gun > armour side destroys; escape
off the enemy's edge)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tankmap.cli import main
from tankmap.maps import map_names, map_path
from tankmap.rules.fileformat import read_scenario, write_scenario
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario
from tankmap.rules.tank_chess.announce import announcements, side_status
from tankmap.rules.tank_chess.state import GameState, perft
from tests.tank_chess.tc_support import make

RS = get_ruleset("tank-chess")


def _basic_with_black_command_wrecked() -> Scenario:
    path = map_path("tank-chess/basic-16")
    assert path is not None
    s = read_scenario(path)
    units = [
        replace(u, wreck=True) if u.kind == "command" and u.side is Side.NORTH else u
        for u in s.units
    ]
    return s.with_units(units)


def test_a_wrecked_command_tank_decides_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = _basic_with_black_command_wrecked()
    f = tmp_path / "over.json"
    write_scenario(s, f)
    assert main(["check", str(f), "--json"]) == 0
    entry = json.loads(capsys.readouterr().out)["files"][0]
    assert entry["finished"] == {"winner": "south", "reason": "command-destroyed"}
    assert main(["check", str(f)]) == 0
    assert "legal, finished: White wins (command-destroyed)" in capsys.readouterr().out
    st = GameState(s)
    assert st.legal_turns() == [] and all(perft(st, d) == 0 for d in (0, 1, 2))
    assert main(["perft", str(f), "--depth", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["nodes"] == 0
    for argv in (
        ["simulate", str(f), "--games", "2", "--workers", "1"],
        ["ladder", str(f), "--games", "2", "--workers", "1"],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "already over" in err


def test_both_command_tanks_wrecked_is_a_finished_draw() -> None:
    s = make(["W command a1 N x", "B command h8 S x", "W light c3 N"], size=(8, 8))
    done = RS.finished(s)
    assert done is not None and done.winner is None and done.reason == "both-destroyed"
    o = GameState(s).outcome()
    assert o is not None and o.winner is None


def test_live_games_and_setups_are_not_finished() -> None:
    for name in map_names():
        path = map_path(name)
        assert path is not None
        s = read_scenario(path)
        assert get_ruleset(s.ruleset).finished(s) is None, name
    # a set-up still missing a command tank is incomplete, not decided
    assert RS.finished(make(["W command a1 N", "B light h8 S"], size=(8, 8))) is None


def test_final_act_tank_on_the_enemy_line_decides_the_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = map_path("final-act/mirror")
    assert path is not None
    s = read_scenario(path)
    board = s.board
    south_c = next(i for i, u in enumerate(s.units) if u.side is Side.SOUTH and u.name == "C")
    units = list(s.units)
    units[south_c] = replace(units[south_c], cell=board.parse_cell("f12"))  # north's row 1
    over = s.with_units(units)
    done = get_ruleset("final-act").finished(over)
    assert done is not None and done.winner is Side.SOUTH and done.reason == "goal"
    f = tmp_path / "fa.json"
    write_scenario(over, f)
    assert main(["simulate", str(f), "--games", "2", "--workers", "1"]) == 2
    assert "already over" in capsys.readouterr().err
    # every north tank a wreck: south wins by annihilation
    wrecked = s.with_units(
        [
            replace(u, wreck=True) if u.side is Side.NORTH and u.kind == "tank" else u
            for u in s.units
        ]
    )
    done = get_ruleset("final-act").finished(wrecked)
    assert done is not None and (done.winner, done.reason) == (Side.SOUTH, "annihilation")


# --- Check and Escape -------------------------------------------------------------------

WALLS = " ".join(f"{c}{r}" for c in "df" for r in range(1, 7))  # column e is a corridor


def test_check_when_a_shot_beats_the_armour_it_hits() -> None:
    # White heavy (gun 3) on e2 facing N, Black command tank (front armour 1) on e7 facing S:
    # after any move up column e (or the backward step to e1) the heavy shoots e7 from the
    # south, the command tank's front: 3 > 1 destroys it. Black's command tank (gun 1)
    # cannot destroy the heavy (front 3) nor reach White's command tank on a1.
    s = make(["W heavy e2 N", "B command e7 S", "W command a1 N"], WALLS, size=(10, 10))
    st = GameState(s)
    white, black = side_status(st, 0), side_status(st, 1)
    assert white.check and not white.escape
    assert "e2e3Nxe7" in white.notation[0]
    assert not black.check and not black.escape


def test_no_check_when_the_shot_cannot_pierce() -> None:
    # The same corridor with a light tank (gun 1): its only shots at e7 come from column e,
    # i.e. from the south, onto the command tank's front armour 1: 1 > 1 is false, no Check,
    # although the shot is a legal turn (the engine lists it).
    s = make(["W light e2 N", "B command e7 S", "W command a1 N"], WALLS, size=(10, 10))
    st = GameState(s)
    assert any(t[3] == 1 for t in st.legal_turns())  # the shot exists ...
    assert not side_status(st, 0).check  # ... but does not destroy


def test_escape_and_a_piece_in_the_way() -> None:
    # White command tank on c8 facing N of a 10 x 10 board: c9, c10 and the step off = 3
    # steps <= speed 5: Escape. With obstacles on b9 and d9 and a Black light on c9 every
    # way out within 5 steps is shut (the diagonals are blocked, going round takes more).
    free = make(["W command c8 N", "B command h1 N"], "b9 d9", size=(10, 10))
    assert side_status(GameState(free), 0).escape
    blocked = make(["W command c8 N", "B command h1 N", "B light c9 S"], "b9 d9", size=(10, 10))
    assert not side_status(GameState(blocked), 0).escape


def test_announcements_are_for_the_side_that_just_moved() -> None:
    s = make(
        ["W heavy e2 N", "B command e7 S", "W command a1 N"], WALLS, size=(10, 10), to_move="north"
    )  # White has just moved: it announces its Check
    assert announcements(GameState(s)) == ("Check!",)
    assert announcements(GameState(replace(s, to_move=Side.SOUTH))) == ()


def _reference(st: GameState, side: int) -> tuple[bool, bool]:
    """Independent reading: play every legal turn of ``side`` and look at the outcome."""
    work = st.copy()
    work.to_move = side
    check = escape = False
    for turn in work.legal_turns():
        work.push(turn)
        o = work.outcome()
        if o is not None and o.winner is not None and o.winner.index == side:
            check |= o.reason == "command-destroyed"
            escape |= o.reason == "escape"
        work.pop()
    return check, escape


def _random_position(rng: np.random.Generator) -> Scenario:
    size = 6
    kinds = ["light", "medium", "heavy", "destroyer", "mortar"]
    cells = rng.permutation(size * size)
    units, k = [], 0
    for side in "WB":
        units.append(f"{side} command {_name(cells[k], size)} {_facing(rng)}")
        k += 1
        for _ in range(int(rng.integers(1, 4))):
            units.append(
                f"{side} {kinds[int(rng.integers(len(kinds)))]} "
                f"{_name(cells[k], size)} {_facing(rng)}"
            )
            k += 1
    obstacles = " ".join(_name(cells[k + i], size) for i in range(int(rng.integers(0, 5))))
    return make(units, obstacles, size=(size, size))


def _name(cell: int, size: int) -> str:
    return f"{'abcdefgh'[cell % size]}{cell // size + 1}"


def _facing(rng: np.random.Generator) -> str:
    return ["N", "NE", "E", "SE", "S", "SW", "W", "NW"][int(rng.integers(8))]


def test_check_and_escape_agree_with_playing_every_turn_on_1000_positions() -> None:
    rng = np.random.default_rng(20)
    seen = {"check": 0, "escape": 0}
    for _ in range(1000):
        st = GameState(_random_position(rng))
        for side in (0, 1):
            status = side_status(st, side)
            assert (status.check, status.escape) == _reference(st, side)
            seen["check"] += status.check
            seen["escape"] += status.escape
    assert seen["check"] > 50 and seen["escape"] > 50  # both answers were exercised


# --- set-ups that lose on turn one ----------------------------------------------------------


def test_first_turn_win_warning_on_an_open_board() -> None:
    s = make(["W heavy e2 N", "B command e7 S", "W command a1 N"], WALLS, size=(10, 10))
    warn = [v for v in RS.check(s) if v.code == "first-turn-win"]
    assert len(warn) == 1 and warn[0].severity.value == "warning"
    assert set(warn[0].cells) == {s.board.parse_cell("e2"), s.board.parse_cell("e7")}
    assert warn[0].message.startswith("White moves first and can destroy the enemy command")


@pytest.mark.parametrize("name", [n for n in map_names("tank-chess")])
def test_no_first_turn_win_on_builtin_maps(name: str) -> None:
    path = map_path(name)
    assert path is not None
    assert not [v for v in RS.check(read_scenario(path)) if v.code == "first-turn-win"]


def test_analyze_json_has_check_and_escape(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    s = make(["W heavy e2 N", "B command e7 S", "W command a1 N"], WALLS, size=(10, 10))
    f = tmp_path / "open.json"
    write_scenario(s, f)
    assert main(["analyze", str(f), "--json"]) == 0
    sides = json.loads(capsys.readouterr().out)["sides"]
    assert sides["south"]["check"] is True and sides["south"]["escape"] is False
    assert sides["north"]["check"] is False
    assert "e2e3Nxe7" in sides["south"]["check_turns"]
