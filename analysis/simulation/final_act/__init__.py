"""Final Act simulation: the driver, the compiled kernel and the agents.

Two engines play Final Act: the reference engine (``rules.final_act.engine``: the rules as
written, every option) and the compiled kernel here (fast, checked against it).

- ``driver.py`` (``FinalActDriver``): plays games for the runner; ``random``/``heuristic``
  on the kernel (records included), every other agent (and every game with an option the
  kernel does not model) one game at a time on the reference engine.
- ``prepared.py`` (``Prepared``): what the agents and the kernel share about a scenario.
- ``results.py`` (``KernelResults``): the kernel's games as arrays, ``GameResult``s on
  demand.
- ``kernel/``: the compiled (numba) rules and ``random``/``heuristic`` agents, whole games
  per call, and the search agent's look-ahead (``kernel/__init__.py`` lists its modules).
- ``agents/``: the agents by name (``agents/__init__.py`` lists them).
"""
