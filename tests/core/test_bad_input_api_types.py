"""Bad arguments to the Python API found by fuzzing (``docs/api.md``): each is a
``TankmapError`` naming the function, the argument and the value (they were
``AttributeError``, ``TypeError``, ``ValueError`` or ``KeyError`` tracebacks, or, for
``map_names``, a quiet empty list); good arguments behave as before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import tankmap
from tankmap.rules.errors import (
    ArgumentError,
    OptionError,
    ScenarioFormatError,
    TankmapError,
    UnknownRulesetError,
)
from tankmap.rules.fileformat import loads_scenario, scenario_from_json, scenario_to_json
from tankmap.rules.registry import get_ruleset

MIRROR = tankmap.load("final-act/mirror")


@pytest.fixture(scope="module")
def result() -> Any:
    return tankmap.analyse(MIRROR)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: tankmap.check("x"), "tankmap.check: scenario must be a Scenario"),
        (lambda: tankmap.is_legal(None), "tankmap.is_legal: scenario must be a Scenario"),
        (lambda: tankmap.moves(3), "tankmap.moves: scenario must be a Scenario"),
        (lambda: tankmap.analyse({}), "tankmap.analyse: scenario must be a Scenario"),
        (lambda: tankmap.save("x", "out.json"), "tankmap.save: scenario must be a Scenario"),
        (lambda: tankmap.save(MIRROR, None), "tankmap.save: path must be a file name"),
        (lambda: tankmap.load(None), "tankmap.load: path_or_name must be a file name"),
        (lambda: tankmap.figures("x"), "tankmap.figures: result must be what tankmap.analyse"),
        (lambda: tankmap.balance("x"), "tankmap.balance: games must be the table"),
        (lambda: tankmap.simulate("x", games=1), "tankmap.simulate: scenario must be"),
        (lambda: tankmap.simulate(MIRROR, seed=-1), "seed must be a whole number of at least 0"),
        (lambda: tankmap.simulate(MIRROR, seed=1.5), "seed must be a whole number, not 1.5"),
        (lambda: tankmap.simulate(MIRROR, games="5"), "games must be a whole number, not '5'"),
        (lambda: tankmap.simulate(MIRROR, games=True), "games must be a whole number, not True"),
        (lambda: tankmap.simulate(MIRROR, games=0), "games must be a whole number of at least 1"),
        (lambda: tankmap.simulate(MIRROR, workers="2"), "workers must be a whole number"),
        (lambda: tankmap.simulate(MIRROR, workers=0), "workers must be a whole number of at"),
        (lambda: tankmap.simulate(MIRROR, policies=5), "policies must be a policy name or two"),
        (
            lambda: tankmap.simulate(MIRROR, policies={"south": "random"}),
            "policies must be a policy name or two",
        ),
        (lambda: tankmap.simulate(MIRROR, policies=("a", 1)), "policies must be"),
    ],
)
def test_a_wrong_argument_is_an_argument_error(call: Callable[[], Any], words: str) -> None:
    with pytest.raises(ArgumentError) as err:
        call()
    assert words in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("frame", [tankmap.reach_frame, tankmap.coverage_frame])
@pytest.mark.parametrize("side", ["east", "South", None, 0])
def test_an_unknown_side_is_named(frame: Any, side: Any, result: Any) -> None:
    with pytest.raises(ArgumentError) as err:
        frame(result, side)
    text = str(err.value)
    assert text.startswith(f"tankmap.{frame.__name__}: side must be 'south' or 'north', not ")
    assert repr(side) in text


def test_a_frame_of_something_else_than_an_analysis_is_named() -> None:
    with pytest.raises(ArgumentError, match=r"^tankmap.reach_frame: result must be"):
        tankmap.reach_frame("x", "south")


def test_balance_of_another_table_names_its_columns() -> None:
    import pandas as pd

    with pytest.raises(ArgumentError, match=r"with a 'winner' column \(its columns: 'a'\)$"):
        tankmap.balance(pd.DataFrame({"a": [1]}))


def test_good_arguments_work(result: Any) -> None:
    # (numpy's whole numbers too: a numpy seed made Final Act's simulation overflow)
    assert tankmap.reach_frame(result, "south").shape == (12, 12)
    assert tankmap.coverage_frame(result, tankmap.rules.Side.NORTH).shape == (12, 12)
    games = tankmap.simulate(MIRROR, games=np.int64(3), seed=np.int64(1), policies="random")
    again = tankmap.simulate(MIRROR, games=3, seed=1, policies=("random", "random"))
    by_side = tankmap.simulate(
        MIRROR, games=3, seed=1, policies={"south": "random", "north": "random"}
    )
    assert games.equals(again) and games.equals(by_side)
    assert tankmap.balance(games)["games"] == 3


def test_loads_scenario_of_something_else_than_text() -> None:
    with pytest.raises(ScenarioFormatError) as err:
        loads_scenario(None)  # type: ignore[arg-type]
    assert "must be a str or bytes of JSON, not NoneType" in str(err.value)
    with pytest.raises(ScenarioFormatError, match=r"scenario_from_json takes parsed JSON"):
        loads_scenario({"ruleset": "final-act"})  # type: ignore[arg-type]


def test_an_option_key_that_is_not_text_is_named_with_its_path() -> None:
    data = scenario_to_json(MIRROR)
    data["options"] = {1: 2}
    with pytest.raises(ScenarioFormatError) as err:
        scenario_from_json(data, source="board.json")
    assert str(err.value) == "board.json: $.options: a key must be a string (got 1)"
    with pytest.raises(OptionError, match=r"option names are text, not 1$"):
        get_ruleset("final-act").option_spec(1)  # type: ignore[arg-type]


def test_options_set_in_python_are_checked_by_the_api() -> None:
    # Scenario.with_options is a plain data method: the API functions check what they get
    # (simulate played max_rounds="x" into a ValueError)
    with pytest.raises(OptionError, match=r"has no option 'nonsense'"):
        tankmap.check(MIRROR.with_options(nonsense=1))
    with pytest.raises(OptionError, match=r"option 'max_rounds' takes a whole-number value"):
        tankmap.simulate(MIRROR.with_options(max_rounds="x"), games=2)
    assert tankmap.check(MIRROR.with_options(max_rounds=5)) == tankmap.check(MIRROR)


def test_map_names_refuses_an_unknown_game_and_lists_the_games() -> None:
    with pytest.raises(UnknownRulesetError) as err:
        tankmap.map_names("bogus")
    text = str(err.value)
    assert "'bogus'" in text and "final-act, tank-chess, tank-wars" in text
    with pytest.raises(UnknownRulesetError):
        tankmap.map_names("../maps")
    assert tankmap.map_names("tank-wars") == ["tank-wars/default", "tank-wars/flank-artillery"]
    assert len(tankmap.map_names()) > 3


def test_every_refusal_is_a_tankmap_error() -> None:
    assert issubclass(ArgumentError, TankmapError)
