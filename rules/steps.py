"""How texts name a game's time, the one place every message, report and window asks:
Tank Chess alternates *turns*, Final Act and Tank Wars play *rounds* (both sides decide
at once).

>>> step_word("tank-chess"), step_word("final-act")
('turn', 'round')
>>> steps_text(1, "tank-wars"), steps_text(11, "final-act")
('1 round', '11 rounds')
"""

from __future__ import annotations


def step_word(ruleset: str) -> str:
    """``"turn"`` in Tank Chess, ``"round"`` in the round-based games."""
    return "turn" if ruleset == "tank-chess" else "round"


def steps_text(n: int, ruleset: str) -> str:
    """``n`` steps of ``ruleset`` in words: ``"1 round"``, ``"169 turns"``."""
    word = step_word(ruleset)
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
