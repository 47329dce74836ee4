"""Final Act (Tyto Games) with the Extra Forces expansion (docs/rules.md §1).

Importing this package registers ``FinalAct()`` as ``"final-act"``. The fast movement/fire
core for engines and analysis is ``rules.final_act.tables`` (``tables_of(scenario)``).
"""

from __future__ import annotations

from tankmap.rules.final_act.ruleset import FinalAct
from tankmap.rules.registry import register

FINAL_ACT = register(FinalAct())

__all__ = ["FINAL_ACT", "FinalAct"]
