"""The Tank Chess compiled kernel (numba): ``random``/``heuristic`` games, turn for turn
those of the Python loop, and the ``alphabeta`` agent's search.

- ``games.py``: the entry points (``kernel_games``, ``kernel_turns``).
- ``base.py``: decorators, the ``TANKMAP_KERNEL`` switch, the cache guard and the
  arrays it reads (``pack``: ``Board``, ``Position``).
- ``moves.py``: the move generator (legal turns in ``GameState.legal_turns``' order);
  ``set_order.py``: CPython's set iteration order, which that order follows.
- ``heuristic.py``: the heuristic's ranking; ``threats.py``, ``escape.py``: its exposure
  and escape searches; ``memo.py``, ``positions.py``: what it remembers per position.
- ``rng.py``: numpy's PCG64 and ``SeedSequence``, so each seed draws the same numbers.
- ``alphabeta.py``: the ``alphabeta`` agent's search; ``search_moves.py``: its make (the
  take-back is ``moves.pop``) and turn order; ``transposition.py``: its hash and table;
  ``evaluation.py``: its evaluation (none of them uses the heuristic).
"""
