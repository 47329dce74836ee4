"""``tankmap play`` on the terminal: a recorded game's lines piped in with ``--as both``
write the very same record; bad lines are refused on one line and the game goes on."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tankmap.cli import main
from tankmap.maps import catalogue

TANK_CHESS = [m.name for m in catalogue() if m.ruleset == "tank-chess"]


def play(monkeypatch: pytest.MonkeyPatch, lines: list[str], *args: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    return main(["play", *args])


def record(tmp_path: Path, name: str, *args: str) -> Path:
    out = tmp_path / "game.json"
    assert main(["simulate", name, "--games", "1", "--record", str(out), *args]) == 0
    return out


def lines_of(capsys: pytest.CaptureFixture[str], path: Path) -> list[str]:
    capsys.readouterr()
    assert main(["replay", str(path), "--lines"]) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("name", TANK_CHESS)
def test_every_built_in_tank_chess_map_replays_through_play(
    name: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "game.json"
    code = main(["simulate", name, "--games", "1", "--seed", "2", "--record", str(out)])
    if code == 2:  # a blank board: nothing to simulate, nothing to play either
        assert "no units" in capsys.readouterr().err
        assert play(monkeypatch, [], name, "--as", "both") == 2
        assert "no units" in capsys.readouterr().err
        return
    assert code == 0
    lines = lines_of(capsys, out)
    again = tmp_path / "again.json"
    assert play(monkeypatch, lines, name, "--as", "both", "--record", str(again)) == 0
    assert again.read_bytes() == out.read_bytes()
    text = capsys.readouterr().out
    assert "refused" not in text and f"record written to {again}" in text


def test_a_bad_line_is_refused_on_one_line_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = record(tmp_path, "tank-chess/basic-16", "--policy", "heuristic", "--seed", "3")
    lines = lines_of(capsys, out)
    fed = [lines[0], "h1h9N", "hello", *lines[1:]]
    again = tmp_path / "again.json"
    assert (
        play(monkeypatch, fed, "tank-chess/basic-16", "--as", "both", "--record", str(again)) == 0
    )
    refusals = [line for line in capsys.readouterr().out.splitlines() if line.startswith("refused")]
    assert refusals == [
        "refused: 'h1h9N': no Black piece on h1 (Black to move)",
        "refused: 'hello': not Tank Chess notation: 'hello' (expected like 'c3c5N', "
        "'c3c5NExd7' or 'h16esc')",
    ]
    assert json.loads(again.read_text()) == json.loads(out.read_text())


@pytest.mark.parametrize(
    ("name", "policy"),
    [
        ("final-act/mirror", "heuristic"),
        ("final-act/extra-forces", "random"),
        ("tank-wars/default", "heuristic"),
        ("tank-wars/flank-artillery", "random"),
    ],
)
def test_simultaneous_games_replay_through_play(
    name: str,
    policy: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = record(tmp_path, name, "--policy", policy, "--seed", "1")
    lines = lines_of(capsys, out)
    again = tmp_path / "again.json"
    assert play(monkeypatch, lines, str(out), "--as", "both", "--record", str(again)) == 0
    assert again.read_bytes() == out.read_bytes()
    assert play(monkeypatch, lines, name, "--as", "both", "--record", str(again), "--force") == 0
    if name.startswith("final-act"):  # Tank Wars dice come from the seed: the record's differ
        assert again.read_bytes() == out.read_bytes()


def test_a_person_plays_an_agent_and_quit_saves_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g.json"
    lines = ["help", "moves", "hint", "C:f3N", "undo", "C:f3Nxf8", "quit", "1:d4N"]
    assert (
        play(monkeypatch, lines, "final-act/mirror", "--agent", "random", "--record", str(out)) == 0
    )
    text = capsys.readouterr().out
    assert "Orders: one item per unit" in text and "C (tank on f2 N): orders" in text
    assert "hint (ksearch:8): " in text and "taken back" in text
    data = json.loads(out.read_text())
    assert len(data["rounds"]) == 1 and data["rounds"][0]["orders"][3] == "f3N"
    assert "record written to" in text and "result: not decided after 1 round" in text
    assert "after 1 rounds" not in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["final-act/mirror", "--as", "white"], "not a side of final-act"),
        (["tank-chess/basic-16", "--agent", "genius"], "unknown Tank Chess policy"),
        (["final-act/mirror", "--agent", "heuristic+no-at"], "takes units out of the game"),
        # budgets are checked as simulate checks them: an empty one, one past the limit
        (["final-act/mirror", "--agent", "search:"], "a whole number from 1 to 500"),
        (["final-act/mirror", "--agent", "ksearch:100000"], "a whole number from 1 to 500"),
        (["tank-wars/default", "--agent", "search:"], "a whole number from 1 to 150"),
        (["tank-wars/default", "--agent", "plan:99999999999"], "from 1 to 16,384"),
        (["tank-chess/basic-16", "--agent", "search:99999999"], "from 1 to 10,000"),
        (["final-act/mirror", "--agent", "random:3"], "'random' takes no budget"),
    ],
)
def test_bad_arguments_are_one_line(
    args: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert play(monkeypatch, [], *args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("damaged", [[], {}, "tankmap-scenario", None])
def test_a_record_with_a_damaged_format_is_named_as_one(
    damaged: object,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # a list as format was a TypeError traceback; a string one was read as a scenario
    path = record(tmp_path, "final-act/mirror", "--policy", "random")
    doc = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**doc, "format": damaged}), encoding="utf-8")
    capsys.readouterr()
    assert play(monkeypatch, [], str(path), "--as", "both") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "$.format: not a game record" in err


def test_black_is_accepted_in_tank_chess(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert play(monkeypatch, [], "tank-chess/basic-16", "--as", "Black", "--agent", "random") == 0
    out = capsys.readouterr().out
    assert "White (random): " in out and "Black to move (turn 2)\n" in out


def test_an_illegal_scenario_is_refused_naming_the_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: "cannot simulate an illegal scenario: ..." without the file's name."""
    from tankmap.maps import map_path

    source = map_path("final-act/mirror")
    assert source is not None
    data = json.loads(Path(source).read_text())
    data["units"] = data["units"][:1] + data["units"]  # the first tank twice
    bad = tmp_path / "ill.json"
    bad.write_text(json.dumps(data))
    assert play(monkeypatch, [], str(bad)) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"tankmap play: error: {bad}: cannot play an illegal scenario: ")
    assert err.endswith(f"; see 'tankmap check {bad}'") and len(err.splitlines()) == 1


