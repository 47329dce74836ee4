"""Final Act simulation: the driver, the compiled kernel and the agents.

- ``driver.py`` (``FinalActDriver``): plays games for the runner; ``random``/``heuristic``
  on the kernel, every other agent (and every game with an option the kernel does not
  model) one game at a time on the reference engine (``rules.final_act.engine``).
- ``prepared.py`` (``Prepared``): what the agents and the kernel share about a scenario.
- ``results.py`` (``KernelResults``): the kernel's games as arrays, ``GameResult``s on
  demand.
- ``kernel/``: the compiled (numba) rules and ``random``/``heuristic`` agents, whole games
  per call, and the search agent's look-ahead (``kernel/__init__.py`` lists its modules).
- ``agents/``: the agents by name (``agents/__init__.py`` lists them).
- ``batch/``: the numpy batch engine, many games per array operation (records, and runs
  below ``kernel.games.MIN_GAMES`` games).
"""
