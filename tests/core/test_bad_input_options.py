"""Bad option values found by fuzzing: ``--option`` takes a whole number only as plain ASCII
digits (``int`` also takes ``1_0``, ``+5``, `` 5`` and other scripts' digits), messages quote
values in JSON's spelling (``null``, ``true``), and the readers of game records quote a JSON
``null`` (their ``fail`` took ``None`` for "no value")."""

from __future__ import annotations

from typing import Any

import pytest

import tankmap
from tankmap.analysis.simulation.tank_wars.driver import TankWarsRecord
from tankmap.cli import main
from tankmap.rules.errors import OptionError, ScenarioFormatError, _as_json
from tankmap.rules.fileformat import scenario_from_json, scenario_to_json
from tankmap.rules.registry import get_ruleset
from tankmap.rules.tank_chess.record import GameRecord

FINAL_ACT = get_ruleset("final-act")
TANK_CHESS = get_ruleset("tank-chess")


@pytest.mark.parametrize("text", ["1_0", "+5", " 5", "5 ", "5\n", "٥", "５", "0x10", "", "-"])
def test_a_whole_number_option_takes_plain_ascii_digits_only(text: str) -> None:
    with pytest.raises(OptionError) as err:
        FINAL_ACT.option_spec("max_rounds").parse(text)
    assert str(err.value) == f"option 'max_rounds' takes a whole-number value, not {text!r}"


@pytest.mark.parametrize("text", ["-5", "-0"])
def test_a_minus_sign_is_refused_where_the_option_takes_no_negative_value(text: str) -> None:
    with pytest.raises(OptionError, match=rf"between 1 and 100000, not {text}$"):
        FINAL_ACT.option_spec("max_rounds").parse(text)


def test_good_whole_numbers_still_parse() -> None:
    assert FINAL_ACT.option_spec("max_rounds").parse("50") == 50
    assert FINAL_ACT.option_spec("max_rounds").parse("007") == 7
    # Tank Chess's max_turns takes 0 or less for "no limit": its minus sign stays
    assert TANK_CHESS.option_spec("max_turns").parse("-1") == -1
    assert FINAL_ACT.option_spec("wrecks").parse("yes") is True
    assert FINAL_ACT.option_spec("tank_cone").parse("wide-4") == "wide-4"


def test_a_very_long_number_is_out_of_range_and_cut() -> None:
    with pytest.raises(OptionError, match=r"between 1 and 100000, not '9+\.\.\.$"):
        FINAL_ACT.option_spec("max_rounds").parse("9" * 5000)


def test_the_command_line_refuses_a_lenient_number(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "final-act/mirror", "--option", "max_rounds=1_0"])
    assert code != 0
    err = capsys.readouterr().err
    assert "takes a whole-number value, not '1_0'" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("name", "value", "shown"),
    [
        ("max_rounds", None, "not null"),
        ("max_rounds", True, "not true"),
        ("extra_forces", None, "not null"),
        ("tank_cone", False, "not false"),
        ("max_rounds", [None, True], "not [null, true]"),
    ],
)
def test_option_messages_spell_values_as_json(name: str, value: Any, shown: str) -> None:
    with pytest.raises(OptionError) as err:
        FINAL_ACT.option_spec(name).validate(value)
    text = str(err.value)
    assert text.endswith(shown) and "None" not in text and "True" not in text


def test_a_null_option_in_a_file_is_quoted_once_as_null() -> None:
    data = scenario_to_json(tankmap.load("final-act/mirror"))
    data["options"] = {"max_rounds": None}
    with pytest.raises(ScenarioFormatError) as err:
        scenario_from_json(data, source="board.json")
    assert str(err.value) == (
        "board.json: $.options.max_rounds: option 'max_rounds' takes a whole-number value, not null"
    )


def test_as_json_spells_nested_values_and_stays_short() -> None:
    assert _as_json([1, None, {"a": False}]) == "[1, null, {'a': false}]"
    assert _as_json("x") == "'x'" and _as_json(2.5) == "2.5"
    assert len(_as_json([None] * 100_000)) == 60


def _chess_record(**changes: Any) -> dict[str, Any]:
    scenario = scenario_to_json(tankmap.load("tank-chess/basic-16"))
    doc: dict[str, Any] = {"format": "tankmap-game", "version": 1, "scenario": scenario}
    doc.update(changes)
    return doc


def _wars_record(**changes: Any) -> dict[str, Any]:
    scenario = scenario_to_json(tankmap.load("tank-wars/default"))
    doc: dict[str, Any] = {
        "format": "tankmap-tank-wars-game",
        "version": 1,
        "scenario": scenario,
        "dice_seed": 1,
        "rounds": [],
    }
    doc.update(changes)
    return doc


@pytest.mark.parametrize(
    ("read", "doc", "where"),
    [
        (GameRecord.from_json, _chess_record(turns=None), "$.turns"),
        (GameRecord.from_json, _chess_record(format=None), "$.format"),
        (GameRecord.from_json, _chess_record(version=None), "$.version"),
        (TankWarsRecord.from_json, _wars_record(dice_seed=None), "$.dice_seed"),
        (TankWarsRecord.from_json, _wars_record(rounds=None), "$.rounds"),
        (TankWarsRecord.from_json, _wars_record(version=None), "$.version"),
        (
            TankWarsRecord.from_json,
            _wars_record(result={"winner": None, "end": None, "rounds": None}),
            "$.result.rounds",
        ),
    ],
)
def test_record_readers_quote_a_null(read: Any, doc: dict[str, Any], where: str) -> None:
    with pytest.raises(ScenarioFormatError) as err:
        read(doc, "game.json")
    text = str(err.value)
    assert text.startswith(f"game.json: {where}: ") and text.endswith(" (got null)")


@pytest.mark.parametrize(
    ("read", "doc", "where"),
    [
        (GameRecord.from_json, _chess_record(format=None), "$.format"),
        (TankWarsRecord.from_json, _wars_record(dice_seed=None), "$.dice_seed"),
        (TankWarsRecord.from_json, _wars_record(rounds=None), "$.rounds"),
    ],
)
def test_record_readers_quote_no_value_for_a_missing_key(
    read: Any, doc: dict[str, Any], where: str
) -> None:
    del doc[where[2:]]
    with pytest.raises(ScenarioFormatError) as err:
        read(doc, "game.json")
    assert str(err.value).startswith(f"game.json: {where}: ") and "(got" not in str(err.value)


def test_quoting_shares_the_readers_rule() -> None:
    quoted = ScenarioFormatError.quoting("must be a list", source="f.json", path="$.x", value=None)
    assert str(quoted) == "f.json: $.x: must be a list (got null)"
    plain = ScenarioFormatError.quoting("is required", source="f.json", path="$.x")
    assert str(plain) == "f.json: $.x: is required"
    assert str(ScenarioFormatError.quoting("bad", value=[None])) == "<string>: $: bad (got [null])"