def test_the_notation_guide_s_final_act_example_line_is_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/notation.md's "several units in one line" example, played as South on the
    board it names (it once held a lone ``xe8``, which the reader refuses)."""
    guide = Path(__file__).resolve().parents[2] / "docs" / "notation.md"
    example = next(
        line for line in guide.read_text(encoding="utf-8").splitlines()
        if "several units in one line" in line
    )  # fmt: skip
    items, board = example.split("  ")[0], "final-act/mirror"
    assert f"`{board}`" in example
    out = tmp_path / "game.json"
    args = [board, "--as", "south", "--agent", "random", "--record", str(out)]
    assert play(monkeypatch, [items, "quit"], *args) == 0
    text = capsys.readouterr().out
    assert "refused" not in text and "round 1: " in text
    orders = json.loads(out.read_text())["rounds"][0]["orders"]
    assert orders[:4] == ["b3N", "c2N", None, None]  # 1B moved, 1A stays, 1 and C no order


def test_a_resumed_game_does_not_credit_its_recorded_rounds_to_today_s_agent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rounds played before (against ``random``) and shown again when the record is
    resumed against the default agent are said to come from the record, not from it."""
    out = tmp_path / "tw.json"
    args = ["tank-wars/default", "--as", "south", "--agent", "random", "--record", str(out)]
    assert play(monkeypatch, ["-", "quit"], *args) == 0
    assert "North (random): " in capsys.readouterr().out
    assert play(monkeypatch, ["quit"], str(out), "--as", "south") == 0
    text = capsys.readouterr().out
    assert "North (from the record): " in text and "South (from the record): -" in text
    assert "(heuristic)" not in text and "(regret)" not in text


def test_a_refused_one_item_line_is_quoted_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ["C:f30N", "C:f3N 1:zz", "quit"]
    assert play(monkeypatch, lines, "final-act/mirror", "--as", "south") == 0
    text = capsys.readouterr().out
    assert "refused: 'C:f30N': cell 'f30' is off the 12x12 board" in text
    assert "'C:f30N': 'C:f30N'" not in text
    assert "refused: 'C:f3N 1:zz': '1:zz': expected an order" in text  # line, then item
