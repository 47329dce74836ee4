"""Simulated playouts and balance statistics (issue 6).

``simulate(scenario, games, policies, seed, workers, scheduler)`` (``runner.py``) plays seeded
games through the ruleset's driver (``drivers/``) with named policies (``policies/``) on local
processes or a Dask cluster (``executors.py``); ``stats.summary`` turns the table into the
``simulate --json`` document; ``report.write_report`` writes the HTML report and CSV.
"""

from __future__ import annotations
