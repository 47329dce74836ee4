"""A game's time in words (``rules.steps``), the one place every text asks: Tank Chess is
played in alternating turns, Final Act and Tank Wars in rounds both sides decide at once
(docs/rules.md)."""

from __future__ import annotations

from tankmap.rules.steps import step_word, steps_text


def test_tank_chess_counts_turns_and_the_round_games_rounds() -> None:
    assert step_word("tank-chess") == "turn"
    assert step_word("final-act") == step_word("tank-wars") == "round"


def test_one_step_is_singular() -> None:
    assert steps_text(1, "final-act") == "1 round"
    assert steps_text(0, "tank-wars") == "0 rounds"
    assert steps_text(169, "tank-chess") == "169 turns"
