"""The ``duct`` agents on the Final Act kernel (the agents' policy for the one-game driver:
``agents/duct.py``; the plain-Python reference of the search: ``agents/duct_ref.py``).

- ``params.py``: the search's numbers (shared with the reference);
- ``players.py``: the agents' names and budgets, and how a side plays a kernel game;
- ``tables.py``: the kernel's tables (the search's one import of them) and its own lookups;
- ``playout.py``: the light playout policy and the value of a position;
- ``search.py``: decoupled UCT over every unit's orders and shells, both sides;
- ``games.py``: whole games with ``duct`` players, records included.

The compiled modules keep their numba cache apart from the kernel's, guarded over both
packages' sources (``playout.py`` calls ``kernel_cache.guard_cache``): a change here
recompiles only the search. Importing this package, ``params`` or ``players`` loads no
compiled code.
"""
