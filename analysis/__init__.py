"""Analysis of scenarios: movement graphs, reachability, coverage, lanes, playouts, reports.

Uses networkx, numpy, pandas and matplotlib; never Qt.
"""
