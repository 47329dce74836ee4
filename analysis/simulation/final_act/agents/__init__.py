"""The Final Act agents (``agents/factory.make_policy`` builds one by name).

- ``random``, ``heuristic``: ``reference.py`` describes and plays them one game at a time
  (``RandomPolicy``, ``HeuristicPolicy``; the names ``random-ref``/``heuristic-ref``
  always play these); the driver plays the plain names on the compiled kernel
  (``kernel/policies.py``, the same decisions), or on these when the game has an option
  only the reference engine models. ``advanced.py``: how they use the advanced rules
  and action tokens (docs/rules.md §1.8).
- ``search[:N]``: ``search.py``, a simultaneous-move search over the heuristic's plan,
  scoring candidates on the kernel's look-ahead (``kernel/lookahead.py``).

A new agent gets its own module here and a name in ``factory.make_policy`` and in
``driver.BASES``; ``agent_info.py`` (top level) holds the descriptions users read.
"""
