"""The Tank Wars compiled kernel (numba): one round phase for phase the Python engine's
(``rules.tank_wars.engine``), the searches' playout players, the ``regret`` search and the
``plan`` search.

- ``base.py``: decorators, the ``TANKMAP_KERNEL`` switch, the cache guard and the arrays
  (``tables_of``: ``Tables``; ``position_of``: one ``int64`` array per position).
- ``round.py``: artillery, movement, gunfire, supply and the outcome.
- ``playout.py``: the light (random) and heuristic playout players.
- ``search.py``: decoupled regret matching over a round, dice sampled.
- ``plan.py``: Monte Carlo planning of one side's orders on sampled futures.
- ``rng.py``: SplitMix64, compiled and in plain Python (the reference's).
"""
