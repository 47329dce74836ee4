"""Analysis of scenarios: movement graphs, reachability, coverage, lanes, playouts, reports.

Uses networkx, numpy, pandas and matplotlib; never Qt. Every game rule comes from the
ruleset's own API (``moves``, ``fire_zone``, ``setup_cells``, ``goal_cells``, ``unit_stats``,
options); nothing here repeats a rule.

Spatial analysis (terrain-only movement, docs/cli-json.md ``analyze``):

* ``analysis.graphs``   movement tables / networkx graphs over (cell, facing), cached per terrain
* ``analysis.reach``    turns to goal, reach maps, shortest routes (numpy BFS and networkx)
* ``analysis.coverage`` fire coverage, contested and safe cells, Tank Chess kill coverage,
  Tank Wars artillery hit probability
* ``analysis.lanes``    Menger lanes, choke point (minimum vertex cut), safest route
* ``analysis.summary``  ``analyse(scenario)`` and the ``tankmap analyze --json`` document
* ``analysis.balance``  the per-side balance DataFrame
* ``analysis.board_figure``, ``analysis.figures``  matplotlib figures
* ``analysis.report``   report.html with PNGs and CSVs, index page
* ``analysis.live``     ``live_overlays(scenario)`` for the editor, after each edit

Playouts and balance statistics: ``analysis.simulation``.
"""
