"""Simulated playouts and balance statistics (issue 6).

``simulate(scenario, games, policies, seed, workers, scheduler)`` (``runner.py``) plays seeded
games through the ruleset's driver (``drivers/``) with named policies (``policies/``) on local
processes or a Dask cluster (``executors.py``) and returns one table row per game;
``stats.summary`` turns the table into the ``simulate --json`` document;
``report.write_report`` writes the HTML report, charts and CSV; ``runner.record_game`` replays
one game of a run with its record.

Final Act's ``random``/``heuristic`` policies run vectorised over many games at once
(``drivers/final_act_batch.py`` on ``rules.final_act.engine_batch``); ``random-ref`` /
``heuristic-ref`` are the one-game reference implementations (``policies/final_act.py`` on
``rules.final_act.engine``). Tank Chess: ``random``, ``heuristic``, ``uct[:N]``; Tank Wars:
``random``, ``heuristic``. Restrictions: ``+no-berms`` (Final Act), ``+no-KIND``.
"""

from __future__ import annotations
