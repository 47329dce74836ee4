"""Turn notation (docs/rules.md §2.4) and saved games."""

from __future__ import annotations

import json

import pytest
from tc_support import MAPS, make

from tankmap.rules.errors import IllegalMoveError, ScenarioFormatError, TankmapError
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.tank_chess.notation import NotationError, format_turn, parse_turn
from tankmap.rules.tank_chess.record import GameRecord
from tankmap.rules.tank_chess.state import ESCAPE, NO_TARGET, initial_state


def basic():  # type: ignore[no-untyped-def]
    return initial_state(read_scenario(str(MAPS / "basic-16.json")))


def test_rules_examples_parse() -> None:
    # The docs/rules.md examples' shapes on a position of our own (in the basic setup h3 is taken).
    st = initial_state(make(["W command h1 N", "B light h9 E"]))
    assert parse_turn(st, "h1h3N") == (0, st.scenario.board.parse_cell("h3"), 0, NO_TARGET)
    assert parse_turn(st, "H1H3n") == parse_turn(st, "h1h3")  # case-insensitive, facing kept
    t = parse_turn(st, "h1h3NExh9")  # from h3 facing NE, the N ray h4..h8 empty, h9 enemy
    assert t == (0, st.scenario.board.parse_cell("h3"), 1, 1)
    assert format_turn(st, t) == "h1h3NExh9"


def test_escape_notation() -> None:
    st = initial_state(make(["W command h16 N"]))
    assert parse_turn(st, "h16esc") == (0, ESCAPE, -1, NO_TARGET)
    assert parse_turn(st, "H16Escape") == (0, ESCAPE, -1, NO_TARGET)
    assert format_turn(st, (0, ESCAPE, -1, NO_TARGET)) == "h16esc"


def test_round_trip_every_turn_of_the_basic_setup() -> None:
    st = basic()
    turns = st.legal_turns()
    texts = [format_turn(st, t) for t in turns]
    assert len(set(texts)) == len(texts)
    assert [parse_turn(st, x) for x in texts] == turns


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("", NotationError, "not Tank Chess notation"),
        ("h1", NotationError, "not Tank Chess notation"),
        ("h1h3Q", NotationError, "not Tank Chess notation"),
        ("h1h3Nx", NotationError, "not Tank Chess notation"),
        ("h1z99N", NotationError, "off the 16x16 board"),
        ("a1a2N", IllegalMoveError, "no White piece on a1"),
        ("i16i15S", IllegalMoveError, "no White piece on i16"),
        ("c1c4N", IllegalMoveError, "cannot end its move on c4 facing N"),
        ("c1c2Nxc9", IllegalMoveError, "cannot shoot at c9"),
        ("h1esc", IllegalMoveError, "cannot escape"),
    ],
)
def test_bad_notation_errors(text: str, error: type[Exception], words: str) -> None:
    with pytest.raises(error) as info:
        parse_turn(basic(), text)
    assert words in str(info.value)
    assert isinstance(info.value, TankmapError) and isinstance(info.value, ValueError)


def test_game_record_round_trip(tmp_path: pytest.TempPathFactory) -> None:
    st = basic()
    for text in ["c3c5N", "d14d11S", "h3h4N", "n14n12S"]:
        st.push(parse_turn(st, text))
    record = GameRecord.of(st)
    assert record.turns == ["c3c5N", "d14d11S", "h3h4N", "n14n12S"]
    path = f"{tmp_path}/game.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded.turns == record.turns and loaded.scenario == st.scenario
    assert loaded.replay() == st


def test_game_record_with_result_and_errors(tmp_path: pytest.TempPathFactory) -> None:
    st = initial_state(make(["W command h16 N", "B command a1 S"]))
    st.push(parse_turn(st, "h16esc"))
    doc = GameRecord.of(st).to_json()
    assert doc["result"] == {"winner": "south", "reason": "escape"}
    assert GameRecord.from_json(doc).replay().winner == 0
    bad = dict(doc, turns=["h16h15N"])
    with pytest.raises(IllegalMoveError, match="the record says"):
        GameRecord.from_json(bad).replay()  # legal move, but the stored result disagrees
    with pytest.raises(IllegalMoveError, match="turn 1 \\('a1a2S'\\)"):
        GameRecord.from_json(dict(doc, turns=["a1a2S"])).replay()
    with pytest.raises(ScenarioFormatError, match="turns"):
        GameRecord.from_json(dict(doc, turns="h16esc"))
    with pytest.raises(ScenarioFormatError, match=r"\$\.version: .*\(got true\)"):
        GameRecord.from_json(dict(doc, version=True))  # JSON true is not the number 1
    path = f"{tmp_path}/x.json"
    with open(path, "w") as fh:
        json.dump({"format": "nope"}, fh)
    with pytest.raises(ScenarioFormatError, match="format"):
        GameRecord.load(path)
