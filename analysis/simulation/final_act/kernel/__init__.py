"""The Final Act compiled kernel (numba): whole ``random``/``heuristic`` games per call.

- ``games.py``: the entry point (``play_many``, records included; ``warm``) and how the
  kernel is checked against the reference engine.
- ``base.py``: decorators, the ``TANKMAP_KERNEL`` switch, the cache guard, the
  counter-based noise and numpy-order sums.
- ``tables.py``: the per-scenario tables built from ``Prepared``; ``packed.py``: the same
  as the compiled code reads them (``Tables``).
- ``policies.py``: the start-of-round view and the ``random``/``heuristic`` decisions.
- ``rules.py``: a round's rules (conflicts, moves, hits, the end); ``repair.py``: the
  Extra Forces R/M repairs (declarations and bookkeeping).
- ``play.py``: whole games, and the record buffer; ``round.py``: one round, for
  ``lookahead.py`` (the search agent's look-ahead); ``plan_search.py``: the ``ksearch``
  agent's whole decision.
- ``orders.py``: rounds on given orders (the rules alone, checked against the reference
  engine) and a reference-engine position as the kernel's arrays.
"""
