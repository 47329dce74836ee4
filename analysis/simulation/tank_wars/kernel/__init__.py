"""The Tank Wars compiled kernel (numba): one round phase for phase the Python engine's
(``rules.tank_wars.engine``), the search's playout players, and the ``regret`` search.

- ``base.py``: decorators, the ``TANKMAP_KERNEL`` switch, the cache guard and the arrays
  (``tables_of``: ``Tables``; ``position_of``: one ``int64`` array per position).
- ``round.py``: artillery, movement, gunfire, supply and the outcome.
- ``playout.py``: the light (random) and heuristic playout players.
- ``search.py``: decoupled regret matching over a round, dice sampled.
- ``rng.py``: SplitMix64, compiled and in plain Python (the reference's).
"""
