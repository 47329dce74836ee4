"""An unknown option name gets one short line: the closest names and where the list is
(the full list of Final Act's 33 options no longer fits a one-line error)."""

from __future__ import annotations

import pytest

from tankmap.rules.errors import OptionError
from tankmap.rules.registry import get_ruleset


def test_a_misspelt_option_is_answered_with_the_closest_names() -> None:
    with pytest.raises(OptionError) as err:
        get_ruleset("final-act").option_spec("wreck")
    text = str(err.value)
    assert "'wreck'" in text and "did you mean wrecks?" in text
    assert "'tankmap rulesets' lists its" in text and "\n" not in text


def test_a_huge_unknown_name_is_cut_and_the_line_stays_short() -> None:
    with pytest.raises(OptionError) as err:
        get_ruleset("final-act").option_spec("x" * 5000)
    text = str(err.value)
    assert len(text) < 200 and "did you mean" not in text
