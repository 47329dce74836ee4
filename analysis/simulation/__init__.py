"""Simulated playouts and balance statistics (issue 6).

``simulate(scenario, games, policies, seed, workers, scheduler)`` (``runner.py``) plays seeded
games through the ruleset's driver with named agents on local processes or a Dask cluster
(``executors.py``) and returns one table row per game; ``stats.summary`` turns the table
into the ``simulate --json`` document; ``report.write_report`` writes the HTML report,
charts and CSV; ``runner.record_game`` replays one game of a run with its record.

Layout: one package per game — ``final_act/``, ``tank_chess/``, ``tank_wars/`` — each with
its driver (``<game>/driver.py``, registered in ``games._BUILTIN_DRIVERS``), its agents
(``<game>/agents/``, one module per agent; ``agents/__init__.py`` lists them) and, for
Final Act and Tank Chess, its compiled kernel (``<game>/kernel/``, numba). The game
packages do not import each other (an import-linter contract). At this level, shared by
all games: the runner, executors, batching, the driver protocol and registry
(``games.py``), the agents' descriptions (``agent_info.py``), counter-based noise
(``noise.py``), lazily built results (``lazy_results.py``), the kernels' cache guard
(``kernel_cache.py``), statistics and the report. docs/architecture.md draws the picture.

Agent names: Final Act ``random``, ``heuristic``, ``search[:N]`` and the reference
``random-ref``/``heuristic-ref``; Tank Chess ``random``, ``heuristic``, ``uct[:N]``,
``search[:N]``; Tank Wars ``random``, ``heuristic``, ``search[:N]``, ``plan[:N]``,
``regret[:N]``, ``regret-heuristic[:N]``. Restrictions:
``+no-berms`` (Final Act), ``+no-KIND``.
"""

from __future__ import annotations
